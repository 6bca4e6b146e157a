import IMWireCore

/// Every rule the JMessage Web dialect and its session tracker check. IDs are stable;
/// `Spec/rules.md` is generated from `JMessageRules.all`. References are to sections of
/// `Spec/jmessage.md`, which cite the Web SDK 2.4.0 source, the 2.5.0 bundle and the docs' source.
public enum JMessageRules {
    private static func rule(
        _ id: RuleID, _ severity: Severity, lenient: Severity? = nil, layer: Layer = .command,
        _ summary: String, _ specRef: String
    ) -> Rule {
        Rule(id, severity, lenient: lenient, layer: layer, dialect: .jmessage, summary: summary, specRef: specRef)
    }

    // MARK: events

    public static let transportPacket = rule(
        "JM.TRANSPORT-PACKET", .warning, layer: .encoding,
        "A socket.io ACK or binary packet: the SDK emits plain events and correlates by rid, not socket.io acks.",
        "Spec/jmessage.md#framing (plain events, correlated by rid)")
    public static let payloadNotObject = rule(
        "JM.PAYLOAD-NOT-OBJECT", .error, layer: .encoding,
        "An event whose arguments are not exactly one JSON object.",
        "Spec/jmessage.md#framing (one JSON object per event)")
    public static let eventUnknown = rule(
        "JM.EVENT-UNKNOWN", .warning,
        "An event name not in the Web SDK's list.", "Spec/jmessage.md#events")
    public static let wrongDirection = rule(
        "JM.WRONG-DIRECTION", .error,
        "A server push or ack sent by the client, or a client-only event (a reply) sent by the server.",
        "Spec/jmessage.md#events (roles)")
    public static let ridMissing = rule(
        "JM.RID-MISSING", .error,
        "A client request or reply, or a server response or ack, without rid.", "Spec/jmessage.md#rid")
    public static let ridInvalid = rule(
        "JM.RID-INVALID", .error,
        "A rid that is not an integer in 1…2147483646.", "Spec/jmessage.md#rid (integer 1…2147483646)")
    public static let codeInvalid = rule(
        "JM.CODE-INVALID", .error,
        "A server response without an integer code (0 = success).",
        "Spec/jmessage.md#ack-response (integer code, 0 success)")
    public static let codeUnknown = rule(
        "JM.CODE-UNKNOWN", .warning,
        "A response code in no JMessage table.", "Spec/jmessage.md#response-codes")
    public static let errorCode = rule(
        "JM.RESPONSE-ERROR", .info,
        "A response with a non-zero code, named from the status tables (803004, 803005, …).",
        "Spec/jmessage.md#response-codes")
    public static let fieldMissing = rule(
        "JM.FIELD-MISSING", .error,
        "A payload without a field the SDK always sends for this event (or with the wrong JSON type).",
        "Spec/jmessage.md#events (payload always has)"
    )
    public static let contentInvalid = rule(
        "JM.CONTENT-INVALID", .error,
        """
        A message protocol `content` without version 1, target_type single|group \
        matching the event, target_id, from_id, create_time or a known msg_type.
        """,
        "Spec/jmessage.md#message-protocol")
    public static let msgBodyInvalid = rule(
        "JM.MSG-BODY-INVALID", .error,
        """
        A msg_body without the fields of its msg_type (text {text}, \
        image {media_id, media_crc32, width, height, fsize}, …).
        """,
        "Spec/jmessage.md#message-protocol (bodies)")
    public static let signatureFormat = rule(
        "JM.SIGNATURE-FORMAT", .warning,
        "A c_init signature that is not 32 lowercase hex digits (an MD5).",
        "Spec/jmessage.md#init-login (signature an MD5)")
    public static let signatureInvalid = rule(
        "JM.SIGNATURE-INVALID", .error,
        """
        A c_init signature that is not md5(appkey=…&timestamp=…&random_str=…&key=<master \
        secret>) (checked with --secret).
        """,
        "Spec/jmessage.md#init-login (the signature formula)")
    public static let eventTypeUnknown = rule(
        "JM.EVENT-TYPE-UNKNOWN", .warning, lenient: .info,
        """
        An event_notification whose event_type is not an integer \
        of the Web table (web-event-type); it stays numbered.
        """,
        "Spec/jmessage.md#event-types")
    public static let passwordNotMD5 = rule(
        "JM.PASSWORD-NOT-MD5", .warning, lenient: .info,
        "A login/register password that is not 32 hex digits: the SDK sends md5(password) unless is_md5.",
        "Spec/jmessage.md#init-login (md5(password) unless is_md5)")

    // MARK: session

