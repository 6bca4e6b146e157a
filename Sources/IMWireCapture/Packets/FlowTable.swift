import IMWireCore
import IMWireIO

/// An IP address and port.
package struct Endpoint: Sendable, Hashable, Comparable, CustomStringConvertible {
    package let address: IPAddress
    package let port: UInt16

    package static func < (lhs: Endpoint, rhs: Endpoint) -> Bool {
        lhs.address != rhs.address ? lhs.address < rhs.address : lhs.port < rhs.port
    }

    package var description: String {
        guard let quad = address.ipv4 else { return "[\(address)]:\(port)" }
        // IPv4, the usual case, written as bytes in one buffer: every connection's id and `open`
        // are made of two of these (interpolated, 2.6% of a check of the vendor mix, callgrind).
        return String(unsafeUninitializedCapacity: 21) { buffer in
            var end = 0
            func put(_ value: Int) {
                if value >= 10 { put(value / 10) }
                buffer[end] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
                end += 1
            }
            for shift in stride(from: 24, through: 0, by: -8) {
                put(Int(quad >> UInt32(shift) & 0xff))
                buffer[end] = shift == 0 ? UInt8(ascii: ":") : UInt8(ascii: ".")
                end += 1
            }
            put(Int(port))
            return end
        }
    }
}

/// TCP connections found in a packet capture, each turned into capture events: `open` with its
/// endpoints, `stream` chunks per direction in order, `gap`s, and `close`. The client is the
/// side that sent the first SYN; without a SYN in the capture, the side with the higher
/// (ephemeral) port.
struct FlowTable {
    private struct Key: Hashable {
        let low: Endpoint
        let high: Endpoint
        init(_ a: Endpoint, _ b: Endpoint) {
            low = min(a, b)
            high = max(a, b)
        }
    }

    /// A class, so a packet's flow is found with one lookup and changed in place: a dictionary
    /// of structs changed through its subscript allocated for every packet.
    private final class Flow {
        let key: Key
        let id: String
        let client: Endpoint
        /// How many connections began before this one: the order they end in at the capture's end.
        let ordinal: Int
        // @exclusivity(unchecked): one thread at a time reads and changes this object, so the
        // runtime's access checks on these properties, read for every packet, would buy nothing.
        @exclusivity(unchecked) var streams: [TCPStream]
        /// A bit per direction (client 1, server 2) that has sent its FIN.
        @exclusivity(unchecked) var finished: UInt8 = 0
        /// Microseconds, its latest packet.
        @exclusivity(unchecked) var lastTime: Int64 = .min

        init(key: Key, id: String, client: Endpoint, ordinal: Int, streams: [TCPStream]) {
            self.key = key
            self.id = id
            self.client = client
            self.ordinal = ordinal
            self.streams = streams
        }
    }

    /// A connection that ended (RST, or FIN both ways): what tells a late segment of it from a
    /// new connection of the same pair.
    private struct EndedFlow {
        let id: String
        let client: Endpoint
        /// Each direction's next sequence number (client, server).
        let next: [UInt32?]
        /// It ended by going silent for `Limits.tcpIdleSeconds`, not by a RST or FINs.
        let idle: Bool
    }

    /// How many ended connections are remembered, and how far (in sequence numbers) from where
    /// a direction stopped a late segment may start.
    static let endedRemembered = 4_096
    static let lateWindow: UInt32 = 1 << 20

    private let limits: Limits
    private var flows: [Key: Flow] = [:]
    private var ended: [Key: EndedFlow] = [:]
    /// The keys of `ended`, oldest first from `endedOldest` (a ring once full).
    private var endedOrder: [Key] = []
    private var endedOldest = 0
    private var opened = 0
    private var pairs = SeenPairs()
    /// Microseconds: a connection without a packet for this long ends (0: never), and when the
    /// open ones are next looked at for it.
    private let idleMicros: Int64
    private var nextIdleSweep: Int64 = .min
    /// The flow of the last segment, while it is open.
    private var lastFlow: Flow?
    /// What the current segment's stream delivered, kept to reuse its storage.
    private var outputs: [TCPStream.Output] = []

    init(limits: Limits) {
        self.limits = limits
        idleMicros = Int64(max(0, limits.tcpIdleSeconds)) * 1_000_000
    }

