import IMWireCore

/// yun2win's status tables (yun2win.md §2, §5): the single source of truth for yun2win codes.
/// Each row says how the code travels — in the MQTT CONNACK return-code byte, in a PUBLISH
/// payload, never (made up by a client SDK), or as an SDK enum value — and how sure the reference
/// is. Names are the web SDK's (`connectionReturnCode.kicked`); `sources` gives the iOS and
/// Android spellings.
public enum Yun2winStatusCodes {
    static let iosHeader = "iOS Y2W_IM_SDK.framework/Headers/Y2WIMClient.h"
    static let webBundle = "web y2wIMWeb/web/js/core/y2wIMSDK.min.js (Nov 2016)"
    static let androidJar = "Android sdk/yun2win-0.1.jar"

    private static func row(
        _ table: String, _ number: Int64, _ name: String, _ meaning: String, original: String? = nil,
        ios: String?, android: String?, extra: String = "", _ confidence: Confidence = .confirmed,
        travel: Travel, _ codeClass: CodeClass
    ) -> StatusCode {
        var sources: [String] = []
        if let ios { sources.append("\(iosHeader) \(ios)") }
        sources.append("\(webBundle) \(name)")
        if let android { sources.append("\(androidJar) \(android)") }
        if !extra.isEmpty { sources.append(extra) }
        return StatusCode(
            .yun2win, table, number, name, meaning, original: original, sources: sources.joined(separator: "; "),
            confidence, travel: travel, codeClass: codeClass)
    }

    /// `ConnectionStatus`: the client's connection state (SDK enum, never on the wire).
    public static let connectionStatus: [StatusCode] = [
        row(
            "ConnectionStatus", 0, "connecting", "Connecting", original: "正在连接",
            ios: "Y2WIMConnectionStatusConnecting", android: "CS_CONNECTING", travel: .sdkEnum, .enumValue),
        row(
            "ConnectionStatus", 1, "connected", "Connected (entered on PUBLISH returnCode 11, not on CONNACK 0)",
            original: "已连接",
            ios: "Y2WIMConnectionStatusConnected", android: "CS_CONNECTED", travel: .sdkEnum, .enumValue),
        row(
            "ConnectionStatus", 2, "reconnecting", "Reconnecting", original: "重连中",
            ios: "Y2WIMConnectionStatusReconnecting", android: "CS_RECONNECTING", travel: .sdkEnum, .enumValue),
        row(
            "ConnectionStatus", 3, "networkDisconnected", "Network disconnected", original: "网络断开",
            ios: "Y2WIMConnectionStatusNetworkDisconnected", android: "CS_NETWORK_DISCONNECTED", travel: .sdkEnum,
            .enumValue),
        row(
            "ConnectionStatus", 100, "disconnected", "Disconnected", original: "连接断开",
            ios: "Y2WIMConnectionStatusDisconnected", android: "CS_DISCONNECTED", travel: .sdkEnum, .enumValue),
    ]

