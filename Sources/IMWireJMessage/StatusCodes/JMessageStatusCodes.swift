import IMWireCore

/// JPush JMessage status codes and enums (jmessage.md §1, §2). The server table comes from the
/// docs' source repository; the iOS header names a subset of it (`JMSGTcpErrorCode`,
/// `JMSGHttpErrorCode`, plus 856003 and 898005 that the doc lacks), kept as their own tables.
/// SDK-local ranges are platform-dependent: 86xxxx iOS, 871101+ Android, 871001–871008 iOS JMRTC,
/// 872xxx Android JMRTC, 880xxx–882xxx Web.
public enum JMessageStatusCodes {
    static let docs = "jpush-docs@694250a zh/jmessage/client"
    static let iOSHeader =
        "jmessage-phonegap-plugin@32a7f63 src/ios/lib/JMessage.framework/Headers/JMSGConstants.h (JMessage iOS 3.8.0)"
    static let webDoc = "jpush-docs@694250a zh/jmessage/client/im_sdk_js_v2.md"

    /// Every JMessage table: status codes first, then enums.
    public static let tables: [StatusTable] = [
        server, tcpErrorCode, httpErrorCode, webErrors, sdkErrorCode, jmrtcIOS, android, jmrtcAndroid,
        conversationType, groupType, contentType, promptContentType, messageStatus, fileType, platformType,
        groupMemberType, transMessageType, eventNotificationType, commonEventType, loginStatusChangeEventType,
        friendEventType, groupEventType, chatRoomEventType, userField, userGender,
        webEventType, webForcedOfflineExtra, webMessageType, webTransMessageType, webMessageLevel,
    ]

    /// The server ranges as jmessage.md §1.1 lists them.
    static let serverRanges: [CodeRange] = {
        let list = "jmessage.md §1.1 range list"
        return [
            CodeRange(898000, 898999, "HTTP/API server", source: list),
            CodeRange(899000, 899999, "REST/admin API", source: list),
            CodeRange(800000, 800099, "TCP generic", source: list),
            CodeRange(801000, 801999, "login", source: list),
            CodeRange(802000, 802999, "logout", source: list),
            CodeRange(803000, 803999, "send message", source: list),
            CodeRange(805000, 805999, "friends", source: list),
            CodeRange(808000, 808999, "create group", source: list),
            CodeRange(810000, 810999, "add group members", source: list),
            CodeRange(811000, 811999, "remove group members", source: list),
            CodeRange(812000, 812999, "update group", source: list),
            CodeRange(818000, 818999, "blacklist add", source: list),
            CodeRange(819000, 819999, "blacklist remove", source: list),
            CodeRange(831000, 836999, "no-disturb", source: list),
            CodeRange(842000, 843999, "group shield", source: list),
            CodeRange(847000, 847999, "chatroom send", source: list),
            CodeRange(850000, 853999, "chatroom admin", source: list),
            CodeRange(855000, 855999, "retract", source: list),
            CodeRange(856000, 856999, "approval", source: list),
            CodeRange(857000, 857999, "transparent (trans) messages", source: list),
            CodeRange(859000, 859999, "apply to join", source: list),
            CodeRange(786000, 787999, "announcements", source: list),
            CodeRange(765000, 765999, "group member operations", source: list),
            CodeRange(7_130_000, 7_139_999, "chatroom admin and blacklist", source: list),
            CodeRange(7_100_000, 7_100_999, "RTC signaling", source: list),
        ]
    }()

    /// The server error codes of all platforms (jmessage.md §1.1), in the doc's order.
    public static let server = StatusTable(
        .jmessage, "server", title: "server error codes (all platforms)", kind: .codes,
        source: "\(docs)/im_errorcode_server.md (docs.jiguang.cn/jmessage/client/im_errorcode_server)",
        travel: .message,
        notes: [
            "`name` holds the doc's English error message; the meaning renders the Chinese description.",
            """
            The doc has no 856003; the iOS header defines it (see `JMSGTcpErrorCode`). \
            There is no server 871xxx: 871xxx is the Android SDK and iOS JMRTC local range.
            """,
        ],
        ranges: serverRanges
    ) { row in serverAPIRows(row) + serverTCPRows(row) + serverGroupAndChatroomRows(row) }
}
