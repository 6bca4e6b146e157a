import IMWireCore

/// `clientType` of the login Property (tag 3, nim.md §4.2); other numbers are kept as they are.
public struct NIMClientType: RawRepresentable, Sendable, Hashable {
    /// The number on the wire.
    public var rawValue: Int64
    /// A client type by its number.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// 1, Android.
    public static let android = NIMClientType(rawValue: 1)
    /// 2, iOS.
    public static let iOS = NIMClientType(rawValue: 2)
    /// 4, PC.
    public static let pc = NIMClientType(rawValue: 4)
    /// 8, Windows Phone.
    public static let windowsPhone = NIMClientType(rawValue: 8)
    /// 16, Web: what the Web SDK sends.
    public static let web = NIMClientType(rawValue: 16)
    /// 32, server.
    public static let server = NIMClientType(rawValue: 32)
    /// 64, Mac.
    public static let mac = NIMClientType(rawValue: 64)
}

/// `scene` of the msg Property (tag 0, nim.md §4.2); other numbers are kept as they are.
public struct NIMScene: RawRepresentable, Sendable, Hashable {
    /// The number on the wire.
    public var rawValue: Int64
    /// A scene by its number.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// 0, one-to-one (sent with 7_1 sendMsg).
    public static let p2p = NIMScene(rawValue: 0)
    /// 1, team (sent with 8_2 sendTeamMsg).
    public static let team = NIMScene(rawValue: 1)
    /// 5, super team (sent with 21_2 sendSuperTeamMsg).
    public static let superTeam = NIMScene(rawValue: 5)
}

/// `type` of the msg Property (tag 8, nim.md §4.2); other numbers are kept as they are.
public struct NIMMessageType: RawRepresentable, Sendable, Hashable {
    /// The number on the wire.
    public var rawValue: Int64
    /// A message type by its number.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// 0, text (`body` is the text).
    public static let text = NIMMessageType(rawValue: 0)
    /// 1, image.
    public static let image = NIMMessageType(rawValue: 1)
    /// 2, audio.
    public static let audio = NIMMessageType(rawValue: 2)
    /// 3, video.
    public static let video = NIMMessageType(rawValue: 3)
    /// 4, location.
    public static let location = NIMMessageType(rawValue: 4)
    /// 5, notification.
    public static let notification = NIMMessageType(rawValue: 5)
    /// 6, file.
    public static let file = NIMMessageType(rawValue: 6)
    /// 10, tips.
    public static let tips = NIMMessageType(rawValue: 10)
    /// 100, custom.
    public static let custom = NIMMessageType(rawValue: 100)
}

private func isString(_ value: JSONValue) -> Bool { value.stringValue != nil }
private func isInteger(_ value: JSONValue) -> Bool { value.int64Value != nil }

/// Login 2_3 (nim.md §5.1): the login Property by field name. `appKey`, `account` and `token`
/// are required; the defaults are what the Web SDK 8.5.0 sends (`clientType` 16 Web,
/// `sdkVersion` 190, `protocolVersion` 1, `sdkHumanVersion` "8.5.0"). Any other login field
/// (`customTag`, `authType`, `loginExt`, …) is set by name with `setting`.
public struct NIMLogin: Sendable, Hashable {
    /// The login Property the request carries.
    public private(set) var property: NIMProperty

    /// A login; a nil optional leaves its field out.
    public init(
        appKey: String, account: String, token: String, clientType: NIMClientType = .web, os: String? = nil,
        sdkVersion: Int64? = 190, protocolVersion: Int64? = 1, deviceId: String? = nil,
        sdkHumanVersion: String? = "8.5.0"
    ) {
        var property = NIMProperty(NIMTagMaps.login)
        property.store("appKey", .string(appKey))
        property.store("account", .string(account))
        property.store("token", .string(token))
        property.store("clientType", .number(JSONNumber(clientType.rawValue)))
        property.store("os", os.map(JSONValue.string))
        property.store("sdkVersion", sdkVersion.map { .number(JSONNumber($0)) })
        property.store("protocolVersion", protocolVersion.map { .number(JSONNumber($0)) })
        property.store("deviceId", deviceId.map(JSONValue.string))
        property.store("sdkHumanVersion", sdkHumanVersion.map(JSONValue.string))
        self.property = property
    }

