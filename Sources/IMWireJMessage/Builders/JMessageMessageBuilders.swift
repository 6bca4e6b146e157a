import IMWireCore

/// `target_type` of a message `content`: who receives it (jmessage.md §3.7).
public enum JMessageTargetType: String, Sendable, Hashable {
    /// One user (sent with `s_across_single_text`).
    case single
    /// A group (sent with `send_group_msg`).
    case group
}

/// A message protocol `content` (jmessage.md §3.7), its fields in the Web SDK's order:
/// `{version: 1, target_type, from_platform, target_id, target_name, from_id, create_time,
/// msg_type, msg_body}`.
public struct JMessageContent: Sendable, Hashable {
    /// The content object.
    public let json: JSONObject

    /// A content of any `msg_type` with its `msg_body`; a nil `targetName` or `fromPlatform`
    /// leaves the field out.
    public init(
        targetType: JMessageTargetType, targetID: String, targetName: String?, fromID: String, createTime: Int64,
        msgType: String,
        msgBody: JSONObject, fromPlatform: String? = "web"
    ) {
        var json = JSONObject()
        json.append("version", 1)
        json.append("target_type", .string(targetType.rawValue))
        json.appendPresent("from_platform", fromPlatform.map(JSONValue.string))
        json.append("target_id", .string(targetID))
        json.appendPresent("target_name", targetName.map(JSONValue.string))
        json.append("from_id", .string(fromID))
        json.append("create_time", .number(JSONNumber(createTime)))
        json.append("msg_type", .string(msgType))
        json.append("msg_body", .object(msgBody))
        self.json = json
    }

    /// A text message: `msg_body {text, extras}` (`extras` left out when nil).
    public static func text(
        _ text: String, extras: JSONObject? = nil, targetType: JMessageTargetType, targetID: String,
        targetName: String?, fromID: String,
        createTime: Int64
    ) -> JMessageContent {
        var body = JSONObject()
        body.append("text", .string(text))
        body.appendPresent("extras", extras.map(JSONValue.object))
        return JMessageContent(
            targetType: targetType, targetID: targetID, targetName: targetName, fromID: fromID, createTime: createTime,
            msgType: "text",
            msgBody: body)
    }

    /// The content `json` describes; throws when `target_type`, `target_id`, `from_id`,
    /// `create_time`, `msg_type` or `msg_body` is missing or of another type.
    public init(_ json: JSONObject, in event: String = "content") throws(IMWireError) {
        let targetType = try json.string("target_type", in: event)
        guard JMessageTargetType(rawValue: targetType) != nil else {
            throw .jmessageWrongType(event: event, field: "target_type", expected: "single or group")
        }
        _ = try json.string("target_id", in: event)
        _ = try json.string("from_id", in: event)
        _ = try json.integer("create_time", in: event)
        _ = try json.string("msg_type", in: event)
        _ = try json.object("msg_body", in: event)
        self.json = json
    }

    /// `target_type`.
    public var targetType: JMessageTargetType {
        json["target_type"]?.stringValue.flatMap(JMessageTargetType.init(rawValue:)) ?? .single
    }
    /// `target_id`: the user name or group id.
    public var targetID: String { json["target_id"]?.stringValue ?? "" }
    /// `target_name`, nil when absent.
    public var targetName: String? { json["target_name"]?.stringValue }
    /// `from_id`: the sender.
    public var fromID: String { json["from_id"]?.stringValue ?? "" }
    /// `create_time` (the Web SDK sends milliseconds).
    public var createTime: Int64 { json["create_time"]?.int64Value ?? 0 }
    /// `msg_type`: text, voice, image, file, video, location or custom.
    public var msgType: String { json["msg_type"]?.stringValue ?? "" }
    /// `msg_body`.
    public var msgBody: JSONObject { json["msg_body"]?.objectValue ?? JSONObject() }
    /// `msg_body.text` of a text message, else nil.
    public var text: String? { msgType == "text" ? msgBody["text"]?.stringValue : nil }
}

/// One user of a group message's @ list (`users`): `{username, appkey}`.
public struct JMessageAtUser: Sendable, Hashable {
    /// The user's name.
    public var username: String
    /// The user's app key.
    public var appkey: String

    /// A user of the @ list.
    public init(username: String, appkey: String) {
        self.username = username
        self.appkey = appkey
    }

    var json: JSONValue { ["username": .string(username), "appkey": .string(appkey)] }
}

/// A message send (jmessage.md §3.7): one-to-one as `s_across_single_text` (its response comes
/// back as `s_single_text`, §3.1) or to a group as `send_group_msg`. The payload's target comes
/// from the content, as the SDK's `setTarget` sets both.
public struct JMessageSend: Sendable, Hashable {
    /// The send request event.
    public let event: JMessageEvent

