import IMWireCore

/// Every rule the LeanCloud dialect checks. IDs are stable; `Spec/rules.md` is generated from
/// `LeanCloudRules.all`.
public enum LeanCloudRules {
    private static let encodingGuide = "protobuf.dev/programming-guides/encoding"
    private static let schema = "Spec/leancloud/messages2.proto"

    // MARK: protobuf wire (strict scanner)

    public static let frameTooLarge = Rule(
        "PB.FRAME-TOO-LARGE", .error, layer: .encoding, dialect: .leancloud,
        summary: "Payload larger than Limits.maxFrameSize; refused before decoding.", specRef: "IMWire Limits")
    public static let truncated = Rule(
        "PB.TRUNCATED", .error, layer: .encoding, dialect: .leancloud,
        summary: "The bytes end inside a tag, a varint or a length-delimited value.", specRef: encodingGuide)
    public static let varintTooLong = Rule(
        "PB.VARINT-TOO-LONG", .error, layer: .encoding, dialect: .leancloud,
        summary: "A varint longer than 10 bytes (a tag: longer than 5), or whose 10th byte sets bits beyond 64.", specRef: encodingGuide + "#varints")
    public static let varintNonMinimal = Rule(
        "PB.VARINT-NON-MINIMAL", .warning, lenient: .info, layer: .encoding, dialect: .leancloud,
        summary: "A varint encoded in more bytes than needed (trailing 0x80..0x00 groups).", specRef: encodingGuide + "#varints")
    public static let invalidFieldNumber = Rule(
        "PB.FIELD-NUMBER-INVALID", .error, layer: .encoding, dialect: .leancloud,
        summary: "A tag with field number 0 or above 2^29-1.", specRef: encodingGuide + "#structure")
    public static let invalidWireType = Rule(
        "PB.WIRE-TYPE-INVALID", .error, layer: .encoding, dialect: .leancloud,
        summary: "Wire type 6 or 7, or an end-group tag that closes no open group.", specRef: encodingGuide + "#structure")
    public static let unknownField = Rule(
        "PB.UNKNOWN-FIELD", .warning, lenient: .info, layer: .encoding, dialect: .leancloud,
        summary: "A field number the newest schema does not define (kept as unknown by protobuf parsers; a group is skipped whole).", specRef: schema)
    public static let wireTypeMismatch = Rule(
        "PB.WIRE-TYPE-MISMATCH", .error, layer: .encoding, dialect: .leancloud,
        summary: "A known field arrives with a wire type that does not match its declared type.", specRef: schema)
    public static let duplicateField = Rule(
        "PB.DUPLICATE-FIELD", .warning, layer: .encoding, dialect: .leancloud,
        summary: "A non-repeated field given more than once (parsers keep the last scalar, merge messages).",
        specRef: encodingGuide + "#last-one-wins")
    public static let missingRequired = Rule(
        "PB.MISSING-REQUIRED", .error, layer: .encoding, dialect: .leancloud,
        summary: "A proto2 `required` field is absent.", specRef: schema)
    public static let unknownEnumValue = Rule(
        "PB.ENUM-UNKNOWN-VALUE", .error, layer: .encoding, dialect: .leancloud,
        summary: "An enum value the schema does not define (proto2 closed enums: parsers drop it to unknown fields).", specRef: schema)
    public static let int32OutOfRange = Rule(
        "PB.INT32-OUT-OF-RANGE", .warning, layer: .encoding, dialect: .leancloud,
        summary: "An int32 varint that is neither a 32-bit value nor a sign-extended negative one.", specRef: encodingGuide + "#signed-ints")
    public static let boolNotCanonical = Rule(
        "PB.BOOL-NOT-CANONICAL", .warning, lenient: .info, layer: .encoding, dialect: .leancloud,
        summary: "A bool encoded as a varint other than 0 or 1.", specRef: encodingGuide)
    public static let invalidUTF8 = Rule(
        "PB.INVALID-UTF8", .error, layer: .encoding, dialect: .leancloud,
        summary: "A string field whose bytes are not valid UTF-8.", specRef: encodingGuide + "#strings")
    public static let nestingTooDeep = Rule(
        "PB.NESTING-TOO-DEEP", .error, layer: .encoding, dialect: .leancloud,
        summary: "Sub-messages nested deeper than Limits.maxNestingDepth.", specRef: "IMWire Limits")

    // MARK: other encodings