    /// `ConnectionReturnCode`: 2–7 in the CONNACK byte (yun2win meanings, not MQTT's), 10 and 11
    /// in PUBLISH payloads, 99/100 of unconfirmed travel, 101 client-local.
    public static let connectionReturnCode: [StatusCode] = [
        row(
            "ConnectionReturnCode", 2, "identifierRejected",
            "Client id rejected (server rejects the [0|1][0|1|2]<uuid> id)",
            original: "clientId不合法", ios: "Y2WIMConnectionReturnCodeIdentifierRejected",
            android: "CRC_IDENTIFIER_REJECTED",
            travel: .connack, .fatalCredentials),
        row(
            "ConnectionReturnCode", 3, "unacceptableProtocolVersion",
            "Protocol error (MQTT 3 means server unavailable)",
            original: "协议错误", ios: "Y2WIMConnectionReturnCodeUnacceptableProtocolVersion",
            android: "CRC_UNACCEPTABLE_PROTOCOL_VERSION", travel: .connack, .invalidRequest),
        row(
            "ConnectionReturnCode", 4, "uidIsInvalid",
            "User id invalid (MQTT 4 means bad user name or password); also made locally for an empty uid",
            original: "用户ID无效", ios: "Y2WIMConnectionReturnCodeUidIsInvalid", android: "CRC_UID_INVALID",
            travel: .connack, .fatalCredentials),
        row(
            "ConnectionReturnCode", 5, "tokenIsInvalid",
            "imToken invalid (MQTT 5 means not authorized); also made locally for an empty token",
            original: "imToken无效", ios: "Y2WIMConnectionReturnCodeTokenIsInvalid", android: "CRC_TOKEN_INVALID",
            travel: .connack, .reauthenticate),
        row(
            "ConnectionReturnCode", 6, "tokenHasExpired", "imToken expired", original: "imToken过期",
            ios: "Y2WIMConnectionReturnCodeTokenHasExpired", android: "CRC_TOKEN_HAS_EXPIRED", travel: .connack,
            .reauthenticate),
        row(
            "ConnectionReturnCode", 7, "authenticationServerError",
            "Authentication server error; the client reconnects (Android after 15 s)",
            original: "鉴权服务器出错", ios: "Y2WIMConnectionReturnCodeAuthenticationServerError",
            android: "CRC_AUTHENTICATION_SEVER_ERROR (sic)", travel: .connack, .serverError),
        row(
            "ConnectionReturnCode", 10, "kicked", "Kicked: a device of the same type logged in; no automatic reconnect",
            original: "被踢出，同类型设备重复登录时，之前设备收到提出信息",
            ios: "Y2WIMConnectionReturnCodeKicked", android: "CRC_KICKED",
            travel: .publish, .fatalConflict),
        row(
            "ConnectionReturnCode", 11, "acceptConnect",
            "Connection accepted: the real \"connected\" signal, after CONNACK 0",
            original: "允许连接", ios: "Y2WIMConnectionReturnCodeAcceptConnect", android: "ACCEPT_CONNECT",
            travel: .publish, .success),
        row(
            "ConnectionReturnCode", 99, "serverUnavailable",
            "Server unreachable; web logs and reconnects (how it travels is not documented)",
            original: "服务器不可达", ios: "Y2WIMConnectionReturnCodeServerUnavailable",
            android: "CRC_SERVER_UNAVAILABLE",
            .unconfirmed, travel: .connack, .serverError),
        row(
            "ConnectionReturnCode", 100, "serverInternalError",
            "Server internal error; web reconnects (how it travels is not documented)",
            original: "服务器内部错误", ios: "Y2WIMConnectionReturnCodeServerInternalError",
            android: "CRC_SERVER_INTERNAL_ERROR",
            .unconfirmed, travel: .connack, .serverError),
        row(
            "ConnectionReturnCode", 101, "requestGateError", "Gate (imgate) HTTP request failed",
            original: "路由请求错误",
            ios: "Y2WIMConnectionReturnCodeRequestGateError", android: "CRC_REQUEST_GATEERROR", travel: .clientLocal,
            .clientLocal),
    ]

    /// The web SDK of March 2016 (commit c5fb813) gave 7 another meaning; kept as its own table.
    public static let connectionReturnCode2016: [StatusCode] = [
        StatusCode(
            .yun2win, "ConnectionReturnCode-web2016", 7, "appKeyIsInvalid", "App key invalid (older meaning of 7)",
            sources: """
                web y2wIMWeb/web/js/core/y2wIMSDK.min.js @c5fb813 (Mar \
                2016); the Nov 2016 bundle still references the removed key
                """,
            .confirmed, travel: .connack, codeClass: .fatalCredentials)
    ]

