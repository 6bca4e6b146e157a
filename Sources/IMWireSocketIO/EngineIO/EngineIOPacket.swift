import IMWireCore

/// engine.io protocol 3 packet types.
public enum EngineIOPacketType: Int, Sendable, Hashable, CaseIterable {
    case open = 0
    case close
    case ping
    case pong
    case message
    case upgrade
    case noop

    public var name: String {
        switch self {
        case .open: "open"
        case .close: "close"
        case .ping: "ping"
        case .pong: "pong"
        case .message: "message"
        case .upgrade: "upgrade"
        case .noop: "noop"
        }
    }

    package init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }
}

/// The open packet's JSON: the session id, the transports it may upgrade to and the heartbeat.
public struct EngineIOHandshake: Sendable, Hashable {
    public var sid: String
    public var upgrades: [String]
    /// Milliseconds between client pings.
    public var pingInterval: Int64
    /// Milliseconds the server waits for a ping (and the client for a pong).
    public var pingTimeout: Int64
}

/// One engine.io packet: a type and text or binary data.
public struct EngineIOPacket: Sendable, Hashable {
    /// The packet's data: text, or binary (base64 after a `b` in text payloads).
    public enum Payload: Sendable, Hashable {
        case text(String)
        case binary([UInt8])
    }

    public var type: EngineIOPacketType
    public var payload: Payload
    /// Byte offset of the data within the WebSocket message (1 for text, 2 after `b<type>`).
    public var dataOffset: Int
    /// The binary data travelled as `b<type><base64>` in a text frame.
    public var base64: Bool
    /// The open packet's handshake, when it parsed.
    public var handshake: EngineIOHandshake?

    public init(type: EngineIOPacketType, payload: Payload = .text(""), dataOffset: Int = 1, base64: Bool = false) {
        self.type = type
        self.payload = payload
        self.dataOffset = dataOffset
        self.base64 = base64
    }

    public var text: String? { if case .text(let value) = payload { value } else { nil } }
    public var binary: [UInt8]? { if case .binary(let value) = payload { value } else { nil } }
    public var isBinary: Bool { binary != nil }

    /// The packet as one WebSocket message: its bytes and whether it goes in a binary frame.
    public var encoded: (bytes: [UInt8], binaryFrame: Bool) {
        switch payload {
        case .text(let value):
            return (Array("\(type.rawValue)".utf8) + Array(value.utf8), false)
        case .binary(let data) where base64:
            return (Array("b\(type.rawValue)".utf8) + Array(Base64.encode(data).utf8), false)
        case .binary(let data):
            return ([UInt8(type.rawValue)] + data, true)
        }
    }

    /// Decodes one WebSocket message (`binaryFrame`: it came in a binary frame).
    public static func decode(_ bytes: [UInt8], binaryFrame: Bool, limits: Limits = .default) -> (
        EngineIOPacket?, [Finding]
    ) {
        guard let first = bytes.first else {
            return (nil, [SocketIORules.eioEmpty.finding("empty message", at: 0)])
        }
        if binaryFrame {
            guard let type = EngineIOPacketType(rawValue: Int(first)) else {
                return (nil, [SocketIORules.eioTypeUnknown.finding("binary packet type \(first)", at: 0)])
            }
            return (EngineIOPacket(type: type, payload: .binary(Array(bytes.dropFirst())), dataOffset: 1), [])
        }
        if let bad = PacketText.invalidUTF8(bytes) {
            return (nil, [SocketIORules.textNotUTF8.finding("invalid UTF-8", at: bad)])
        }
        if first == UInt8(ascii: "b") {
            guard bytes.count >= 2, PacketText.isDigit(bytes[1]),
                let type = EngineIOPacketType(rawValue: Int(bytes[1] - 48))
            else {
                return (nil, [SocketIORules.eioTypeUnknown.finding("base64 packet without a type 0–6", at: 1)])
            }
            do {
                let data = try Base64.decode(PacketText.string(bytes[2...]))
                return (EngineIOPacket(type: type, payload: .binary(data), dataOffset: 2, base64: true), [])
            } catch {
                return (nil, [SocketIORules.eioBase64Invalid.finding(error.reason, at: error.offset.map { 2 + $0 })])
            }
        }
        guard PacketText.isDigit(first), let type = EngineIOPacketType(rawValue: Int(first - 48)) else {
            return (
                nil,
                [SocketIORules.eioTypeUnknown.finding("packet type \"\(PacketText.string(bytes.prefix(1)))\"", at: 0)]
            )
        }
        var packet = EngineIOPacket(type: type, payload: .text(PacketText.string(bytes[1...])), dataOffset: 1)
        var findings: [Finding] = []
        switch type {
        case .open:
            packet.handshake = handshake(bytes, limits: limits, findings: &findings)
        case .close, .upgrade, .noop:
            if bytes.count > 1 {
                findings.append(SocketIORules.eioDataUnexpected.finding("\(type.name) with data", at: 1))
            }
        case .ping, .pong, .message:
            break
        }
        return (packet, findings)
    }

    private static func handshake(_ bytes: [UInt8], limits: Limits, findings: inout [Finding]) -> EngineIOHandshake? {
        let object: JSONObject
        switch PacketText.json(bytes, 1..<bytes.count, base: 0, limits: limits) {
        case .success(.object(let value)): object = value
        case .success:
            findings.append(SocketIORules.eioOpenInvalid.finding("open data is not a JSON object", at: 1))
            return nil
        case .failure(let error):
            findings.append(SocketIORules.eioOpenInvalid.finding(error.reason, at: error.offset))
            return nil
        }
        var problems: [String] = []
        let sid = object["sid"]?.stringValue
        if sid == nil { problems.append("sid is not a string") }
        let upgrades = object["upgrades"]?.arrayValue?.compactMap(\.stringValue)
        if upgrades == nil || upgrades?.count != object["upgrades"]?.arrayValue?.count {
            problems.append("upgrades is not an array of strings")
        }
        let interval = object["pingInterval"]?.int64Value
        if interval == nil || (interval ?? 0) < 0 { problems.append("pingInterval is not a number of milliseconds") }
        let timeout = object["pingTimeout"]?.int64Value
        if timeout == nil || (timeout ?? 0) < 0 { problems.append("pingTimeout is not a number of milliseconds") }
        guard problems.isEmpty, let sid, let upgrades, let interval, let timeout else {
            findings.append(SocketIORules.eioOpenInvalid.finding(problems.joined(separator: "; "), at: 1))
            return nil
        }
        return EngineIOHandshake(sid: sid, upgrades: upgrades, pingInterval: interval, pingTimeout: timeout)
    }
}