    /// Appends the events and findings one TCP segment causes to `items`.
    mutating func segment(
        _ tcp: TCPSegment, ip: IPPacket, frame: FrameBytes, packet: PacketView, into items: inout [CaptureItem]
    ) {
        let source = Endpoint(address: ip.source, port: tcp.sourcePort)
        let destination = Endpoint(address: ip.destination, port: tcp.destinationPort)
        let key = Key(source, destination)
        let payload = frame.bytes(tcp.payload)
        if idleMicros > 0, packet.time >= nextIdleSweep { endIdle(now: packet.time, into: &items) }
        var found = lastFlow?.key == key ? lastFlow : flows[key]  // the flow of the packet before: no hashing
        if let silent = found, idleMicros > 0, packet.time &- silent.lastTime > idleMicros {
            // Silent too long: ended, whether or not a look at the open ones came first.
            end(silent, packet: nil, idle: true, into: &items)
            found = nil
        }
        let flow: Flow
        if let found {
            flow = found
        } else {
            guard tcp.syn || !payload.isEmpty else { return }  // a stray ACK of a connection that ended
            if !tcp.syn, let late = ended[key], Self.isLate(tcp, from: source, of: late) {
                return items.append(.problem(Self.lateSegment(payload.count, from: source, of: late, packet: packet)))
            }
            let sourceIsClient = tcp.syn ? !tcp.ack : (source.port > destination.port)
            let client = sourceIsClient ? source : destination
            let server = sourceIsClient ? destination : source
            let (clientText, serverText) = (client.description, server.description)
            let base = clientText + "-" + serverText
            let count = pairs.connections(client: client, server: server)
            let id = count == 1 ? base : base + "#" + String(count)
            let streams = [
                TCPStream(maxBuffered: limits.maxMessageSize), TCPStream(maxBuffered: limits.maxMessageSize),
            ]
            flow = Flow(key: key, id: id, client: client, ordinal: opened, streams: streams)
            flows[key] = flow
            opened += 1
            items.append(
                .event(
                    ConnectionInput(
                        connection: id, time: packet.time, packet: packet.number,
                        kind: .open(ConnectionInfo(client: clientText, server: serverText)))))
        }
        flow.lastTime = max(flow.lastTime, packet.time)
        let direction: Direction = source == flow.client ? .send : .receive
        let index = direction == .send ? 0 : 1
        var sequence = tcp.sequence
        if tcp.syn {
            flow.streams[index].syn(sequence: tcp.sequence)
            sequence = sequence &+ 1
        }
        if ip.missing == 0, let bytes = flow.streams[index].nextInOrder(sequence: sequence, payload: payload) {
            items.append(
                .event(
                    ConnectionInput(
                        connection: flow.id, time: packet.time, packet: packet.number, kind: .stream(direction, bytes)))
            )
        } else {
            outputs.removeAll(keepingCapacity: true)
            flow.streams[index].segment(sequence: sequence, payload: payload, into: &outputs)
            if ip.missing > 0 {
                outputs += flow.streams[index].lost(
                    sequence: sequence &+ UInt32(truncatingIfNeeded: payload.count), count: ip.missing)
            }
            Self.events(outputs, flow: flow, direction: direction, packet: packet, into: &items)
        }
        if tcp.fin, flow.finished & (index == 0 ? 1 : 2) == 0 {
            flow.finished |= index == 0 ? 1 : 2
            items.append(
                .event(
                    ConnectionInput(
                        connection: flow.id, time: packet.time, packet: packet.number, kind: .streamEnd(direction))))
        }
        guard tcp.rst || flow.finished == 3 else {
            if lastFlow !== flow { lastFlow = flow }
            return
        }
        end(flow, packet: packet, into: &items)
    }

    /// Ends the connections without a packet for more than `idleMicros` before `now`, in the
    /// order they began, as the capture's end would: memory then holds the connections open at
    /// the same time, not every one a capture never closes. Looked at every sixteenth of the
    /// timeout of capture time (at least a second apart), so the cost is bounded whatever the
    /// packet rate. No finding here: a connection's report must not depend on when other
    /// connections' packets came (a shard has fewer), only on its own; a segment of it after
    /// the silence is `CAPTURE.TCP-IDLE` (`lateSegment`).
    private mutating func endIdle(now: Int64, into items: inout [CaptureItem]) {
        nextIdleSweep = now &+ max(idleMicros / 16, 1_000_000)  // wrapping: times are the file's, any value
        for flow in flows.values.filter({ now &- $0.lastTime > idleMicros }).sorted(by: { $0.ordinal < $1.ordinal }) {
            end(flow, packet: nil, idle: true, into: &items)
        }
    }

    private mutating func end(
        _ flow: Flow, packet: PacketView?, idle: Bool = false, into items: inout [CaptureItem]
    ) {
        Self.close(flow, packet: packet, into: &items)
        flows[flow.key] = nil
        if lastFlow === flow { lastFlow = nil }
        remember(flow, idle: idle)
    }

    /// Keeps what tells a late segment of `flow` (bounded: the oldest is forgotten first).
    private mutating func remember(_ flow: Flow, idle: Bool) {
        let summary = EndedFlow(id: flow.id, client: flow.client, next: flow.streams.map(\.nextSequence), idle: idle)
        if ended.updateValue(summary, forKey: flow.key) != nil { return }
        if endedOrder.count < Self.endedRemembered {
            endedOrder.append(flow.key)
        } else {
            ended[endedOrder[endedOldest]] = nil
            endedOrder[endedOldest] = flow.key
            endedOldest = (endedOldest + 1) % Self.endedRemembered
        }
    }

