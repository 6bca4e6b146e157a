import IMWireCore

/// Makes IPv4/TCP packets (link type 101, raw IP) for a connection whose bytes are known but
/// whose packets are not (a transcript, a HAR), the way swift-nio-extras' pcap writer does: a
/// three-way handshake, data segments with consistent sequence and acknowledgement numbers,
/// and a FIN from each side. Checksums are zero (Wireshark does not check them by default).
public struct TCPSynthesizer {
    public static let linkType: UInt32 = 101
    /// The most payload bytes a data segment carries.
    package static let segmentSize = 1400
    package let client: (address: [UInt8], port: UInt16)
    package let server: (address: [UInt8], port: UInt16)
    private var clientSequence: UInt32 = 1_000
    private var serverSequence: UInt32 = 50_000

    /// A connection from 10.1.x.y to 10.2.x.y, x.y being `index` (mod 65,536) in two bytes.
    public init(index: Int, serverPort: UInt16 = 443) {
        let low = UInt8(truncatingIfNeeded: index)
        let high = UInt8(truncatingIfNeeded: index >> 8)
        client = ([10, 1, high, low], UInt16(truncatingIfNeeded: 40_000 + index % 20_000))
        server = ([10, 2, high, low], serverPort)
    }

    /// A connection between the given IPv4 endpoints (`imwire proxy` records its real peers).
    package init(client: (address: [UInt8], port: UInt16), server: (address: [UInt8], port: UInt16)) {
        self.client = client
        self.server = server
    }

    /// SYN, SYN-ACK, ACK.
    public mutating func open() -> [(Direction, [UInt8])] {
        defer {
            clientSequence &+= 1
            serverSequence &+= 1
        }
        return [
            (.send, segment(.send, flags: 0x02, payload: [], sequence: clientSequence, ack: 0)),
            (.receive, segment(.receive, flags: 0x12, payload: [], sequence: serverSequence, ack: clientSequence &+ 1)),
            (.send, segment(.send, flags: 0x10, payload: [], sequence: clientSequence &+ 1, ack: serverSequence &+ 1)),
        ]
    }

    /// Data of one direction, in segments of at most `segmentSize` bytes.
    public mutating func data(_ bytes: [UInt8], direction: Direction) -> [[UInt8]] {
        var packets: [[UInt8]] = []
        var start = 0
        repeat {
            let end = min(bytes.count, start + Self.segmentSize)
            let chunk = Array(bytes[start..<end])
            if direction == .send {
                packets.append(
                    segment(.send, flags: 0x18, payload: chunk, sequence: clientSequence, ack: serverSequence))
                clientSequence &+= UInt32(chunk.count)
            } else {
                packets.append(
                    segment(.receive, flags: 0x18, payload: chunk, sequence: serverSequence, ack: clientSequence))
                serverSequence &+= UInt32(chunk.count)
            }
            start = end
        } while start < bytes.count
        return packets
    }

    /// Bytes the capture lost: the sequence numbers move on without a segment.
    package mutating func skip(_ count: Int, direction: Direction) {
        if direction == .send {
            clientSequence &+= UInt32(truncatingIfNeeded: count)
        } else {
            serverSequence &+= UInt32(truncatingIfNeeded: count)
        }
    }

    /// FIN from the client, then from the server.
    public mutating func close() -> [(Direction, [UInt8])] {
        [
            (.send, segment(.send, flags: 0x11, payload: [], sequence: clientSequence, ack: serverSequence)),
            (.receive, segment(.receive, flags: 0x11, payload: [], sequence: serverSequence, ack: clientSequence &+ 1)),
        ]
    }

    /// A RST (with ACK) from the side that sends in `direction`.
    package mutating func reset(from direction: Direction) -> (Direction, [UInt8]) {
        let (sequence, ack) = direction == .send ? (clientSequence, serverSequence) : (serverSequence, clientSequence)
        return (direction, segment(direction, flags: 0x14, payload: [], sequence: sequence, ack: ack))
    }

    func segment(_ direction: Direction, flags: UInt8, payload: [UInt8], sequence: UInt32, ack: UInt32) -> [UInt8] {
        let (source, destination) = direction == .send ? (client, server) : (server, client)
        var packet = ByteWriter(capacity: 40 + payload.count)
        packet.append(0x45)
        packet.append(0)
        packet.append(UInt16(truncatingIfNeeded: 40 + payload.count), .big)
        packet.append(UInt16(0), .big)  // identification
        packet.append(UInt16(0x4000), .big)  // don't fragment
        packet.append(64)  // ttl
        packet.append(6)  // TCP
        packet.append(UInt16(0), .big)  // checksum
        packet.append(contentsOf: source.address)
        packet.append(contentsOf: destination.address)
        packet.append(source.port, .big)
        packet.append(destination.port, .big)
        packet.append(sequence, .big)
        packet.append(ack, .big)
        packet.append(0x50)  // data offset 5 words
        packet.append(flags)
        packet.append(UInt16(65_535), .big)  // window
        packet.append(UInt16(0), .big)  // checksum
        packet.append(UInt16(0), .big)  // urgent
        packet.append(contentsOf: payload)
        return packet.bytes
    }
}