    public static let beforeInit = rule(
        "JM.BEFORE-INIT", .error, layer: .session,
        "A client event before c_init succeeded (the SDK throws 'must init first').",
        "Spec/jmessage.md#init-login (c_init first)")
    public static let beforeLogin = rule(
        "JM.BEFORE-LOGIN", .error, layer: .session,
        "A client event other than c_init, login or register before login succeeded ('must login first').",
        "Spec/jmessage.md#init-login (then login)"
    )
    public static let ackMissing = rule(
        "JM.ACK-MISSING", .warning, layer: .session,
        "A request or reply without the server's ack {rid} within 5 s and not re-sent.",
        "Spec/jmessage.md#ack-response (ACK_TIMEOUT 5 s)")
    public static let responseMissing = rule(
        "JM.RESPONSE-MISSING", .warning, layer: .session,
        "An acknowledged request without its response (same event, same rid, code) within 30 s and not re-sent.",
        "Spec/jmessage.md#ack-response (RESP_TIMEOUT 30 s)")
    public static let retryLimit = rule(
        "JM.RETRY-LIMIT", .error, layer: .session,
        "A rid re-sent more than 5 times (RETRY_TIMES 5: one send and up to 5 re-sends).",
        "Spec/jmessage.md#resend (RETRY_TIMES 5)")
    public static let retryEarly = rule(
        "JM.RETRY-EARLY", .warning, lenient: .info, layer: .session,
        """
        A re-send with the same rid before the ack timeout (5 s) \
        or, once acknowledged, before the response timeout (30 s).
        """,
        "Spec/jmessage.md#resend")
    public static let ridReused = rule(
        "JM.RID-REUSED", .error, layer: .session,
        "A new event reusing the rid of another event that is still pending.",
        "Spec/jmessage.md#rid (unique among pending requests)")
    public static let ackWithoutRequest = rule(
        "JM.ACK-WITHOUT-REQUEST", .warning, layer: .session,
        "An ack whose rid matches no pending request.", "Spec/jmessage.md#ack-response")
    public static let responseWithoutRequest = rule(
        "JM.RESPONSE-WITHOUT-REQUEST", .warning, layer: .session,
        "A response whose rid matches no pending request.", "Spec/jmessage.md#ack-response")
    public static let responseEventMismatch = rule(
        "JM.RESPONSE-EVENT-MISMATCH", .warning, layer: .session,
        "A response under another event name than its request (s_single_text for s_across_single_text is expected).",
        "Spec/jmessage.md#ack-response (same event name; s_single_text)")
    public static let messageNotAcknowledged = rule(
        "JM.MSG-NOT-ACKNOWLEDGED", .warning, layer: .session,
        "A msg_sync message without msg_recv_v2 for its msg_id within the timeout (2.5.0).",
        "Spec/jmessage.md#pushes (msg_sync → msg_recv_v2)")
    public static let syncNotAcknowledged = rule(
        "JM.SYNC-NOT-ACKNOWLEDGED", .warning, layer: .session,
        "A sync_conversation, sync_event or sync_receipt without its *_ack within the timeout.",
        "Spec/jmessage.md#pushes (sync_* → *_ack)")
    public static let syncAckKeyMismatch = rule(
        "JM.SYNC-ACK-KEY-MISMATCH", .error, layer: .session,
        "A *_ack whose sync_key is not the one of the sync it acknowledges.", "Spec/jmessage.md#pushes (sync_key)")
    public static let eventNotAcknowledged = rule(
        "JM.EVENT-NOT-ACKNOWLEDGED", .warning, layer: .session,
        "An event_notification of event_type 1 without the client's event_notification reply with its event_id.",
        "Spec/jmessage.md#pushes, Spec/jmessage.md#event-types (event_type 1)")
    public static let afterForcedLogout = rule(
        "JM.AFTER-FORCED-LOGOUT", .error, layer: .session,
        "A client request after event_type 1 or 2 (forced offline, password changed): the SDK logs out.",
        "Spec/jmessage.md#event-types (LOGIN_OUT_EVENT [1, 2])")
    public static let kicked = rule(
        "JM.KICKED", .info, layer: .session,
        """
        The server ended the login: event_notification event_type 1 (extra 0 logged in elsewhere, 1 \
        disabled, 2 deleted) or 2 (password changed); the Web SDK replies to type 1, calls \
        onEventNotification and logs out (socket.io DISCONNECT, then a new connection without c_init).
        """,
        "Spec/jmessage.md#event-types (LOGIN_OUT_EVENT [1, 2])")
    public static let resendBeforeLogin = rule(
        "JM.RESEND-BEFORE-LOGIN", .info, layer: .session,
        """
        A request or reply from an earlier connection re-sent before this one logged in (a reply to a push this \
        connection never had, a send whose content.create_time is over half the 5 s ack timeout old, or an \
        event and rid an earlier connection of the client ended with unanswered): the Web SDK keeps re-sending \
        what was pending when the transport dropped, and socket.io-client reconnects the transport by itself.
        """,
        "Spec/jmessage.md#resend (RETRY_TIMES 5, same rid)")
    public static let pendingAtEnd = rule(
        "JM.PENDING-AT-END", .info, layer: .session,
        "The capture ends while a request is still within its timeouts.", "Spec/jmessage.md#ack-response")

    public static let all: [Rule] = [
        transportPacket, payloadNotObject, eventUnknown, wrongDirection, ridMissing, ridInvalid, codeInvalid,
        codeUnknown, errorCode,
        fieldMissing, contentInvalid, msgBodyInvalid, eventTypeUnknown, signatureFormat, signatureInvalid,
        passwordNotMD5,
        beforeInit, beforeLogin, ackMissing, responseMissing, retryLimit, retryEarly, ridReused, ackWithoutRequest,
        responseWithoutRequest, responseEventMismatch, messageNotAcknowledged, syncNotAcknowledged, syncAckKeyMismatch,
        eventNotAcknowledged, afterForcedLogout, kicked, resendBeforeLogin, pendingAtEnd,
    ]
}