    /// A segment without SYN belongs to the connection that ended on its pair when it starts
    /// near where its direction stopped (data in flight when the RST was sent, or sent after it:
    /// the peer answers it with another RST). A new connection's first segment seldom does.
    private static func isLate(_ tcp: TCPSegment, from source: Endpoint, of late: EndedFlow) -> Bool {
        guard let next = late.next[source == late.client ? 0 : 1] else { return false }
        let distance = tcp.sequence &- next
        return distance < lateWindow || next &- tcp.sequence < lateWindow
    }

    private static func lateSegment(_ count: Int, from source: Endpoint, of late: EndedFlow, packet: PacketView)
        -> Finding
    {
        let direction: Direction = source == late.client ? .send : .receive
        let side = direction == .send ? "client → server" : "server → client"
        var finding =
            late.idle
            ? CaptureRules.tcpIdle.finding(
                """
                \(count) bytes (\(side)) of connection \(late.id) after it went without a \
                packet for longer than Limits.tcpIdleSeconds and ended there; not decoded
                """,
                at: packet.fileOffset)
            : CaptureRules.tcpAfterEnd.finding(
                "\(count) bytes (\(side)) after connection \(late.id) ended; not decoded", at: packet.fileOffset)
        finding.location = Location(
            connection: late.id, frameIndex: packet.number, time: packet.time, direction: direction)
        return finding
    }

    private static func events(
        _ outputs: [TCPStream.Output], flow: Flow, direction: Direction, packet: PacketView,
        into items: inout [CaptureItem]
    ) {
        for output in outputs {
            switch output {
            case .data(let bytes):
                items.append(
                    .event(
                        ConnectionInput(
                            connection: flow.id, time: packet.time, packet: packet.number,
                            kind: .stream(direction, bytes))))
            case .gap(let count):
                items.append(
                    .event(
                        ConnectionInput(
                            connection: flow.id, time: packet.time, packet: packet.number, kind: .gap(direction, count))
                    ))
            case .conflict(let offset, let length):
                var finding = CaptureRules.tcpOverlapConflict.finding(
                    """
                    \(length) bytes at stream offset \(offset) \
                    (\(direction == .send ? "client → server" : "server → client")) differ from the copy seen first
                    """,
                    at: packet.fileOffset)
                finding.location = Location(
                    connection: flow.id, frameIndex: packet.number, time: packet.time, direction: direction)
                items.append(.problem(finding))
            }
        }
    }

    private static func close(_ flow: Flow, packet: PacketView?, into items: inout [CaptureItem]) {
        for (index, direction) in [(0, Direction.send), (1, Direction.receive)] {
            let outputs = flow.streams[index].finish()
            if let packet {
                events(outputs, flow: flow, direction: direction, packet: packet, into: &items)
            } else {
                items += outputs.compactMap { output in
                    guard case .gap(let count) = output else {
                        if case .data(let bytes) = output {
                            return .event(
                                ConnectionInput(connection: flow.id, time: nil, kind: .stream(direction, bytes)))
                        }
                        return nil
                    }
                    return .event(ConnectionInput(connection: flow.id, time: nil, kind: .gap(direction, count)))
                }
            }
        }
        items.append(
            .event(
                ConnectionInput(
                    connection: flow.id, time: packet?.time, packet: packet?.number,
                    kind: .close(CloseInfo(captureEnded: packet == nil, isLast: true)))))
    }

    /// The capture ended: every open connection ends too, in the order they began.
    mutating func finish() -> [CaptureItem] {
        var items: [CaptureItem] = []
        for flow in flows.values.sorted(by: { $0.ordinal < $1.ordinal }) {
            Self.close(flow, packet: nil, into: &items)
        }
        flows.removeAll()
        lastFlow = nil
        ended.removeAll()
        endedOrder.removeAll()
        endedOldest = 0
        return items
    }
}

/// Every client–server pair a capture has had a connection between, so that a pair used again
/// names its connection `#2`, `#3`… The most recent pairs are counted in memory; every
/// `inMemory` of them are written out as a sorted run (`SortedRuns`), and a Bloom filter of
/// the written ones spares a look in the file for a pair never seen. Memory stays bounded
/// however many connections the capture has.
struct SeenPairs {
    /// An IPv4 pair in 12 bytes: both addresses in one word, both ports in another.
    private struct IPv4Pair: Hashable {
        let addresses: UInt64
        let ports: UInt32
    }

