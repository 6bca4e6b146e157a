import IMWireCore

/// LeanCloud's status tables. The IM error codes arrive in `error` commands, in `code` of
/// `session/closed` and `ack`, or as WebSocket close codes (the docs do not say which per code).
/// The other tables live next to this file, one file per group; `tables` lists them all.
public enum LeanCloudStatusCodes {
    static let docs = "docs im-faq.mdx:18-84; error-code.mdx:470-800"

    /// Every LeanCloud table, in the order the Spec and the fixtures list them.
    public static let tables: [StatusTable] = [
        imErrorTable, closeCodes, sdkLocal,
        clientStatus, clientOpenOption, messageStatus, messageIOType, messageMediaType, messageSendOption,
        messagePriority, conversationOption, conversationMemberRole, conversationQueryOption, cachePolicy,
        messageQueryDirection, sessionConfigOptions, convType,
    ]

    /// The IM server error codes (leancloud.md §5.1) plus the codes only the SDKs list.
    public static let imErrorTable = StatusTable(
        .leancloud, "im-error", title: "IM server error codes", kind: .codes, source: docs, travel: .messageOrClose,
        notes: [
            """
            The docs say each code arrives either as an SDK error or as a \
            WebSocket close code; which one per code is UNCONFIRMED (server side).
            """,
            "4104, 4118, 4119 and 4319 appear in no IM list (4104 only in the Multiplayer docs).",
        ],
        ranges: [
            CodeRange(4100, 4199, "session", source: "objc AVIMCommon.h AVIMErrorCode group comment 41XX"),
            CodeRange(4200, 4299, "server internal", source: "INFERRED from the code names"),
            CodeRange(4300, 4399, "conversation", source: "INFERRED from the code names"),
            CodeRange(4400, 4499, "message", source: "INFERRED from the code names"),
            CodeRange(4500, 4599, "blacklist and mute", source: "INFERRED from the code names"),
        ]
    ) { row in
        [
            row(
                0, "", "WebSocket closed normally (server restart or local network); the SDK reconnects", .retry,
                travel: .closeCode),
            row(
                1000, "CLOSE_NORMAL", "WebSocket closed normally (SDK constant)", .retry, sources: "js src/error.js",
                travel: .closeCode),
            row(
                1006, "CLOSE_ABNORMAL",
                "WebSocket closed abnormally (e.g. a router limits long connections); the SDK reconnects", .retry,
                sources: docs + "; name from js src/error.js", travel: .closeCode),
            row(4100, "APP_NOT_AVAILABLE", "App does not exist or IM is disabled", .fatalCredentials),
            row(
                4101, "DUPLICATED_LOGIN", "Same device logged into the push service twice (not IM related)",
                .fatalConflict),
            row(4102, "SIGNATURE_FAILED", "Login signature verification failed", .fatalCredentials),
            row(4103, "INVALID_LOGIN", "Malformed client id (more than 64 characters)", .fatalCredentials),
            row(4105, "SESSION_REQUIRED", "Command sent before the session was opened", .invalidRequest),
            row(4106, "BLACKLISTED", "User is blacklisted from IM", .permissionDenied),
            row(4107, "READ_TIMEOUT", "Server received nothing from the client for too long (heartbeat)", .retry),
            row(4108, "LOGIN_TIMEOUT", "No session opened for too long after connecting", .retry),
            row(4109, "FRAME_TOO_LONG", "Frame larger than 5 KB", .invalidRequest, original: "消息大小超过 5 KB"),
            row(4110, "INVALID_ORIGIN", "Origin not in the security-domain whitelist", .fatalCredentials),
            row(
                4111, "SESSION_CONFLICT", "Kicked by another device logging in (single-device login)", .fatalConflict,
                sources: docs + "; objc AVIMErrorCodeSessionConflict (AVIMCommon.h @12.3.3)"),
            row(
                4112, "SESSION_TOKEN_EXPIRED", "Session token expired; log in again", .reauthenticate,
                sources: docs + "; objc AVIMErrorCodeSessionTokenExpired (AVIMCommon.h @12.3.3)"),
            row(4113, "APP_QUOTA_EXCEEDED", "Daily login-user quota exceeded", .rateLimited),
            row(4114, "UNPARSEABLE_RAW_MESSAGE", "Server cannot parse the client's serialized data", .invalidRequest),
            row(4115, "KICKED_BY_APP", "Kicked through the REST admin API", .fatalConflict),
            row(4116, "MESSAGE_SENT_QUOTA_EXCEEDED", "Message rate limit exceeded", .rateLimited),
            row(4117, "UNBIND_INSTALLATION_FAILED", "Unbinding the installation on logout failed", .serverError),
            row(4200, "INTERNAL_ERROR", "Server internal error", .serverError),
            row(4201, "SEND_MESSAGE_TIMEOUT", "Sending through the API timed out", .serverError),
            row(4300, "CONVERSATION_INTERNAL_ERROR", "Conversation operation internal error", .serverError),
            row(4301, "CONVERSATION_API_FAILED", "Upstream API failure (see detail)", .serverError),
            row(4302, "CONVERSATION_SIGNATURE_FAILED", "Conversation operation signature error", .permissionDenied),
            row(4303, "CONVERSATION_NOT_FOUND", "Conversation not found (or API concurrency exceeded)", .notFound),
            row(4304, "CONVERSATION_FULL", "Member limit reached", .invalidRequest),
            row(4305, "CONVERSATION_REJECTED_BY_APP", "Rejected by a Cloud Engine hook", .permissionDenied),
            row(4306, "CONVERSATION_UPDATE_FAILED", "Update failed", .serverError),
            row(4307, "CONVERSATION_READ_ONLY", "Conversation is read-only", .permissionDenied),
            row(4308, "CONVERSATION_NOT_ALLOWED", "User not allowed to send in this conversation", .permissionDenied),
            row(4309, "CONVERSATION_UPDATE_REJECTED", "Update rejected: user is not a member", .notMember),
            row(4310, "CONVERSATION_QUERY_FAILED", "Query failed (slow query or timeout)", .serverError),
            row(4311, "CONVERSATION_LOG_FAILED", "History retrieval failed (timeout)", .serverError),
            row(4312, "CONVERSATION_LOG_REJECTED", "History retrieval rejected: not a member", .notMember),
            row(4313, "SYSTEM_CONVERSATION_REQUIRED", "Only valid for system conversations", .invalidRequest),
            row(4314, "NORMAL_CONVERSATION_REQUIRED", "Only valid for normal conversations", .invalidRequest),
            row(
                4315, "CONVERSATION_TEMPORARY_BLACKLISTED",
                "User is in the conversation's temporary blacklist (JS: CONVERSATION_BLACKLISTED)",
                .permissionDenied),
            row(4316, "TRANSIENT_CONVERSATION_REQUIRED", "Only valid for transient conversations", .invalidRequest),
            row(4317, "CONVERSATION_MEMBERSHIP_REQUIRED", "Must be a member", .notMember),
            row(4318, "CONVERSATION_API_QUOTA_EXCEEDED", "Conversation API quota exceeded", .rateLimited),
            row(4320, "CONVERSATION_OPERATION_UNAUTHORIZED", "Role lacks the permission", .permissionDenied),
            row(4321, "UNKNOWN_CONVERSATION_ROLE", "Unknown role", .invalidRequest),
            row(4322, "CONVERSATION_MEMBER_IN_ROLE_FULL", "Role member limit reached", .invalidRequest),
            row(4323, "TEMPORARY_CONVERSATION_EXPIRED", "Temporary conversation expired", .notFound),
            row(
                4324, "CONVERSATION_NEED_OWNER", "The operation would leave the conversation without an owner",
                .invalidRequest),
            row(
                4325, "CONVERSATION_MEMBER_INFO_FEATURE_DISABLED", "Member-attributes feature is off", .permissionDenied
            ),
            row(4401, "INVALID_MESSAGING_TARGET", "Conversation missing or user not a member", .notMember),
            row(4402, "MESSAGE_REJECTED_BY_APP", "Message rejected by a hook", .permissionDenied),
            row(4403, "MESSAGE_OWNERSHIP_REQUIRED", "No permission on the target message", .permissionDenied),
            row(4404, "MESSAGE_NOT_FOUND", "Message not found", .notFound),
            row(4405, "MESSAGE_UPDATE_REJECTED_BY_APP", "Edit or recall rejected by a hook", .permissionDenied),
            row(4406, "MESSAGE_EDIT_DISABLED", "Editing from the SDK is disabled", .permissionDenied),
            row(4407, "MESSAGE_RECALL_DISABLED", "Recall from the SDK is disabled", .permissionDenied),
            row(4408, "MESSAGE_MODIFIED_BY_CENSORSHIP", "Message modified by the keyword filter", .success),
            row(4543, "BLACKLIST_FULL", "Blacklist full", .invalidRequest),
            row(4544, "BLACKLIST_FEATURE_DISABLED", "Blacklist feature is off", .permissionDenied),
            row(4546, "BLACKLIST_SIGNATURE_FAILED", "Blacklist operation signature failed", .permissionDenied),
            row(4548, "BLOCKED_BY_CONV", "User is in the conversation's blacklist", .permissionDenied),
            row(4561, "SILIENCED_MEMBER_LIST_FULL", "Mute list full (sic SILIENCED)", .invalidRequest),
            row(4563, "SILIENCED", "User is muted", .permissionDenied),
            row(
                5130, "OWNER_PROMOTION_NOT_ALLOWED", "Owner promotion not allowed", .invalidRequest,
                sources: "js src/error.js"),
        ]
    }

    /// The IM server error codes (leancloud.md §5.1) plus the codes only the SDKs list.
    public static var imErrors: [StatusCode] { imErrorTable.rows }

    /// All LeanCloud rows, table by table.
    public static var all: [StatusCode] { tables.flatMap(\.rows) }

    /// The IM error code `number`, if the table has it.
    public static func imError(_ number: Int64) -> StatusCode? { imErrors.first { $0.number == number } }

    /// "4111 SESSION_CONFLICT (kicked by another device …)" or "9999 (unknown)".
    public static func describe(_ number: Int64) -> String {
        guard let entry = imError(number) else { return "\(number) (not in the LeanCloud IM error table)" }
        return entry.name.isEmpty ? "\(number) (\(entry.meaning))" : "\(number) \(entry.name) (\(entry.meaning))"
    }
}