    /// `SendReturnCode`: acks of sendMessage/updateSession in PUBLISH payloads, or made locally.
    /// 30/31 exist on iOS and web only; 1000 on Android only.
    public static let sendReturnCode: [StatusCode] = [
        row(
            "SendReturnCode", 20, "success", "Pushed (Android also fires it locally when the QoS 0 write succeeds)",
            original: "推送成功", ios: "Y2WIMSendReturnCodeSuccess", android: "SRC_SUCCESS", travel: .publish,
            .success),
        row(
            "SendReturnCode", 21, "timeout", "No ack within the client's timer (10 s)", original: "推送超时",
            ios: "Y2WIMSendReturnCodeTimeout", android: "SRC_TIMEOUT", travel: .clientLocal, .clientLocal),
        row(
            "SendReturnCode", 22, "cmdIsInvalid", "Invalid command", original: "推送命令无效",
            ios: "Y2WIMSendReturnCodeCmdIsInvalid", android: "SRC_CMD_INVALID", travel: .publish, .invalidRequest),
        row(
            "SendReturnCode", 23, "sessionIsInvalid", "Session invalid (client-side validation: session null)",
            original: "会话无效",
            ios: "Y2WIMSendReturnCodeSessionIsInvalid", android: "SRC_SESSION_INVALID", travel: .clientLocal,
            .clientLocal),
        row(
            "SendReturnCode", 24, "sessionIdIsInvalid", "Session id invalid (client-side validation: id empty)",
            original: "会话ID无效",
            ios: "Y2WIMSendReturnCodeSessionIdIsInvalid", android: "SRC_SESSION_ID_INVALID", travel: .clientLocal,
            .clientLocal),
        row(
            "SendReturnCode", 25, "sessionMTSIsInvalid",
            "Session member timestamp invalid (client-side: mts missing or not a number)",
            original: "会话成员时间戳无效", ios: "Y2WIMSendReturnCodeSessionMTSIsInvalid",
            android: "SRC_SESSION_MTS_INVALID",
            travel: .clientLocal, .clientLocal),
        row(
            "SendReturnCode", 26, "sessionOnServerIsNotExist",
            "Push server does not have the session: send updateSession with the members",
            original: "推送服务器不存在此会话", ios: "Y2WIMSendReturnCodeSessionOnServerIsNotExist",
            android: "SRC_SESSION_ON_SERVER_NOT_EXIST", travel: .publish, .notFound),
        row(
            "SendReturnCode", 27, "sessionMTSOnClientHasExpired",
            """
            Client's session-member timestamp expired (carries the server's mts): the client must update its \
            session members (demos: reload the session and resend; after 3 tries send updateSession with force=true)
            """,
            original: "客户端会话成员时间戳过期", ios: "Y2WIMSendReturnCodeSessionMTSOnClientHasExpired",
            android: "SRC_SESSION_MTS_ON_CLIENT_HAS_EXPIRED", travel: .publish, .invalidRequest),
        row(
            "SendReturnCode", 28, "sessionMTSOnServerHasExpired",
            "Server's member timestamp expired; carries the server's mts: send updateSession",
            original: "推送服务器会员时间戳过期", ios: "Y2WIMSendReturnCodeSessionMTSOnServerHasExpired",
            android: "SRC_SESSION_MTS_ON_SERVER_HAS_EXPIRED", travel: .publish, .invalidRequest),
        row(
            "SendReturnCode", 29, "sessionMembersIsInvalid",
            "Session members invalid (web: client-side, members not an array)",
            original: "推送服务器会话成员无效", ios: "Y2WIMSendReturnCodeSessionMembersIsInvalid",
            android: "SRC_SESSION_MEMBERS_INVALID", travel: .clientLocal, .clientLocal),
        row(
            "SendReturnCode", 30, "invalidFormatOfJSONContent", "Pushed content is not valid JSON (absent on Android)",
            original: "推送内容是无效的JSON格式", ios: "Y2WIMSendReturnCodeInvalidFormatOfJSONContent",
            android: nil,
            travel: .publish, .invalidRequest),
        row(
            "SendReturnCode", 31, "sessionMembersIsNull", "Session has no members (absent on Android)",
            original: "会话成员不存在",
            ios: "Y2WIMSendReturnCodeSessionMembersIsNull", android: nil, travel: .publish, .notFound),
        StatusCode(
            .yun2win, "SendReturnCode", 1000, "UPDATE_MESSAGE",
            "Android only: the demo re-syncs the user's conversations on it; whether the server sends it is unknown",
            sources: "\(androidJar) SendReturnCode.UPDATE_MESSAGE; demo ReceiveUtil.messageSendReturn",
            .unconfirmed, travel: .publish, codeClass: .retry),
    ]

