import IMWireCore

/// The canonical JSON of socket.io and engine.io packets, for `imwire decode` and the fixtures.
/// Field names follow the reference parsers: socket.io-client 0.9.11 for 0.9 packets
/// (`type`, `id`, `ack`, `endpoint`, `data`/`qs`/`name`/`args`/`ackId`/`reason`/`advice`),
/// engine.io-parser and socket.io-parser for protocol 3/4 (`type`, `data`; `nsp`, `id`,
/// `attachments`, `data`).
package enum SocketIOCanonicalJSON {
    package static func encode(_ packet: SocketIO09Packet) -> JSONValue {
        var object = JSONObject()
        object.append("type", .string(packet.type.name))
        if let id = packet.id {
            object.append("id", .number(JSONNumber(id)))
            object.append("ack", packet.ackWithData ? "data" : true)
        }
        object.append("endpoint", .string(packet.endpoint))
        switch packet.type {
        case .connect: object.append("qs", .string(packet.data))
        case .message: object.append("data", .string(packet.data))
        case .json: object.append("data", packet.json ?? .null)
        case .event:
            object.append("name", packet.eventName.map(JSONValue.string) ?? .null)
            object.append("args", .array(packet.args ?? []))
        case .ack:
            object.append("ackId", packet.ackID.map { .number(JSONNumber($0)) } ?? .null)
            object.append("args", .array(packet.args ?? []))
        case .error:
            object.append("reason", .string(packet.errorReason.map { SocketIO09Packet.errorReasons[$0] } ?? ""))
            object.append("advice", .string(packet.errorAdvice.map { SocketIO09Packet.errorAdvice[$0] } ?? ""))
        case .disconnect, .heartbeat, .noop:
            break
        }
        return .object(object)
    }

    /// The packet a canonical JSON describes (the inverse of `encode`).
    package static func decode09(_ json: JSONValue) throws(IMWireError) -> SocketIO09Packet {
        guard let name = json["type"]?.stringValue, let type = SocketIO09PacketType(name: name) else {
            throw IMWireError(.canonicalJSON, "type must name a socket.io 0.9 packet type")
        }
        var packet = SocketIO09Packet(
            type: type, id: json["id"]?.int64Value, ackWithData: json["ack"]?.stringValue == "data",
            endpoint: json["endpoint"]?.stringValue ?? "")
        switch type {
        case .connect: packet.data = json["qs"]?.stringValue ?? ""
        case .message: packet.data = json["data"]?.stringValue ?? ""
        case .json: packet.json = json["data"] ?? .null
        case .event:
            packet.eventName = json["name"]?.stringValue
            packet.args = json["args"]?.arrayValue ?? []
        case .ack:
            packet.ackID = json["ackId"]?.int64Value
            packet.args = json["args"]?.arrayValue ?? []
        case .error:
            packet.errorReason = json["reason"]?.stringValue.flatMap {
                SocketIO09Packet.errorReasons.firstIndex(of: $0)
            }
            packet.errorAdvice = json["advice"]?.stringValue.flatMap { SocketIO09Packet.errorAdvice.firstIndex(of: $0) }
        case .disconnect, .heartbeat, .noop:
            break
        }
        return packet
    }

    package static func encode(_ packet: EngineIOPacket) -> JSONValue {
        var object = JSONObject()
        object.append("type", .string(packet.type.name))
        switch packet.payload {
        case .text(let text): object.append("data", .string(text))
        case .binary(let data):
            object.append("binaryHex", .string(Hex.encode(data)))
            if packet.base64 { object.append("base64", true) }
        }
        return .object(object)
    }

    package static func decodeEngineIO(_ json: JSONValue) throws(IMWireError) -> EngineIOPacket {
        guard let name = json["type"]?.stringValue, let type = EngineIOPacketType(name: name) else {
            throw IMWireError(.canonicalJSON, "type must name an engine.io packet type")
        }
        if let hex = json["binaryHex"]?.stringValue {
            guard let data = try? Hex.decode(hex) else { throw IMWireError(.canonicalJSON, "binary_hex is not hex") }
            return EngineIOPacket(type: type, payload: .binary(data), base64: json["base64"] == .bool(true))
        }
        return EngineIOPacket(type: type, payload: .text(json["data"]?.stringValue ?? ""))
    }

    package static func encode(_ packet: SocketIOPacket) -> JSONValue {
        var object = JSONObject()
        object.append("type", .string(packet.type.name))
        object.append("nsp", .string(packet.namespace))
        if let query = packet.query { object.append("query", .string(query)) }
        if let id = packet.id { object.append("id", .number(JSONNumber(id))) }
        if let attachments = packet.attachments { object.append("attachments", .number(JSONNumber(attachments))) }
        if let data = packet.data { object.append("data", data) }
        return .object(object)
    }

    package static func decodeSocketIO(_ json: JSONValue) throws(IMWireError) -> SocketIOPacket {
        guard let name = json["type"]?.stringValue, let type = SocketIOPacketType(name: name) else {
            throw IMWireError(.canonicalJSON, "type must name a socket.io packet type")
        }
        return SocketIOPacket(
            type: type, namespace: json["nsp"]?.stringValue ?? "/", query: json["query"]?.stringValue,
            id: json["id"]?.int64Value, attachments: json["attachments"]?.int64Value.map { Int(clamping: $0) },
            data: json["data"])
    }

    /// `{"engineio": …, "socketio": … | null}` for one engine.io WebSocket message.
    package static func encode(_ message: EngineIOMessage) -> JSONValue {
        [
            "engineio": message.engineIO.map(encode) ?? .null,
            "socketio": message.socketIO.map(encode) ?? .null,
        ]
    }
}