    /// The login a login Property describes; throws when `appKey`, `account` or `token` is
    /// missing or not a string, or `property` is of another map.
    public init(_ property: NIMProperty) throws(IMWireError) {
        guard property.map == NIMTagMaps.login else {
            throw .nimPropertyNotTaken(command: "2_3 login", map: property.map.name)
        }
        for field in ["appKey", "account", "token"] { try property.require(field, "a string", isString) }
        self.property = property
    }

    /// The login a 2_3 request carries; throws `wrongCommand` for another command.
    public init(_ request: NIMRequest) throws(IMWireError) {
        try request.expect([NIMCommands.login], "2_3 login")
        try self.init(request.property(NIMTagMaps.login))
    }

    /// A copy with another login field set by name (nil removes it); throws `unknownField` for
    /// a name the login map lacks and `missingField` when it would remove a required field.
    public func setting(_ field: String, _ value: JSONValue?) throws(IMWireError) -> NIMLogin {
        try NIMLogin(property.setting(field, value))
    }

    /// Tag 18.
    public var appKey: String { property.string("appKey") ?? "" }
    /// Tag 19.
    public var account: String { property.string("account") ?? "" }
    /// Tag 1000.
    public var token: String { property.string("token") ?? "" }
    /// Tag 3, nil when absent.
    public var clientType: NIMClientType? { property.integer("clientType").map(NIMClientType.init(rawValue:)) }
    /// Tag 4.
    public var os: String? { property.string("os") }
    /// Tag 6.
    public var sdkVersion: Int64? { property.integer("sdkVersion") }
    /// Tag 9.
    public var protocolVersion: Int64? { property.integer("protocolVersion") }
    /// Tag 13.
    public var deviceId: String? { property.string("deviceId") }
    /// Tag 40.
    public var sdkHumanVersion: String? { property.string("sdkHumanVersion") }

    /// The 2_3 request with serial `ser` (the first request of a connection has SER 1).
    public func request(ser: Int64) -> NIMRequest {
        NIMRequest(sid: 2, cid: 3, ser: ser, params: [property.parameter(name: "login")])
    }
}

/// A message sent with 7_1 sendMsg (p2p), 8_2 sendTeamMsg (team) or 21_2 sendSuperTeamMsg
/// (super team), the command chosen by `scene` (nim.md §5.1; the pairing is INFERRED from the
/// command names). `scene`, `to`, `type` and `idClient` are required; any other msg field
/// (`custom`, `pushContent`, `needMsgReceipt`, …) is set by name with `setting`.
public struct NIMSendMsg: Sendable, Hashable {
    /// The msg Property the request carries.
    public private(set) var property: NIMProperty

    /// A message; `body` is the text of a text message, nil leaves it out.
    public init(scene: NIMScene = .p2p, to: String, type: NIMMessageType = .text, body: String?, idClient: String) {
        var property = NIMProperty(NIMTagMaps.msg)
        property.store("scene", .number(JSONNumber(scene.rawValue)))
        property.store("to", .string(to))
        property.store("type", .number(JSONNumber(type.rawValue)))
        property.store("body", body.map(JSONValue.string))
        property.store("idClient", .string(idClient))
        self.property = property
    }

    /// A text message.
    public static func text(_ text: String, to: String, scene: NIMScene = .p2p, idClient: String) -> NIMSendMsg {
        NIMSendMsg(scene: scene, to: to, type: .text, body: text, idClient: idClient)
    }

    /// The message a msg Property describes; throws when `scene`, `to`, `type` or `idClient` is
    /// missing or of another JSON type, or `property` is of another map.
    public init(_ property: NIMProperty) throws(IMWireError) {
        guard property.map == NIMTagMaps.msg else {
            throw .nimPropertyNotTaken(command: "7_1 sendMsg", map: property.map.name)
        }
        try property.require("scene", "an integer", isInteger)
        try property.require("to", "a string", isString)
        try property.require("type", "an integer", isInteger)
        try property.require("idClient", "a string", isString)
        self.property = property
    }

