import IMWireCore

/// Every rule the yun2win dialect and its session tracker check. IDs are stable; `Spec/rules.md`
/// is generated from `Yun2winRules.all`. Each reference names the section of `Spec/yun2win.md`
/// that states the requirement and its public source (the first-party SDKs; for the MQTT session
/// rules, the MQTT 3.1.1 clause).
public enum Yun2winRules {
    private static func rule(
        _ id: RuleID, _ severity: Severity, lenient: Severity? = nil, layer: Layer = .command,
        _ summary: String, _ specRef: String
    ) -> Rule {
        Rule(id, severity, lenient: lenient, layer: layer, dialect: .yun2win, summary: summary, specRef: specRef)
    }

    // MARK: gate discovery

    public static let gateRequestInvalid = rule(
        "Y2W.GATE-REQUEST-INVALID", .error,
        "A gate request that is not `oper=register` (form on web/Android, JSON {oper, appKey, uid} on iOS).",
        "Spec/yun2win.md#gate-discovery (request)")
    public static let gateReplyInvalid = rule(
        "Y2W.GATE-REPLY-INVALID", .error,
        "A gate reply that is not {\"rtnval\":\"success\",\"data\":{\"url\":…}}; the SDKs report 101 and retry.",
        "Spec/yun2win.md#gate-discovery (reply)")

    // MARK: CONNECT conventions

    public static let usernameMissing = rule(
        "Y2W.CONNECT-USERNAME-MISSING", .error,
        "CONNECT without a user name: it carries the uid (the SDKs refuse locally with 4).",
        "Spec/yun2win.md#connect-parameters (user name = uid)")
    public static let passwordMissing = rule(
        "Y2W.CONNECT-PASSWORD-MISSING", .error,
        "CONNECT without a password: it carries the imToken (the SDKs refuse locally with 5).",
        "Spec/yun2win.md#connect-parameters (password = imToken)")
    public static let clientIDFormat = rule(
        "Y2W.CLIENT-ID-FORMAT", .warning, lenient: .info,
        """
        Client id not of the form [0 first|1 reconnect][0 web|1 Android|2 \
        iOS]<uuid> (grammar INFERRED from all three SDKs; the server answers 2).
        """,
        "Spec/yun2win.md#client-id")
    public static let connectConvention = rule(
        "Y2W.CONNECT-CONVENTION", .warning, lenient: .info,
        """
        CONNECT parameters unlike the platform its client id names (web \
        3.1.1/300 s, Android 3.1/30 s, iOS 3.1.1/60 s; clean session, no will).
        """,
        "Spec/yun2win.md#connect-parameters (per platform), Spec/yun2win.md#transport")

    // MARK: publishes and commands

    public static let topicUnknown = rule(
        "Y2W.TOPIC-UNKNOWN", .warning,
        "A client PUBLISH to a topic other than y2w/session/<sessionId> or y2w/single<clientId>.",
        "Spec/yun2win.md#command-topics")
    public static let topicCommandMismatch = rule(
        "Y2W.TOPIC-COMMAND-MISMATCH", .warning,
        "sendMessage/updateSession not on y2w/session/…, or updateToken not on y2w/single….",
        "Spec/yun2win.md#command-topics")
    public static let publishConvention = rule(
        "Y2W.PUBLISH-CONVENTION", .warning, lenient: .info,
        "A command PUBLISH with QoS > 0 or RETAIN set; all SDKs publish QoS 0 without retain.",
        "Spec/yun2win.md#command-topics (QoS 0, no retain)")
    public static let payloadNotJSON = rule(
        "Y2W.PAYLOAD-NOT-JSON", .error,
        "A PUBLISH payload that is not a JSON object (the server acks 30 for client commands).",
        "Spec/yun2win.md#command-payloads (a JSON object; ack 30)")
    public static let cmdMissing = rule(
        "Y2W.CMD-MISSING", .error,
        "A client PUBLISH payload without `cmd`.",
        "Spec/yun2win.md#command-payloads (cmd)")
    public static let cmdUnknown = rule(
        "Y2W.CMD-UNKNOWN", .error,
        "A `cmd` other than sendMessage, updateSession, updateToken (the server acks 22 cmdIsInvalid).",
        "Spec/yun2win.md#command-payloads (cmd; ack 22)")
    public static let messageIDMissing = rule(
        "Y2W.MESSAGE-ID-MISSING", .error,
        "sendMessage/updateSession without a string `y2wMessageId`: its ack cannot be matched.",
        "Spec/yun2win.md#command-payloads (y2wMessageId)")
    public static let mtsInvalid = rule(
        "Y2W.MTS-INVALID", .error,
        "`mts` missing or not a number (the web SDK refuses locally with 25).",
        "Spec/yun2win.md#command-payloads (mts; local 25)")
    public static let fieldInvalid = rule(
        "Y2W.FIELD-INVALID", .error,
        """
        A command field of the wrong type: message not an object, members \
        not an array (29), force not a boolean, token not a string.
        """,
        "Spec/yun2win.md#command-payloads (field types)")
    public static let unknownKey = rule(
        "Y2W.UNKNOWN-KEY", .warning, lenient: .info,
        "A key no SDK sends in this command or ack.",
        "Spec/yun2win.md#command-payloads, Spec/yun2win.md#acks (the keys SDKs send and read)")
    public static let appMessageInvalid = rule(
        "Y2W.APP-MESSAGE-INVALID", .warning, lenient: .info,
        """
        The demos' inner `message`: syncs not [{type 0–4, sessionId}], \
        pns not an object (app level, not read by the push server).
        """,
        "Spec/yun2win.md#app-message")

