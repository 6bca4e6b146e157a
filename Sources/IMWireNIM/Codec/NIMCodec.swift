import IMWireCore
import IMWireSocketIO

/// One socket.io 0.9 packet of a NIM connection and, when it carries one, the NIM packet.
public struct NIMItem: Sendable, Hashable {
    public var socketIO: SocketIO09Packet
    public var nim: NIMPacket?
}

// A login's socket.io packet holds its token under tag 1000, which no name in the packet's JSON
// says is one: the packet shows its text as its length (`CredentialFields` knows NIM's login),
// and the NIM packet shows the rest, the tokens as their length.
extension NIMItem: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The socket.io packet and the NIM packet, each as it shows itself.
    public var description: String {
        "NIMItem(socketIO: \(String(reflecting: socketIO)), nim: \(String(reflecting: nim)))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["socketIO": socketIO, "nim": nim as Any], displayStyle: .struct)
    }
}

/// One WebSocket text message of a NIM connection, decoded through both layers. Findings of
/// both layers have offsets from the message's first byte.
public struct NIMMessage: WireDecoded, Hashable {
    public var items: [NIMItem]
    public var findings: [Finding]
    public var framed: Bool

    /// `message 7_1 sendMsg ser=3`, `heartbeat`, or `undecodable`.
    public var summary: String {
        guard !items.isEmpty else { return "undecodable" }
        return items.map { item in item.nim.map { $0.summary } ?? item.socketIO.summary }.joined(separator: "; ")
    }
}

/// The NIM Web link codec: socket.io 0.9 text messages carrying `JSON.stringify(cmd)`.
public struct NIMCodec: WireCodec {
    package var limits: Limits

    package init(limits: Limits = .default) { self.limits = limits }

    /// One WebSocket text message (or xhr-polling body); `input.direction` as `decode(_:direction:limits:)`.
    package func decodeValue(_ bytes: [UInt8], as input: CanonicalInput) -> NIMMessage {
        Self.decode(bytes, direction: input.direction, limits: limits)
    }

    package func encode(_ packet: NIMPacket) -> [UInt8] { Self.encode(packet) }

    /// `[{"socketio": …, "nim": …}]`, an item per socket.io 0.9 packet.
    package func canonicalJSON(_ message: NIMMessage) -> JSONValue? {
        // Spelled out: with JSONValue nil-literal convertible, `cond ? nil : value` made `.some(.null)`.
        message.items.isEmpty ? .none : .some(NIMCanonicalJSON.encode(message))
    }

    /// Decodes one WebSocket text message. `direction` (send: client → server) decides which
    /// shape (request or response) is expected; without it the shape decides.
    public static func decode(_ bytes: [UInt8], direction: Direction?, limits: Limits = .default) -> NIMMessage {
        let transport = SocketIO09Decoder.decode(bytes, limits: limits)
        var findings = transport.findings
        var items: [NIMItem] = []
        for packet in transport.packets {
            var item = NIMItem(socketIO: packet)
            switch packet.type {
            case .message:
                let data = Array(packet.data.utf8)
                let (nim, inner) = NIMDecoder.decode(data, direction: direction, limits: limits)
                item.nim = nim
                findings += inner.map { $0.shifted(by: packet.dataOffset) }
            case .json:
                // socket.io 0.9 also hands json packets to the 'message' listener.
                if let json = packet.json {
                    let (nim, inner) = NIMDecoder.decode(
                        Array(JSONWriter.string(json).utf8), direction: direction, limits: limits)
                    item.nim = nim
                    findings += inner.map { finding in
                        var moved = finding
                        moved.offset = packet.dataOffset
                        return moved
                    }
                }
            case .event, .ack:
                findings.append(
                    NIMRules.transportPacket.finding("a socket.io \(packet.type.name) packet on a NIM link", at: 0))
            case .connect, .disconnect, .heartbeat, .error, .noop:
                break
            }
            items.append(item)
        }
        return NIMMessage(items: items, findings: findings, framed: transport.framed)
    }

