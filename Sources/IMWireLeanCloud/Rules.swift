import IMWireCore

/// Every rule the LeanCloud dialect checks. IDs are stable; `Spec/rules.md` is generated from
/// `LeanCloudRules.all`. Each reference names the section of `Spec/leancloud.md` that states the
/// requirement and its public source (protobuf.dev's encoding guide, the SDKs, the docs).
public enum LeanCloudRules {
    // MARK: protobuf wire (strict scanner)

    public static let frameTooLarge = Rule(
        "PB.FRAME-TOO-LARGE", .error, layer: .encoding, dialect: .leancloud,
        summary: "Payload larger than Limits.maxFrameSize; refused before decoding.",
        specRef: "Spec/leancloud.md#limits (maxFrameSize)")
    public static let truncated = Rule(
        "PB.TRUNCATED", .error, layer: .encoding, dialect: .leancloud,
        summary: "The bytes end inside a tag, a varint or a length-delimited value.",
        specRef: """
            Spec/leancloud.md#protobuf-varints, \
            Spec/leancloud.md#protobuf-records (a varint, tag or payload cut short)
            """)
    public static let varintTooLong = Rule(
        "PB.VARINT-TOO-LONG", .error, layer: .encoding, dialect: .leancloud,
        summary: "A varint longer than 10 bytes (a tag: longer than 5), or whose 10th byte sets bits beyond 64.",
        specRef: "Spec/leancloud.md#protobuf-varints (ten bytes; a tag five), Spec/leancloud.md#protobuf-vs-upb")
    public static let varintNonMinimal = Rule(
        "PB.VARINT-NON-MINIMAL", .warning, lenient: .info, layer: .encoding, dialect: .leancloud,
        summary: "A varint encoded in more bytes than needed (trailing 0x80..0x00 groups).",
        specRef: "Spec/leancloud.md#protobuf-varints (shortest form)")
    public static let invalidFieldNumber = Rule(
        "PB.FIELD-NUMBER-INVALID", .error, layer: .encoding, dialect: .leancloud,
        summary: "A tag with field number 0 or above 2^29-1.",
        specRef: "Spec/leancloud.md#protobuf-records (field numbers 1 to 2^29 − 1)")
    public static let invalidWireType = Rule(
        "PB.WIRE-TYPE-INVALID", .error, layer: .encoding, dialect: .leancloud,
        summary: "Wire type 6 or 7, or an end-group tag that closes no open group.",
        specRef: "Spec/leancloud.md#protobuf-records (wire types 0–5, groups)")
    public static let unknownField = Rule(
        "PB.UNKNOWN-FIELD", .warning, lenient: .info, layer: .encoding, dialect: .leancloud,
        summary: """
            A field number the newest schema does not define (kept as \
            unknown by protobuf parsers; a group is skipped whole).
            """,
        specRef: "Spec/leancloud.md#schema (unknown fields)")
    public static let wireTypeMismatch = Rule(
        "PB.WIRE-TYPE-MISMATCH", .error, layer: .encoding, dialect: .leancloud,
        summary: "A known field arrives with a wire type that does not match its declared type.",
        specRef: "Spec/leancloud.md#schema (one wire type per field)")
    public static let duplicateField = Rule(
        "PB.DUPLICATE-FIELD", .warning, layer: .encoding, dialect: .leancloud,
        summary: "A non-repeated field given more than once (parsers keep the last scalar, merge messages).",
        specRef: "Spec/leancloud.md#protobuf-last-one-wins")
    public static let missingRequired = Rule(
        "PB.MISSING-REQUIRED", .error, layer: .encoding, dialect: .leancloud,
        summary: "A proto2 `required` field is absent.", specRef: "Spec/leancloud.md#schema (required fields)")
    public static let unknownEnumValue = Rule(
        "PB.ENUM-UNKNOWN-VALUE", .error, layer: .encoding, dialect: .leancloud,
        summary: "An enum value the schema does not define (proto2 closed enums: parsers drop it to unknown fields).",
        specRef: "Spec/leancloud.md#schema (closed enums)")
    public static let int32OutOfRange = Rule(
        "PB.INT32-OUT-OF-RANGE", .warning, layer: .encoding, dialect: .leancloud,
        summary: "An int32 varint that is neither a 32-bit value nor a sign-extended negative one.",
        specRef: "Spec/leancloud.md#protobuf-scalars (int32)")
    public static let boolNotCanonical = Rule(
        "PB.BOOL-NOT-CANONICAL", .warning, lenient: .info, layer: .encoding, dialect: .leancloud,
        summary: "A bool encoded as a varint other than 0 or 1.", specRef: "Spec/leancloud.md#protobuf-scalars (bool)")
    public static let invalidUTF8 = Rule(
        "PB.INVALID-UTF8", .error, layer: .encoding, dialect: .leancloud,
        summary: "A string field whose bytes are not valid UTF-8.",
        specRef: "Spec/leancloud.md#protobuf-scalars (string), Spec/leancloud.md#protobuf-vs-upb")
    public static let nestingTooDeep = Rule(
        "PB.NESTING-TOO-DEEP", .error, layer: .encoding, dialect: .leancloud,
        summary: "Sub-messages nested deeper than Limits.maxNestingDepth.",
        specRef: "Spec/leancloud.md#limits (maxNestingDepth)")

