import Crypto
import IMWireCore

extension IMWireError.Code {
    /// The event has another name than the typed view reads.
    public static let jmessageWrongEvent = Self("jmessage.wrong-event")
    /// A field the typed event needs is absent.
    public static let jmessageMissingField = Self("jmessage.missing-field")
    /// A field holds another JSON type than the typed event reads.
    public static let jmessageWrongType = Self("jmessage.wrong-type")
    /// A rid outside 1…2147483646 (jmessage.md §2.2).
    public static let jmessageRidOutOfRange = Self("jmessage.rid-out-of-range")
    /// A message `content` whose `target_type` does not fit the send event (jmessage.md §3.7).
    public static let jmessageTargetTypeMismatch = Self("jmessage.target-type-mismatch")
    /// A push the typed reply does not answer (a sync ack for an event other than a sync push).
    public static let jmessageNotAnswerable = Self("jmessage.not-answerable")
}

/// Why a typed JMessage event could not be built, or an event could not be read as one: one
/// line naming the problem, the field (`field`) when it is about one.
extension IMWireError {
    package static func jmessageWrongEvent(expected: String, found: String) -> IMWireError {
        IMWireError(.jmessageWrongEvent, "the event is \(found), not \(expected)")
    }

    package static func jmessageMissingField(event: String, field: String) -> IMWireError {
        IMWireError(.jmessageMissingField, "\(event) needs the field \"\(field)\"", field: field)
    }

    package static func jmessageWrongType(event: String, field: String, expected: String) -> IMWireError {
        IMWireError(.jmessageWrongType, "\(event) field \"\(field)\" is not \(expected)", field: field)
    }

    package static func jmessageRidOutOfRange(_ rid: Int64) -> IMWireError {
        IMWireError(.jmessageRidOutOfRange, "rid \(rid) is not in 1…2147483646", field: "rid")
    }

    package static func jmessageTargetTypeMismatch(event: String, targetType: String) -> IMWireError {
        IMWireError(.jmessageTargetTypeMismatch, "\(event) does not send a \(targetType) message", field: "target_type")
    }

    package static func jmessageNotAnswerable(_ name: String) -> IMWireError {
        IMWireError(.jmessageNotAnswerable, "\(name) is not answered this way")
    }
}

/// The `rid` a client event carries: an integer in 1…2147483646 (jmessage.md §2.2).
public enum JMessageRid {
    /// The rids the SDK draws: 1…2147483646.
    public static let range: ClosedRange<Int64> = 1...JMessageChecks.maxRid

    /// A random rid, as the SDK draws one (keeping it unique among pending requests is the caller's part).
    public static func random() -> Int64 { Int64.random(in: range) }

    /// Throws `ridOutOfRange` unless `rid` is in `range`.
    static func check(_ rid: Int64) throws(IMWireError) {
        guard range.contains(rid) else { throw .jmessageRidOutOfRange(rid) }
    }
}

/// Payload building and reading shared by the typed events.
extension JSONObject {
    /// Appends `key` unless `value` is nil (an optional field left out).
    mutating func appendPresent(_ key: String, _ value: JSONValue?) {
        if let value { append(key, value) }
    }

    func read<T>(_ key: String, _ event: String, _ expected: String, _ get: (JSONValue) -> T?)
        throws(IMWireError) -> T
    {
        guard let value = self[key] else { throw .jmessageMissingField(event: event, field: key) }
        guard let typed = get(value) else { throw .jmessageWrongType(event: event, field: key, expected: expected) }
        return typed
    }

    func string(_ key: String, in event: String) throws(IMWireError) -> String {
        try read(key, event, "a string") { $0.stringValue }
    }
    func integer(_ key: String, in event: String) throws(IMWireError) -> Int64 {
        try read(key, event, "an integer") { $0.numberValue?.isInteger == true ? $0.int64Value : nil }
    }
    func object(_ key: String, in event: String) throws(IMWireError) -> JSONObject {
        try read(key, event, "an object") { $0.objectValue }
    }
}

extension JMessageEvent {
    /// Throws `wrongEvent` unless the event's name is one of `names`.
    func expect(_ names: String...) throws(IMWireError) {
        guard names.contains(name) else {
            throw .jmessageWrongEvent(expected: names.joined(separator: " or "), found: name)
        }
    }

    /// The payload's rid, required and in range.
    func requireRid() throws(IMWireError) -> Int64 {
        let rid = try payload.integer("rid", in: name)
        try JMessageRid.check(rid)
        return rid
    }

    static func number(_ value: Int64) -> JSONValue { .number(JSONNumber(value)) }
}

