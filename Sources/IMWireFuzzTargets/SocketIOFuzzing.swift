import IMWireCore
import IMWireJMessage
import IMWireNIM
import IMWireSocketIO

enum SocketIOFuzzing {
    /// One WebSocket message of a socket.io connection. Variant 0: socket.io 0.9 read as NIM;
    /// 1: engine.io 3 / socket.io 4 text read as JMessage; 2: the same from a binary frame;
    /// 3: a socket.io 0.9 handshake body. Extra bits 0-1: the direction (none, send, receive).
    ///
    /// Invariants: findings are deterministic; every packet re-encodes and decodes to the same
    /// packet (socket.io 0.9 and socket.io 4 through their canonical JSON, engine.io exactly);
    /// every NIM packet and JMessage event re-encodes as its SDK sends it and decodes to the same.
    static func message(_ input: FuzzInput) -> [String] {
        let direction: Direction? = [nil, .send, .receive, nil][input.extra & 3]
        switch input.variant {
        case 0: return nim(input.payload, direction: direction, limits: input.limits)
        case 1, 2:
            return jmessage(input.payload, binaryFrame: input.variant == 2, direction: direction, limits: input.limits)
        default: return handshake(input.payload)
        }
    }

    private static func nim(_ bytes: [UInt8], direction: Direction?, limits: Limits) -> [String] {
        let first = NIMCodec.decode(bytes, direction: direction, limits: limits)
        var violations: [String] = []
        if first != NIMCodec.decode(bytes, direction: direction, limits: limits) {
            violations.append("decodes differently twice")
        }
        // A packet read despite an error (an ack without its id…) lacks what its encoding needs.
        let transportClean = !SocketIO09Decoder.decode(bytes, limits: limits).findings.contains {
            $0.severity == .error
        }
        for item in first.items {
            let packet = item.socketIO
            let encoded = Array(packet.encoded.utf8)
            let again = SocketIO09Decoder.decode(encoded, limits: .default)
            if transportClean,
                again.packets.count != 1
                    || again.packets.first.map(SocketIOCanonicalJSON.encode) != SocketIOCanonicalJSON.encode(packet)
            {
                violations.append(
                    """
                    socket.io 0.9 \(packet.summary) re-encodes to `\(packet.encoded)`, \
                    which decodes to \(again.packets.map(\.summary))
                    """)
            }
            if let nim = item.nim {
                // The wire form always survives, and so do the names and tag-mapped fields derived
                // from it, unless a Q item was dropped as malformed (NIM.Q-ITEM-INVALID): the later
                // items keep the names of their places on the wire, which shift in the re-encoding.
                let back = NIMCodec.decode(NIMCodec.encode(nim), direction: direction, limits: .default)
                let dropped = first.findings.contains { $0.rule.id == NIMRules.qItemInvalid.id }
                if back.items.count != 1 || back.items.first?.nim?.json != nim.json
                    || (!dropped && back.items.first?.nim != nim)
                {
                    violations.append("NIM \(nim.summary) re-encodes to a message that decodes to \(back.summary)")
                }
                // The canonical JSON's decoder reads the wire form only (names and named fields are derived).
                if (try? NIMCanonicalJSON.decode(NIMCanonicalJSON.encode(nim)))?.json != nim.json {
                    violations.append("NIM \(nim.summary) does not survive its canonical JSON")
                }
            }
        }
        return violations
    }

    private static func jmessage(_ bytes: [UInt8], binaryFrame: Bool, direction: Direction?, limits: Limits) -> [String]
    {
        let first = JMessageCodec.decode(bytes, binaryFrame: binaryFrame, direction: direction, limits: limits)
        var violations: [String] = []
        if first != JMessageCodec.decode(bytes, binaryFrame: binaryFrame, direction: direction, limits: limits) {
            violations.append("decodes differently twice")
        }
        if let engineIO = first.engineIO.engineIO {
            let (encoded, binary) = engineIO.encoded
            if EngineIOPacket.decode(encoded, binaryFrame: binary, limits: .default).0 != engineIO {
                violations.append("engine.io \(first.engineIO.summary) does not decode from its own encoding")
            }
        }
        // Data that is a non-negative number follows the type (or the id) directly, so its digits
        // read back as the id: socket.io-parser's encodeAsString writes `0` + `1` as `01` too.
        let numericData = first.engineIO.socketIO?.data.map { JSONWriter.string($0).first?.isNumber == true } ?? false
        if let socketIO = first.engineIO.socketIO, !numericData,
            !first.engineIO.findings.contains(where: { $0.severity == .error })
        {
            let again = EngineIOMessage.decode(EngineIOMessage.encode(socketIO), binaryFrame: false, limits: .default)
                .socketIO
            if again.map(SocketIOCanonicalJSON.encode) != SocketIOCanonicalJSON.encode(socketIO) {
                violations.append("socket.io `\(socketIO.encoded)` re-encodes to a packet that decodes differently")
            }
        }
        if let event = first.event {
            let back = JMessageCodec.decode(JMessageCodec.encode(event), direction: direction, limits: .default)
            if back.event != event {
                violations.append("JMessage \(event.summary) re-encodes to a message that decodes to \(back.summary)")
            }
        }
        return violations
    }

    private static func handshake(_ bytes: [UInt8]) -> [String] {
        let (handshake, findings) = SocketIO09Handshake.decode(bytes)
        var violations: [String] = []
        let (again, againFindings) = SocketIO09Handshake.decode(bytes)
        if again != handshake || !sameFindings(findings, againFindings) {
            violations.append("decodes differently twice")
        }
        if let handshake, SocketIO09Handshake.decode(Array(handshake.encoded.utf8)).0 != handshake {
            violations.append("handshake `\(handshake.encoded)` does not decode to itself")
        }
        let url = String(decoding: bytes, as: UTF8.self)
        let (transport, urlFindings) = SocketIOTransport.from(url: url)
        let (transportAgain, urlFindingsAgain) = SocketIOTransport.from(url: url)
        if transport != transportAgain || !sameFindings(urlFindings, urlFindingsAgain) {
            violations.append("the URL reads differently twice")
        }
        return violations
    }
}