    // MARK: return codes

    public static let returnCodeUnknown = rule(
        "Y2W.RETURN-CODE-UNKNOWN", .error,
        "A returnCode in no yun2win table.",
        "Spec/yun2win.md#return-codes")
    public static let returnCodeWrongTravel = rule(
        "Y2W.RETURN-CODE-WRONG-TRAVEL", .error,
        """
        A code that cannot travel the way it arrived: a PUBLISH-only code (10, 11, \
        20–31) in CONNACK, a CONNACK code in a PUBLISH, an ack code without y2wMessageId.
        """,
        "Spec/yun2win.md#return-codes (how each code travels)")
    public static let clientLocalCodeOnWire = rule(
        "Y2W.CLIENT-LOCAL-CODE-ON-WIRE", .error,
        "A code only client SDKs generate (21, 23, 24, 25, 29, 101) seen on the wire.",
        "Spec/yun2win.md#return-codes (client-local codes)")
    public static let connackCodeUnused = rule(
        "Y2W.CONNACK-CODE-UNUSED", .warning,
        "CONNACK return code 1: standard MQTT (unacceptable protocol version), which yun2win never uses (it sends 3).",
        "Spec/yun2win.md#return-codes (CONNACK 1)")
    public static let connackMeaning = rule(
        "Y2W.CONNACK-YUN2WIN-MEANING", .info,
        """
        A CONNACK refusal read with yun2win's meaning, which differs \
        from MQTT's (e.g. 4 uidIsInvalid, not bad user name or password).
        """,
        "Spec/yun2win.md#return-codes (CONNACK meanings)")
    public static let ackMTSMissing = rule(
        "Y2W.ACK-MTS-MISSING", .warning,
        "An ack 27/28 without the server's `mts`.",
        "Spec/yun2win.md#acks (mts on 27, 28)")

    // MARK: session (one connection, and reconnects after a kick)

