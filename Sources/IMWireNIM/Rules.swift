import IMWireCore

/// Every rule the NIM Web link dialect and its session tracker check. IDs are stable;
/// `Spec/rules.md` is generated from `NIMRules.all`. References are to `nim.md` sections
/// (the shipped Web SDK 8.5.0 bundle).
public enum NIMRules {
    private static func rule(
        _ id: RuleID, _ severity: Severity, lenient: Severity? = nil, layer: Layer = .command,
        _ summary: String, _ specRef: String
    ) -> Rule {
        Rule(id, severity, lenient: lenient, layer: layer, dialect: .nim, summary: summary, specRef: specRef)
    }

    // MARK: packets

    public static let transportPacket = rule(
        "NIM.TRANSPORT-PACKET", .warning, layer: .encoding,
        "A NIM packet not in a socket.io 0.9 message (3) or json (4) packet; the SDK sends `socket.send(JSON.stringify(cmd))`.",
        "nim.md §3.2")
    public static let notJSON = rule(
        "NIM.PACKET-NOT-JSON", .error, layer: .encoding,
        "The data of a message packet is not a JSON object.", "nim.md §3.3")
    public static let requestShape = rule(
        "NIM.REQUEST-INVALID", .error,
        "A request without integer SID, CID, SER or with a Q that is not an array.", "nim.md §3.3 (parser.createCmd)")
    public static let responseShape = rule(
        "NIM.RESPONSE-INVALID", .error,
        "A response or push without integer sid, cid, ser, code or with an r that is not an array.", "nim.md §3.3 (parseResponse)")
    public static let wrongDirection = rule(
        "NIM.WRONG-DIRECTION", .error,
        "An uppercase request from the server or a lowercase response from the client.", "nim.md §3.3")
    public static let commandUnknown = rule(
        "NIM.COMMAND-UNKNOWN", .warning,
        "A sid_cid in neither the cmdConfig nor the packetConfig of Web SDK 8.5.0.", "nim.md §3.5, §3.6")
    public static let serOutOfRange = rule(
        "NIM.SER-OUT-OF-RANGE", .error,
        "A SER outside 1…32767 (0 only for heartbeat 1_2): the counter restarts at 1 after 32767.", "nim.md §3.3")
    public static let heartbeatSer = rule(
        "NIM.HEARTBEAT-SER", .error,
        "A heartbeat 1_2 with a SER other than 0.", "nim.md §3.3")
    public static let qItemInvalid = rule(
        "NIM.Q-ITEM-INVALID", .error,
        "A Q item that is not {t, v} with a known t and a v of that type (bool as \"true\"/\"false\", Property keys numeric tags).",
        "nim.md §3.3")
    public static let qMismatch = rule(
        "NIM.Q-MISMATCH", .error,
        "A Q that does not fit the command's parameter list (count, types, a required Property missing).", "nim.md §3.3, §3.4")
    public static let tagUnknown = rule(
        "NIM.TAG-UNKNOWN", .warning, lenient: .info,
        "A Property tag that the object's tag map does not name.", "nim.md §3.7")
    public static let rMismatch = rule(
        "NIM.R-MISMATCH", .warning,
        "A response r with more entries than the handler's response fields, or an entry of the wrong shape for its field.",
        "nim.md §3.6")
    public static let notifyInvalid = rule(
        "NIM.NOTIFY-INVALID", .error,
        "A notify wrapper (4_1, 4_2, 4_10, 4_11) without r[1].headerPacket {sid, cid} and r[1].body, or whose body (the inner packet's r) is not an array.",
        "nim.md §3.3")
    public static let codeUnknown = rule(
        "NIM.CODE-UNKNOWN", .warning,
        "A response code in no NIM table (the Web SDK reports 操作失败).", "nim.md §1.1, §1.4")
    public static let errorCode = rule(
        "NIM.RESPONSE-ERROR", .info,
        "A response whose code is an error on the web (anything but 200, 406, 808, 810), named from the status tables.",
        "nim.md §1.4")
    public static let kickReasonUnknown = rule(
        "NIM.KICK-REASON-UNKNOWN", .warning,
        "A kicked (2_5) reason other than 1–4.", "nim.md §2.1 (kickedReasons)")

