import Dispatch
import IMWireCore
import IMWireIO

// The two passes of `CaptureSharder`: what reads a capture's items and what uses them.

/// The batches of `CaptureSharder.read` on their way from the reading thread to the consumers'.
/// The reading thread holds each batch until every consumer is done with it, and drops it itself
/// when its slot is reused: a batch dropped on a consumer's thread gave its packets' memory back
/// to the reader's malloc arena under that arena's lock, which made two threads slower than one.
final class BatchRing: @unchecked Sendable {
    /// Batches a lane may be given before it has finished the first of them.
    static let ahead = 3
    private static let size = ahead + 1
    /// Written by the reading thread only; a slot is read by the consumers between the dispatch
    /// that hands it to them and their lane's signal.
    private let slots = UnsafeMutablePointer<[PacketItem]>.allocate(capacity: size)

    init() { slots.initialize(repeating: [], count: Self.size) }

    /// A lane's free places: `ahead` batches given and not finished.
    static func lane() -> DispatchSemaphore { DispatchSemaphore(value: ahead) }

    subscript(sequence: Int) -> [PacketItem] {
        get { slots[sequence % Self.size] }
        set { slots[sequence % Self.size] = newValue }
    }

    /// Gives the batch `sequence` to `consumer`, holding it no longer than the call.
    func take(_ sequence: Int, into consumer: ItemConsumer) { consumer.take(self[sequence]) }

    func release() {
        slots.deinitialize(count: Self.size)
        slots.deallocate()
    }
}

/// What a pass over the capture hands its items to.
protocol ItemConsumer: AnyObject, Sendable {
    /// The next item of the capture, in order; called from one thread at a time.
    func take(_ item: PacketItem)
}

extension ItemConsumer {
    func take(_ batch: [PacketItem]) {
        for item in batch { take(item) }
    }
}

/// Pass 1: each client unit's bytes in the order units first appear, the units joined by the
/// socket.io sessions they share, and what the file itself says (its problems and secrets, and
/// with `tracksConnections` the TCP connections open at its ends).
final class UnitPlanner: ItemConsumer, @unchecked Sendable {
    private let tracksConnections: Bool
    var unitIndex = AddressIndex()
    var unitBytes: [Int] = []
    var units = UnitSets()
    private var sidUnits: [[UInt8]: Int] = [:]
    var residueBytes = 0
    /// Secrets go to every shard: a capture that carries any makes every shard owner-only.
    var carriesSecrets = false
    var fileProblems: [Finding] = []
    // With tracksConnections: the connections open now, those seen first without a SYN, and
    // those ended (so that the last ACKs after a FIN do not open them again).
    var open: Set<CaptureSharder.TCPConnectionKey> = []
    var startedOpen: Set<CaptureSharder.TCPConnectionKey> = []
    private var ended: Set<CaptureSharder.TCPConnectionKey> = []

    init(tracksConnections: Bool) { self.tracksConnections = tracksConnections }

    /// Lets the sids go once the units are joined: pass 2 does not need them.
    func forgetSessions() { sidUnits = [:] }

    func take(_ item: PacketItem) {
        switch item {
        case .problem(let finding): fileProblems.append(finding)
        case .secrets(let secrets):
            residueBytes += secrets.data.count + 32
            carriesSecrets = true
        case .packet(let packet): take(packet)
        }
    }

    private func take(_ packet: CapturedPacket) {
        let size = CaptureSharder.blockSize(packet)
        if tracksConnections, let flow = CaptureSharder.connection(of: packet) {
            if flow.opens {
                open.insert(flow.key)
                ended.remove(flow.key)
            } else if !open.contains(flow.key), !ended.contains(flow.key) {
                startedOpen.insert(flow.key)
                open.insert(flow.key)
            }
            if flow.ends, open.remove(flow.key) != nil { ended.insert(flow.key) }
        }
        guard let segment = CaptureSharder.segment(of: packet) else {
            residueBytes += size
            return
        }
        let (index, added) = unitIndex.index(of: segment.client)
        if added {
            unitBytes.append(size)
            units.add()
        } else {
            unitBytes[index] += size
        }
        if !segment.payload.isEmpty, let sid = CaptureSharder.sid(in: segment.payload, fromClient: segment.fromClient) {
            if let other = sidUnits[sid] { units.join(other, index) } else { sidUnits[sid] = index }
        }
    }
}