    public static let firstPacketNotConnect = rule(
        "Y2W.FIRST-PACKET-NOT-CONNECT", .error, layer: .session,
        "The client's first packet is not CONNECT.", "Spec/yun2win.md#mqtt-connect-first")
    public static let secondConnect = rule(
        "Y2W.SECOND-CONNECT", .error, layer: .session,
        "A second CONNECT on one network connection.", "Spec/yun2win.md#mqtt-connect-first")
    public static let wrongDirection = rule(
        "Y2W.WRONG-DIRECTION", .error, layer: .session,
        "A packet sent by the side that never sends it (CONNACK from the client, SUBSCRIBE from the server…).",
        "Spec/yun2win.md#mqtt-direction")
    public static let serverBeforeConnack = rule(
        "Y2W.SERVER-BEFORE-CONNACK", .error, layer: .session,
        "The server sends something before CONNACK.", "Spec/yun2win.md#mqtt-connack")
    public static let publishBeforeEstablished = rule(
        "Y2W.PUBLISH-BEFORE-ESTABLISHED", .error, layer: .session,
        "A client PUBLISH before the server's PUBLISH {\"returnCode\":11} (CONNACK 0 alone is not connected).",
        "Spec/yun2win.md#connection-established (returnCode 11)")
    public static let afterRefusal = rule(
        "Y2W.AFTER-REFUSAL", .error, layer: .session,
        "Traffic on a connection after CONNACK refused it (the server closes it).",
        "Spec/yun2win.md#mqtt-connack (a refusal closes)")
    public static let sendUnanswered = rule(
        "Y2W.SEND-UNANSWERED", .warning, layer: .session,
        """
        A sendMessage/updateSession with no ack for its y2wMessageId \
        within the timeout (SDKs: 10 s, then 21 locally).
        """,
        "Spec/yun2win.md#acks (10 s timeout)")
    public static let ackWithoutRequest = rule(
        "Y2W.ACK-WITHOUT-REQUEST", .error, layer: .session,
        "An ack whose y2wMessageId no pending command used.", "Spec/yun2win.md#acks")
    public static let duplicateMessageID = rule(
        "Y2W.DUPLICATE-MESSAGE-ID", .error, layer: .session,
        "A command reuses a y2wMessageId that is still waiting for its ack.",
        "Spec/yun2win.md#command-payloads (y2wMessageId)")
    public static let resendWithoutUpdate = rule(
        "Y2W.RESEND-WITHOUT-UPDATE-SESSION", .warning, lenient: .info, layer: .session,
        """
        After ack 26/27/28 the client sends to that session again before \
        an updateSession (demos: 26 and 28 always, 27 after 3 tries).
        """,
        "Spec/yun2win.md#recovery-rules")
    public static let commandAfterKick = rule(
        "Y2W.COMMAND-AFTER-KICK", .error, layer: .session,
        "The client publishes after PUBLISH {\"returnCode\":10} on the same connection.",
        "Spec/yun2win.md#connection-established (kicked: 10)")
    public static let reconnectAfterKick = rule(
        "Y2W.RECONNECT-AFTER-KICK", .error, layer: .session,
        "After a kick (10) the client reconnects automatically: CONNECT with client id prefix 1 and the same uid.",
        "Spec/yun2win.md#connection-established (kicked: 10), Spec/yun2win.md#client-id (prefix 1)")
    public static let sendRefused = rule(
        "Y2W.SEND-REFUSED", .warning, lenient: .info, layer: .session,
        """
        The server refused a sendMessage/updateSession: ack 22 cmdIsInvalid, 30 invalidFormatOfJSONContent \
        or 31 sessionMembersIsNull (the web SDK calls onFailure(code); no recovery).
        """,
        "Spec/yun2win.md#acks (send-return codes 20–31; web SDK handleMessage)")
    public static let sessionOutOfSync = rule(
        "Y2W.SESSION-OUT-OF-SYNC", .info, layer: .session,
        """
        The server refused a send until the session is updated: ack 26, 27, 28 (Android: 1000); \
        the web SDK calls onFailure(code[, mts]), the demos send updateSession and resend.
        """,
        "Spec/yun2win.md#acks (send-return codes 20–31), Spec/yun2win.md#recovery-rules")
    public static let kicked = rule(
        "Y2W.KICKED", .info, layer: .session,
        """
        The server kicked the client: PUBLISH {"returnCode":10} (the web \
        SDK sends DISCONNECT, reports disconnected(100, 10) and stops).
        """,
        "Spec/yun2win.md#connection-established (kicked: 10)")
    public static let keepAliveExceeded = rule(
        "Y2W.KEEPALIVE-EXCEEDED", .warning, layer: .session,
        "No client packet (PINGREQ or other) within 1.5 × the CONNECT keep-alive; the server may close.",
        "Spec/yun2win.md#mqtt-keep-alive")
    public static let publishNotAcknowledged = rule(
        "Y2W.PUBLISH-NOT-ACKNOWLEDGED", .warning, layer: .session,
        """
        A QoS 1 PUBLISH from the server (a message delivered, a kick) with no PUBACK for its packet id within \
        the ack timeout (10 s); MQTT requires one, MQTT.js and the Android and iOS clients send it at once.
        """,
        "Spec/yun2win.md#acks (10 s timeout), MQTT 3.1.1 §4.3.2 (QoS 1: the receiver MUST send PUBACK)")
    public static let pendingAtEnd = rule(
        "Y2W.PENDING-AT-END", .info, layer: .session,
        "The capture ends while a command is still within its ack timeout.", "Spec/yun2win.md#acks (10 s timeout)")

    public static let all: [Rule] = [
        gateRequestInvalid, gateReplyInvalid,
        usernameMissing, passwordMissing, clientIDFormat, connectConvention,
        topicUnknown, topicCommandMismatch, publishConvention, payloadNotJSON, cmdMissing, cmdUnknown, messageIDMissing,
        mtsInvalid, fieldInvalid, unknownKey, appMessageInvalid,
        returnCodeUnknown, returnCodeWrongTravel, clientLocalCodeOnWire, connackCodeUnused, connackMeaning,
        ackMTSMissing,
        firstPacketNotConnect, secondConnect, wrongDirection, serverBeforeConnack, publishBeforeEstablished,
        afterRefusal,
        sendUnanswered, ackWithoutRequest, duplicateMessageID, resendWithoutUpdate, sendRefused, sessionOutOfSync,
        commandAfterKick, kicked,
        reconnectAfterKick, keepAliveExceeded, publishNotAcknowledged, pendingAtEnd,
    ]
}
