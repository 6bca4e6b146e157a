import IMWireCore

/// Every rule the NIM Web link dialect and its session tracker check. IDs are stable;
/// `Spec/rules.md` is generated from `NIMRules.all`. References are to sections of
/// `Spec/nim.md`, which cite the shipped Web SDK 8.5.0 bundle and the NIM SDK headers.
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
        """
        A NIM packet not in a socket.io 0.9 message (3) or json (4) \
        packet; the SDK sends `socket.send(JSON.stringify(cmd))`.
        """,
        "Spec/nim.md#socketio-framing (socket.send: a message packet)")
    public static let notJSON = rule(
        "NIM.PACKET-NOT-JSON", .error, layer: .encoding,
        "The data of a message packet is not a JSON object.",
        "Spec/nim.md#socketio-framing (the data is one JSON object)")
    public static let requestShape = rule(
        "NIM.REQUEST-INVALID", .error,
        "A request without integer SID, CID, SER or with a Q that is not an array.",
        "Spec/nim.md#request (integer SID, CID, SER; Q an array)")
    public static let responseShape = rule(
        "NIM.RESPONSE-INVALID", .error,
        "A response or push without integer sid, cid, ser, code or with an r that is not an array.",
        "Spec/nim.md#response (integer sid, cid, ser, code; r an array)")
    public static let wrongDirection = rule(
        "NIM.WRONG-DIRECTION", .error,
        "An uppercase request from the server or a lowercase response from the client.",
        "Spec/nim.md#request, Spec/nim.md#response (uppercase from the client, lowercase from the server)")
    public static let commandUnknown = rule(
        "NIM.COMMAND-UNKNOWN", .warning,
        "A sid_cid in neither the cmdConfig nor the packetConfig of Web SDK 8.5.0.", "Spec/nim.md#command-ids")
    public static let serOutOfRange = rule(
        "NIM.SER-OUT-OF-RANGE", .error,
        "A SER outside 1…32767 (0 only for heartbeat 1_2): the counter restarts at 1 after 32767.",
        "Spec/nim.md#ser (1…32767, 0 for heartbeat)")
    public static let heartbeatSer = rule(
        "NIM.HEARTBEAT-SER", .error,
        "A heartbeat 1_2 with a SER other than 0.", "Spec/nim.md#ser (0 for heartbeat 1_2)")
    public static let qItemInvalid = rule(
        "NIM.Q-ITEM-INVALID", .error,
        """
        A Q item that is not {t, v} with a known t and a v of that \
        type (bool as "true"/"false", Property keys numeric tags).
        """,
        "Spec/nim.md#q-items")
    public static let qMismatch = rule(
        "NIM.Q-MISMATCH", .error,
        "A Q that does not fit the command's parameter list (count, types, a required Property missing).",
        "Spec/nim.md#q-parameters")
    public static let tagUnknown = rule(
        "NIM.TAG-UNKNOWN", .warning, lenient: .info,
        "A Property tag that the object's tag map does not name.", "Spec/nim.md#tag-maps")
    public static let rMismatch = rule(
        "NIM.R-MISMATCH", .warning,
        """
        A response r with more entries than the handler's response \
        fields, or an entry of the wrong shape for its field.
        """,
        "Spec/nim.md#response (r[i] is the handler's i-th field), Spec/nim.md#command-ids (response r[])")
    public static let notifyInvalid = rule(
        "NIM.NOTIFY-INVALID", .error,
        """
        A notify wrapper (4_1, 4_2, 4_10, 4_11) without r[1].headerPacket {sid, \
        cid} and r[1].body, or whose body (the inner packet's r) is not an array.
        """,
        "Spec/nim.md#notify-wrapper")
    public static let codeUnknown = rule(
        "NIM.CODE-UNKNOWN", .warning,
        "A response code in no NIM table (the Web SDK reports 操作失败).",
        "Spec/nim.md#response-codes (a code in no table)")
    public static let errorCode = rule(
        "NIM.RESPONSE-ERROR", .info,
        "A response whose code is an error on the web (anything but 200, 406, 808, 810), named from the status tables.",
        "Spec/nim.md#response-codes (200, 406, 808, 810 success on the Web)")
    public static let kickReasonUnknown = rule(
        "NIM.KICK-REASON-UNKNOWN", .warning,
        "A kicked (2_5) reason other than 1–4.", "Spec/nim.md#kicked (reasons 1–4)")

    // MARK: session

    public static let beforeLogin = rule(
        "NIM.BEFORE-LOGIN", .error, layer: .session,
        """
        A request other than login 2_3 (chat-room login 13_2 on a chat-room link, \
        or link 1_5/1_6) before the login succeeded; the SDK rejects it locally.
        """,
        "Spec/nim.md#login-flow (login the only command before it completes), Spec/nim.md#chatroom-link")
    public static let secondLogin = rule(
        "NIM.SECOND-LOGIN", .warning, layer: .session,
        "A login 2_3 on a connection that is already logged in.", "Spec/nim.md#login-flow (one login per connection)")
    public static let requestUnanswered = rule(
        "NIM.REQUEST-UNANSWERED", .warning, layer: .session,
        "A request without a response with its sid, cid and ser within the timeout (8 s; heartbeat 5 s).",
        "Spec/nim.md#correlation (8 s, heartbeat 5 s)")
    public static let responseWithoutRequest = rule(
        "NIM.RESPONSE-WITHOUT-REQUEST", .warning, lenient: .info, layer: .session,
        "A response to a client command whose ser matches no pending request.",
        "Spec/nim.md#correlation, Spec/nim.md#ser")
    public static let serReused = rule(
        "NIM.SER-REUSED", .error, layer: .session,
        "A SER reused while a request with it is still pending.",
        "Spec/nim.md#ser (ser correlates a response to its pending request)")
    public static let serNotSequential = rule(
        "NIM.SER-NOT-SEQUENTIAL", .warning, lenient: .info, layer: .session,
        "A SER that is not the previous one + 1 (or 1 after 32767): the Web SDK counts per module.",
        "Spec/nim.md#ser (incremented per command, 1 after 32767)")
    public static let heartbeatLate = rule(
        "NIM.HEARTBEAT-LATE", .warning, layer: .session,
        "No heartbeat 1_2 within 30 s (+ the 5 s heartbeat timeout) of the last one or of the login.",
        "Spec/nim.md#heartbeat (30 s after the previous one, 5 s timeout)")
    public static let loginStep = rule(
        "NIM.LOGIN-STEP", .info, layer: .session,
        "A login step as the SDK would show it (linking, link OK, logging in, login OK/failed, syncing, sync OK).",
        "Spec/nim.md#login-steps")
    public static let afterLoginFailure = rule(
        "NIM.AFTER-LOGIN-FAILURE", .error, layer: .session,
        "A request after a 302, 417 or 422 login failure on the same connection.",
        "Spec/nim.md#login-failure (302, 417, 422)")
    public static let commandAfterKick = rule(
        "NIM.COMMAND-AFTER-KICK", .error, layer: .session,
        "A request after kicked 2_5 on the same connection.", "Spec/nim.md#kicked")
    public static let autoRelogin = rule(
        "NIM.AUTO-RELOGIN", .error, lenient: .warning, layer: .session,
        """
        A login for an account whose earlier login failed with 302/417/422 or that was kicked (2_5 reasons \
        1–3; after 4 silentlyKick the Web SDK reconnects): the SDK must not log in again by itself.
        """,
        "Spec/nim.md#login-failure, Spec/nim.md#kicked (no re-login by the SDK itself)")
    public static let kicked = rule(
        "NIM.KICKED", .info, layer: .session,
        """
        The server kicked the client: 2_5 kicked r=[from, reason, custom, customClientType]. Web \
        SDK 8.5.0 (onKicked): reasons 1–3 end the session (socket.io disconnect 0::, ondisconnect \
        {code: "kicked", reason}, no reconnect); 4 silentlyKick drops the link and reconnects.
        """,
        "Spec/nim.md#kicked")
    public static let pendingAtEnd = rule(
        "NIM.PENDING-AT-END", .info, layer: .session,
        "The capture ends while a request is still within its timeout.", "Spec/nim.md#correlation")

    public static let all: [Rule] = [
        transportPacket, notJSON, requestShape, responseShape, wrongDirection, commandUnknown, serOutOfRange,
        heartbeatSer,
        qItemInvalid, qMismatch, tagUnknown, rMismatch, notifyInvalid, codeUnknown, errorCode, kickReasonUnknown,
        beforeLogin, secondLogin, requestUnanswered, responseWithoutRequest, serReused, serNotSequential, heartbeatLate,
        loginStep, afterLoginFailure, commandAfterKick, kicked, autoRelogin, pendingAtEnd,
    ]
}