    public static let invalidBase64 = Rule(
        "LC.BASE64-INVALID", .error, layer: .encoding, dialect: .leancloud,
        summary: "An lc.proto2base64 text frame that is not canonical base64.", specRef: "leancloud.md §2.1")
    public static let invalidJSON = Rule(
        "LC.JSON-INVALID", .error, layer: .encoding, dialect: .leancloud,
        summary: "An lc.json frame that is not a JSON object.", specRef: "leancloud.md §2.2")
    public static let jsonUnknownKey = Rule(
        "LC.JSON-UNKNOWN-KEY", .warning, lenient: .info, layer: .encoding, dialect: .leancloud,
        summary: "A flat-JSON key that is neither a GenericCommand field nor a field of the cmd's sub-message.", specRef: "leancloud.md §2.2")
    public static let jsonBadValue = Rule(
        "LC.JSON-BAD-VALUE", .error, layer: .encoding, dialect: .leancloud,
        summary: "A flat-JSON value of the wrong type or out of range for its field.", specRef: "leancloud.md §2.2")
    public static let jsonDuplicateKey = Rule(
        "LC.JSON-DUPLICATE-KEY", .warning, layer: .encoding, dialect: .leancloud,
        summary: "A key given twice in one flat-JSON object.", specRef: "RFC 8259 §4")
    public static let jsonOpUnderscore = Rule(
        "LC.JSON-OP-UNDERSCORE", .warning, lenient: .info, layer: .encoding, dialect: .leancloud,
        summary: "A flat-JSON op written with underscores; the JSON encoding uses hyphens (members-joined).", specRef: "leancloud.md §2.2")

    public static let frameTypeMismatch = Rule(
        "LC.FRAME-TYPE-MISMATCH", .error, layer: .encoding, dialect: .leancloud,
        summary: "A text frame under lc.protobuf2 or a binary frame under lc.proto2base64 / lc.json.", specRef: "leancloud.md §2.1")

    // MARK: command structure

    public static let cmdMissing = Rule(
        "LC.CMD-MISSING", .warning, layer: .command, dialect: .leancloud,
        summary: "No cmd field: proto2 reads it as `session`, which is rarely what was meant.", specRef: "leancloud.md §1.2")
    public static let opMissing = Rule(
        "LC.OP-MISSING", .error, layer: .command, dialect: .leancloud,
        summary: "A cmd that needs an op has none (proto2 reads an absent op as `open`).", specRef: "leancloud.md §1.2")
    public static let opUnexpected = Rule(
        "LC.OP-UNEXPECTED", .warning, lenient: .info, layer: .command, dialect: .leancloud,
        summary: "An op on a cmd that carries none (direct, ack, read, echo, goaway, unread, rcp, logs, error).", specRef: "leancloud.md §1.2")
    public static let opNotForCmd = Rule(
        "LC.OP-NOT-FOR-CMD", .warning, layer: .command, dialect: .leancloud,
        summary: "An op that does not belong to the cmd's family (e.g. cmd=session op=start).", specRef: "Spec/leancloud.md#commands")
    public static let subMessageCount = Rule(
        "LC.SUBMESSAGE-COUNT", .error, layer: .command, dialect: .leancloud,
        summary: "More than one sub-message set in one GenericCommand.", specRef: "leancloud.md §1.2")
    public static let subMessageMismatch = Rule(
        "LC.SUBMESSAGE-MISMATCH", .error, layer: .command, dialect: .leancloud,
        summary: "A sub-message that does not fit cmd (e.g. cmd=direct carrying sessionMessage).", specRef: "Spec/leancloud.md#commands")

    // MARK: session (one connection)

