import IMWireCompression
import IMWireCore

/// Every rule the WebSocket layer checks: `WS.*` for framing, handshake, UTF-8 and close,
/// `PMD.*` for permessage-deflate. IDs are stable; `Spec/rules.md` is generated from
/// `WebSocketRules.all`. Each rule that fails the connection names the close code a conforming
/// peer sends (`closeCode(for:)`); findings repeat it in their message.
package enum WebSocketRules {
    // MARK: frames (RFC 6455 §5.2)

    package static let rsvWithoutExtension = Rule(
        "WS.RSV-WITHOUT-EXTENSION", .error, layer: .websocket,
        summary: "RSV1, RSV2 or RSV3 set although no negotiated extension defines it.",
        specRef: "Spec/websocket.md#frame-header (RSV bits)")
    package static let reservedOpcode = Rule(
        "WS.RESERVED-OPCODE", .error, layer: .websocket,
        summary: "Opcode 0x3-0x7 or 0xB-0xF, reserved for future use.",
        specRef: "Spec/websocket.md#frame-header (opcodes)")
    package static let controlFrameTooLong = Rule(
        "WS.CONTROL-FRAME-TOO-LONG", .error, layer: .websocket,
        summary: "A close, ping or pong frame with more than 125 payload bytes.",
        specRef: "Spec/websocket.md#control-frames (125 bytes)")
    package static let controlFrameFragmented = Rule(
        "WS.CONTROL-FRAME-FRAGMENTED", .error, layer: .websocket,
        summary: "A close, ping or pong frame with FIN clear.",
        specRef: "Spec/websocket.md#control-frames (not fragmented)")
    package static let clientFrameUnmasked = Rule(
        "WS.CLIENT-FRAME-UNMASKED", .error, layer: .websocket,
        summary: "A client-to-server frame without a masking key.", specRef: "Spec/websocket.md#masking (client frames)"
    )
    package static let serverFrameMasked = Rule(
        "WS.SERVER-FRAME-MASKED", .error, layer: .websocket,
        summary: "A server-to-client frame with the MASK bit set.", specRef: "Spec/websocket.md#masking (server frames)"
    )
    package static let lengthNotMinimal = Rule(
        "WS.LENGTH-NOT-MINIMAL", .error, lenient: .warning, layer: .websocket,
        summary: "A payload length in the 16- or 64-bit form that fits a shorter form.",
        specRef: "Spec/websocket.md#payload-length (minimal encoding)")
    package static let lengthHighBitSet = Rule(
        "WS.LENGTH-HIGH-BIT-SET", .error, layer: .websocket,
        summary: "A 64-bit payload length with its most significant bit set; rejected before any conversion.",
        specRef: "Spec/websocket.md#payload-length (the 64-bit length's high bit)")
    package static let frameTooLarge = Rule(
        "WS.FRAME-TOO-LARGE", .error, layer: .websocket,
        summary: "A frame longer than Limits.maxFrameSize, refused from its header before the payload arrives.",
        specRef: "Spec/websocket.md#size-limits (maxFrameSize)")
    package static let truncatedFrame = Rule(
        "WS.TRUNCATED-FRAME", .warning, layer: .websocket,
        summary: "The stream ends inside a frame.", specRef: "Spec/websocket.md#frame-header (a frame cut short)")

    // MARK: messages (RFC 6455 §5.4, §8.1)

    package static let continuationWithoutStart = Rule(
        "WS.CONTINUATION-WITHOUT-START", .error, layer: .websocket,
        summary: "A continuation frame when no fragmented message is in progress.",
        specRef: "Spec/websocket.md#fragmentation")
    package static let messageInterleaved = Rule(
        "WS.MESSAGE-INTERLEAVED", .error, layer: .websocket,
        summary: "A text or binary frame while a fragmented message is still in progress.",
        specRef: "Spec/websocket.md#fragmentation (no interleaving)")
    package static let invalidUTF8 = Rule(
        "WS.INVALID-UTF8", .error, layer: .websocket,
        summary: "A text message that is not valid UTF-8 (checked across fragment boundaries).",
        specRef: "Spec/websocket.md#utf8")
    package static let messageTooLarge = Rule(
        "WS.MESSAGE-TOO-LARGE", .error, layer: .websocket,
        summary: "A reassembled (and inflated) message longer than Limits.maxMessageSize.",
        specRef: "Spec/websocket.md#size-limits (maxMessageSize)")
    package static let tooManyFragments = Rule(
        "WS.TOO-MANY-FRAGMENTS", .error, layer: .websocket,
        summary: "A message in more fragments than Limits.maxFragments.",
        specRef: "Spec/websocket.md#size-limits (maxFragments)")
    package static let frameAfterClose = Rule(
        "WS.FRAME-AFTER-CLOSE", .error, layer: .websocket,
        summary: "A frame sent after the sender's own close frame.",
        specRef: "Spec/websocket.md#close-frame (nothing after a close)")
    package static let messageUnfinished = Rule(
        "WS.MESSAGE-UNFINISHED", .info, layer: .websocket,
        summary: "The stream ends while a fragmented message is in progress.",
        specRef: "Spec/websocket.md#fragmentation (a message cut short)")

    // MARK: close (RFC 6455 §5.5.1, §7.4)

    package static let closePayloadOneByte = Rule(
        "WS.CLOSE-PAYLOAD-ONE-BYTE", .error, layer: .websocket,
        summary: "A close frame whose body is a single byte (a status code needs two).",
        specRef: "Spec/websocket.md#close-frame (status code)")
    package static let closeCodeInvalid = Rule(
        "WS.CLOSE-CODE-INVALID", .error, layer: .websocket,
        summary: """
            A close code that may not be sent: below 1000, 1004-1006, \
            1015, 1016-2999 unassigned, or 5000 and above (Autobahn 7.9).
            """,
        specRef: "Spec/websocket.md#close-codes")
    package static let closeReasonInvalidUTF8 = Rule(
        "WS.CLOSE-REASON-INVALID-UTF8", .error, layer: .websocket,
        summary: "A close reason that is not valid UTF-8.",
        specRef: "Spec/websocket.md#close-frame (reason), Spec/websocket.md#utf8")

    // MARK: handshake (RFC 6455 §4)

    package static let handshakeTruncated = Rule(
        "WS.HANDSHAKE-TRUNCATED", .error, layer: .websocket,
        summary: "The upgrade request or response ends before its blank line.",
        specRef: "Spec/websocket.md#handshake-http, Spec/http.md#head-size")
    package static let handshakeMalformed = Rule(
        "WS.HANDSHAKE-MALFORMED", .error, layer: .websocket,
        summary: "A start line or header field line that is not HTTP/1.1 syntax.",
        specRef: "Spec/websocket.md#handshake-http, Spec/http.md#message-head")
    package static let handshakeMethod = Rule(
        "WS.HANDSHAKE-METHOD", .error, layer: .websocket,
        summary: "An upgrade request that is not GET over HTTP/1.1 or later.",
        specRef: "Spec/websocket.md#client-request (item 2)")
    package static let handshakeUpgrade = Rule(
        "WS.HANDSHAKE-UPGRADE", .error, layer: .websocket,
        summary: "Upgrade does not name websocket, or Connection lacks the upgrade token.",
        specRef: "Spec/websocket.md#client-request (items 5, 6), Spec/websocket.md#server-response (items 2, 3)")
    package static let handshakeVersion = Rule(
        "WS.HANDSHAKE-VERSION", .error, layer: .websocket,
        summary: "Sec-WebSocket-Version missing or not 13.", specRef: "Spec/websocket.md#client-request (item 9)")
    package static let handshakeKey = Rule(
        "WS.HANDSHAKE-KEY", .error, layer: .websocket,
        summary: "Sec-WebSocket-Key missing, repeated, or not the base64 of 16 bytes.",
        specRef: "Spec/websocket.md#client-request (item 7)")
    package static let handshakeStatus = Rule(
        "WS.HANDSHAKE-STATUS", .error, layer: .websocket,
        summary: "The server answered with a status other than 101.",
        specRef: "Spec/websocket.md#server-response (item 1)")
    package static let handshakeAccept = Rule(
        "WS.HANDSHAKE-ACCEPT", .error, layer: .websocket,
        summary: "Sec-WebSocket-Accept missing or not base64(SHA-1(key + GUID)).",
        specRef: "Spec/websocket.md#server-response (item 4)")
    package static let subprotocolNotOffered = Rule(
        "WS.SUBPROTOCOL-NOT-OFFERED", .error, layer: .websocket,
        summary: "The server chose a subprotocol the client did not offer, or more than one.",
        specRef: "Spec/websocket.md#subprotocols, Spec/websocket.md#server-response (item 6)")
    package static let subprotocolNotChosen = Rule(
        "WS.SUBPROTOCOL-NOT-CHOSEN", .warning, lenient: .info, layer: .websocket,
        summary: "The client offered subprotocols and the server chose none; the dialect encoding is then unknown.",
        specRef: "Spec/websocket.md#subprotocols (none chosen)")
    package static let extensionNotOffered = Rule(
        "WS.EXTENSION-NOT-OFFERED", .error, layer: .websocket,
        summary: "The server accepted an extension the client did not offer.",
        specRef: "Spec/websocket.md#server-response (item 5)")

    // MARK: permessage-deflate (RFC 7692)

    package static let rsv1OnContinuation = Rule(
        "PMD.RSV1-ON-CONTINUATION", .error, layer: .websocket,
        summary: "RSV1 set on a continuation frame; only a message's first frame carries it.",
        specRef: "Spec/websocket.md#pmd-rsv1 (non-first fragments)")
    package static let rsv1OnControl = Rule(
        "PMD.RSV1-ON-CONTROL", .error, layer: .websocket,
        summary: "RSV1 set on a control frame; control frames are never compressed.",
        specRef: "Spec/websocket.md#pmd-rsv1 (control frames)")
    package static let parameterInvalid = Rule(
        "PMD.PARAMETER-INVALID", .error, layer: .websocket,
        summary: """
            An unknown, repeated or out-of-range permessage-deflate \
            parameter (window bits 8...15, flags without value).
            """,
        specRef: "Spec/websocket.md#pmd-negotiation")
    package static let parameterNotRequested = Rule(
        "PMD.PARAMETER-NOT-REQUESTED", .error, layer: .websocket,
        summary: """
            The response has client_max_window_bits the offer did not \
            allow, or a server_max_window_bits above the one requested.
            """,
        specRef: "Spec/websocket.md#pmd-window-bits")
    package static let acceptedTwice = Rule(
        "PMD.ACCEPTED-TWICE", .error, layer: .websocket,
        summary: "The response accepts permessage-deflate more than once.",
        specRef: "Spec/websocket.md#pmd-negotiation (one offer accepted)")
    package static let windowBitsEight = Rule(
        "PMD.WINDOW-BITS-8", .warning, lenient: .info, layer: .websocket,
        summary: "A window of 8 bits: zlib cannot compress raw deflate with it (treated as 9); many peers decline it.",
        specRef: "Spec/websocket.md#pmd-window-8")

    package static let all: [Rule] = [
        rsvWithoutExtension, reservedOpcode, controlFrameTooLong, controlFrameFragmented, clientFrameUnmasked,
        serverFrameMasked, lengthNotMinimal, lengthHighBitSet, frameTooLarge, truncatedFrame,
        continuationWithoutStart, messageInterleaved, invalidUTF8, messageTooLarge, tooManyFragments,
        frameAfterClose, messageUnfinished,
        closePayloadOneByte, closeCodeInvalid, closeReasonInvalidUTF8,
        handshakeTruncated, handshakeMalformed, handshakeMethod, handshakeUpgrade, handshakeVersion, handshakeKey,
        handshakeStatus, handshakeAccept, subprotocolNotOffered, subprotocolNotChosen, extensionNotOffered,
        rsv1OnContinuation, rsv1OnControl, parameterInvalid, parameterNotRequested, acceptedTwice, windowBitsEight,
    ]

    /// The close code a conforming peer sends when it sees a violation of `rule`; nil when no
    /// close frame is involved (handshake failures are answered in HTTP, findings after a close
    /// frame arrive on a connection already closing, info findings fail nothing).
    package static func closeCode(for rule: RuleID) -> CloseCode? { closeCodes[rule] }

    /// `rule.finding` with the close code appended to the message.
    static func finding(_ rule: Rule, _ message: String, at offset: Int) -> Finding {
        guard let note = closeCodeNotes[rule.id] else { return rule.finding(message, at: offset) }
        return rule.finding(message + note, at: offset)
    }

    // Tables rather than a switch over rule ids: a finding is made for every bad frame, and a
    // switch compared the id's string with up to 25 others each time.
    private static let closeCodes: [RuleID: CloseCode] = {
        let rulesByCode: [(CloseCode, [Rule])] = [
            (
                .invalidPayloadData,
                [
                    invalidUTF8, closeReasonInvalidUTF8, CompressionRules.corruptData,
                    CompressionRules.truncated, CompressionRules.trailingData,
                ]
            ),
            (
                .messageTooBig,
                [
                    frameTooLarge, messageTooLarge, tooManyFragments, CompressionRules.outputLimit,
                    CompressionRules.expansionRatio,
                ]
            ),
            (.internalError, [CompressionRules.failure]),
            (
                .protocolError,
                [
                    rsvWithoutExtension, reservedOpcode, controlFrameTooLong, controlFrameFragmented,
                    clientFrameUnmasked, serverFrameMasked, lengthNotMinimal, lengthHighBitSet,
                    continuationWithoutStart, messageInterleaved, closePayloadOneByte, closeCodeInvalid,
                    rsv1OnContinuation, rsv1OnControl,
                ]
            ),
            (.abnormalClosure, [truncatedFrame]),
        ]
        return Dictionary(uniqueKeysWithValues: rulesByCode.flatMap { code, rules in rules.map { ($0.id, code) } })
    }()

    /// What `finding` appends to the message of a rule with a close code.
    private static let closeCodeNotes: [RuleID: String] = closeCodes.mapValues { code in
        code == .abnormalClosure ? " — no close frame: \(code)" : " — a conforming peer closes with \(code)"
    }
}