    // MARK: other encodings

    public static let invalidBase64 = Rule(
        "LC.BASE64-INVALID", .error, layer: .encoding, dialect: .leancloud,
        summary: "An lc.proto2base64 text frame that is not canonical base64.",
        specRef: "Spec/leancloud.md#encoding-base64")
    public static let invalidJSON = Rule(
        "LC.JSON-INVALID", .error, layer: .encoding, dialect: .leancloud,
        summary: "An lc.json frame that is not a JSON object.",
        specRef: "Spec/leancloud.md#encoding-json (one object per frame)")
    public static let jsonUnknownKey = Rule(
        "LC.JSON-UNKNOWN-KEY", .warning, lenient: .info, layer: .encoding, dialect: .leancloud,
        summary: "A flat-JSON key that is neither a GenericCommand field nor a field of the cmd's sub-message.",
        specRef: "Spec/leancloud.md#encoding-json (flat keys)")
    public static let jsonBadValue = Rule(
        "LC.JSON-BAD-VALUE", .error, layer: .encoding, dialect: .leancloud,
        summary: "A flat-JSON value of the wrong type or out of range for its field.",
        specRef: "Spec/leancloud.md#encoding-json (value types)")
    public static let jsonDuplicateKey = Rule(
        "LC.JSON-DUPLICATE-KEY", .warning, layer: .encoding, dialect: .leancloud,
        summary: "A key given twice in one flat-JSON object.",
        specRef: "Spec/leancloud.md#encoding-json (duplicate keys)")
    public static let jsonOpUnderscore = Rule(
        "LC.JSON-OP-UNDERSCORE", .warning, lenient: .info, layer: .encoding, dialect: .leancloud,
        summary: "A flat-JSON op written with underscores; the JSON encoding uses hyphens (members-joined).",
        specRef: "Spec/leancloud.md#encoding-json (hyphenated ops)")

    public static let frameTypeMismatch = Rule(
        "LC.FRAME-TYPE-MISMATCH", .error, layer: .encoding, dialect: .leancloud,
        summary: "A text frame under lc.protobuf2 or a binary frame under lc.proto2base64 / lc.json.",
        specRef: "Spec/leancloud.md#subprotocols (frame types)")

    // MARK: command structure

    public static let cmdMissing = Rule(
        "LC.CMD-MISSING", .warning, layer: .command, dialect: .leancloud,
        summary: "No cmd field: proto2 reads it as `session`, which is rarely what was meant.",
        specRef: "Spec/leancloud.md#command-structure (cmd)")
    public static let opMissing = Rule(
        "LC.OP-MISSING", .error, layer: .command, dialect: .leancloud,
        summary: "A cmd that needs an op has none (proto2 reads an absent op as `open`).",
        specRef: "Spec/leancloud.md#command-structure (cmds that carry an op)")
    public static let opUnexpected = Rule(
        "LC.OP-UNEXPECTED", .warning, lenient: .info, layer: .command, dialect: .leancloud,
        summary: "An op on a cmd that carries none (direct, ack, read, echo, goaway, unread, rcp, logs, error).",
        specRef: "Spec/leancloud.md#command-structure (cmds that carry none)")
    public static let opNotForCmd = Rule(
        "LC.OP-NOT-FOR-CMD", .warning, layer: .command, dialect: .leancloud,
        summary: "An op that does not belong to the cmd's family (e.g. cmd=session op=start).",
        specRef: "Spec/leancloud.md#command-structure (ops of each cmd)")
    public static let subMessageCount = Rule(
        "LC.SUBMESSAGE-COUNT", .error, layer: .command, dialect: .leancloud,
        summary: "More than one sub-message set in one GenericCommand.",
        specRef: "Spec/leancloud.md#command-structure (one sub-message)")
    public static let subMessageMismatch = Rule(
        "LC.SUBMESSAGE-MISMATCH", .error, layer: .command, dialect: .leancloud,
        summary: "A sub-message that does not fit cmd (e.g. cmd=direct carrying sessionMessage).",
        specRef: "Spec/leancloud.md#command-structure (the cmd's sub-message)")