    /// The message a 7_1, 8_2 or 21_2 request carries; throws `wrongCommand` for another command.
    public init(_ request: NIMRequest) throws(IMWireError) {
        try request.expect(Self.commands, "7_1 sendMsg, 8_2 sendTeamMsg or 21_2 sendSuperTeamMsg")
        try self.init(request.property(NIMTagMaps.msg))
    }

    /// A copy with another msg field set by name (nil removes it); throws `unknownField` for a
    /// name the msg map lacks and `missingField` when it would remove a required field.
    public func setting(_ field: String, _ value: JSONValue?) throws(IMWireError) -> NIMSendMsg {
        try NIMSendMsg(property.setting(field, value))
    }

    static let commands: [(sid: Int64, cid: Int64)] = [(7, 1), (8, 2), (21, 2)]

    /// Tag 0.
    public var scene: NIMScene { NIMScene(rawValue: property.integer("scene") ?? 0) }
    /// Tag 1: the account, team id or super-team id.
    public var to: String { property.string("to") ?? "" }
    /// Tag 8.
    public var type: NIMMessageType { NIMMessageType(rawValue: property.integer("type") ?? 0) }
    /// Tag 9, nil when absent or not a string.
    public var body: String? { property.string("body") }
    /// Tag 11: the client's id of the message.
    public var idClient: String { property.string("idClient") ?? "" }

    /// The send command for `scene`: 8_2 for a team, 21_2 for a super team, else 7_1.
    public var command: (sid: Int64, cid: Int64) {
        switch scene {
        case .team: (8, 2)
        case .superTeam: (21, 2)
        default: (7, 1)
        }
    }

    /// The request with serial `ser`.
    public func request(ser: Int64) -> NIMRequest {
        NIMRequest(sid: command.sid, cid: command.cid, ser: ser, params: [property.parameter(name: "msg")])
    }
}

/// Sync 5_1, sent after the login succeeded (nim.md §5.1): the sync Property, one timetag per
/// data type by field name (`myInfo`, `offlineMsgs`, `teams`, `roamingMsgs`, …; 0 asks for
/// everything).
public struct NIMSync: Sendable, Hashable {
    /// The sync Property the request carries.
    public private(set) var property: NIMProperty

    /// A sync with `timetags` by field name; throws `unknownField` for a name the sync map lacks.
    public init(timetags: KeyValuePairs<String, Int64>) throws(IMWireError) {
        var property = NIMProperty(NIMTagMaps.sync)
        for (field, timetag) in timetags { try property.set(field, .number(JSONNumber(timetag))) }
        self.property = property
    }

    /// The sync a sync Property describes; throws when a field is not an integer or `property` is
    /// of another map.
    public init(_ property: NIMProperty) throws(IMWireError) {
        guard property.map == NIMTagMaps.sync else {
            throw .nimPropertyNotTaken(command: "5_1 sync", map: property.map.name)
        }
        for member in property.fields { try property.require(member.key, "an integer timetag", isInteger) }
        self.property = property
    }

    /// The sync a 5_1 request carries; throws `wrongCommand` for another command.
    public init(_ request: NIMRequest) throws(IMWireError) {
        try request.expect([NIMCommands.sync], "5_1 sync")
        try self.init(request.property(NIMTagMaps.sync))
    }

    /// The timetag of the field `name`, nil when it is not sent.
    public subscript(timetag name: String) -> Int64? { property.integer(name) }

    /// The timetags by field name, in tag order.
    public var timetags: [(field: String, timetag: Int64)] {
        property.fields.compactMap { member in member.value.int64Value.map { (member.key, $0) } }
    }

    /// The 5_1 request with serial `ser`.
    public func request(ser: Int64) -> NIMRequest {
        NIMRequest(sid: 5, cid: 1, ser: ser, params: [property.parameter(name: "sync")])
    }
}

extension NIMRequest {
    /// The login of a 2_3 request; nil for another command or a login without its required fields.
    public var login: NIMLogin? { try? NIMLogin(self) }
    /// The message of a 7_1, 8_2 or 21_2 request; nil for another command or an incomplete message.
    public var sendMsg: NIMSendMsg? { try? NIMSendMsg(self) }
    /// The timetags of a 5_1 request; nil for another command.
    public var sync: NIMSync? { try? NIMSync(self) }
}

