import IMWireCore

/// Every rule the yun2win dialect and its session tracker check. IDs are stable; `Spec/rules.md`
/// is generated from `Yun2winRules.all`. References are to `yun2win.md` sections (first-party
/// SDK behaviour) and, for MQTT session rules, to MQTT 3.1.1.
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
        "yun2win.md §3 (Gate discovery)")
    public static let gateReplyInvalid = rule(
        "Y2W.GATE-REPLY-INVALID", .error,
        "A gate reply that is not {\"rtnval\":\"success\",\"data\":{\"url\":…}}; the SDKs report 101 and retry.",
        "yun2win.md §3 (Gate discovery)")

    // MARK: CONNECT conventions

    public static let usernameMissing = rule(
        "Y2W.CONNECT-USERNAME-MISSING", .error,
        "CONNECT without a user name: it carries the uid (the SDKs refuse locally with 4).",
        "yun2win.md §3 (MQTT CONNECT parameters)")
    public static let passwordMissing = rule(
        "Y2W.CONNECT-PASSWORD-MISSING", .error,
        "CONNECT without a password: it carries the imToken (the SDKs refuse locally with 5).",
        "yun2win.md §3 (MQTT CONNECT parameters)")
    public static let clientIDFormat = rule(
        "Y2W.CLIENT-ID-FORMAT", .warning, lenient: .info,
        "Client id not of the form [0 first|1 reconnect][0 web|1 Android|2 iOS]<uuid> (grammar INFERRED from all three SDKs; the server answers 2).",
        "yun2win.md §3 (clientId)")
    public static let connectConvention = rule(
        "Y2W.CONNECT-CONVENTION", .warning, lenient: .info,
        "CONNECT parameters unlike the platform its client id names (web 3.1.1/300 s, Android 3.1/30 s, iOS 3.1.1/60 s; clean session, no will).",
        "yun2win.md §3 (MQTT CONNECT parameters)")

    // MARK: publishes and commands

    public static let topicUnknown = rule(
        "Y2W.TOPIC-UNKNOWN", .warning,
        "A client PUBLISH to a topic other than y2w/session/<sessionId> or y2w/single<clientId>.",
        "yun2win.md §4")
    public static let topicCommandMismatch = rule(
        "Y2W.TOPIC-COMMAND-MISMATCH", .warning,
        "sendMessage/updateSession not on y2w/session/…, or updateToken not on y2w/single….",
        "yun2win.md §4")
    public static let publishConvention = rule(
        "Y2W.PUBLISH-CONVENTION", .warning, lenient: .info,
        "A command PUBLISH with QoS > 0 or RETAIN set; all SDKs publish QoS 0 without retain.",
        "yun2win.md §4")
    public static let payloadNotJSON = rule(
        "Y2W.PAYLOAD-NOT-JSON", .error,
        "A PUBLISH payload that is not a JSON object (the server acks 30 for client commands).",
        "yun2win.md §4, §5 (30 invalidFormatOfJSONContent)")
    public static let cmdMissing = rule(
        "Y2W.CMD-MISSING", .error,
        "A client PUBLISH payload without `cmd`.",
        "yun2win.md §4")
    public static let cmdUnknown = rule(
        "Y2W.CMD-UNKNOWN", .error,
        "A `cmd` other than sendMessage, updateSession, updateToken (the server acks 22 cmdIsInvalid).",
        "yun2win.md §4, §2 (22)")
    public static let messageIDMissing = rule(
        "Y2W.MESSAGE-ID-MISSING", .error,
        "sendMessage/updateSession without a string `y2wMessageId`: its ack cannot be matched.",
        "yun2win.md §4")
    public static let mtsInvalid = rule(
        "Y2W.MTS-INVALID", .error,
        "`mts` missing or not a number (the web SDK refuses locally with 25).",
        "yun2win.md §4, §2 (25)")
    public static let fieldInvalid = rule(
        "Y2W.FIELD-INVALID", .error,
        "A command field of the wrong type: message not an object, members not an array (29), force not a boolean, token not a string.",
        "yun2win.md §4")
    public static let unknownKey = rule(
        "Y2W.UNKNOWN-KEY", .warning, lenient: .info,
        "A key no SDK sends in this command or ack.",
        "yun2win.md §4, §5")
    public static let appMessageInvalid = rule(
        "Y2W.APP-MESSAGE-INVALID", .warning, lenient: .info,
        "The demos' inner `message`: syncs not [{type 0–4, sessionId}], pns not an object (app level, not read by the push server).",
        "yun2win.md §2 (Demo-level), §4")

    // MARK: return codes

    public static let returnCodeUnknown = rule(
        "Y2W.RETURN-CODE-UNKNOWN", .error,
        "A returnCode in no yun2win table.",
        "yun2win.md §2")
    public static let returnCodeWrongTravel = rule(
        "Y2W.RETURN-CODE-WRONG-TRAVEL", .error,
        "A code that cannot travel the way it arrived: a PUBLISH-only code (10, 11, 20–31) in CONNACK, a CONNACK code in a PUBLISH, an ack code without y2wMessageId.",
        "yun2win.md §5")
    public static let clientLocalCodeOnWire = rule(
        "Y2W.CLIENT-LOCAL-CODE-ON-WIRE", .error,
        "A code only client SDKs generate (21, 23, 24, 25, 29, 101) seen on the wire.",
        "yun2win.md §5 (client-local only)")
    public static let connackCodeUnused = rule(
        "Y2W.CONNACK-CODE-UNUSED", .warning,
        "CONNACK return code 1: standard MQTT (unacceptable protocol version), which yun2win never uses (it sends 3).",
        "yun2win.md §5")
    public static let connackMeaning = rule(
        "Y2W.CONNACK-YUN2WIN-MEANING", .info,
        "A CONNACK refusal read with yun2win's meaning, which differs from MQTT's (e.g. 4 uidIsInvalid, not bad user name or password).",
        "yun2win.md §2, §5")
    public static let ackMTSMissing = rule(
        "Y2W.ACK-MTS-MISSING", .warning,
        "An ack 27/28 without the server's `mts`.",
        "yun2win.md §5")

    // MARK: session (one connection, and reconnects after a kick)

    public static let firstPacketNotConnect = rule(
        "Y2W.FIRST-PACKET-NOT-CONNECT", .error, layer: .session,
        "The client's first packet is not CONNECT.", "MQTT 3.1.1 §3.1 [MQTT-3.1.0-1]")
    public static let secondConnect = rule(
        "Y2W.SECOND-CONNECT", .error, layer: .session,
        "A second CONNECT on one network connection.", "MQTT 3.1.1 §3.1 [MQTT-3.1.0-2]")
    public static let wrongDirection = rule(
        "Y2W.WRONG-DIRECTION", .error, layer: .session,
        "A packet sent by the side that never sends it (CONNACK from the client, SUBSCRIBE from the server…).",
        "MQTT 3.1.1 §2.2.1 (direction of flow)")
    public static let serverBeforeConnack = rule(
        "Y2W.SERVER-BEFORE-CONNACK", .error, layer: .session,
        "The server sends something before CONNACK.", "MQTT 3.1.1 §3.2 [MQTT-3.2.0-1]")
    public static let publishBeforeEstablished = rule(
        "Y2W.PUBLISH-BEFORE-ESTABLISHED", .error, layer: .session,
        "A client PUBLISH before the server's PUBLISH {\"returnCode\":11} (CONNACK 0 alone is not connected).",
        "yun2win.md §3 (Connection state machine)")
    public static let afterRefusal = rule(
        "Y2W.AFTER-REFUSAL", .error, layer: .session,
        "Traffic on a connection after CONNACK refused it (the server closes it).", "MQTT 3.1.1 §3.2.2.3 [MQTT-3.2.2-5]")
    public static let sendUnanswered = rule(
        "Y2W.SEND-UNANSWERED", .warning, layer: .session,
        "A sendMessage/updateSession with no ack for its y2wMessageId within the timeout (SDKs: 10 s, then 21 locally).",
        "yun2win.md §5 (21)")
    public static let ackWithoutRequest = rule(
        "Y2W.ACK-WITHOUT-REQUEST", .error, layer: .session,
        "An ack whose y2wMessageId no pending command used.", "yun2win.md §5")
    public static let duplicateMessageID = rule(
        "Y2W.DUPLICATE-MESSAGE-ID", .error, layer: .session,
        "A command reuses a y2wMessageId that is still waiting for its ack.", "yun2win.md §4")
    public static let resendWithoutUpdate = rule(
        "Y2W.RESEND-WITHOUT-UPDATE-SESSION", .warning, lenient: .info, layer: .session,
        "After ack 26/27/28 the client sends to that session again before an updateSession (demos: 26 and 28 always, 27 after 3 tries).",
        "yun2win.md §5 (Recovery rules)")
    public static let commandAfterKick = rule(
        "Y2W.COMMAND-AFTER-KICK", .error, layer: .session,
        "The client publishes after PUBLISH {\"returnCode\":10} on the same connection.", "yun2win.md §3, §5")
    public static let reconnectAfterKick = rule(
        "Y2W.RECONNECT-AFTER-KICK", .error, layer: .session,
        "After a kick (10) the client reconnects automatically: CONNECT with client id prefix 1 and the same uid.",
        "yun2win.md §3 (10 → logout), §5")
    public static let keepAliveExceeded = rule(
        "Y2W.KEEPALIVE-EXCEEDED", .warning, layer: .session,
        "No client packet (PINGREQ or other) within 1.5 × the CONNECT keep-alive; the server may close.",
        "MQTT 3.1.1 §3.1.2.10 [MQTT-3.1.2-24]")
    public static let pendingAtEnd = rule(
        "Y2W.PENDING-AT-END", .info, layer: .session,
        "The capture ends while a command is still within its ack timeout.", "yun2win.md §5")

    public static let all: [Rule] = [
        gateRequestInvalid, gateReplyInvalid,
        usernameMissing, passwordMissing, clientIDFormat, connectConvention,
        topicUnknown, topicCommandMismatch, publishConvention, payloadNotJSON, cmdMissing, cmdUnknown, messageIDMissing,
        mtsInvalid, fieldInvalid, unknownKey, appMessageInvalid,
        returnCodeUnknown, returnCodeWrongTravel, clientLocalCodeOnWire, connackCodeUnused, connackMeaning, ackMTSMissing,
        firstPacketNotConnect, secondConnect, wrongDirection, serverBeforeConnack, publishBeforeEstablished, afterRefusal,
        sendUnanswered, ackWithoutRequest, duplicateMessageID, resendWithoutUpdate, commandAfterKick, reconnectAfterKick,
        keepAliveExceeded, pendingAtEnd,
    ]
}