/// c_init (jmessage.md §3.4): `{appkey, random_str, signature, timestamp, flag, fromPlatForm, rid}`
/// in the order the Web SDK sends it (the app's arguments as the documentation passes them, then
/// the SDK's `fromPlatForm: 'j'`, then the rid).
public struct JMessageInit: Sendable, Hashable {
    /// The c_init request event.
    public let event: JMessageEvent

    /// A c_init with a signature already computed; `flag` 0/1 turns roaming off/on (nil leaves it out).
    public init(
        appkey: String, randomString: String, signature: String, timestamp: Int64, flag: Int64? = 0,
        fromPlatform: String = "j",
        rid: Int64
    ) throws(IMWireError) {
        try JMessageRid.check(rid)
        var payload = JSONObject()
        payload.append("appkey", .string(appkey))
        payload.append("random_str", .string(randomString))
        payload.append("signature", .string(signature))
        payload.append("timestamp", JMessageEvent.number(timestamp))
        payload.appendPresent("flag", flag.map(JMessageEvent.number))
        payload.append("fromPlatForm", .string(fromPlatform))
        payload.append("rid", JMessageEvent.number(rid))
        event = JMessageEvent(name: "c_init", payload: payload, kind: .request)
    }

    /// A c_init signed with the app's master secret:
    /// `md5("appkey=…&timestamp=…&random_str=…&key=<secret>")`.
    public static func signed(
        appkey: String, randomString: String, timestamp: Int64, secret: String, flag: Int64? = 0, rid: Int64
    ) throws(IMWireError) -> JMessageInit {
        let signature = JMessageSignature.sign(
            appkey: appkey, timestamp: String(timestamp), randomString: randomString, secret: secret)
        return try JMessageInit(
            appkey: appkey, randomString: randomString, signature: signature, timestamp: timestamp, flag: flag, rid: rid
        )
    }

    /// The c_init `event` is; throws for another event or a missing signature field or rid.
    public init(_ event: JMessageEvent) throws(IMWireError) {
        try event.expect("c_init")
        for field in ["appkey", "random_str", "signature"] { _ = try event.payload.string(field, in: event.name) }
        _ = try event.payload.read("timestamp", event.name, "a number or a string") { JMessageSignature.text($0) }
        _ = try event.requireRid()
        self.event = event
    }

    /// `appkey`.
    public var appkey: String { event.payload["appkey"]?.stringValue ?? "" }
    /// `random_str`.
    public var randomString: String { event.payload["random_str"]?.stringValue ?? "" }
    /// `signature`: 32 lowercase hex digits when the SDK computed it.
    public var signature: String { event.payload["signature"]?.stringValue ?? "" }
    /// `timestamp` as JavaScript writes it into the signed text (a number or a string on the wire).
    public var timestamp: String { event.payload["timestamp"].flatMap(JMessageSignature.text) ?? "" }
    /// `flag` (0 roaming off, 1 on), nil when absent.
    public var flag: Int64? { event.payload["flag"]?.int64Value }
    /// `fromPlatForm` ('j' for the Web SDK), nil when absent.
    public var fromPlatform: String? { event.payload["fromPlatForm"]?.stringValue }
    /// `rid`.
    public var rid: Int64 { event.rid ?? 0 }

    /// Whether `signature` is the one the master secret `secret` gives.
    public func isSigned(with secret: String) -> Bool {
        signature
            == JMessageSignature.sign(appkey: appkey, timestamp: timestamp, randomString: randomString, secret: secret)
    }
}

/// The password of a login: the SDK sends `md5(password)` unless the app passes `is_md5`.
public enum JMessagePassword: Sendable, Hashable {
    /// The user's password, sent as its MD5 (32 lowercase hex digits).
    case plain(String)
    /// A password already hashed by the app (`is_md5`), sent as given.
    case md5(String)

    /// What the payload's `password` carries.
    public var wire: String {
        switch self {
        case .plain(let password): Hex.encode(Insecure.MD5.hash(data: Array(password.utf8)))
        case .md5(let hash): hash
        }
    }
}

/// login (jmessage.md §3.4): `{username, password: md5, version, rid}`.
public struct JMessageLogin: Sendable, Hashable {
    /// The login request event.
    public let event: JMessageEvent

    /// A login; `version` is the SDK's `SDK_VERSION`.
    public init(username: String, password: JMessagePassword, version: String = "2.5.0", rid: Int64)
        throws(IMWireError)
    {
        try JMessageRid.check(rid)
        var payload = JSONObject()
        payload.append("username", .string(username))
        payload.append("password", .string(password.wire))
        payload.append("version", .string(version))
        payload.append("rid", JMessageEvent.number(rid))
        event = JMessageEvent(name: "login", payload: payload, kind: .request)
    }

