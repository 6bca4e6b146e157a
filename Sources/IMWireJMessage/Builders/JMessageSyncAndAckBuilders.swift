import IMWireCore

/// One message of a `msg_sync` push (jmessage.md §3.5): `{msg_id, msg_type (3 single, 4 group),
/// from_uid, from_gid, ctime_ms, msg_level, need_receipt, content}`.
public struct JMessageSyncedMessage: Sendable, Hashable {
    /// The message object.
    public let json: JSONObject

    /// A message; `msgType` is 3 for one-to-one, 4 for group; nil optionals are left out.
    public init(
        msgID: Int64, msgType: Int64, fromUID: Int64, fromGID: Int64, ctimeMs: Int64, msgLevel: Int64? = 0,
        needReceipt: Bool? = false,
        content: JMessageContent
    ) {
        var json = JSONObject()
        json.append("msg_id", .number(JSONNumber(msgID)))
        json.append("msg_type", .number(JSONNumber(msgType)))
        json.append("from_uid", .number(JSONNumber(fromUID)))
        json.append("from_gid", .number(JSONNumber(fromGID)))
        json.append("ctime_ms", .number(JSONNumber(ctimeMs)))
        json.appendPresent("msg_level", msgLevel.map { .number(JSONNumber($0)) })
        json.appendPresent("need_receipt", needReceipt.map(JSONValue.bool))
        json.append("content", .object(content.json))
        self.json = json
    }

    /// The message `json` describes; throws when an id field or the content is missing.
    public init(_ json: JSONObject) throws(IMWireError) {
        for field in ["msg_id", "msg_type", "from_uid", "from_gid"] { _ = try json.integer(field, in: "msg_sync") }
        _ = try JMessageContent(json.object("content", in: "msg_sync"), in: "msg_sync")
        self.json = json
    }

    /// `msg_id`.
    public var msgID: Int64 { json["msg_id"]?.int64Value ?? 0 }
    /// `msg_type`: 3 one-to-one, 4 group.
    public var msgType: Int64 { json["msg_type"]?.int64Value ?? 0 }
    /// `from_uid`.
    public var fromUID: Int64 { json["from_uid"]?.int64Value ?? 0 }
    /// `from_gid` (0 for one-to-one).
    public var fromGID: Int64 { json["from_gid"]?.int64Value ?? 0 }
    /// `ctime_ms`, nil when absent.
    public var ctimeMs: Int64? { json["ctime_ms"]?.int64Value }
    /// `content`.
    public var content: JMessageContent { JMessageContent(unchecked: json["content"]?.objectValue ?? JSONObject()) }
}

/// The server's `msg_sync` push of new messages (jmessage.md §3.5): `{messages: […]}`, no rid.
public struct JMessageMsgSync: Sendable, Hashable {
    /// The push event.
    public let event: JMessageEvent

    /// A push of `messages`.
    public init(messages: [JMessageSyncedMessage]) {
        event = JMessageEvent(
            name: "msg_sync", payload: JSONObject(["messages": .array(messages.map { .object($0.json) })]), kind: .push)
    }

    /// The msg_sync `event` is; throws for another event or a message without its ids or content.
    public init(_ event: JMessageEvent) throws(IMWireError) {
        try event.expect("msg_sync")
        let messages = try event.payload.read("messages", event.name, "an array") { $0.arrayValue }
        for message in messages {
            guard case .object(let object) = message else {
                throw .jmessageWrongType(event: event.name, field: "messages", expected: "an array of objects")
            }
            _ = try JMessageSyncedMessage(object)
        }
        self.event = event
    }

    /// `messages`.
    public var messages: [JMessageSyncedMessage] {
        (event.payload["messages"]?.arrayValue ?? []).compactMap {
            $0.objectValue.map { JMessageSyncedMessage(unchecked: $0) }
        }
    }
}

extension JMessageSyncedMessage {
    init(unchecked json: JSONObject) { self.json = json }
}

/// `msg_recv_v2` (2.5.0): the client's receipt of one `msg_sync` message (jmessage.md §3.5),
/// `{msg_id, msg_type, from_uid, from_gid, rid}`.
public struct JMessageMsgReceived: Sendable, Hashable {
    /// The reply event.
    public let event: JMessageEvent

    /// The receipt of `message`.
    public init(for message: JMessageSyncedMessage, rid: Int64) throws(IMWireError) {
        try self.init(
            msgID: message.msgID, msgType: message.msgType, fromUID: message.fromUID, fromGID: message.fromGID, rid: rid
        )
    }