    private let inMemory: Int
    /// Pairs seen since the last run was written: IPv4 ones in 16 bytes each, others whole.
    private var ipv4: Set<IPv4Pair> = []
    private var ipv6: Set<[Endpoint]> = []
    /// The counts of those pairs that had more than one connection, by `key`.
    private var reused: [[UInt8]: Int] = [:]
    private var written: SortedRuns?
    private var filter = BloomFilter(bits: 0)
    private static let keySize = 37

    init(inMemory: Int = 16_384) {
        self.inMemory = max(1, inMemory)
    }

    /// Counts a connection from `client` to `server`; returns how many that pair has had now.
    mutating func connections(client: Endpoint, server: Endpoint) -> Int {
        let isNew =
            if let a = client.address.ipv4, let b = server.address.ipv4 {
                ipv4.insert(
                    IPv4Pair(
                        addresses: UInt64(a) << 32 | UInt64(b), ports: UInt32(client.port) << 16 | UInt32(server.port))
                ).inserted
            } else {
                ipv6.insert([client, server]).inserted
            }
        var count = 1
        if !isNew {
            count = (reused[Self.key(client, server)] ?? 1) + 1
        } else if let written {
            let key = Self.key(client, server)
            if filter.mayContain(key), let record = written.newest(startingWith: key) {
                count =
                    record.withReader { reader in
                        _ = reader.readBytes(Self.keySize)
                        return reader.readUInt64().map { Int($0) } ?? 0
                    } + 1
            }
        }
        if count > 1 { reused[Self.key(client, server)] = count }
        if ipv4.count + ipv6.count >= inMemory { writeRun() }
        return count
    }

    /// 37 bytes: an IPv6 flag, then each side's 16 address bytes (IPv4 zero-padded) and port.
    /// Written from the address words, with one allocation: every new pair past the first run
    /// makes one.
    private static func key(_ client: Endpoint, _ server: Endpoint) -> [UInt8] {
        var key = ByteWriter(capacity: keySize)
        key.append(client.address.ipv4 == nil ? 1 : 0)
        for side in [client, server] {
            key.append(side.address.paddedWords.high, .big)
            key.append(side.address.paddedWords.low, .big)
            key.append(side.port, .big)
        }
        return key.bytes
    }

    private static func key(_ pair: IPv4Pair) -> [UInt8] {
        func endpoint(_ address: UInt64, _ port: UInt32) -> Endpoint {
            Endpoint(
                address: IPAddress(ipv4: UInt32(truncatingIfNeeded: address)), port: UInt16(truncatingIfNeeded: port))
        }
        return key(endpoint(pair.addresses >> 32, pair.ports >> 16), endpoint(pair.addresses, pair.ports))
    }

    /// The pairs in memory become a run: each one's key and count (8 bytes, big-endian).
    private mutating func writeRun() {
        let recordSize = Self.keySize + 8
        if written == nil {
            written = SortedRuns(recordSize: recordSize, runLength: inMemory)
            filter = BloomFilter(bits: 1 << 24)
        }
        var records = ByteWriter()
        func add(_ key: [UInt8]) {
            records.append(contentsOf: key)
            records.append(UInt64(reused[key] ?? 1), .big)
        }
        for pair in ipv4 { add(Self.key(pair)) }
        for pair in ipv6 { add(Self.key(pair[0], pair[1])) }
        let run = records.bytes
        guard written?.write(run: run) == true else { return }  // no file: the pairs stay in memory
        for start in stride(from: 0, to: run.count, by: recordSize) { filter.insert(run[start..<start + Self.keySize]) }
        ipv4.removeAll(keepingCapacity: true)
        ipv6.removeAll(keepingCapacity: true)
        reused.removeAll(keepingCapacity: true)
    }
}

/// A set that may answer "maybe" for what it never held, never "no" for what it did; in a
/// fixed number of bits.
private struct BloomFilter {
    private var words: [UInt64]
    private static let probes = 4

    init(bits: Int) { words = [UInt64](repeating: 0, count: (bits + 63) / 64) }

    private func positions(_ key: some Collection<UInt8>) -> [Int] {
        var first = Hasher()
        first.combine(0)
        var second = Hasher()
        second.combine(1)
        for byte in key {
            first.combine(byte)
            second.combine(byte)
        }
        let (a, b) = (UInt64(bitPattern: Int64(first.finalize())), UInt64(bitPattern: Int64(second.finalize())) | 1)
        let bits = UInt64(words.count * 64)
        return (0..<Self.probes).map { Int((a &+ UInt64($0) &* b) % bits) }
    }

    mutating func insert(_ key: some Collection<UInt8>) {
        guard !words.isEmpty else { return }
        for position in positions(key) { words[position / 64] |= 1 << (position % 64) }
    }

    func mayContain(_ key: some Collection<UInt8>) -> Bool {
        guard !words.isEmpty else { return true }
        return positions(key).allSatisfy { words[$0 / 64] & (1 << ($0 % 64)) != 0 }
    }
}
