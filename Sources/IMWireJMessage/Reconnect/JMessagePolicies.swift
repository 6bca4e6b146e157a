import IMWireCore
import IMWireReconnect

/// JPush JMessage: the Web SDK (jmessage.md §2, §3). The Web SDK drops the user on a disconnect
/// and leaves the new login to the app; its socket.io client reconnects the transport by itself
/// (without c_init or login), which is not an IM reconnect. The genuine 2.5.0 bundle was run
/// against a mock server (Fixtures/captures/vendor-sdk/jmessage: clean, drop, refuse, kick,
/// error, drop-pending); the facts marked "recorded" come from those recordings.
public enum JMessagePolicies {
    static let source = "jchat-web@32670a7 src/assets/static/js/jmessage-sdk-web.js (SDK 2.4.0)"
    static let bundle = "jchat-web@6ec2565 src/assets/static/js/jmessage-sdk-web.2.5.0.min.js"
    static let recorded = "Fixtures/captures/vendor-sdk/jmessage"

    public static let web = ReconnectPolicy(
        name: "jmessage-web", dialect: .jmessage, sdk: "JMessage Web SDK 2.4.0/2.5.0 (\(source))",
        schedule: .fixed(millis: 0), budget: RetryBudget(attempts: 0, whenExhausted: .stop),
        heartbeat: nil, connectTimeoutMillis: nil, loginTimeoutMillis: 5000, loginResponseTimeoutMillis: 30_000,
        loginResends: 5,
        route: nil, reconnectFlag: nil, acceptCodes: [0],
        rules: [
            SignalRule(
                .login, nil, .stop(.loginRejected),
                source: "\(source): a failed login goes to the app's onFail; no retry"),
            SignalRule(
                .kick, [1], .stop(.kicked),
                source: "jmessage.md §2.1 kJMSGEventNotificationLoginKicked; Web event_type 1 → logout"),
            SignalRule(
                .kick, [2], .stop(.kicked),
                source: "jmessage.md §2.1 ServerAlterPassword; Web event_type 2 → logout"),
            SignalRule(
                .kick, [70], .stop(.kicked),
                source: "jmessage.md §2.1 UserLoginStatusUnexpected (需要重新登录: log in again)"),
            SignalRule(
                .kick, [10001, 10002], .stop(.kicked),
                source: "jmessage.md §2.1 user deleted / disabled (local user info cleared)"),
            SignalRule(.kick, [40], .ignore, source: "jmessage.md §2.1 CurrentUserInfoChange (the login stays)"),
            SignalRule(.kick, nil, .ignore, source: "not a login-status reason: no effect on the login", .inferred),
        ],
        registry: RegistryScope(
            .jmessage, [.login: ["web-error", "server"], .kick: ["JMSGLoginStatusChangeEventType"]],
            in: JMessageStatusCodes.tables),
        outputs: jmessageEvents,
        facts: [
            Fact(
                "automatic reconnect",
                """
                none for the login: a disconnect clears the user (current_user, current_appkey) and calls the app's \
                onDisconnect; the transport reconnects by itself but sends no c_init or login (recorded: drop, refuse)
                """,
                source:
                    """
                    \(source) JMessage.prototype._onDisconnect (not in jmessage.md); \(bundle) \
                    _onDisconnect: `t.autoDiscon && (t.current_appkey = null, t.current_user = \
                    null, t._onDisconnectFn && t._onDisconnectFn())`; \(recorded)/jmessage-drop
                    """
            ),
            Fact(
                "login ack",
                """
                the server's ack {rid} within 5 s, else the login is re-emitted \
                (login-acknowledged switches the login timer to the response wait)
                """,
                source: "jmessage.md §3 ACK_TIMEOUT 5000"),
            Fact(
                "login response", "within 30 s of the ack, else the login is re-emitted and waits for a new ack",
                source: "jmessage.md §3 RESP_TIMEOUT 30000"),
            Fact(
                "login resends",
                """
                5 re-emits (6 sends) shared by the ack and the \
                response waits; then onTimeout: stop (login-unanswered)
                """,
                source: "jmessage.md §3 RETRY_TIMES 5 (same retry budget)"),
            Fact(
                "login status reasons",
                """
                1 kicked, 2 password changed, 70 state unexpected, 10001 \
                deleted, 10002 disabled: log out; 40 info changed: no effect
                """,
                source: "jmessage.md §2.1 JMSGLoginStatusChangeEventType; Web LOGIN_OUT_EVENT [1, 2]"),
            Fact(
                "Web event_type 1 extra",
                """
                0 concurrent login → reason 1, 1 disabled → 10002, \
                2 deleted → 10001 (for embedders feeding Web pushes)
                """,
                source: "jmessage.md §2.3", .inferred),
            Fact(
                "transport",
                """
                socket.io-client reconnects the transport with its defaults: attempt n after min(1000 ms × \
                2^(n−1) ± 50 %, 5000 ms), no limit, the count reset by a successful reconnect; the IM login \
                is not resumed (recorded: 581 ms after a drop; 1290, 1352, 2765, 5006 ms with three refusals)
                """,
                source:
                    """
                    \(source) Channel: io(address, {transports}) without reconnect options; \(bundle) Manager: \
                    `this.reconnectionAttempts(e.reconnectionAttempts || 1 / 0), \
                    this.reconnectionDelay(e.reconnectionDelay || 1e3), \
                    this.reconnectionDelayMax(e.reconnectionDelayMax || 5e3), \
                    this.randomizationFactor(e.randomizationFactor || .5)`; \(recorded)/jmessage-drop, jmessage-refuse
                    """
            ),
            Fact(
                "pending requests across a drop",
                """
                the request timers survive a disconnect: what was pending is re-sent (same \
                rid, every 5 s / 30 s) on the reconnected transport before any c_init \
                (recorded: a send re-sent 5.0 s after its first send, on the new connection)
                """,
                source:
                    """
                    \(bundle) MsgBuilder ackTimeoutTask: `this.channel.send(this.event, this._data), \
                    this.times++`; loginOut alone clears them; \(recorded)/jmessage-drop-pending
                    """
            ),
            Fact(
                "heartbeat",
                """
                engine.io ping every server-given pingInterval (25 s in the recordings), \
                the transport closed after pingInterval + pingTimeout without a packet; \
                no IM heartbeat; sync_check every SYNC_INTERVAL 150 s after login
                """,
                source:
                    """
                    jmessage.md §3; \(bundle) engine.io Socket setPing/onHeartbeat: `e.onClose("ping \
                    timeout")` after `t || e.pingInterval + e.pingTimeout`; \(recorded)/jmessage-clean
                    """
            ),
            Fact(
                "after a kick (event_type 1)",
                """
                replies event_notification {event_id, event_type, from_uid, gid}, calls \
                onEventNotification, then loginOut(): socket.io DISCONNECT, close, and at once a new \
                transport without c_init or login (22 ms in the recording); no onDisconnect, no IM reconnect
                """,
                source:
                    """
                    \(bundle) _onEventNotification: `e._onEventNotificationFn && e._onEventNotificationFn(n), \
                    s.LOGIN_OUT_EVENT.indexOf(t.event_type) != -1 && e.loginOut()`; loginOut: `this.autoDiscon = !1, \
                    this.channel.client.close(); … this.channel.init(this.channel.opts)`; \(recorded)/jmessage-kick
                    """
            ),
            Fact(
                "logout",
                "no logout event on the wire: socket.io DISCONNECT and close, then a new idle transport (channel.init)",
                source: "\(bundle) loginOut; \(recorded)/jmessage-clean"),
            Fact(
                "refused login and send",
                """
                onFail with the server's code, no retry; the connection and \
                login stay (recorded: 801004 on login, 803003 and 803010 on send)
                """,
                source: """
                    \(bundle) Channel onReceive: `e.code && 0 !== e.code \
                    ? n.fail && n.fail(e)`; \(recorded)/jmessage-error
                    """),
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
            OutputRule(
                .loginFailed, [.event(jmWeb, "login.onFail", carry: .code)], source: jmSource + " MsgBuilder onFail"),
            OutputRule(
                .stopped, when: .causeIn([.loginUnanswered]), [.event(jmWeb, "login.onTimeout")],
                source: jmSource + " MsgBuilder onTimeout (after RETRY_TIMES)"),
            OutputRule(
                .connectionLost, [.event(jmWeb, "onDisconnect")], source: jmSource + " JMessage.prototype._onDisconnect"
            ),
            OutputRule(
                .kicked, [.event(jmIOS, "onReceiveUserLoginStatusChangeEvent", carry: .code)],
                source: "iOS JMSGConstants.h JMSGLoginStatusChangeEventType (jmessage.md §2.1)"),
        ])
}