    // MARK: session

    public static let beforeLogin = rule(
        "NIM.BEFORE-LOGIN", .error, layer: .session,
        "A request other than login 2_3 (chat-room login 13_2 on a chat-room link, or link 1_5/1_6) before the login succeeded; the SDK rejects it locally.",
        "nim.md §3.3, §3.4")
    public static let secondLogin = rule(
        "NIM.SECOND-LOGIN", .warning, layer: .session,
        "A login 2_3 on a connection that is already logged in.", "nim.md §3.4")
    public static let requestUnanswered = rule(
        "NIM.REQUEST-UNANSWERED", .warning, layer: .session,
        "A request without a response with its sid, cid and ser within the timeout (8 s; heartbeat 5 s).", "nim.md §3.2 (cmdTimeout, hbCmdTimeout)")
    public static let responseWithoutRequest = rule(
        "NIM.RESPONSE-WITHOUT-REQUEST", .warning, lenient: .info, layer: .session,
        "A response to a client command whose ser matches no pending request.", "nim.md §3.3")
    public static let serReused = rule(
        "NIM.SER-REUSED", .error, layer: .session,
        "A SER reused while a request with it is still pending.", "nim.md §3.3")
    public static let serNotSequential = rule(
        "NIM.SER-NOT-SEQUENTIAL", .warning, lenient: .info, layer: .session,
        "A SER that is not the previous one + 1 (or 1 after 32767): the Web SDK counts per module.", "nim.md §3.3")
    public static let heartbeatLate = rule(
        "NIM.HEARTBEAT-LATE", .warning, layer: .session,
        "No heartbeat 1_2 within 30 s (+ the 5 s heartbeat timeout) of the last one or of the login.", "nim.md §3.2, §3.4")
    public static let loginStep = rule(
        "NIM.LOGIN-STEP", .info, layer: .session,
        "A login step as the SDK would show it (linking, link OK, logging in, login OK/failed, syncing, sync OK).",
        "nim.md §2.1 NIMLoginStep, §3.4")
    public static let afterLoginFailure = rule(
        "NIM.AFTER-LOGIN-FAILURE", .error, layer: .session,
        "A request after a 302, 417 or 422 login failure on the same connection.", "nim.md §1.1 (417 at login), §3.4")
    public static let commandAfterKick = rule(
        "NIM.COMMAND-AFTER-KICK", .error, layer: .session,
        "A request after kicked 2_5 on the same connection.", "nim.md §3.4")
    public static let autoRelogin = rule(
        "NIM.AUTO-RELOGIN", .error, lenient: .warning, layer: .session,
        "A login for an account whose earlier login failed with 302/417/422 or that was kicked (2_5): the SDK must not log in again by itself.",
        "nim.md §1.1 (kNIMResExist: 'App层必须调用Logout'), §3.4")
    public static let pendingAtEnd = rule(
        "NIM.PENDING-AT-END", .info, layer: .session,
        "The capture ends while a request is still within its timeout.", "nim.md §3.3")

    public static let all: [Rule] = [
        transportPacket, notJSON, requestShape, responseShape, wrongDirection, commandUnknown, serOutOfRange, heartbeatSer,
        qItemInvalid, qMismatch, tagUnknown, rMismatch, notifyInvalid, codeUnknown, errorCode, kickReasonUnknown,
        beforeLogin, secondLogin, requestUnanswered, responseWithoutRequest, serReused, serNotSequential, heartbeatLate,
        loginStep, afterLoginFailure, commandAfterKick, autoRelogin, pendingAtEnd,
    ]
}