    // MARK: session (one connection)

    public static let wrongDirection = Rule(
        "LC.WRONG-DIRECTION", .error, layer: .session, dialect: .leancloud,
        summary: "A command sent by the side that never sends it (e.g. the server sending session/open).",
        specRef: "Spec/leancloud.md#command-catalogue (who sends each command)")
    public static let responseWithoutRequest = Rule(
        "LC.RESPONSE-WITHOUT-REQUEST", .error, layer: .session, dialect: .leancloud,
        summary: "A server command carrying an `i` that no pending client request used.",
        specRef: "Spec/leancloud.md#request-correlation")
    public static let requestUnanswered = Rule(
        "LC.REQUEST-UNANSWERED", .error, layer: .session, dialect: .leancloud,
        summary:
            "A request with `i` not answered within the timeout (SDK defaults: Java 10 s, JS 20 s, Swift/ObjC 30 s).",
        specRef: "Spec/leancloud.md#request-correlation (timeouts)")
    public static let requestPendingAtEnd = Rule(
        "LC.REQUEST-PENDING-AT-END", .info, layer: .session, dialect: .leancloud,
        summary: "The capture ends while a request is still within its timeout.",
        specRef: "Spec/leancloud.md#request-correlation (timeouts)")
    public static let duplicateI = Rule(
        "LC.DUPLICATE-I", .error, layer: .session, dialect: .leancloud,
        summary: "A request reuses an `i` that is still in flight.",
        specRef: "Spec/leancloud.md#request-correlation (serials)")
    public static let requestWithoutI = Rule(
        "LC.REQUEST-WITHOUT-I", .warning, layer: .session, dialect: .leancloud,
        summary: "A client request that expects a reply but carries no `i`, so the reply cannot be matched.",
        specRef: "Spec/leancloud.md#request-correlation")
    public static let responseOpUnexpected = Rule(
        "LC.RESPONSE-OP-UNEXPECTED", .info, layer: .session, dialect: .leancloud,
        summary: "A response whose cmd/op is not the usual answer to its request (response ops are INFERRED).",
        specRef: "Spec/leancloud.md#command-catalogue (usual answer, INFERRED)")
    public static let errorReply = Rule(
        "LC.ERROR-REPLY", .warning, lenient: .info, layer: .session, dialect: .leancloud,
        summary: """
            The server answered with an error (error command, ack with \
            code, session/closed with code, a 4xxx WebSocket close code).
            """,
        specRef: "Spec/leancloud.md#error-codes")
    public static let beforeSessionOpen = Rule(
        "LC.BEFORE-SESSION-OPEN", .error, layer: .session, dialect: .leancloud,
        summary: "A client command before session/opened; the server answers 4105 SESSION_REQUIRED.",
        specRef: "Spec/leancloud.md#session-commands (open; 4105)")
    public static let commandTooLarge = Rule(
        "LC.COMMAND-TOO-LARGE", .error, layer: .session, dialect: .leancloud,
        summary: "A client command over 5 KB; the server answers 4109 FRAME_TOO_LONG.",
        specRef: "Spec/leancloud.md#request-correlation (5 KB; 4109)")
    public static let commandAfterKick = Rule(
        "LC.COMMAND-AFTER-KICK", .error, layer: .session, dialect: .leancloud,
        summary: "After session/closed 4111/4115 the client sends something other than a fresh session/open.",
        specRef: "Spec/leancloud.md#session-commands (kicked: 4111, 4115)")
    public static let reopenAfterKick = Rule(
        "LC.REOPEN-AFTER-KICK", .error, layer: .session, dialect: .leancloud,
        summary: "After 4111/4115 the client re-opens with r=true, an automatic reconnect the user did not ask for.",
        specRef: "Spec/leancloud.md#session-commands (re-open with r=true)")
    public static let missingAck = Rule(
        "LC.MISSING-ACK", .warning, layer: .session, dialect: .leancloud,
        summary: "A received non-transient message the client never acknowledged with `ack`.",
        specRef: "Spec/leancloud.md#messages-and-acks")
    public static let ackPendingAtEnd = Rule(
        "LC.ACK-PENDING-AT-END", .info, layer: .session, dialect: .leancloud,
        summary: """
            The connection or capture ends while a received message \
            is within its ack time (the JS SDK holds acks up to 1 s).
            """,
        specRef: "Spec/leancloud.md#messages-and-acks")
    public static let goaway = Rule(
        "LC.GOAWAY", .info, layer: .session, dialect: .leancloud,
        summary: """
            The server sent `goaway`: the client is to drop the \
            connection, clear its router cache and reconnect at once.
            """,
        specRef: "Spec/leancloud.md#goaway")
    public static let goawayIgnored = Rule(
        "LC.GOAWAY-IGNORED", .warning, layer: .session, dialect: .leancloud,
        summary: "The client keeps sending on a connection after `goaway` instead of reconnecting.",
        specRef: "Spec/leancloud.md#goaway")
    public static let commandAfterClose = Rule(
        "LC.COMMAND-AFTER-CLOSE", .warning, layer: .session, dialect: .leancloud,
        summary: "The client sends commands for a session it closed, without opening it again.",
        specRef: "Spec/leancloud.md#session-commands (close)"
    )

