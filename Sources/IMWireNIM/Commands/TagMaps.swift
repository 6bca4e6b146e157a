import IMWireCore

/// A `Property`'s numeric tags and the field each names (nim.md §3.7: the Web SDK's unserialize
/// map; its serialize map is the inverse).
public struct NIMTagMap: Sendable, Hashable {
    public let name: String
    public let fields: [Field]

    /// One tag and the field name it stands for.
    public struct Field: Sendable, Hashable {
        public let tag: Int
        public let name: String
    }

    init(_ name: String, _ pairs: [(Int, String)]) {
        self.name = name
        fields = pairs.map { Field(tag: $0.0, name: $0.1) }
    }

    public func name(ofTag tag: Int) -> String? { fields.first { $0.tag == tag }?.name }
    public func tag(of name: String) -> Int? { fields.first { $0.name == name }?.tag }
}

/// The tag maps of the core objects, typed once; `Spec/nim.md` lists them from here.
public enum NIMTagMaps {
    public static let login = NIMTagMap(
        "login",
        [
            (3, "clientType"), (4, "os"), (6, "sdkVersion"), (8, "appLogin"), (9, "protocolVersion"),
            (10, "pushTokenName"), (11, "pushToken"), (13, "deviceId"), (18, "appKey"), (19, "account"),
            (24, "browser"), (26, "session"), (32, "deviceInfo"), (38, "customTag"),
            (39, "customClientType"), (40, "sdkHumanVersion"), (112, "isReactNative"), (115, "authType"),
            (116, "loginExt"), (1000, "token"),
        ])
    public static let loginRes = NIMTagMap(
        "loginRes",
        [
            (17, "lastLoginDeviceId"), (38, "customTag"), (102, "connectionId"), (103, "ip"), (104, "port"),
            (106, "country"), (111, "hasXMPush"),
        ])
    public static let loginPort = NIMTagMap(
        "loginPort",
        [
            (3, "type"), (4, "os"), (5, "mac"), (13, "deviceId"), (19, "account"), (32, "deviceInfo"),
            (38, "customTag"), (102, "connectionId"), (103, "ip"), (109, "time"),
        ])
    public static let aosPushInfo = NIMTagMap(
        "aosPushInfo",
        [
            (110, "pushType"), (111, "hasTokenPreviously"),
        ])
    public static let sync = NIMTagMap(
        "sync",
        [
            (1, "myInfo"), (2, "offlineMsgs"), (3, "teams"), (6, "netcallMsgs"), (7, "roamingMsgs"),
            (9, "relations"), (11, "friends"), (12, "sessions"), (13, "friendUsers"), (14, "msgReceipts"),
            (15, "myTeamMembers"), (16, "donnop"), (17, "deleteMsg"), (18, "sessionAck"), (19, "robots"),
            (20, "broadcastMsgs"), (21, "avSignal"), (22, "superTeams"), (23, "myInfoInSuperTeams"),
            (24, "superTeamRoamingMsgs"), (25, "deleteSuperTeamMsg"), (26, "superTeamSessionAck"),
            (27, "deleteMsgSelf"), (28, "stickTopSessions"), (29, "sessionHistoryMsgsDelete"),
            (100, "filterMsgs"),
        ])
    public static let session = NIMTagMap(
        "session",
        [
            (1, "id"), (2, "updateTime"), (3, "ext"), (4, "lastMsg"), (5, "lastMsgType"),
        ])
    public static let msg = NIMTagMap(
        "msg",
        [
            (0, "scene"), (1, "to"), (2, "from"), (4, "fromClientType"), (5, "fromDeviceId"),
            (6, "fromNick"), (7, "time"), (8, "type"), (9, "body"), (10, "attach"), (11, "idClient"),
            (12, "idServer"), (13, "resend"), (14, "userUpdateTime"), (15, "custom"), (16, "pushPayload"),
            (17, "pushContent"), (18, "apnsAccounts"), (19, "apnsContent"), (20, "apnsForcePush"),
            (21, "yidunEnable"), (22, "antiSpamContent"), (23, "antiSpamBusinessId"),
            (24, "clientAntiSpam"), (25, "antiSpamUsingYidun"), (26, "needMsgReceipt"),
            (28, "needUpdateSession"), (29, "replyMsgFromAccount"), (30, "replyMsgToAccount"),
            (31, "replyMsgTime"), (32, "replyMsgIdServer"), (33, "replyMsgIdClient"),
            (34, "threadMsgFromAccount"), (35, "threadMsgToAccount"), (36, "threadMsgTime"),
            (37, "threadMsgIdServer"), (38, "threadMsgIdClient"), (39, "delete"), (40, "callbackExt"),
            (41, "subType"), (42, "yidunAntiCheating"), (43, "env"), (100, "isHistoryable"),
            (101, "isRoamingable"), (102, "isSyncable"), (104, "isMuted"), (105, "cc"),
            (106, "isInBlackList"), (107, "isPushable"), (108, "isOfflinable"), (109, "isUnreadable"),
            (110, "needPushNick"), (111, "isReplyMsg"), (112, "tempTeamMemberCount"),
        ])
    public static let msgReceipt = NIMTagMap(
        "msgReceipt",
        [
            (1, "to"), (2, "from"), (7, "time"), (11, "idClient"),
        ])
    public static let teamMsgReceipt = NIMTagMap(
        "teamMsgReceipt",
        [
            (0, "teamId"), (1, "idServer"), (100, "read"), (101, "unread"), (102, "idClient"),
            (103, "account"),
        ])
    public static let sysMsg = NIMTagMap(
        "sysMsg",
        [
            (0, "time"), (1, "type"), (2, "to"), (3, "from"), (4, "ps"), (5, "attach"), (6, "idServer"),
            (7, "sendToOnlineUsersOnly"), (8, "apnsText"), (9, "pushPayload"), (10, "deletedIdClient"),
            (11, "deletedIdServer"), (12, "yidunEnable"), (13, "antiSpamContent"), (14, "deletedMsgTime"),
            (15, "deletedMsgFromNick"), (16, "opeAccount"), (21, "env"), (22, "callbackExt"), (105, "cc"),
            (107, "isPushable"), (109, "isUnreadable"), (110, "needPushNick"),
        ])