    /// A one-to-one send: `{content, no_offline, no_notification, custom_notification,
    /// target_name, need_receipt, target_id, appkey, rid}`, nil fields left out. `appkey` is the
    /// target's for a cross-app message, else the own.
    public static func single(
        _ content: JMessageContent, appkey: String, noOffline: Bool? = false, noNotification: Bool? = false,
        customNotification: JSONObject? = nil, needReceipt: Bool? = nil, rid: Int64
    ) throws(IMWireError) -> JMessageSend {
        let name = "s_across_single_text"
        guard content.targetType == .single else {
            throw .jmessageTargetTypeMismatch(event: name, targetType: content.targetType.rawValue)
        }
        try JMessageRid.check(rid)
        var payload = JSONObject()
        payload.append("content", .object(content.json))
        payload.appendPresent("no_offline", noOffline.map(JSONValue.bool))
        payload.appendPresent("no_notification", noNotification.map(JSONValue.bool))
        payload.appendPresent("custom_notification", customNotification.map(JSONValue.object))
        payload.appendPresent("target_name", content.targetName.map(JSONValue.string))
        payload.appendPresent("need_receipt", needReceipt.map(JSONValue.bool))
        payload.append("target_id", .string(content.targetID))
        payload.append("appkey", .string(appkey))
        payload.append("rid", JMessageEvent.number(rid))
        return JMessageSend(checked: JMessageEvent(name: name, payload: payload, kind: .request))
    }

    /// A group send: `{content, no_offline, no_notification, custom_notification, target_gid,
    /// users, appkey, rid}`, nil fields left out; `users` is the @ list.
    public static func group(
        _ content: JMessageContent, appkey: String, users: [JMessageAtUser]? = nil, noOffline: Bool? = false,
        noNotification: Bool? = false,
        customNotification: JSONObject? = nil, rid: Int64
    ) throws(IMWireError) -> JMessageSend {
        let name = "send_group_msg"
        guard content.targetType == .group else {
            throw .jmessageTargetTypeMismatch(event: name, targetType: content.targetType.rawValue)
        }
        try JMessageRid.check(rid)
        var payload = JSONObject()
        payload.append("content", .object(content.json))
        payload.appendPresent("no_offline", noOffline.map(JSONValue.bool))
        payload.appendPresent("no_notification", noNotification.map(JSONValue.bool))
        payload.appendPresent("custom_notification", customNotification.map(JSONValue.object))
        payload.append("target_gid", .string(content.targetID))
        payload.appendPresent("users", users.map { .array($0.map(\.json)) })
        payload.append("appkey", .string(appkey))
        payload.append("rid", JMessageEvent.number(rid))
        return JMessageSend(checked: JMessageEvent(name: name, payload: payload, kind: .request))
    }

    private init(checked event: JMessageEvent) { self.event = event }

    /// The send `event` is (`s_across_single_text`, the legacy `s_single_text` request, or
    /// `send_group_msg`); throws for another event, a missing target, content or rid, or a
    /// content whose `target_type` does not fit the event.
    public init(_ event: JMessageEvent) throws(IMWireError) {
        try event.expect("s_across_single_text", "s_single_text", "send_group_msg")
        let content = try JMessageContent(event.payload.object("content", in: event.name), in: event.name)
        let isGroup = event.name == "send_group_msg"
        _ = try event.payload.string(isGroup ? "target_gid" : "target_id", in: event.name)
        if content.targetType != (isGroup ? .group : .single) {
            throw .jmessageTargetTypeMismatch(event: event.name, targetType: content.targetType.rawValue)
        }
        _ = try event.requireRid()
        self.event = event
    }

    /// Whether this is a group send.
    public var isGroup: Bool { event.name == "send_group_msg" }
    /// `content`.
    public var content: JMessageContent {
        JMessageContent(unchecked: event.payload["content"]?.objectValue ?? JSONObject())
    }
    /// `target_id` (one-to-one) or `target_gid` (group).
    public var target: String { event.payload[isGroup ? "target_gid" : "target_id"]?.stringValue ?? "" }
    /// `appkey`, nil when absent (the legacy `s_single_text` request).
    public var appkey: String? { event.payload["appkey"]?.stringValue }
    /// `no_offline`, nil when absent.
    public var noOffline: Bool? { event.payload["no_offline"]?.boolValue }
    /// `no_notification`, nil when absent.
    public var noNotification: Bool? { event.payload["no_notification"]?.boolValue }
    /// The @ list of a group send (`users`), empty when absent.
    public var users: [JMessageAtUser] {
        (event.payload["users"]?.arrayValue ?? []).compactMap { user in
            guard let name = user["username"]?.stringValue, let appkey = user["appkey"]?.stringValue else { return nil }
            return JMessageAtUser(username: name, appkey: appkey)
        }
    }
    /// `rid`.
    public var rid: Int64 { event.rid ?? 0 }
}

extension JMessageContent {
    /// A content already read by `init(_:in:)` (or taken as it is).
    init(unchecked json: JSONObject) { self.json = json }
}