    /// `Y2WSyncType`: what a `syncs[].type` in the demos' app message asks the receiver to sync.
    public static let syncType: [StatusCode] = [
        sync(0, "UserConversation", "Sync the user's conversation list"),
        sync(1, "Message", "Sync the messages of `sessionId`"),
        sync(2, "Contact", "Sync contacts"),
        sync(3, "UserSession", "Sync the user's sessions"),
        sync(4, "SessionMember", "Sync sessions and their members (Android: 同步会话和会话成员)"),
    ]

    private static func sync(_ number: Int64, _ name: String, _ meaning: String) -> StatusCode {
        StatusCode(
            .yun2win, "Y2WSyncType", number, name, meaning,
            sources: """
                iOS Model/IMBridge/Y2WIMBridge.h Y2WSyncType\(name); web \
                y2wIMBridge.js syncTypes (0–3); Android demo SyncManager.java
                """,
            .confirmed, travel: .sdkEnum, codeClass: .enumValue)
    }

    /// The tables as the registry lists them (the rows above carry their table's name).
    public static let tables: [StatusTable] = [
        table("ConnectionStatus", "Client connection state", .enumeration, .sdkEnum, connectionStatus),
        table(
            "ConnectionReturnCode", "Connection return codes (CONNACK byte, PUBLISH payload, client-local)", .codes,
            .connack,
            connectionReturnCode,
            notes: [
                """
                2–7 ride in the MQTT CONNACK byte with yun2win meanings that differ from MQTT's; 10 and 11 \
                arrive as PUBLISH {"returnCode": …}; 101 is made by the client when the gate request fails.
                """
            ]),
        table(
            "ConnectionReturnCode-web2016", "Connection return code 7 in the web SDK of March 2016", .codes, .connack,
            connectionReturnCode2016),
        table(
            "SendReturnCode", "Send return codes (PUBLISH acks keyed by y2wMessageId, or client-local)", .codes,
            .publish,
            sendReturnCode, notes: ["30 and 31 exist on iOS and web only; 1000 on Android only (UNCONFIRMED)."]),
        table("Y2WSyncType", "syncs[].type of the demos' app message", .enumeration, .sdkEnum, syncType),
    ]

    private static func table(
        _ name: String, _ title: String, _ kind: StatusTable.Kind, _ travel: Travel, _ rows: [StatusCode],
        notes: [String] = []
    ) -> StatusTable {
        StatusTable(
            .yun2win, name, title: title, kind: kind, source: "yun2win.md §2, §5", travel: travel, notes: notes
        ) { _ in rows }
    }

    /// All yun2win rows.
    public static var all: [StatusCode] { tables.flatMap(\.rows) }

    public static func connectionReturn(_ number: Int64) -> StatusCode? {
        connectionReturnCode.first { $0.number == number }
    }
    public static func sendReturn(_ number: Int64) -> StatusCode? { sendReturnCode.first { $0.number == number } }

    /// CONNACK codes above 5 that yun2win defines (6, 7 confirmed; 99, 100 unconfirmed), for the MQTT decoder.
    public static let vendorConnackCodes: Set<UInt8> = Set(
        connectionReturnCode.compactMap { row in
            row.travel == .connack && row.number > 5 ? UInt8(exactly: row.number) : nil
        })

    /// "10 kicked (…)" or "42 (not a yun2win … code)".
    public static func describe(_ number: Int64, in table: [StatusCode]) -> String {
        guard let row = table.first(where: { $0.number == number }) else {
            return "\(number) (not a yun2win \(table.first?.table ?? "") code)"
        }
        return "\(number) \(row.name)"
    }
}