    /// The WebSocket text of a NIM packet as the Web SDK sends it: a socket.io message packet.
    public static func encode(_ packet: NIMPacket) -> [UInt8] {
        Array(SocketIO09Packet.message(JSONWriter.string(packet.json)).encoded.utf8)
    }
}

/// The canonical JSON of NIM packets (`imwire decode --dialect nim`, fixtures).
public enum NIMCanonicalJSON {
    public static func encode(_ packet: NIMPacket) -> JSONValue {
        var object = JSONObject()
        let command = packet.command
        switch packet {
        case .request(let request):
            object.append("kind", "request")
            append(&object, request.sid, request.cid, request.ser, command, name: command?.command)
            object.append(
                "params",
                .array(
                    request.params.map { parameter in
                        var item = JSONObject()
                        item.append("t", .string(parameter.type))
                        item.append("v", parameter.value)
                        if let name = parameter.name { item.append("name", .string(name)) }
                        if let fields = parameter.fields { item.append("fields", fields) }
                        return .object(item)
                    }))
        case .response(let response):
            object.append("kind", "response")
            append(
                &object, response.sid, response.cid, response.ser, command, name: command?.handler ?? command?.command)
            object.append("code", .number(JSONNumber(response.code)))
            object.append("success", .bool(response.isSuccess))
            if let r = response.r { object.append("r", .array(r)) }
            if !response.fields.isEmpty { object.append("fields", .object(response.fields)) }
            if let inner = response.inner {
                var value = JSONObject()
                value.append("sid", .number(JSONNumber(inner.sid)))
                value.append("cid", .number(JSONNumber(inner.cid)))
                value.append("command", inner.command.map { .string($0.handler ?? $0.name) } ?? .null)
                value.append("body", inner.body)
                if !inner.fields.isEmpty { value.append("fields", .object(inner.fields)) }
                object.append("inner", .object(value))
            }
        }
        return .object(object)
    }

    private static func append(
        _ object: inout JSONObject, _ sid: Int64, _ cid: Int64, _ ser: Int64, _ command: NIMCommand?,
        name: String?
    ) {
        object.append("sid", .number(JSONNumber(sid)))
        object.append("cid", .number(JSONNumber(cid)))
        object.append("ser", .number(JSONNumber(ser)))
        object.append("service", command.map { .string($0.service) } ?? .null)
        object.append("command", name.map(JSONValue.string) ?? .null)
    }

    /// The packet a canonical JSON describes (names and named fields are ignored: the wire
    /// form is `params[].t/v` and `r`).
    public static func decode(_ json: JSONValue) throws(IMWireError) -> NIMPacket {
        guard let sid = json["sid"]?.int64Value, let cid = json["cid"]?.int64Value, let ser = json["ser"]?.int64Value
        else {
            throw IMWireError(.canonicalJSON, "sid, cid and ser are required")
        }
        switch json["kind"]?.stringValue {
        case "request":
            let params = (json["params"]?.arrayValue ?? []).map {
                NIMParameter(type: $0["t"]?.stringValue ?? "", value: $0["v"] ?? .null)
            }
            return .request(NIMRequest(sid: sid, cid: cid, ser: ser, params: params))
        case "response":
            guard let code = json["code"]?.int64Value else {
                throw IMWireError(.canonicalJSON, "a response needs code")
            }
            return .response(NIMResponse(sid: sid, cid: cid, ser: ser, code: code, r: json["r"]?.arrayValue))
        default:
            throw IMWireError(.canonicalJSON, "kind must be request or response")
        }
    }

    /// `{"socketio": …, "nim": … | null}` per packet of a message.
    public static func encode(_ message: NIMMessage) -> JSONValue {
        .array(
            message.items.map { item in
                ["socketio": SocketIOCanonicalJSON.encode(item.socketIO), "nim": item.nim.map(encode) ?? .null]
            })
    }
}