    public static let wrongDirection = Rule(
        "LC.WRONG-DIRECTION", .error, layer: .session, dialect: .leancloud,
        summary: "A command sent by the side that never sends it (e.g. the server sending session/open).", specRef: "Spec/leancloud.md#commands")
    public static let responseWithoutRequest = Rule(
        "LC.RESPONSE-WITHOUT-REQUEST", .error, layer: .session, dialect: .leancloud,
        summary: "A server command carrying an `i` that no pending client request used.", specRef: "leancloud.md §4.1")
    public static let requestUnanswered = Rule(
        "LC.REQUEST-UNANSWERED", .error, layer: .session, dialect: .leancloud,
        summary: "A request with `i` not answered within the timeout (SDK defaults: Java 10 s, JS 20 s, Swift/ObjC 30 s).",
        specRef: "leancloud.md §4.1")
    public static let requestPendingAtEnd = Rule(
        "LC.REQUEST-PENDING-AT-END", .info, layer: .session, dialect: .leancloud,
        summary: "The capture ends while a request is still within its timeout.", specRef: "leancloud.md §4.1")
    public static let duplicateI = Rule(
        "LC.DUPLICATE-I", .error, layer: .session, dialect: .leancloud,
        summary: "A request reuses an `i` that is still in flight.", specRef: "leancloud.md §4.1")
    public static let requestWithoutI = Rule(
        "LC.REQUEST-WITHOUT-I", .warning, layer: .session, dialect: .leancloud,
        summary: "A client request that expects a reply but carries no `i`, so the reply cannot be matched.", specRef: "leancloud.md §4.1")
    public static let responseOpUnexpected = Rule(
        "LC.RESPONSE-OP-UNEXPECTED", .info, layer: .session, dialect: .leancloud,
        summary: "A response whose cmd/op is not the usual answer to its request (response ops are INFERRED).", specRef: "leancloud.md §4.2")
    public static let errorReply = Rule(
        "LC.ERROR-REPLY", .warning, lenient: .info, layer: .session, dialect: .leancloud,
        summary: "The server answered with an error (error command, ack with code, session/closed with code).", specRef: "leancloud.md §5")
    public static let beforeSessionOpen = Rule(
        "LC.BEFORE-SESSION-OPEN", .error, layer: .session, dialect: .leancloud,
        summary: "A client command before session/opened; the server answers 4105 SESSION_REQUIRED.", specRef: "leancloud.md §5.1 (4105)")
    public static let commandTooLarge = Rule(
        "LC.COMMAND-TOO-LARGE", .error, layer: .session, dialect: .leancloud,
        summary: "A client command over 5 KB; the server answers 4109 FRAME_TOO_LONG.", specRef: "leancloud.md §4.1, §5.1 (4109)")
    public static let commandAfterKick = Rule(
        "LC.COMMAND-AFTER-KICK", .error, layer: .session, dialect: .leancloud,
        summary: "After session/closed 4111/4115 the client sends something other than a fresh session/open.",
        specRef: "leancloud.md §4.2 (kicked / conflict)")
    public static let reopenAfterKick = Rule(
        "LC.REOPEN-AFTER-KICK", .error, layer: .session, dialect: .leancloud,
        summary: "After 4111/4115 the client re-opens with r=true, an automatic reconnect the user did not ask for.",
        specRef: "leancloud.md §10 (objc-sdk#416)")
    public static let missingAck = Rule(
        "LC.MISSING-ACK", .warning, layer: .session, dialect: .leancloud,
        summary: "A received non-transient message the client never acknowledged with `ack`.", specRef: "leancloud.md §4.2 (receive message)")
    public static let goawayIgnored = Rule(
        "LC.GOAWAY-IGNORED", .warning, layer: .session, dialect: .leancloud,
        summary: "The client keeps sending on a connection after `goaway` instead of reconnecting.", specRef: "leancloud.md §3 (goaway)")
    public static let commandAfterClose = Rule(
        "LC.COMMAND-AFTER-CLOSE", .warning, layer: .session, dialect: .leancloud,
        summary: "The client sends commands for a session it closed, without opening it again.", specRef: "leancloud.md §4.2 (close session)")

    // MARK: rich messages and signatures

    public static let richMessageInvalid = Rule(
        "LC.RICH-MESSAGE-INVALID", .warning, layer: .command, dialect: .leancloud,
        summary: "A typed message (_lctype JSON) that is malformed or misses a required key.", specRef: "leancloud.md §7")
    public static let signatureMismatch = Rule(
        "LC.SIGNATURE-MISMATCH", .error, layer: .command, dialect: .leancloud,
        summary: "A signature that does not match HMAC-SHA1 of the documented string under the master key.", specRef: "leancloud.md §6")
    public static let signatureTimestampUnit = Rule(
        "LC.SIGNATURE-TIMESTAMP-SECONDS", .warning, lenient: .info, layer: .command, dialect: .leancloud,
        summary: "A signature timestamp in seconds; the docs say milliseconds, the official samples use seconds (UNCONFIRMED).",
        specRef: "leancloud.md §6")
    public static let signatureHexCase = Rule(
        "LC.SIGNATURE-UPPERCASE-HEX", .warning, lenient: .info, layer: .command, dialect: .leancloud,
        summary: "A signature in uppercase hex (the C# sample's output); node and rust samples use lowercase.", specRef: "leancloud.md §6")

    public static let all: [Rule] = [
        frameTooLarge, truncated, varintTooLong, varintNonMinimal, invalidFieldNumber, invalidWireType,
        unknownField, wireTypeMismatch, duplicateField, missingRequired, unknownEnumValue, int32OutOfRange,
        boolNotCanonical, invalidUTF8, nestingTooDeep,
        invalidBase64, invalidJSON, jsonUnknownKey, jsonBadValue, jsonDuplicateKey, jsonOpUnderscore, frameTypeMismatch,
        cmdMissing, opMissing, opUnexpected, opNotForCmd, subMessageCount, subMessageMismatch,
        wrongDirection, responseWithoutRequest, requestUnanswered, requestPendingAtEnd, duplicateI,
        requestWithoutI, responseOpUnexpected, errorReply, beforeSessionOpen, commandTooLarge,
        commandAfterKick, reopenAfterKick, missingAck, goawayIgnored, commandAfterClose,
        richMessageInvalid, signatureMismatch, signatureTimestampUnit, signatureHexCase,
    ]
}