/// Pass 2: writes the shards `members` (indices congruent modulo `groups`); `shardOf` places a
/// packet and says whether it opens a connection (a client SYN), read from one parse of its
/// headers. `ownerOnly`: the shards get secrets (`options.keyLog`, or the capture's own
/// Decryption Secrets Blocks), and are created with mode 0600.
final class GroupWriter: ItemConsumer, @unchecked Sendable {
    private let writers: [ShardWriter]
    private let groups: Int
    private let group: Int
    private let shardOf: @Sendable (CapturedPacket) -> (shard: Int, opens: Bool)

    init(
        _ members: [CaptureSharder.Shard], of groups: Int, options: CaptureSharder.Options, ownerOnly: Bool,
        shardOf: @escaping @Sendable (CapturedPacket) -> (shard: Int, opens: Bool)
    ) throws(IMWireError) {
        var writers: [ShardWriter] = []
        for shard in members {
            writers.append(try ShardWriter(shard, ownerOnly: ownerOnly))
            if let keyLog = options.keyLog {
                writers[writers.count - 1].write(
                    DecryptionSecrets(type: DecryptionSecrets.tlsKeyLog, data: keyLog, fileOffset: 0))
            }
        }
        self.writers = writers
        self.groups = groups
        group = members[0].identity.index % groups
        self.shardOf = shardOf
    }

    func take(_ item: PacketItem) {
        switch item {
        case .packet(let packet):
            let (shard, opens) = shardOf(packet)
            guard shard % groups == group else { return }
            writers[shard / groups].write(packet, opens: opens)
        case .secrets(let secrets):
            // Secrets go to every shard, where they were: any connection may need them.
            for writer in writers { writer.write(secrets) }
        case .problem: return
        }
    }

    func close() throws(IMWireError) -> [CaptureSharder.Shard] {
        var done: [CaptureSharder.Shard] = []
        for writer in writers { done.append(try writer.close()) }
        return done
    }
}

/// One shard being written: pcapng blocks gathered and written out a megabyte at a time.
final class ShardWriter {
    var shard: CaptureSharder.Shard
    private var writer: PcapngWriter
    private let file: OutputFile

    /// `ownerOnly`: the shard gets a key log or other secrets (mode 0600).
    init(_ shard: CaptureSharder.Shard, ownerOnly: Bool) throws(IMWireError) {
        self.shard = shard
        file = try OutputFile(path: shard.path, ownerOnly: ownerOnly)
        writer = PcapngWriter(application: "imwire shard", comment: shard.identity.comment)
    }

    /// `opens`: the packet is a client SYN, counted as a connection.
    func write(_ packet: CapturedPacket, opens: Bool) {
        writer.packet(
            packet.data, linkType: packet.linkType, time: packet.time, originalLength: packet.originalLength,
            inbound: packet.inbound,
            comments: packet.comments,
            origin: PacketOrigin(number: packet.number, fileOffset: packet.fileOffset, dataOffset: packet.dataOffset))
        shard.packets += 1
        if opens { shard.connections += 1 }
        shard.firstTime = min(shard.firstTime ?? packet.time, packet.time)
        shard.lastTime = max(shard.lastTime ?? packet.time, packet.time)
        if writer.bytes.count >= 1 << 20 { flush() }
    }

    func write(_ secrets: DecryptionSecrets) {
        writer.secrets(secrets.data, type: secrets.type)
    }

    private func flush() {
        let bytes = writer.takeBytes()
        shard.bytes += bytes.count
        file.write(bytes)
    }

    func close() throws(IMWireError) -> CaptureSharder.Shard {
        flush()
        try file.close()
        return shard
    }
}