    public static let all: [NIMTagMap] = [
        login, loginRes, loginPort, aosPushInfo, sync, session, msg, msgReceipt, teamMsgReceipt, sysMsg,
    ]

    /// The maps by field name, made once: every field of every response is looked up here.
    private static let singular: [String: NIMTagMap] = [
        "loginRes": loginRes, "loginPort": loginPort, "aosPushInfo": aosPushInfo, "msg": msg, "sysMsg": sysMsg,
        "msgReceipt": msgReceipt, "teamMsgReceipt": teamMsgReceipt, "session": session, "sync": sync,
        "login": login,
    ]

    /// The map of a response field, by the field's name in `packetConfig` (`msgs` is a list of
    /// `msg`). The pairing of field names with maps is INFERRED from the names.
    public static func map(forField field: String) -> (map: NIMTagMap, isList: Bool)? {
        if let map = singular[field] { return (map, false) }
        if field.hasSuffix("s"), let map = singular[String(field.dropLast())] { return (map, true) }
        return nil
    }
}

/// The type names a `Q` item's `t` may carry (nim.md §3.3), and the ones the Web SDK 8.5.0
/// bundle's `cmdConfig` params use besides (createCmd copies a param's `type` into `t`):
/// `byte` and `LongArray` (4_5 batchMarkRead `[byte sid, byte cid, LongArray ids]`, sent for
/// every message the SDK receives), lowercase `string` (6_4, chat-room 13_x), `longArray`
/// (getTeamsById), `StrStrMap` (chat-room queueChange) and `ph` (4_3 markRead).
public enum NIMParameterType: String, Sendable, Hashable, CaseIterable {
    case property = "Property"
    /// A `PropertyArray` parameter, sent as `ArrayMable` of `{t: "Property", v: {…}}`.
    case arrayMable = "ArrayMable"
    case string = "String"
    case stringLowercase = "string"
    case strArray = "StrArray"
    case int
    case intCapitalised = "Int"
    case long
    case number
    case byte
    /// A list of 64-bit ids (numbers or decimal strings: batchMarkRead sends idServer strings).
    case longArray = "LongArray"
    case longArrayLowercase = "longArray"
    /// Sent as the strings "true" / "false".
    case bool
    case longLongMap = "LongLongMap"
    case strStrMap = "StrStrMap"
    case kvArray = "KVArray"
    /// markRead's `ph` parameter (no shape in the bundle).
    case ph

    public var isNumeric: Bool { [.int, .intCapitalised, .long, .number, .byte].contains(self) }
}

/// One entry of a command's `Q` parameter list.
public struct NIMParameterSpec: Sendable, Hashable {
    public let name: String
    /// The types `t` may have; empty when the source does not give it.
    public let types: [NIMParameterType]
    /// The tag map of a `Property` parameter.
    public let tagMap: NIMTagMap?
    public let required: Bool
}

extension NIMCommands {
    private static func p(
        _ name: String, _ types: [NIMParameterType] = [], _ map: NIMTagMap? = nil,
        required: Bool = false
    ) -> NIMParameterSpec {
        NIMParameterSpec(name: name, types: types, tagMap: map, required: required)
    }

    /// The `Q` lists the reference states (nim.md §3.3–§3.4); every other command's list is
    /// UNCONFIRMED and only its items' shapes are checked.
    public static let parameters: [String: [NIMParameterSpec]] = [
        "1_2": [],
        "2_3": [p("login", [.property], NIMTagMaps.login, required: true)],
        "5_1": [p("sync", [.property], NIMTagMaps.sync, required: true)],
        "7_1": [p("msg", [.property], NIMTagMaps.msg, required: true)],
        "8_2": [p("msg", [.property], NIMTagMaps.msg, required: true)],
        "21_2": [p("msg", [.property], NIMTagMaps.msg, required: true)],
        "13_1": [p("chatroomId"), p("isWeixinApp"), p("type")],
    ]
}