    /// A receipt by its fields.
    public init(msgID: Int64, msgType: Int64, fromUID: Int64, fromGID: Int64, rid: Int64) throws(IMWireError) {
        try JMessageRid.check(rid)
        var payload = JSONObject()
        for (key, value) in [
            ("msg_id", msgID), ("msg_type", msgType), ("from_uid", fromUID), ("from_gid", fromGID), ("rid", rid),
        ] {
            payload.append(key, .number(JSONNumber(value)))
        }
        event = JMessageEvent(name: "msg_recv_v2", payload: payload, kind: .reply)
    }

    /// The msg_recv_v2 `event` is; throws for another event, a missing id field or rid.
    public init(_ event: JMessageEvent) throws(IMWireError) {
        try event.expect("msg_recv_v2")
        for field in ["msg_id", "msg_type", "from_uid", "from_gid"] {
            _ = try event.payload.integer(field, in: event.name)
        }
        _ = try event.requireRid()
        self.event = event
    }

    /// `msg_id`.
    public var msgID: Int64 { event.payload["msg_id"]?.int64Value ?? 0 }
    /// `rid`.
    public var rid: Int64 { event.rid ?? 0 }
}

/// `sync_check` (jmessage.md §3.5): the periodic pull with the last keys,
/// `{sync_key, sync_type, sync_event_key, msg_receipt_key, rid}`.
public struct JMessageSyncCheck: Sendable, Hashable {
    /// The request event.
    public let event: JMessageEvent

    /// A pull with the keys of the last sync (all 0 after the login).
    public init(syncKey: Int64 = 0, syncType: Int64 = 0, syncEventKey: Int64 = 0, msgReceiptKey: Int64 = 0, rid: Int64)
        throws(IMWireError)
    {
        try JMessageRid.check(rid)
        var payload = JSONObject()
        let fields = [
            ("sync_key", syncKey), ("sync_type", syncType), ("sync_event_key", syncEventKey),
            ("msg_receipt_key", msgReceiptKey), ("rid", rid),
        ]
        for (key, value) in fields { payload.append(key, .number(JSONNumber(value))) }
        event = JMessageEvent(name: "sync_check", payload: payload, kind: .request)
    }

    /// The sync_check `event` is; throws for another event, a missing key or rid.
    public init(_ event: JMessageEvent) throws(IMWireError) {
        try event.expect("sync_check")
        for field in ["sync_key", "sync_type", "sync_event_key", "msg_receipt_key"] {
            _ = try event.payload.integer(field, in: event.name)
        }
        _ = try event.requireRid()
        self.event = event
    }

    /// `sync_key`.
    public var syncKey: Int64 { event.payload["sync_key"]?.int64Value ?? 0 }
    /// `rid`.
    public var rid: Int64 { event.rid ?? 0 }
}

/// The server's `ack {rid}` (jmessage.md §3.1): the client event with this rid arrived.
public struct JMessageAck: Sendable, Hashable {
    /// The ack event.
    public let event: JMessageEvent

    /// The ack of the event with `rid`.
    public init(rid: Int64) throws(IMWireError) {
        try JMessageRid.check(rid)
        event = JMessageEvent(name: "ack", payload: JSONObject(["rid": .number(JSONNumber(rid))]), kind: .ack)
    }

    /// The ack of `request` (its rid); throws when it has none.
    public init(acknowledging request: JMessageEvent) throws(IMWireError) {
        try self.init(rid: request.requireRid())
    }

    /// The ack `event` is; throws for another event or no rid.
    public init(_ event: JMessageEvent) throws(IMWireError) {
        try event.expect("ack")
        _ = try event.requireRid()
        self.event = event
    }

    /// `rid`.
    public var rid: Int64 { event.rid ?? 0 }

    /// Whether this acknowledges `request` (the same rid).
    public func acknowledges(_ request: JMessageEvent) -> Bool { request.rid == rid }
}

/// The client's `*_ack` of a sync push (jmessage.md §3.5): `sync_conversation_ack`,
/// `sync_event_ack` or `sync_receipt_ack`, `{sync_key, rid}` with the push's sync_key.
public struct JMessageSyncAck: Sendable, Hashable {
    /// The reply event.
    public let event: JMessageEvent

    /// The ack of a `sync_conversation`, `sync_event` or `sync_receipt` push: its sync_key under
    /// the ack's name (`JMessageEvents.syncAcks`); throws for another push or one without sync_key.
    public init(answering push: JMessageEvent, rid: Int64) throws(IMWireError) {
        guard let name = JMessageEvents.syncAcks[push.name] else { throw .jmessageNotAnswerable(push.name) }
        try self.init(name: name, syncKey: push.payload.integer("sync_key", in: push.name), rid: rid)
    }

