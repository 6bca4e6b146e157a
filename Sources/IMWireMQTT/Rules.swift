import IMWireCore

/// Every rule the MQTT 3.1/3.1.1 packet codec checks. IDs are stable; `Spec/rules.md` is generated
/// from `MQTTRules.all`. References name the section of `Spec/mqtt.md` that states each
/// requirement; the section cites MQTT 3.1.1 (OASIS, normative statement IDs in brackets) and the
/// MQTT 3.1 specification (IBM/Eurotech, 2010) where 3.1 differs.
package enum MQTTRules {
    private static func rule(
        _ id: RuleID, _ severity: Severity, lenient: Severity? = nil, _ summary: String,
        _ specRef: String
    ) -> Rule {
        Rule(id, severity, lenient: lenient, layer: .mqtt, summary: summary, specRef: specRef)
    }

    // MARK: fixed header and framing

    package static let packetTypeReserved = rule(
        "MQTT.PACKET-TYPE-RESERVED", .error,
        "Control packet type 0 or 15 (reserved); the packet is skipped by its remaining length.",
        "Spec/mqtt.md#packet-type")
    package static let fixedHeaderFlags = rule(
        "MQTT.FIXED-HEADER-FLAGS", .error, lenient: .warning,
        """
        Fixed-header flags other than the ones the packet type requires \
        (0010 for PUBREL, SUBSCRIBE, UNSUBSCRIBE; 0000 otherwise).
        """,
        "Spec/mqtt.md#fixed-header-flags (MQTT 3.1.1)")
    package static let fixedHeaderFlagsV31 = rule(
        "MQTT.FIXED-HEADER-FLAGS-V31", .warning, lenient: .info,
        """
        MQTT 3.1: fixed-header flags other than the packet type uses (3.1 calls \
        them unused; DUP is allowed on a re-sent PUBREL, SUBSCRIBE, UNSUBSCRIBE).
        """,
        "Spec/mqtt.md#fixed-header-flags (MQTT 3.1)")
    package static let remainingLengthOverlong = rule(
        "MQTT.REMAINING-LENGTH-OVERLONG", .error,
        "Remaining length longer than 4 bytes; the stream cannot be framed any further.",
        "Spec/mqtt.md#remaining-length (at most 4 bytes)")
    package static let remainingLengthNonMinimal = rule(
        "MQTT.REMAINING-LENGTH-NON-MINIMAL", .warning, lenient: .info,
        "Remaining length encoded in more bytes than needed (a trailing 0x80 … 0x00 group).",
        "Spec/mqtt.md#remaining-length (minimal encoding)")
    package static let packetTooLarge = rule(
        "MQTT.PACKET-TOO-LARGE", .error,
        "Remaining length above Limits.maxFrameSize; the body is skipped unread, never buffered.",
        "Spec/mqtt.md#packet-size-limit")
    package static let truncated = rule(
        "MQTT.TRUNCATED", .error,
        "The bytes end inside a packet (its fixed header or the body its remaining length announces).",
        "Spec/mqtt.md#remaining-length (the announced body)")
    package static let fieldOverrun = rule(
        "MQTT.FIELD-OVERRUN", .error,
        "A field (or its 2-byte length prefix) runs past the end of the packet's remaining length.",
        "Spec/mqtt.md#packet-fields (fields within the remaining length)")
    package static let trailingBytes = rule(
        "MQTT.TRAILING-BYTES", .error,
        "Bytes left in a packet after its last field (e.g. a PUBACK with remaining length 3, a PINGREQ with a body).",
        "Spec/mqtt.md#packet-fields (nothing after the last field)")
    package static let stringInvalidUTF8 = rule(
        "MQTT.STRING-INVALID-UTF8", .error,
        "A UTF-8 string field (topic, client id, user name, will topic, topic filter) that is not well-formed UTF-8.",
        "Spec/mqtt.md#utf8-strings (well-formed UTF-8)")
    package static let stringNUL = rule(
        "MQTT.STRING-NUL", .error,
        "A UTF-8 string field containing U+0000.",
        "Spec/mqtt.md#utf8-strings (no U+0000)")

    // MARK: CONNECT

    package static let protocolNameInvalid = rule(
        "MQTT.PROTOCOL-NAME-INVALID", .error,
        "CONNECT protocol name is neither `MQTT` (3.1.1) nor `MQIsdp` (3.1).",
        "Spec/mqtt.md#connect-protocol (protocol name)")
    package static let protocolLevelUnsupported = rule(
        "MQTT.PROTOCOL-LEVEL-UNSUPPORTED", .error,
        "CONNECT protocol level other than 3 or 4; a server answers CONNACK 1 and closes.",
        "Spec/mqtt.md#connect-protocol (protocol level)")
    package static let protocolNameLevelMismatch = rule(
        "MQTT.PROTOCOL-NAME-LEVEL-MISMATCH", .error,
        "CONNECT names one version and gives the other's level (`MQIsdp` with 4, `MQTT` with 3).",
        "Spec/mqtt.md#connect-protocol (name and level together)")
    package static let connectReservedFlag = rule(
        "MQTT.CONNECT-RESERVED-FLAG", .error,
        "CONNECT flags bit 0 (reserved) is set.",
        "Spec/mqtt.md#connect-flags (reserved bit)")
    package static let willFlagsInconsistent = rule(
        "MQTT.WILL-FLAGS-INCONSISTENT", .error,
        "Will QoS or Will Retain set while the Will Flag is 0.",
        "Spec/mqtt.md#connect-flags (Will QoS and Will Retain without the Will Flag)")
    package static let willQoSInvalid = rule(
        "MQTT.WILL-QOS-INVALID", .error,
        "Will QoS 3.",
        "Spec/mqtt.md#connect-flags (Will QoS)")
    package static let passwordWithoutUsername = rule(
        "MQTT.PASSWORD-WITHOUT-USERNAME", .error,
        "CONNECT with the Password Flag set and the User Name Flag clear.",
        "Spec/mqtt.md#connect-flags (Password Flag)")
    package static let clientIDEmpty = rule(
        "MQTT.CLIENT-ID-EMPTY", .error,
        "Empty client identifier: never valid in 3.1; in 3.1.1 only with Clean Session 1.",
        "Spec/mqtt.md#client-identifier (empty identifier)")
    package static let clientIDTooLongV31 = rule(
        "MQTT.CLIENT-ID-TOO-LONG-V31", .warning, lenient: .info,
        """
        MQTT 3.1 client identifier longer than 23 characters: 3.1 says the server answers \
        CONNACK 2, yet mosquitto and most brokers accept it. yun2win's Android SDK sends \
        38 (`01`+uuid) on 3.1; under the yun2win dialect such an id is reported as info.
        """,
        "Spec/mqtt.md#client-identifier (MQTT 3.1: 1–23 characters)")

    // MARK: CONNACK

    package static let connackFlagsReserved = rule(
        "MQTT.CONNACK-FLAGS-RESERVED", .error, lenient: .warning,
        "CONNACK acknowledge flags with bits 7–1 set (3.1.1), or a non-zero first byte (3.1, where it is unused).",
        "Spec/mqtt.md#connack-flags (reserved bits)")
    package static let connackSessionPresentOnRefusal = rule(
        "MQTT.CONNACK-SESSION-PRESENT-ON-REFUSAL", .error,
        "CONNACK with Session Present 1 and a non-zero return code.",
        "Spec/mqtt.md#connack-flags (Session Present)")
    package static let connackReturnCodeReserved = rule(
        "MQTT.CONNACK-RETURN-CODE-RESERVED", .warning,
        "CONNACK return code 6–255 (reserved by MQTT) that the dialect in use does not define.",
        "Spec/mqtt.md#connack-return-code (6–255)")

    // MARK: PUBLISH and packet identifiers

    package static let publishQoSInvalid = rule(
        "MQTT.PUBLISH-QOS-INVALID", .error,
        "PUBLISH with both QoS bits set (QoS 3).",
        "Spec/mqtt.md#publish-flags (QoS)")
    package static let publishDupQoS0 = rule(
        "MQTT.PUBLISH-DUP-QOS0", .error, lenient: .warning,
        "PUBLISH with DUP 1 and QoS 0.",
        "Spec/mqtt.md#publish-flags (DUP)")
    package static let topicWildcard = rule(
        "MQTT.TOPIC-WILDCARD", .error,
        "A PUBLISH topic name containing `+` or `#`.",
        "Spec/mqtt.md#topic-names (no wildcards)")
    package static let topicEmpty = rule(
        "MQTT.TOPIC-EMPTY", .error,
        "A zero-length PUBLISH topic name.",
        "Spec/mqtt.md#topic-names (at least one character)")
    package static let packetIDZero = rule(
        "MQTT.PACKET-ID-ZERO", .error,
        "Packet identifier 0.",
        "Spec/mqtt.md#packet-identifier")

    // MARK: SUBSCRIBE, SUBACK, UNSUBSCRIBE

    package static let topicFilterInvalid = rule(
        "MQTT.TOPIC-FILTER-INVALID", .error,
        "A topic filter that is empty, has `#` other than as the whole last level, or `+` sharing a level.",
        "Spec/mqtt.md#topic-filters")
    package static let payloadEmpty = rule(
        "MQTT.PAYLOAD-EMPTY", .error,
        "SUBSCRIBE or UNSUBSCRIBE without a topic filter, or SUBACK without a return code.",
        "Spec/mqtt.md#subscribe-payload")
    package static let webSocketTextFrame = rule(
        "MQTT.WEBSOCKET-TEXT-FRAME", .error, lenient: .warning,
        """
        MQTT bytes in a WebSocket text frame: MQTT over WebSocket travels in binary \
        frames only, and the receiver closes the connection (read here anyway).
        """,
        "Spec/mqtt.md#mqtt-over-websocket")
    package static let subscribeQoSInvalid = rule(
        "MQTT.SUBSCRIBE-QOS-INVALID", .error,
        "A requested QoS byte of 3, or with its reserved upper 6 bits set.",
        "Spec/mqtt.md#subscribe-qos")
    package static let subackReturnCodeInvalid = rule(
        "MQTT.SUBACK-RETURN-CODE-INVALID", .error,
        "A SUBACK return code other than 0, 1, 2 or 0x80 (3.1.1); 3.1 has no 0x80.",
        "Spec/mqtt.md#suback-return-codes")

    package static let all: [Rule] = [
        packetTypeReserved, fixedHeaderFlags, fixedHeaderFlagsV31, remainingLengthOverlong, remainingLengthNonMinimal,
        packetTooLarge, truncated, fieldOverrun, trailingBytes, stringInvalidUTF8, stringNUL,
        protocolNameInvalid, protocolLevelUnsupported, protocolNameLevelMismatch, connectReservedFlag,
        willFlagsInconsistent, willQoSInvalid, passwordWithoutUsername, clientIDEmpty, clientIDTooLongV31,
        connackFlagsReserved, connackSessionPresentOnRefusal, connackReturnCodeReserved,
        publishQoSInvalid, publishDupQoS0, topicWildcard, topicEmpty, packetIDZero,
        topicFilterInvalid, payloadEmpty, subscribeQoSInvalid, subackReturnCodeInvalid, webSocketTextFrame,
    ]
}
