import IMWireCore

/// socket.io 0.9 (protocol 1) packet types, as the 0.9.11 client numbers them.
public enum SocketIO09PacketType: Int, Sendable, Hashable, CaseIterable {
    case disconnect = 0
    case connect
    case heartbeat
    case message
    case json
    case event
    case ack
    case error
    case noop

    public var name: String {
        switch self {
        case .disconnect: "disconnect"
        case .connect: "connect"
        case .heartbeat: "heartbeat"
        case .message: "message"
        case .json: "json"
        case .event: "event"
        case .ack: "ack"
        case .error: "error"
        case .noop: "noop"
        }
    }

    package init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }
}

/// One socket.io 0.9 packet: `type:[id[+]]:[endpoint][:data]`. The data is kept as text and,
/// for the types that carry JSON, read into its typed form.
public struct SocketIO09Packet: Sendable, Hashable {
    /// Error reasons and advice, by index (socket.io-client 0.9.11 `parser.reasons`, `parser.advice`).
    package static let errorReasons = ["transport not supported", "client not handshaken", "unauthorized"]
    package static let errorAdvice = ["reconnect"]

    public var type: SocketIO09PacketType
    /// The message id the sender wants acknowledged.
    public var id: Int64?
    /// `+` after the id: the application, not socket.io, sends the ack (with data).
    public var ackWithData: Bool
    public var endpoint: String
    /// The data fragment; "" when absent (the 0.9 client does not tell the two apart).
    public var data: String
    /// Byte offset of `data` within the decoded unit.
    public var dataOffset: Int

    // Typed views of `data`, filled by the decoder or set by a builder.
    /// json packets: the value.
    public var json: JSONValue?
    /// event packets.
    public var eventName: String?
    /// event and ack packets: the arguments.
    public var args: [JSONValue]?
    /// ack packets: the id of the acknowledged packet.
    public var ackID: Int64?
    public var errorReason: Int?
    public var errorAdvice: Int?

    public init(
        type: SocketIO09PacketType, id: Int64? = nil, ackWithData: Bool = false, endpoint: String = "",
        data: String = "", dataOffset: Int = 0
    ) {
        self.type = type
        self.id = id
        self.ackWithData = ackWithData
        self.endpoint = endpoint
        self.data = data
        self.dataOffset = dataOffset
    }

    /// A message packet carrying `text` (what NIM's `socket.send(JSON.stringify(cmd))` sends).
    public static func message(_ text: String, id: Int64? = nil, endpoint: String = "") -> SocketIO09Packet {
        SocketIO09Packet(type: .message, id: id, endpoint: endpoint, data: text)
    }

    /// The packet as the 0.9.11 client encodes it (`parser.encodePacket`).
    public var encoded: String {
        var payload: String?
        switch type {
        case .message, .connect:
            payload = data.isEmpty ? nil : data
        case .json:
            payload = JSONWriter.string(json ?? .null)
        case .event:
            var object = JSONObject()
            object.append("name", .string(eventName ?? ""))
            if let args, !args.isEmpty { object.append("args", .array(args)) }
            payload = JSONWriter.string(.object(object))
        case .ack:
            payload = "\(ackID ?? 0)" + ((args?.isEmpty ?? true) ? "" : "+" + JSONWriter.string(.array(args ?? [])))
        case .error:
            let reason = errorReason.map(String.init) ?? ""
            let advice = errorAdvice.map(String.init) ?? ""
            payload = reason.isEmpty && advice.isEmpty ? nil : reason + (advice.isEmpty ? "" : "+" + advice)
        case .disconnect, .heartbeat, .noop:
            payload = data.isEmpty ? nil : data
        }
        var text = "\(type.rawValue):" + (id.map(String.init) ?? "") + (ackWithData ? "+" : "") + ":" + endpoint
        if let payload { text += ":" + payload }
        return text
    }

    /// `5:1+:/chat event hello`-style one-line summary.
    public var summary: String {
        var text = type.name
        if let id { text += " id=\(id)\(ackWithData ? "+" : "")" }
        if !endpoint.isEmpty { text += " \(endpoint)" }
        if let eventName { text += " \(eventName)" }
        if let ackID { text += " ack=\(ackID)" }
        return text
    }
}