    // MARK: rich messages and signatures

    public static let richMessageInvalid = Rule(
        "LC.RICH-MESSAGE-INVALID", .warning, layer: .command, dialect: .leancloud,
        summary: "A typed message (_lctype JSON) that is malformed or misses a required key.",
        specRef: "Spec/leancloud.md#typed-messages")
    public static let signatureMismatch = Rule(
        "LC.SIGNATURE-MISMATCH", .error, layer: .command, dialect: .leancloud,
        summary: "A signature that does not match HMAC-SHA1 of the documented string under the master key.",
        specRef: "Spec/leancloud.md#signatures (signed strings)")
    public static let signatureTimestampUnit = Rule(
        "LC.SIGNATURE-TIMESTAMP-SECONDS", .warning, lenient: .info, layer: .command, dialect: .leancloud,
        summary: """
            A signature timestamp in seconds; the docs say milliseconds, \
            the official samples use seconds (UNCONFIRMED).
            """,
        specRef: "Spec/leancloud.md#signatures (timestamp unit)")
    public static let signatureHexCase = Rule(
        "LC.SIGNATURE-UPPERCASE-HEX", .warning, lenient: .info, layer: .command, dialect: .leancloud,
        summary: "A signature in uppercase hex (the C# sample's output); node and rust samples use lowercase.",
        specRef: "Spec/leancloud.md#signatures (hex case)")

    public static let all: [Rule] = [
        frameTooLarge, truncated, varintTooLong, varintNonMinimal, invalidFieldNumber, invalidWireType,
        unknownField, wireTypeMismatch, duplicateField, missingRequired, unknownEnumValue, int32OutOfRange,
        boolNotCanonical, invalidUTF8, nestingTooDeep,
        invalidBase64, invalidJSON, jsonUnknownKey, jsonBadValue, jsonDuplicateKey, jsonOpUnderscore, frameTypeMismatch,
        cmdMissing, opMissing, opUnexpected, opNotForCmd, subMessageCount, subMessageMismatch,
        wrongDirection, responseWithoutRequest, requestUnanswered, requestPendingAtEnd, duplicateI,
        requestWithoutI, responseOpUnexpected, errorReply, beforeSessionOpen, commandTooLarge,
        commandAfterKick, reopenAfterKick, missingAck, ackPendingAtEnd, goaway, goawayIgnored, commandAfterClose,
        richMessageInvalid, signatureMismatch, signatureTimestampUnit, signatureHexCase,
    ]
}