    /// The login `event` is; throws for another event, a missing username or password, or no rid.
    public init(_ event: JMessageEvent) throws(IMWireError) {
        try event.expect("login")
        _ = try event.payload.string("username", in: event.name)
        _ = try event.payload.string("password", in: event.name)
        _ = try event.requireRid()
        self.event = event
    }

    /// `username`.
    public var username: String { event.payload["username"]?.stringValue ?? "" }
    /// `password` as sent: the MD5 of the password.
    public var password: String { event.payload["password"]?.stringValue ?? "" }
    /// `version`, nil when absent.
    public var version: String? { event.payload["version"]?.stringValue }
    /// `rid`.
    public var rid: Int64 { event.rid ?? 0 }
}

// A login's password hash logs the user in, and a c_init's signature opens connections for the
// app: formatted (`print`, interpolation, `String(reflecting:)`, `dump`), each request shows
// its kind and every payload member, those as their length only.
extension JMessageLogin: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `JMessageLogin(kind: request, username: "alice", password: 32 bytes, version: "2.5.0", rid: 3)`.
    public var description: String { event.formatted("JMessageLogin", hiding: "password") }

    public var debugDescription: String { description }

    public var customMirror: Mirror { event.mirror(of: self, hiding: "password") }
}

extension JMessageInit: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `JMessageInit(kind: request, appkey: "…", random_str: "…", signature: 32 bytes, timestamp: …, …)`.
    public var description: String { event.formatted("JMessageInit", hiding: "signature") }

    public var debugDescription: String { description }

    public var customMirror: Mirror { event.mirror(of: self, hiding: "signature") }
}

extension JMessageEvent {
    /// `type(kind: …, member: JSON, …)`, every member named `secret` as its length.
    fileprivate func formatted(_ type: String, hiding secret: String) -> String {
        "\(type)(kind: \(kind.rawValue)"
            + shownMembers(hiding: secret).map { ", \($0.label): \($0.hidden ?? "\($0.json)")" }.joined() + ")"
    }

    fileprivate func mirror<Subject>(of subject: Subject, hiding secret: String) -> Mirror {
        let members: [Mirror.Child] = shownMembers(hiding: secret).map {
            (label: $0.label, value: $0.hidden.map { $0 as Any } ?? $0.json)
        }
        return Mirror(subject, children: [(label: "kind", value: kind)] + members, displayStyle: .struct)
    }

    /// Each payload member with its value, a `secret` one's length (a
    /// string's UTF-8 bytes, another value's JSON text's).
    private func shownMembers(hiding secret: String) -> [(label: String, json: JSONValue, hidden: String?)] {
        payload.members.map { member in
            guard member.key == secret else { return (member.key, member.value, nil) }
            return (
                member.key, member.value,
                "\((member.value.stringValue ?? JSONWriter.string(member.value)).utf8.count) bytes"
            )
        }
    }
}

// Every event formats so as well, whatever its name: a login, c_init or update_user_pwd
// carried as a plain `JMessageEvent` (as the decoder hands them out) shows its credentials
// (`CredentialFields`: `password`, `signature`, `old_pwd`, `new_pwd`, …, at any depth) as their
// length only.
extension JMessageEvent: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `JMessageEvent(name: "login", kind: request, username: "alice", password: 32 bytes, version: "2.5.0", rid: 3)`.
    public var description: String {
        "JMessageEvent(name: \(String(reflecting: name)), kind: \(kind.rawValue)"
            + payload.members.map { ", \($0.key): \(Self.hiddenLength($0) ?? CredentialFields.formatted($0.value))" }
            .joined() + ")"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        let members: [Mirror.Child] = payload.members.map { member in
            (
                label: member.key,
                value: Self.hiddenLength(member).map { $0 as Any } ?? CredentialFields.lengths(in: member.value)
            )
        }
        return Mirror(
            self, children: [(label: "name", value: name), (label: "kind", value: kind)] + members,
            displayStyle: .struct)
    }

    /// The length of a member a credential's name names (a string's UTF-8 bytes, another
    /// value's JSON text's); nil for another member.
    private static func hiddenLength(_ member: JSONObject.Member) -> String? {
        guard CredentialFields.isCredential(member.key) else { return nil }
        return "\((member.value.stringValue ?? JSONWriter.string(member.value)).utf8.count) bytes"
    }
}