/// The packets of one socket.io 0.9 text message, and every finding (offsets from the message's
/// first byte).
public struct SocketIO09Decoded: WireDecoded, Hashable {
    public var packets: [SocketIO09Packet]
    public var findings: [Finding]
    /// The message used the `\ufffd<length>\ufffd<packet>` payload framing.
    public var framed: Bool

    /// The packets' summaries, `; `-separated, or `undecodable`.
    package var summary: String {
        packets.isEmpty ? "undecodable" : packets.map(\.summary).joined(separator: "; ")
    }
}

/// Decodes socket.io 0.9 packets the way the 0.9.11 client does, reporting every deviation.
public enum SocketIO09Decoder {
    static let replacement: [UInt8] = [0xef, 0xbf, 0xbd]

    /// One WebSocket text message: one packet, or several in the U+FFFD payload framing.
    public static func decode(_ bytes: [UInt8], limits: Limits = .default) -> SocketIO09Decoded {
        if let bad = PacketText.invalidUTF8(bytes) {
            return SocketIO09Decoded(
                packets: [], findings: [SocketIORules.textNotUTF8.finding("invalid UTF-8", at: bad)], framed: false)
        }
        guard bytes.starts(with: replacement) else {
            var findings: [Finding] = []
            let packet = decodePacket(bytes, 0..<bytes.count, limits: limits, findings: &findings)
            return SocketIO09Decoded(packets: packet.map { [$0] } ?? [], findings: findings, framed: false)
        }
        var packets: [SocketIO09Packet] = []
        var findings: [Finding] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index...].starts(with: replacement) else {
                findings.append(SocketIORules.v09FramingInvalid.finding("expected U+FFFD before a length", at: index))
                break
            }
            let lengthStart = index + 3
            let (length, lengthEnd) = PacketText.integer(bytes, from: lengthStart)
            guard lengthEnd > lengthStart, let length, bytes[lengthEnd...].starts(with: replacement) else {
                findings.append(SocketIORules.v09FramingInvalid.finding("expected <length>U+FFFD", at: lengthStart))
                break
            }
            let start = lengthEnd + 3
            guard length <= Int64(limits.maxMessageSize),
                let end = PacketText.advance(bytes, from: start, utf16Units: Int(length))
            else {
                findings.append(
                    SocketIORules.v09FramingInvalid.finding("length \(length) overruns the message", at: lengthStart))
                break
            }
            if let packet = decodePacket(bytes, start..<end, limits: limits, findings: &findings) {
                packets.append(packet)
            }
            index = end
        }
        return SocketIO09Decoded(packets: packets, findings: findings, framed: true)
    }

    /// One packet in `bytes[range]`; nil when it cannot be read at all.
    static func decodePacket(_ bytes: [UInt8], _ range: Range<Int>, limits: Limits, findings: inout [Finding])
        -> SocketIO09Packet?
    {
        let colon = UInt8(ascii: ":")
        let start = range.lowerBound
        let end = range.upperBound
        guard let typeEnd = bytes[range].firstIndex(of: colon), typeEnd > start else {
            findings.append(SocketIORules.v09Malformed.finding("no `type:` prefix", at: start))
            return nil
        }
        let (typeNumber, digitsEnd) = PacketText.integer(bytes, from: start, upTo: typeEnd)
        guard digitsEnd == typeEnd, let number = typeNumber,
            let type = SocketIO09PacketType(rawValue: Int(clamping: number))
        else {
            findings.append(
                SocketIORules.v09TypeUnknown.finding("type \"\(PacketText.string(bytes[start..<typeEnd]))\"", at: start)
            )
            return nil
        }
        var index = typeEnd + 1
        let (idValue, idEnd) = PacketText.integer(bytes, from: index, upTo: end)
        var id: Int64?
        if idEnd > index {
            if idValue == nil { findings.append(SocketIORules.v09IDInvalid.finding("message id over 2^53", at: index)) }
            id = idValue
        }
        index = idEnd
        var ackWithData = false
        if index < end, bytes[index] == UInt8(ascii: "+") {
            ackWithData = true
            index += 1
        }
        guard index < end, bytes[index] == colon else {
            findings.append(SocketIORules.v09Malformed.finding("expected `:` after the message id", at: index))
            return nil
        }
        index += 1
        let endpointStart = index
        while index < end, bytes[index] != colon { index += 1 }
        let endpoint = PacketText.string(bytes[endpointStart..<index])
        if index < end { index += 1 }
        var packet = SocketIO09Packet(
            type: type, id: id, ackWithData: ackWithData, endpoint: endpoint,
            data: PacketText.string(bytes[index..<end]), dataOffset: index)
        read(&packet, bytes, index..<end, limits: limits, findings: &findings)
        return packet
    }

    private static func read(
        _ packet: inout SocketIO09Packet, _ bytes: [UInt8], _ data: Range<Int>, limits: Limits,
        findings: inout [Finding]
    ) {
        let at = data.lowerBound
        switch packet.type {
        case .disconnect, .heartbeat, .noop:
            if !data.isEmpty {
                findings.append(SocketIORules.v09DataUnexpected.finding("\(packet.type.name) with data", at: at))
            }
        case .connect, .message:
            break
        case .json:
            switch PacketText.json(bytes, data, base: 0, limits: limits) {
            case .success(let value): packet.json = value
            case .failure(let error):
                findings.append(SocketIORules.v09JSONInvalid.finding(error.reason, at: error.offset))
            }
        case .event:
            switch PacketText.json(bytes, data, base: 0, limits: limits) {
            case .success(let value):
                guard case .object(let object) = value, let name = object["name"]?.stringValue else {
                    findings.append(
                        SocketIORules.v09EventInvalid.finding("event data is not {\"name\": string, …}", at: at))
                    return
                }
                packet.eventName = name
                switch object["args"] {
                case nil: packet.args = []
                case .array(let args)?: packet.args = args
                default: findings.append(SocketIORules.v09EventInvalid.finding("event args is not an array", at: at))
                }
            case .failure(let error):
                findings.append(SocketIORules.v09JSONInvalid.finding(error.reason, at: error.offset))
            }
        case .ack:
            let (ackID, digitsEnd) = PacketText.integer(bytes, from: data.lowerBound, upTo: data.upperBound)
            guard digitsEnd > data.lowerBound, let ackID else {
                findings.append(
                    SocketIORules.v09AckInvalid.finding("ack data does not start with the acknowledged id", at: at))
                return
            }
            packet.ackID = ackID
            packet.args = []
            guard digitsEnd < data.upperBound else { return }
            guard bytes[digitsEnd] == UInt8(ascii: "+") else {
                findings.append(SocketIORules.v09AckInvalid.finding("expected `+` after the ack id", at: digitsEnd))
                return
            }
            switch PacketText.json(bytes, digitsEnd + 1..<data.upperBound, base: 0, limits: limits) {
            case .success(.array(let args)): packet.args = args
            case .success:
                findings.append(
                    SocketIORules.v09AckInvalid.finding("ack arguments are not an array", at: digitsEnd + 1))
            case .failure(let error):
                findings.append(SocketIORules.v09JSONInvalid.finding(error.reason, at: error.offset))
            }
        case .error:
            let text = packet.data
            let parts = text.split(separator: "+", omittingEmptySubsequences: false)
            func index(_ part: Substring?, _ table: [String]) -> (Int?, Bool) {
                guard let part, !part.isEmpty else { return (nil, true) }
                guard let number = Int(part), table.indices.contains(number) else { return (nil, false) }
                return (number, true)
            }
            let (reason, reasonOK) = index(parts.first, SocketIO09Packet.errorReasons)
            let (advice, adviceOK) = index(parts.count > 1 ? parts[1] : nil, SocketIO09Packet.errorAdvice)
            packet.errorReason = reason
            packet.errorAdvice = advice
            if !reasonOK || !adviceOK || parts.count > 2 {
                findings.append(SocketIORules.v09ErrorInvalid.finding("error data \"\(text)\"", at: at))
            }
        }
    }
}
