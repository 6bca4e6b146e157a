import IMWireCore
import IMWireSocketIO

/// What an event is in the exchange, given the way it travelled.
public enum JMessageEventKind: String, Sendable, Hashable {
    /// Client → server, expects an ack and (for requests) a response.
    case request
    /// Client → server answer to a push (msg_recv_v2, *_ack, event_notification for type 1).
    case reply
    /// Server → client `ack {rid}`.
    case ack
    /// Server → client answer with rid and code.
    case response
    /// Server → client push without rid.
    case push
}

/// One JMessage event: a socket.io EVENT `[name, {payload}]`.
public struct JMessageEvent: Sendable, Hashable {
    public var name: String
    public var payload: JSONObject
    public var kind: JMessageEventKind

    public init(name: String, payload: JSONObject, kind: JMessageEventKind) {
        self.name = name
        self.payload = payload
        self.kind = kind
    }

    public var spec: JMessageEventSpec? { JMessageEvents.spec(name) }
    public var rid: Int64? { payload["rid"]?.int64Value }
    public var code: Int64? { payload["code"]?.int64Value }

    /// The socket.io packet `socket.emit(name, payload)` sends.
    public var packet: SocketIOPacket { .event(name, [.object(payload)]) }

    /// `c_init rid=12 (request)`, `s_single_text rid=12 code=803005 (response)`.
    public var summary: String {
        var text = name
        if let rid { text += " rid=\(rid)" }
        if kind == .response, let code { text += " code=\(code)" }
        return text + " (\(kind.rawValue))"
    }
}

/// One WebSocket message of a JMessage connection: engine.io and socket.io packets, and the
/// JMessage event when the message is one. Offsets are from the message's first byte.
public struct JMessageMessage: WireDecoded, Hashable {
    public var engineIO: EngineIOMessage
    public var event: JMessageEvent?
    public var findings: [Finding]

    public var summary: String { event?.summary ?? engineIO.summary }
}
