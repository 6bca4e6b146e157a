import IMWireCore
import IMWireReconnect

/// JPush JMessage: the Web SDK (jmessage.md §2, §3). The Web SDK drops the user on a disconnect
/// and leaves the new login to the app.
public enum JMessagePolicies {
    static let source = "jchat-web@32670a7 src/assets/static/js/jmessage-sdk-web.js (SDK 2.4.0)"

    public static let web = ReconnectPolicy(
        name: "jmessage-web", dialect: .jmessage, sdk: "JMessage Web SDK 2.4.0/2.5.0 (\(source))",
        schedule: .fixed(millis: 0), budget: RetryBudget(attempts: 0, whenExhausted: .stop),
        heartbeat: nil, connectTimeoutMillis: nil, loginTimeoutMillis: 5000, loginResponseTimeoutMillis: 30_000, loginResends: 5,
        route: nil, reconnectFlag: nil, acceptCodes: [0],
        rules: [
            SignalRule(.login, nil, .stop(.loginRejected), source: "\(source): a failed login goes to the app's onFail; no retry"),
            SignalRule(.kick, [1], .stop(.kicked), source: "jmessage.md §2.1 kJMSGEventNotificationLoginKicked; Web event_type 1 → logout"),
            SignalRule(.kick, [2], .stop(.kicked), source: "jmessage.md §2.1 ServerAlterPassword; Web event_type 2 → logout"),
            SignalRule(.kick, [70], .stop(.kicked), source: "jmessage.md §2.1 UserLoginStatusUnexpected (需要重新登录: log in again)"),
            SignalRule(.kick, [10001, 10002], .stop(.kicked), source: "jmessage.md §2.1 user deleted / disabled (local user info cleared)"),
            SignalRule(.kick, [40], .ignore, source: "jmessage.md §2.1 CurrentUserInfoChange (the login stays)"),
            SignalRule(.kick, nil, .ignore, source: "not a login-status reason: no effect on the login", .inferred),
        ],
        registry: RegistryScope(
            .jmessage, [.login: ["web-error", "server"], .kick: ["JMSGLoginStatusChangeEventType"]], in: JMessageStatusCodes.tables),
        outputs: jmessageEvents,
        facts: [
            Fact(
                "automatic reconnect", "none: a disconnect clears the user and calls the app's onDisconnect",
                source: "\(source) JMessage.prototype._onDisconnect (not in jmessage.md)"),
            Fact(
                "login ack",
                "the server's ack {rid} within 5 s, else the login is re-emitted (login-acknowledged switches the login timer to the response wait)",
                source: "jmessage.md §3 ACK_TIMEOUT 5000"),
            Fact(
                "login response", "within 30 s of the ack, else the login is re-emitted and waits for a new ack",
                source: "jmessage.md §3 RESP_TIMEOUT 30000"),
            Fact(
                "login resends", "5 re-emits (6 sends) shared by the ack and the response waits; then onTimeout: stop (login-unanswered)",
                source: "jmessage.md §3 RETRY_TIMES 5 (same retry budget)"),
            Fact(
                "login status reasons",
                "1 kicked, 2 password changed, 70 state unexpected, 10001 deleted, 10002 disabled: log out; 40 info changed: no effect",
                source: "jmessage.md §2.1 JMSGLoginStatusChangeEventType; Web LOGIN_OUT_EVENT [1, 2]"),
            Fact(
                "Web event_type 1 extra", "0 concurrent login → reason 1, 1 disabled → 10002, 2 deleted → 10001 (for embedders feeding Web pushes)",
                source: "jmessage.md §2.3", .inferred),
            Fact(
                "transport", "socket.io-client reconnects the transport with its defaults; the IM login is not resumed",
                source: "\(source) Channel: io(address, {transports}) without reconnect options", .inferred),
            Fact("heartbeat", "engine.io ping/pong of the transport (server-given interval); not modelled", source: "jmessage.md §3", .unconfirmed),
        ])

    public static let all = [web]
}

// What the SDKs show the app, milestone by milestone (the Spec's output tables come from here).
extension JMessagePolicies {

    private static let jmWeb = "JMessage Web"
    private static let jmIOS = "JMSGEventDelegate"
    private static let jmSource = "jchat-web@32670a7 src/assets/static/js/jmessage-sdk-web.js (2.4.0)"

    /// JMessage: the login's callbacks, `onDisconnect`, and the login-status-change events.
    public static let jmessageEvents = OutputModel(
        "JMessage login callbacks and login status events", vendor: .jmessage, tables: JMessageStatusCodes.tables,
        rules: [
            OutputRule(.opened, [.event(jmWeb, "login.onSuccess")], source: jmSource + " MsgBuilder onSuccess"),
            OutputRule(.loginFailed, [.event(jmWeb, "login.onFail", carry: .code)], source: jmSource + " MsgBuilder onFail"),
            OutputRule(
                .stopped, when: .causeIn([.loginUnanswered]), [.event(jmWeb, "login.onTimeout")],
                source: jmSource + " MsgBuilder onTimeout (after RETRY_TIMES)"),
            OutputRule(.connectionLost, [.event(jmWeb, "onDisconnect")], source: jmSource + " JMessage.prototype._onDisconnect"),
            OutputRule(
                .kicked, [.event(jmIOS, "onReceiveUserLoginStatusChangeEvent", carry: .code)],
                source: "iOS JMSGConstants.h JMSGLoginStatusChangeEventType (jmessage.md §2.1)"),
        ])
}
