import IMWireCore
import IMWireIO

// The two passes of `CaptureSharder`: what takes a capture's items in each.

/// What a pass over the capture hands its items to, in order, from one thread at a time.
protocol ItemConsumer: AnyObject, Sendable {
    /// Whether to read the packet numbered `ordinal` (from 0; asked of every packet in order).
    func keeps(_ ordinal: Int) -> Bool
    /// The next packet kept, good only during the call.
    func take(_ packet: PacketView)
    /// The next item that is not a packet: secrets or a problem.
    func take(other item: PacketItem)
}

/// Pass 1: each client unit's bytes in the order units first appear, the units joined by the
/// socket.io sessions they share, and what the file itself says (its problems and secrets, and
/// with `tracksConnections` the TCP connections open at its ends).
final class UnitPlanner: ItemConsumer, @unchecked Sendable {
    private let tracksConnections: Bool
    /// Each packet's unit, for pass 2.
    let places: PacketPlaces
    // @exclusivity(unchecked): one thread at a time uses a planner, so the run-time access
    // checks on these properties, changed for every packet, would buy nothing (they were 4% of
    // a shard run).
    /// The first error noting a place met (a full disk), thrown once the pass is over.
    @exclusivity(unchecked) var failure: IMWireError?
    @exclusivity(unchecked) var unitIndex = AddressIndex()
    @exclusivity(unchecked) var unitBytes: [Int] = []
    @exclusivity(unchecked) var units = UnitSets()
    @exclusivity(unchecked) private var sidUnits: [[UInt8]: Int] = [:]
    @exclusivity(unchecked) var residueBytes = 0
    /// Secrets go to every shard: a capture that carries any makes every shard owner-only.
    @exclusivity(unchecked) var carriesSecrets = false
    @exclusivity(unchecked) var fileProblems: [Finding] = []
    // With tracksConnections: the connections open now, those seen first without a SYN, and
    // those ended (so that the last ACKs after a FIN do not open them again).
    @exclusivity(unchecked) var open: Set<CaptureSharder.TCPConnectionKey> = []
    @exclusivity(unchecked) var startedOpen: Set<CaptureSharder.TCPConnectionKey> = []
    @exclusivity(unchecked) private var ended: Set<CaptureSharder.TCPConnectionKey> = []

    init(tracksConnections: Bool) throws(IMWireError) {
        self.tracksConnections = tracksConnections
        places = try PacketPlaces()
    }

    func keeps(_ ordinal: Int) -> Bool { true }

    /// Lets the sids go once the units are joined: pass 2 does not need them.
    func forgetSessions() { sidUnits = [:] }

    func take(other item: PacketItem) {
        switch item {
        case .problem(let finding): fileProblems.append(finding)
        case .secrets(let secrets):
            residueBytes += secrets.data.count + 32
            carriesSecrets = true
        case .packet: return  // packets come to `take(_:)`
        }
    }

    func take(_ packet: PacketView) {
        let size = CaptureSharder.blockSize(packet)
        guard let segment = CaptureSharder.segment(of: packet) else {
            residueBytes += size
            note(unit: nil, opens: CaptureSharder.isClientSYN(packet))
            return
        }
        if tracksConnections { track(segment) }
        let (index, added) = unitIndex.index(of: segment.client)
        note(unit: index, opens: segment.opens)
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

extension UnitPlanner {
    /// Notes the connection opened, met first without a SYN, or ended (`tracksConnections`).
    private func track(_ segment: CaptureSharder.Segment) {
        let key = segment.connection
        if segment.opens {
            open.insert(key)
            ended.remove(key)
        } else if !open.contains(key), !ended.contains(key) {
            startedOpen.insert(key)
            open.insert(key)
        }
        if segment.ends, open.remove(key) != nil { ended.insert(key) }
    }

    private func note(unit: Int?, opens: Bool) {
        do throws(IMWireError) { try places.append(unit: unit, opens: opens) } catch { failure = failure ?? error }
    }
}

/// Pass 2: writes the shards `members` (indices congruent modulo `groups`), placing each packet
/// by its entry in `places` (its unit's shard in `shardOfUnit`, shard 0 for none), and passing
/// over the packets of other groups unread. `ownerOnly`: the shards get secrets
/// (`options.keyLog`, or the capture's own Decryption Secrets Blocks), and are created with mode
/// 0600.
final class GroupWriter: ItemConsumer, @unchecked Sendable {
    private let writers: [ShardWriter]
    private let groups: Int
    private let group: Int
    private let places: PacketPlaces.Reader
    private let shardOfUnit: [Int]
    /// The shard of the packet just kept, and whether it opens a connection.
    @exclusivity(unchecked) private var kept = (shard: 0, opens: false)

    init(
        _ members: [CaptureSharder.Shard], of groups: Int, options: CaptureSharder.Options, ownerOnly: Bool,
        places: PacketPlaces.Reader, shardOfUnit: [Int]
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
        self.places = places
        self.shardOfUnit = shardOfUnit
    }

    func keeps(_ ordinal: Int) -> Bool {
        let (unit, opens) = places.next()
        kept = (unit.map { shardOfUnit[$0] } ?? 0, opens)
        return kept.shard % groups == group
    }

    func take(_ packet: PacketView) { writers[kept.shard / groups].write(packet, opens: kept.opens) }

    func take(other item: PacketItem) {
        switch item {
        case .packet, .problem: return  // packets come to `take(_:)`; problems are pass 1's
        case .secrets(let secrets):
            // Secrets go to every shard, where they were: any connection may need them.
            for writer in writers { writer.write(secrets) }
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
    func write(_ packet: PacketView, opens: Bool) {
        writer.packet(
            packet.data.raw, linkType: packet.linkType, time: packet.time, originalLength: packet.originalLength,
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