// The token (and a device's push token) logs the account in: formatted (`print`, interpolation,
// `String(reflecting:)`, `dump`), a login shows every field it has, those as their length only.
extension NIMLogin: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The fields set, by name in tag order, the tokens as their length:
    /// `NIMLogin(clientType: 16, sdkVersion: 190, …, appKey: "app", account: "alice", token: 32 bytes)`.
    public var description: String {
        "NIMLogin(" + shownFields.map { "\($0.label): \($0.hidden ?? "\($0.json)")" }.joined(separator: ", ") + ")"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self, children: shownFields.map { (label: $0.label, value: $0.hidden.map { $0 as Any } ?? $0.json) },
            displayStyle: .struct)
    }

    /// Fields that hold a credential.
    private static let secretFields: Set<String> = ["token", "pushToken"]

    /// Each field with its value, a secret one's length (a string's UTF-8
    /// bytes, another value's JSON text's).
    private var shownFields: [(label: String, json: JSONValue, hidden: String?)] {
        property.fields.members.map { member in
            guard Self.secretFields.contains(member.key) else { return (member.key, member.value, nil) }
            return (
                member.key, member.value,
                "\((member.value.stringValue ?? JSONWriter.string(member.value)).utf8.count) bytes"
            )
        }
    }
}

// The general forms hide the same: a 2_3 login request (and the packet holding one)
// shows its login Property with the token and push token, by name and by tag (1000, 11), as
// their length (NIMItem shows the socket.io packet that carried it with its text as its length).
extension NIMParameter: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Every field as the default description writes it; for the login Property (`name` is
    /// `login`) the tokens as their length.
    public var description: String { formatted(login: name == "login") }

    public var debugDescription: String { description }

    public var customMirror: Mirror { mirror(login: name == "login") }

    /// The login Property's credentials, by tag (in `value`) and by name (in `fields`).
    private static let loginSecrets: Set<String> = Set(
        ["token", "pushToken"].flatMap { name in [name] + (NIMTagMaps.login.tag(of: name).map { [String($0)] } ?? []) })

    /// The description, the login's credentials as their length when `login`.
    func formatted(login: Bool) -> String {
        let secret: (String) -> Bool = {
            (login && Self.loginSecrets.contains($0)) || CredentialFields.isCredential($0)
        }
        return """
            NIMParameter(type: \(String(reflecting: type)), value: \
            \(CredentialFields.formatted(value, where: secret)), name: \(String(reflecting: name)), \
            fields: \(fields.map { CredentialFields.formatted($0, where: secret) } ?? "nil"))
            """
    }

    /// The mirror, the login's credentials as their length when `login`.
    func mirror(login: Bool) -> Mirror {
        let secret: (String) -> Bool = {
            (login && Self.loginSecrets.contains($0)) || CredentialFields.isCredential($0)
        }
        return Mirror(
            self,
            children: [
                "type": type, "value": CredentialFields.lengths(in: value, where: secret), "name": name as Any,
                "fields": fields.map { CredentialFields.lengths(in: $0, where: secret) } as Any,
            ], displayStyle: .struct)
    }
}

extension NIMRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `NIMRequest(sid: 2, cid: 3, ser: 1, params: [NIMParameter(…)])`, a login's Property with
    /// its tokens as their length.
    public var description: String {
        "NIMRequest(sid: \(sid), cid: \(cid), ser: \(ser), params: ["
            + params.map { $0.formatted(login: isLogin) }.joined(separator: ", ") + "])"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "sid": sid, "cid": cid, "ser": ser,
                "params": params.map { ParameterShown(parameter: $0, login: isLogin) },
            ],
            displayStyle: .struct)
    }

    /// A parameter as its request shows it (a login's Property is one whatever its name).
    private struct ParameterShown: CustomStringConvertible, CustomReflectable {
        let parameter: NIMParameter
        let login: Bool
        var description: String { parameter.formatted(login: login) }
        var customMirror: Mirror { parameter.mirror(login: login) }
    }
}
