import IMWireCore

extension LeanCloudStatusCodes {
    private static let swiftError = "swift Sources/Foundation/Error.swift:25-40 (LCError.InternalErrorCode)"

    /// Errors the swift and objc SDKs make up themselves (leancloud.md §5.1 "SDK-local codes",
    /// §11 `AVIMErrorCode`); never on the wire. Meanings are the swift SDK's messages.
    public static let sdkLocal = StatusTable(
        .leancloud, "sdk-local", title: "SDK-local error codes 9000–9977", kind: .codes,
        source: "\(swiftError); objc LCIMCommon.h:22-36 (AVIMErrorCode @12.3.3)", travel: .clientLocal,
        notes: [
            """
            The names of 9973–9977 were read in leancloud/swift-sdk Sources/Foundation/Error.swift \
            at 2f5bbddd; the reference cites the same lines without names.
            """
        ],
        ranges: [
            CodeRange(9000, 9099, "session, client and command", source: "objc AVIMErrorCode group comment 90XX"),
            CodeRange(9100, 9199, "conversation", source: "objc AVIMErrorCode group comment 91XX"),
            CodeRange(9900, 9999, "other", source: "swift InternalErrorCode comment `// other` (bounds INFERRED)"),
        ]
    ) { row in
        [
            row(9000, "commandTimeout", "Out command timeout (objc AVIMErrorCodeCommandTimeout)", .clientLocal),
            row(9001, "connectionLost", "Connection lost (objc AVIMErrorCodeConnectionLost)", .clientLocal),
            row(9002, "clientNotOpen", "IM client not open (objc AVIMErrorCodeClientNotOpen)", .clientLocal),
            row(9003, "commandInvalid", "In command invalid (objc AVIMErrorCodeInvalidCommand)", .clientLocal),
            row(
                9008, "commandDataLengthTooLong",
                "Data length of out command is too long (objc AVIMErrorCodeCommandDataLengthTooLong)", .clientLocal),
            row(
                9100, "conversationNotFound", "Conversation not found (objc AVIMErrorCodeConversationNotFound)",
                .clientLocal),
            row(
                9120, "updatingMessageNotAllowed",
                "Updating message from others is not allowed (objc AVIMErrorCodeUpdatingMessageNotAllowed)",
                .clientLocal),
            row(
                9121, "updatingMessageNotSent", "Message is not sent (objc AVIMErrorCodeUpdatingMessageNotSent)",
                .clientLocal),
            row(
                9130, "ownerPromotionNotAllowed",
                "Updating a member's role to owner is not allowed (objc AVIMErrorCodeOwnerPromotionNotAllowed)",
                .clientLocal),
            row(9973, "notFound", "Not found", .clientLocal),
            row(9974, "invalidType", "Data type invalid", .clientLocal),
            row(9975, "malformedData", "Data format invalid", .clientLocal),
            row(9976, "inconsistency", "Internal inconsistency exception", .clientLocal),
            row(
                9977, "underlyingError", "Wraps an error that is not an LCError (underlyingError is set)",
                .clientLocal),
        ]
    }
}
