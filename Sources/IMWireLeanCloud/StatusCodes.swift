import IMWireCore

/// LeanCloud's status tables. The IM error codes arrive in `error` commands, in `code` of
/// `session/closed` and `ack`, or as WebSocket close codes (the docs do not say which per code).
public enum LeanCloudStatusCodes {
    private static let docs = "docs im-faq.mdx:18-84; error-code.mdx:470-800"

    private static func im(_ number: Int64, _ name: String, _ meaning: String, _ codeClass: CodeClass,
                           original: String? = nil, sources: String = docs, _ confidence: Confidence = .confirmed,
                           travel: Travel = .messageOrClose) -> StatusCode {
        StatusCode(.leancloud, "im-error", number, name, meaning, original: original, sources: sources, confidence,
                   travel: travel, codeClass: codeClass)
    }

    /// The IM server error codes (leancloud.md §5.1) plus the codes only the SDKs list.
    public static let imErrors: [StatusCode] = [
        im(0, "", "WebSocket closed normally (server restart or local network); the SDK reconnects", .retry, travel: .closeCode),
        im(1000, "CLOSE_NORMAL", "WebSocket closed normally (SDK constant)", .retry, sources: "js src/error.js", travel: .closeCode),
        im(1006, "CLOSE_ABNORMAL", "WebSocket closed abnormally (e.g. a router limits long connections); the SDK reconnects", .retry, travel: .closeCode),
        im(4100, "APP_NOT_AVAILABLE", "App does not exist or IM is disabled", .fatalCredentials),
        im(4101, "DUPLICATED_LOGIN", "Same device logged into the push service twice (not IM related)", .fatalConflict),
        im(4102, "SIGNATURE_FAILED", "Login signature verification failed", .fatalCredentials),
        im(4103, "INVALID_LOGIN", "Malformed client id (more than 64 characters)", .fatalCredentials),
        im(4105, "SESSION_REQUIRED", "Command sent before the session was opened", .invalidRequest),
        im(4106, "BLACKLISTED", "User is blacklisted from IM", .permissionDenied),
        im(4107, "READ_TIMEOUT", "Server received nothing from the client for too long (heartbeat)", .retry),
        im(4108, "LOGIN_TIMEOUT", "No session opened for too long after connecting", .retry),
        im(4109, "FRAME_TOO_LONG", "Frame larger than 5 KB", .invalidRequest, original: "消息大小超过 5 KB"),
        im(4110, "INVALID_ORIGIN", "Origin not in the security-domain whitelist", .fatalCredentials),
        im(4111, "SESSION_CONFLICT", "Kicked by another device logging in (single-device login)", .fatalConflict),
        im(4112, "SESSION_TOKEN_EXPIRED", "Session token expired; log in again", .reauthenticate),
        im(4113, "APP_QUOTA_EXCEEDED", "Daily login-user quota exceeded", .rateLimited),
        im(4114, "UNPARSEABLE_RAW_MESSAGE", "Server cannot parse the client's serialized data", .invalidRequest),
        im(4115, "KICKED_BY_APP", "Kicked through the REST admin API", .fatalConflict),
        im(4116, "MESSAGE_SENT_QUOTA_EXCEEDED", "Message rate limit exceeded", .rateLimited),
        im(4117, "UNBIND_INSTALLATION_FAILED", "Unbinding the installation on logout failed", .serverError),
        im(4200, "INTERNAL_ERROR", "Server internal error", .serverError),
        im(4201, "SEND_MESSAGE_TIMEOUT", "Sending through the API timed out", .serverError),
        im(4300, "CONVERSATION_INTERNAL_ERROR", "Conversation operation internal error", .serverError),
        im(4301, "CONVERSATION_API_FAILED", "Upstream API failure (see detail)", .serverError),
        im(4302, "CONVERSATION_SIGNATURE_FAILED", "Conversation operation signature error", .permissionDenied),
        im(4303, "CONVERSATION_NOT_FOUND", "Conversation not found (or API concurrency exceeded)", .notFound),
        im(4304, "CONVERSATION_FULL", "Member limit reached", .invalidRequest),
        im(4305, "CONVERSATION_REJECTED_BY_APP", "Rejected by a Cloud Engine hook", .permissionDenied),
        im(4306, "CONVERSATION_UPDATE_FAILED", "Update failed", .serverError),
        im(4307, "CONVERSATION_READ_ONLY", "Conversation is read-only", .permissionDenied),
        im(4308, "CONVERSATION_NOT_ALLOWED", "User not allowed to send in this conversation", .permissionDenied),
        im(4309, "CONVERSATION_UPDATE_REJECTED", "Update rejected: user is not a member", .notMember),
        im(4310, "CONVERSATION_QUERY_FAILED", "Query failed (slow query or timeout)", .serverError),
        im(4311, "CONVERSATION_LOG_FAILED", "History retrieval failed (timeout)", .serverError),
        im(4312, "CONVERSATION_LOG_REJECTED", "History retrieval rejected: not a member", .notMember),
        im(4313, "SYSTEM_CONVERSATION_REQUIRED", "Only valid for system conversations", .invalidRequest),
        im(4314, "NORMAL_CONVERSATION_REQUIRED", "Only valid for normal conversations", .invalidRequest),
        im(4315, "CONVERSATION_TEMPORARY_BLACKLISTED", "User is in the conversation's temporary blacklist (JS: CONVERSATION_BLACKLISTED)", .permissionDenied),
        im(4316, "TRANSIENT_CONVERSATION_REQUIRED", "Only valid for transient conversations", .invalidRequest),
        im(4317, "CONVERSATION_MEMBERSHIP_REQUIRED", "Must be a member", .notMember),
        im(4318, "CONVERSATION_API_QUOTA_EXCEEDED", "Conversation API quota exceeded", .rateLimited),
        im(4320, "CONVERSATION_OPERATION_UNAUTHORIZED", "Role lacks the permission", .permissionDenied),
        im(4321, "UNKNOWN_CONVERSATION_ROLE", "Unknown role", .invalidRequest),
        im(4322, "CONVERSATION_MEMBER_IN_ROLE_FULL", "Role member limit reached", .invalidRequest),
        im(4323, "TEMPORARY_CONVERSATION_EXPIRED", "Temporary conversation expired", .notFound),
        im(4324, "CONVERSATION_NEED_OWNER", "The operation would leave the conversation without an owner", .invalidRequest),
        im(4325, "CONVERSATION_MEMBER_INFO_FEATURE_DISABLED", "Member-attributes feature is off", .permissionDenied),
        im(4401, "INVALID_MESSAGING_TARGET", "Conversation missing or user not a member", .notMember),
        im(4402, "MESSAGE_REJECTED_BY_APP", "Message rejected by a hook", .permissionDenied),
        im(4403, "MESSAGE_OWNERSHIP_REQUIRED", "No permission on the target message", .permissionDenied),
        im(4404, "MESSAGE_NOT_FOUND", "Message not found", .notFound),
        im(4405, "MESSAGE_UPDATE_REJECTED_BY_APP", "Edit or recall rejected by a hook", .permissionDenied),
        im(4406, "MESSAGE_EDIT_DISABLED", "Editing from the SDK is disabled", .permissionDenied),
        im(4407, "MESSAGE_RECALL_DISABLED", "Recall from the SDK is disabled", .permissionDenied),
        im(4408, "MESSAGE_MODIFIED_BY_CENSORSHIP", "Message modified by the keyword filter", .success),
        im(4543, "BLACKLIST_FULL", "Blacklist full", .invalidRequest),
        im(4544, "BLACKLIST_FEATURE_DISABLED", "Blacklist feature is off", .permissionDenied),
        im(4546, "BLACKLIST_SIGNATURE_FAILED", "Blacklist operation signature failed", .permissionDenied),
        im(4548, "BLOCKED_BY_CONV", "User is in the conversation's blacklist", .permissionDenied),
        im(4561, "SILIENCED_MEMBER_LIST_FULL", "Mute list full (sic SILIENCED)", .invalidRequest),
        im(4563, "SILIENCED", "User is muted", .permissionDenied),
        im(5130, "OWNER_PROMOTION_NOT_ALLOWED", "Owner promotion not allowed", .invalidRequest, sources: "js src/error.js"),
    ]

    /// All LeanCloud status tables.
    public static var all: [StatusCode] { imErrors }

    /// The IM error code `number`, if the table has it.
    public static func imError(_ number: Int64) -> StatusCode? { imErrors.first { $0.number == number } }

    /// "4111 SESSION_CONFLICT (kicked by another device …)" or "9999 (unknown)".
    public static func describe(_ number: Int64) -> String {
        guard let entry = imError(number) else { return "\(number) (not in the LeanCloud IM error table)" }
        return entry.name.isEmpty ? "\(number) (\(entry.meaning))" : "\(number) \(entry.name) (\(entry.meaning))"
    }
}
