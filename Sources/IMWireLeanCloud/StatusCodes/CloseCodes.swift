import IMWireCore

extension LeanCloudStatusCodes {
    private static let jsRealtime = "js src/realtime.js:255-270"
    private static let dotNet = "old .NET AVRealtime.cs:315-318"

    /// WebSocket close codes and what the SDKs do on them (leancloud.md §5.2). The meaning of a
    /// 41xx number is in `im-error`; this table records the reconnect behaviour.
    public static let closeCodes = StatusTable(
        .leancloud, "close-code", title: "WebSocket close codes and SDK reconnect behaviour", kind: .codes,
        source: "leancloud.md §5.2", travel: .closeCode,
        notes: [
            """
            JS treats 4100, 4103 and 4110 as fatal (no reconnect, error \
            thrown) and reconnects on any other close (\(jsRealtime)).
            """,
            "The old .NET SDK reconnects only on 0, 1006 and 4107 (\(dotNet)); it stays closed on every other code.",
            "Which 41xx conditions arrive as close codes rather than error commands is UNCONFIRMED (server side).",
        ]
    ) { row in
        [
            row(
                0, "",
                "Closed normally (server restart or local network); docs: the SDK reconnects; old .NET reconnects",
                .retry,
                sources: "docs im-faq.mdx:20; \(dotNet)"),
            row(
                1001, "",
                """
                Going away, seen right after a 4111 session/closed: the \
                session/closed code decides (4111: do not reconnect)
                """, .retry,
                sources: "capture in issue leancloud/ChatKit-OC#68", .unconfirmed),
            row(
                1006, "", "Closed abnormally; docs: the SDK reconnects; JS and old .NET reconnect", .retry,
                sources: "docs im-faq.mdx:20; \(jsRealtime); \(dotNet)"),
            row(
                4100, "APP_NOT_AVAILABLE", "Fatal in JS: no reconnect, error thrown (app missing or IM disabled)",
                .fatalCredentials,
                sources: jsRealtime),
            row(
                4103, "INVALID_LOGIN", "Fatal in JS: no reconnect, error thrown (malformed client id)",
                .fatalCredentials,
                sources: jsRealtime),
            row(
                4107, "READ_TIMEOUT",
                "Heartbeat timeout: old .NET reconnects (one of its three reconnect codes); JS reconnects", .retry,
                sources: "\(dotNet); \(jsRealtime)"),
            row(
                4110, "INVALID_ORIGIN", "Fatal in JS: no reconnect, error thrown (origin not whitelisted)",
                .fatalCredentials,
                sources: jsRealtime),
        ]
    }
}
