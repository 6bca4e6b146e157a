import IMWireCore

/// socket.io protocol 4 packet types (socket.io 2.x, carried in engine.io 3 message packets).
public enum SocketIOPacketType: Int, Sendable, Hashable, CaseIterable {
    case connect = 0
    case disconnect
    case event
    case ack
    case error
    case binaryEvent
    case binaryAck

    public var name: String {
        switch self {
        case .connect: "CONNECT"
        case .disconnect: "DISCONNECT"
        case .event: "EVENT"
        case .ack: "ACK"
        case .error: "ERROR"
        case .binaryEvent: "BINARY_EVENT"
        case .binaryAck: "BINARY_ACK"
        }
    }

    package init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    public var isBinary: Bool { self == .binaryEvent || self == .binaryAck }
}

/// One socket.io packet: `<type>[<attachments>-][<namespace>,][<id>][<JSON data>]`.
public struct SocketIOPacket: Sendable, Hashable {
    public var type: SocketIOPacketType
    /// "/" when the packet names none.
    public var namespace: String
    /// The query a CONNECT to a namespace carries after `?` (socket.io-client 2.x).
    public var query: String?
    public var id: Int64?
    /// BINARY_EVENT / BINARY_ACK: how many binary attachments follow.
    public var attachments: Int?
    public var data: JSONValue?
    /// Byte offset of the JSON data within the socket.io packet.
    public var dataOffset: Int
    /// Attachments as they arrived (binary engine.io messages), in order.
    public var buffers: [[UInt8]] = []

    public init(
        type: SocketIOPacketType, namespace: String = "/", query: String? = nil, id: Int64? = nil,
        attachments: Int? = nil, data: JSONValue? = nil, dataOffset: Int = 0
    ) {
        self.type = type
        self.namespace = namespace
        self.query = query
        self.id = id
        self.attachments = attachments
        self.data = data
        self.dataOffset = dataOffset
    }

    /// An EVENT `[name, args…]`, as `socket.emit(name, args…)` sends it.
    public static func event(_ name: String, _ args: [JSONValue], namespace: String = "/", id: Int64? = nil)
        -> SocketIOPacket
    {
        SocketIOPacket(type: .event, namespace: namespace, id: id, data: .array([.string(name)] + args))
    }

    /// The event name of an EVENT or BINARY_EVENT.
    public var eventName: String? {
        guard type == .event || type == .binaryEvent else { return nil }
        return data?.arrayValue?.first?.stringValue
    }

    /// The arguments: an event's array after its name, an ack's whole array.
    public var args: [JSONValue] {
        let array = data?.arrayValue ?? []
        return eventName != nil ? Array(array.dropFirst()) : array
    }

    /// The packet as socket.io-parser 3.x `encodeAsString` writes it.
    public var encoded: String {
        var text = "\(type.rawValue)"
        if type.isBinary { text += "\(attachments ?? 0)-" }
        // A query on the root namespace (`0/?token=x,`) is written too, or it would be lost.
        if namespace != "/" || query != nil { text += namespace + (query.map { "?" + $0 } ?? "") + "," }
        if let id { text += "\(id)" }
        if let data { text += JSONWriter.string(data) }
        return text
    }

    public var summary: String {
        var text = type.name
        if namespace != "/" { text += " \(namespace)" }
        if let eventName { text += " \(eventName)" }
        if let id { text += " id=\(id)" }
        return text
    }

