import IMWireCore
import IMWireSocketIO

/// The JMessage Web codec: engine.io 3 / socket.io 4 messages whose events carry one JSON
/// object with `rid`.
public struct JMessageCodec: WireCodec {
    package var limits: Limits
    /// The master secret `c_init` signatures are checked with; nil: unchecked.
    package var secret: String?

    package init(limits: Limits = .default, secret: String? = nil) {
        self.limits = limits
        self.secret = secret
    }

    /// `input.binary`: the bytes are a binary frame (an attachment), else a text message.
    package func decodeValue(_ bytes: [UInt8], as input: CanonicalInput) -> JMessageMessage {
        Self.decode(bytes, binaryFrame: input.binary, direction: input.direction, limits: limits, secret: secret)
    }

    package func encode(_ event: JMessageEvent) -> [UInt8] { Self.encode(event) }

    /// `{"engineio", "socketio", "jmessage"}`; nil when no engine.io packet decoded.
    package func canonicalJSON(_ message: JMessageMessage) -> JSONValue? {
        message.engineIO.engineIO == nil ? .none : .some(JMessageCanonicalJSON.encode(message))
    }

    /// Decodes one WebSocket message (`binaryFrame`: it came in a binary frame). `direction`
    /// decides request/reply versus ack/response/push; without it, the payload does.
    public static func decode(
        _ bytes: [UInt8], binaryFrame: Bool = false, direction: Direction?, limits: Limits = .default,
        secret: String? = nil
    ) -> JMessageMessage {
        let transport = EngineIOMessage.decode(bytes, binaryFrame: binaryFrame, limits: limits)
        var message = JMessageMessage(engineIO: transport, findings: transport.findings)
        guard let packet = transport.socketIO else { return message }
        let shift = transport.engineIO?.dataOffset ?? 1
        let (event, findings) = interpret(packet, direction: direction, secret: secret)
        message.event = event
        message.findings += findings.map { $0.shifted(by: shift) }
        return message
    }

    /// The JMessage reading of a complete socket.io packet (offsets from the packet's first byte).
    public static func interpret(_ packet: SocketIOPacket, direction: Direction?, secret: String? = nil) -> (
        JMessageEvent?, [Finding]
    ) {
        let at = packet.dataOffset
        switch packet.type {
        case .ack, .binaryAck, .binaryEvent:
            return (nil, [JMessageRules.transportPacket.finding("socket.io \(packet.type.name)", at: 0)])
        case .connect, .disconnect, .error:
            return (nil, [])
        case .event:
            break
        }
        guard let name = packet.eventName else { return (nil, []) }
        guard packet.args.count == 1, case .object(let payload) = packet.args[0] else {
            return (
                nil,
                [
                    JMessageRules.payloadNotObject.finding(
                        "\(name) has \(packet.args.count) arguments, expected one object", at: at)
                ]
            )
        }
        var findings: [Finding] = []
        let spec = JMessageEvents.spec(name)
        if spec == nil { findings.append(JMessageRules.eventUnknown.finding("event \"\(name)\"", at: at)) }
        let kind = classify(name, payload, spec, direction: direction, at: at, &findings)
        let event = JMessageEvent(name: name, payload: payload, kind: kind)
        findings += JMessageChecks.check(event, at: at, secret: secret)
        return (event, findings)
    }

    private static func classify(
        _ name: String, _ payload: JSONObject, _ spec: JMessageEventSpec?, direction: Direction?, at: Int,
        _ findings: inout [Finding]
    ) -> JMessageEventKind {
        let role = spec?.role
        let fromServer = direction.map { $0 == .receive } ?? (role == .push || role == .ack || payload["code"] != nil)
        if !fromServer {
            switch role {
            case .push? where name != "event_notification", .ack?:
                findings.append(JMessageRules.wrongDirection.finding("\(name) is sent by the server", at: at))
                return .request
            case .reply?, .push?:
                return .reply
            default:
                return .request
            }
        }
        if role == .ack { return .ack }
        if role == .push { return .push }
        if role == .reply, payload["code"] == nil {
            findings.append(JMessageRules.wrongDirection.finding("\(name) is sent by the client", at: at))
        }
        return .response
    }

    /// The WebSocket text of an event: `42["name",{…}]`.
    public static func encode(_ event: JMessageEvent) -> [UInt8] { EngineIOMessage.encode(event.packet) }
}

/// The canonical JSON of a JMessage message: `{"engineio", "socketio", "jmessage"}`.
public enum JMessageCanonicalJSON {
    public static func encode(_ message: JMessageMessage) -> JSONValue {
        var object = JSONObject()
        object.append("engineio", message.engineIO.engineIO.map(SocketIOCanonicalJSON.encode) ?? .null)
        object.append("socketio", message.engineIO.socketIO.map(SocketIOCanonicalJSON.encode) ?? .null)
        object.append("jmessage", message.event.map(encode) ?? .null)
        return .object(object)
    }

    public static func encode(_ event: JMessageEvent) -> JSONValue {
        var object = JSONObject()
        object.append("event", .string(event.name))
        object.append("kind", .string(event.kind.rawValue))
        object.append("rid", event.rid.map { .number(JSONNumber($0)) } ?? .null)
        if event.kind == .response || event.kind == .ack, let code = event.code {
            object.append("code", .number(JSONNumber(code)))
            object.append("success", .bool(code == 0))
        }
        // Named through web-event-type; the number stays as it came (also in the payload).
        if event.name == "event_notification", let type = event.payload["event_type"] {
            object.append("event_type", JMessageEventType.json(type))
        }
        object.append("payload", .object(event.payload))
        return .object(object)
    }
}