    /// An ack by its event name and sync_key.
    public init(name: String, syncKey: Int64, rid: Int64) throws(IMWireError) {
        guard JMessageEvents.syncAcks.values.contains(name) else {
            throw .jmessageWrongEvent(
                expected: JMessageEvents.syncAcks.values.sorted().joined(separator: " or "), found: name)
        }
        try JMessageRid.check(rid)
        var payload = JSONObject()
        payload.append("sync_key", .number(JSONNumber(syncKey)))
        payload.append("rid", .number(JSONNumber(rid)))
        event = JMessageEvent(name: name, payload: payload, kind: .reply)
    }

    /// The sync ack `event` is; throws for another event, no sync_key or no rid.
    public init(_ event: JMessageEvent) throws(IMWireError) {
        guard JMessageEvents.syncAcks.values.contains(event.name) else {
            throw .jmessageWrongEvent(
                expected: JMessageEvents.syncAcks.values.sorted().joined(separator: " or "), found: event.name)
        }
        _ = try event.payload.integer("sync_key", in: event.name)
        _ = try event.requireRid()
        self.event = event
    }

    /// `sync_key`.
    public var syncKey: Int64 { event.payload["sync_key"]?.int64Value ?? 0 }
    /// `rid`.
    public var rid: Int64 { event.rid ?? 0 }

    /// Whether this acks `push` (the ack's name for it and the same sync_key).
    public func answers(_ push: JMessageEvent) -> Bool {
        JMessageEvents.syncAcks[push.name] == event.name && push.payload["sync_key"]?.int64Value == syncKey
    }
}

/// The server's answer to a request after its ack (jmessage.md §3.1): the same event name (a
/// one-to-one send is answered as `s_single_text`) with `{rid, code, message, …result}`.
public struct JMessageResponse: Sendable, Hashable {
    /// The response event.
    public let event: JMessageEvent

    /// The answer to `request`: its rid, `code` (0 success), `message` when given, then `result`.
    public init(
        answering request: JMessageEvent, code: Int64 = 0, message: String? = nil, result: JSONObject = JSONObject()
    )
        throws(IMWireError)
    {
        let rid = try request.requireRid()
        let name = JMessageEvents.responseAliases.first { $0.value == request.name }?.key ?? request.name
        var payload = JSONObject()
        payload.append("rid", .number(JSONNumber(rid)))
        payload.append("code", .number(JSONNumber(code)))
        payload.appendPresent("message", message.map(JSONValue.string))
        for member in result { payload.append(member.key, member.value) }
        event = JMessageEvent(name: name, payload: payload, kind: .response)
    }

    /// The response `event` is; throws unless it is of kind `response` with a rid and an
    /// integer code.
    public init(_ event: JMessageEvent) throws(IMWireError) {
        guard event.kind == .response else {
            throw .jmessageWrongEvent(expected: "a response", found: "\(event.name) (\(event.kind.rawValue))")
        }
        _ = try event.requireRid()
        _ = try event.payload.integer("code", in: event.name)
        self.event = event
    }

    /// `rid`.
    public var rid: Int64 { event.rid ?? 0 }
    /// `code`: 0 success (jmessage.md §3.3).
    public var code: Int64 { event.code ?? 0 }
    /// Whether `code` is 0.
    public var isSuccess: Bool { code == 0 }
    /// `message`, nil when absent.
    public var message: String? { event.payload["message"]?.stringValue }

    /// Whether this answers `request`: the same rid, under its name or its response alias.
    public func answers(_ request: JMessageEvent) -> Bool {
        request.rid == rid && (request.name == event.name || JMessageEvents.responseAliases[event.name] == request.name)
    }
}

extension JMessageEvent {
    /// The c_init this event is; nil for another event or an incomplete one.
    public var initRequest: JMessageInit? { try? JMessageInit(self) }
    /// The login this event is; nil for another event or an incomplete one.
    public var login: JMessageLogin? { try? JMessageLogin(self) }
    /// The message send this event is; nil for another event or an incomplete one.
    public var send: JMessageSend? { try? JMessageSend(self) }
    /// The msg_sync push this event is; nil for another event or an incomplete one.
    public var msgSync: JMessageMsgSync? { try? JMessageMsgSync(self) }
    /// The msg_recv_v2 reply this event is; nil for another event or an incomplete one.
    public var msgReceived: JMessageMsgReceived? { try? JMessageMsgReceived(self) }
    /// The sync_check this event is; nil for another event or an incomplete one.
    public var syncCheck: JMessageSyncCheck? { try? JMessageSyncCheck(self) }
    /// The server ack this event is; nil for another event or one without rid.
    public var ack: JMessageAck? { try? JMessageAck(self) }
    /// The sync ack this event is; nil for another event or an incomplete one.
    public var syncAck: JMessageSyncAck? { try? JMessageSyncAck(self) }
    /// The response this event is; nil for another kind of event or one without rid and code.
    public var response: JMessageResponse? { try? JMessageResponse(self) }
}
