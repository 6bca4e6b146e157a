import IMWireCore

/// An IP address and port.
public struct Endpoint: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let address: IPAddress
    public let port: UInt16

    public static func < (lhs: Endpoint, rhs: Endpoint) -> Bool {
        lhs.address != rhs.address ? lhs.address < rhs.address : lhs.port < rhs.port
    }

    public var description: String {
        address.bytes.count == 4 ? "\(address):\(port)" : "[\(address)]:\(port)"
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

    private struct Flow {
        let id: String
        let client: Endpoint
        var streams: [TCPStream]
        var finished = [false, false]
    }

    private let limits: Limits
    private var flows: [Key: Flow] = [:]
    /// Creation order, so connections end in a stable order.
    private var order: [Key] = []
    private var pairs = SeenPairs()

    init(limits: Limits) {
        self.limits = limits
    }

    /// The events and findings one TCP segment causes.
    mutating func segment(_ tcp: TCPSegment, ip: IPPacket, frame: [UInt8], packet: CapturedPacket) -> [CaptureItem] {
        let source = Endpoint(address: ip.source, port: tcp.sourcePort)
        let destination = Endpoint(address: ip.destination, port: tcp.destinationPort)
        let key = Key(source, destination)
        var items: [CaptureItem] = []
        let payload = frame[tcp.payload]
        if flows[key] == nil {
            guard tcp.syn || !payload.isEmpty else { return [] }  // a stray ACK of a connection that ended
            let sourceIsClient = tcp.syn ? !tcp.ack : (source.port > destination.port)
            let client = sourceIsClient ? source : destination
            let server = sourceIsClient ? destination : source
            let base = "\(client)-\(server)"
            let count = pairs.connections(client: client, server: server)
            let id = count == 1 ? base : "\(base)#\(count)"
            flows[key] = Flow(id: id, client: client, streams: [TCPStream(maxBuffered: limits.maxMessageSize), TCPStream(maxBuffered: limits.maxMessageSize)])
            order.append(key)
            items.append(.event(CaptureEvent(connection: id, time: packet.time, packet: packet.number,
                                             kind: .open(ConnectionInfo(client: client.description, server: server.description)))))
        }
        // Taken out while it changes, so its streams are not copied on write (the table would
        // still hold a reference to them).
        guard var flow = flows.removeValue(forKey: key) else { return items }
        let direction: Direction = source == flow.client ? .send : .receive
        let index = direction == .send ? 0 : 1
        var sequence = tcp.sequence
        if tcp.syn {
            flow.streams[index].syn(sequence: tcp.sequence)
            sequence = sequence &+ 1
        }
        var outputs = flow.streams[index].segment(sequence: sequence, payload: payload)
        if ip.missing > 0 {
            outputs += flow.streams[index].lost(sequence: sequence &+ UInt32(truncatingIfNeeded: payload.count), count: ip.missing)
        }
        items += events(outputs, flow: flow, direction: direction, packet: packet)
        if tcp.fin { flow.finished[index] = true }
        if tcp.rst || flow.finished.allSatisfy({ $0 }) {
            items += close(&flow, packet: packet)
            order.removeAll { $0 == key }
        } else {
            flows[key] = flow
        }
        return items
    }

    private func events(_ outputs: [TCPStream.Output], flow: Flow, direction: Direction, packet: CapturedPacket) -> [CaptureItem] {
        outputs.map { output in
            switch output {
            case .data(let bytes):
                return .event(CaptureEvent(connection: flow.id, time: packet.time, packet: packet.number, kind: .stream(direction, bytes)))
            case .gap(let count):
                return .event(CaptureEvent(connection: flow.id, time: packet.time, packet: packet.number, kind: .gap(direction, count)))
            case .conflict(let offset, let length):
                var finding = CaptureRules.tcpOverlapConflict.finding(
                    "\(length) bytes at stream offset \(offset) (\(direction == .send ? "client → server" : "server → client")) differ from the copy seen first",
                    at: packet.fileOffset)
                finding.location = Location(connection: flow.id, frameIndex: packet.number, time: packet.time, direction: direction)
                return .problem(finding)
            }
        }
    }

    private func close(_ flow: inout Flow, packet: CapturedPacket?) -> [CaptureItem] {
        var items: [CaptureItem] = []
        for (index, direction) in [(0, Direction.send), (1, Direction.receive)] {
            let outputs = flow.streams[index].finish()
            if let packet {
                items += events(outputs, flow: flow, direction: direction, packet: packet)
            } else {
                items += outputs.compactMap { output in
                    guard case .gap(let count) = output else {
                        if case .data(let bytes) = output {
                            return .event(CaptureEvent(connection: flow.id, time: nil, kind: .stream(direction, bytes)))
                        }
                        return nil
                    }
                    return .event(CaptureEvent(connection: flow.id, time: nil, kind: .gap(direction, count)))
                }
            }
        }
        items.append(.event(CaptureEvent(connection: flow.id, time: packet?.time, packet: packet?.number, kind: .close(CloseInfo(captureEnded: packet == nil, isLast: true)))))
        return items
    }

    /// The capture ended: every open connection ends too, in the order they began.
    mutating func finish() -> [CaptureItem] {
        var items: [CaptureItem] = []
        for key in order {
            guard var flow = flows[key] else { continue }
            items += close(&flow, packet: nil)
        }
        flows.removeAll()
        order.removeAll()
        return items
    }
}

/// Every client–server pair a capture has had a connection between, so that a pair used again
/// names its connection `#2`, `#3`…  It is the one thing kept for every connection of the
/// capture, hence compact: an IPv4 pair is 12 bytes in a 16-byte set entry, not a string.
private struct SeenPairs {
    private struct IPv4Pair: Hashable {
        let addresses: UInt64
        let ports: UInt32
    }

    private struct Pair: Hashable {
        let client: Endpoint
        let server: Endpoint
    }

    private var ipv4: Set<IPv4Pair> = []
    private var ipv6: Set<Pair> = []
    /// Pairs seen more than once: how many connections they had.
    private var reused: [Pair: Int] = [:]

    /// Counts a connection from `client` to `server`; returns how many that pair has had now.
    mutating func connections(client: Endpoint, server: Endpoint) -> Int {
        let isNew = if let a = client.address.ipv4, let b = server.address.ipv4 {
            ipv4.insert(IPv4Pair(addresses: UInt64(a) << 32 | UInt64(b), ports: UInt32(client.port) << 16 | UInt32(server.port))).inserted
        } else {
            ipv6.insert(Pair(client: client, server: server)).inserted
        }
        if isNew { return 1 }
        let pair = Pair(client: client, server: server)
        let count = reused[pair, default: 1] + 1
        reused[pair] = count
        return count
    }
}