    /// Decodes the text of one engine.io message packet (offsets from its first byte).
    public static func decode(_ bytes: [UInt8], limits: Limits = .default) -> (SocketIOPacket?, [Finding]) {
        if let bad = PacketText.invalidUTF8(bytes) {
            return (nil, [SocketIORules.textNotUTF8.finding("invalid UTF-8", at: bad)])
        }
        guard let first = bytes.first, PacketText.isDigit(first),
            let type = SocketIOPacketType(rawValue: Int(first - 48))
        else {
            return (
                nil,
                [SocketIORules.sioTypeUnknown.finding("packet type \"\(PacketText.string(bytes.prefix(1)))\"", at: 0)]
            )
        }
        var findings: [Finding] = []
        var index = 1
        var packet = SocketIOPacket(type: type)
        if type.isBinary {
            let (count, end) = PacketText.integer(bytes, from: index)
            guard end > index, end < bytes.count, bytes[end] == UInt8(ascii: "-"), let count, count <= 1000 else {
                return (
                    nil,
                    [SocketIORules.sioAttachmentsInvalid.finding("expected <attachments>- after the type", at: index)]
                )
            }
            packet.attachments = Int(count)
            index = end + 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "/") {
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: ",") { index += 1 }
            var namespace = PacketText.string(bytes[start..<index])
            if let question = namespace.firstIndex(of: "?") {
                packet.query = String(namespace[namespace.index(after: question)...])
                namespace = String(namespace[..<question])
            }
            packet.namespace = namespace
            if index < bytes.count {
                index += 1
            } else {
                findings.append(
                    SocketIORules.sioNamespaceUnterminated.finding("namespace \(namespace) ends the packet", at: start))
            }
        }
        let (id, idEnd) = PacketText.integer(bytes, from: index)
        if idEnd > index {
            if id == nil { findings.append(SocketIORules.sioIDInvalid.finding("id over 2^53", at: index)) }
            packet.id = id
            index = idEnd
        }
        packet.dataOffset = index
        if index < bytes.count {
            switch PacketText.json(bytes, index..<bytes.count, base: 0, limits: limits) {
            case .success(let value): packet.data = value
            case .failure(let error):
                findings.append(SocketIORules.sioPayloadInvalid.finding(error.reason, at: error.offset))
                return (nil, findings)
            }
        }
        check(packet, findings: &findings)
        return (packet, findings)
    }

    private static func check(_ packet: SocketIOPacket, findings: inout [Finding]) {
        let at = packet.dataOffset
        switch packet.type {
        case .connect, .disconnect:
            if packet.data != nil {
                findings.append(SocketIORules.sioDataUnexpected.finding("\(packet.type.name) with data", at: at))
            }
        case .error:
            break
        case .event, .binaryEvent, .ack, .binaryAck:
            guard let data = packet.data else {
                if packet.type == .event || packet.type == .binaryEvent {
                    findings.append(
                        SocketIORules.sioEventNameInvalid.finding("\(packet.type.name) without data", at: at))
                }
                break
            }
            guard case .array(let array) = data else {
                findings.append(
                    SocketIORules.sioPayloadInvalid.finding(
                        "\(packet.type.name) data is \(data.typeName), not an array", at: at))
                break
            }
            if packet.type == .event || packet.type == .binaryEvent, array.first?.stringValue == nil {
                findings.append(
                    SocketIORules.sioEventNameInvalid.finding(
                        "the array does not start with a string event name", at: at))
            }
        }
        if packet.type == .ack || packet.type == .binaryAck, packet.id == nil {
            findings.append(SocketIORules.sioAckWithoutID.finding("\(packet.type.name) without an id", at: at))
        }
        if packet.type.isBinary, let count = packet.attachments {
            var numbers: [Int64] = []
            collectPlaceholders(packet.data, into: &numbers)
            if numbers.sorted() != (0..<Int64(count)).map({ $0 }) {
                findings.append(
                    SocketIORules.sioAttachmentsInvalid.finding(
                        """
                        \(count) attachments, placeholders \
                        \(numbers.sorted().map(String.init).joined(separator: ","))
                        """, at: at))
            }
        } else {
            var numbers: [Int64] = []
            collectPlaceholders(packet.data, into: &numbers)
            if !numbers.isEmpty {
                findings.append(
                    SocketIORules.sioAttachmentsInvalid.finding("placeholders in a \(packet.type.name)", at: at))
            }
        }
    }

    /// `{"_placeholder": true, "num": n}` objects anywhere in `value`, depth-first.
    static func collectPlaceholders(_ value: JSONValue?, into numbers: inout [Int64]) {
        switch value {
        case .object(let object)?:
            if object["_placeholder"] == .bool(true), let number = object["num"]?.int64Value {
                numbers.append(number)
                return
            }
            for member in object { collectPlaceholders(member.value, into: &numbers) }
        case .array(let elements)?:
            for element in elements { collectPlaceholders(element, into: &numbers) }
        default:
            break
        }
    }
}
