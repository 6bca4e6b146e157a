import IMWireCore
import IMWireReconnect

/// NetEase NIM: the Web SDK's link (nim.md §1, §3).
public enum NIMPolicies {
    static let bundle = "NIM_Web_NIM_v8.5.0.js (bundle)"

    public static let web = ReconnectPolicy(
        name: "nim-web", dialect: .nim, sdk: "NIM Web SDK 8.5.0 (\(bundle)): link, heartbeat, reconnect",
        schedule: .exponential(baseMillis: 1600, factor: 2, capMillis: 8000, jitterPPM: 10_000),
        heartbeat: HeartbeatPolicy(
            "1_2 heartbeat (SER 0)", intervalMillis: 30_000, answerTimeoutMillis: 5000, missesBeforeDead: 2),
        connectTimeoutMillis: 8000, loginTimeoutMillis: 8000,
        route: RoutePolicy("LBS webconf.jsp (link list)", resolveOnLogin: true),
        reconnectFlag: nil,
        acceptCodes: [200],
        rules: [
            SignalRule(
                .route, nil, .proceedWithoutRoute,
                source: "nim.md §3.1: backup LBS URLs every 2 s, finally the default link"),
            SignalRule(
                .login, [302, 422], .stop(.loginRejected),
                source: "nim.md §1.1: 302 wrong user name or password, 422 account disabled"),
            SignalRule(
                .login, [417], .stop(.loginRejected),
                source: "nim.md §1.1: C# RegAutoReloginCb (417 answering a re-login: cannot reconnect, log out)"),
            SignalRule(
                .login, [416], .retryAfterServerWait,
                source: "nim.md §1.1: 416 blocks the command for 1000·r[0] ms (frequencyControlDuration)"),
            SignalRule(
                .kick, [4], .retry,
                source:
                    """
                    NIM_Web_SDK_v8.5.0.js onKicked: "silentlyKick" !== o.reason ? onAuthError(…) \
                    : (forceDisconnect(), onDisconnect(1, "link::onKicked")); recorded: reconnect \
                    after 1.6 s (Fixtures/captures/vendor-sdk/nim/nim-kick-silent)
                    """),
            SignalRule(
                .kick, nil, .stop(.kicked),
                source:
                    """
                    nim.md §3.4: 2_5 kicked r=[from, reason 1–4 (4 silentlyKick), custom, \
                    customClientType]; onKicked → onAuthError (shouldReconnect = !1)
                    """
            ),
        ],
        registry: RegistryScope(
            .nim, [.login: ["web-error", "NIMResCode"], .kick: ["web-kick-reason"]], in: NIMStatusCodes.tables),
        syncAfterLogin: true,
        backoffResetsOnLink: true,
        endpointsPerAttempt: 2,
        outputs: nimLoginSteps,
        facts: [
            Fact(
                "retry delays",
                """
                1.6 s doubling to 8 s, jitter ±1 % (reconnectionDelay \
                1600, reconnectionDelayMax 8000, reconnectionJitter 0.01)
                """,
                source: "nim.md §3.2 timers"),
            Fact(
                "growth factor", "2 (the backo2 formula behind reconnectionDelay/DelayMax/Jitter)",
                source: "nim.md §3.2 names the three settings, not the formula", .inferred),
            Fact("retry budget", "reconnectionAttempts default ∞", source: "nim.md §3.2"),
            Fact(
                "connections per attempt",
                """
                2: the LBS request, then at once the link (default link) when the LBS \
                fails before answering; the backoff waits only after the link failed \
                (imwire serve resetting the LBS connection: the handshake 4 ms later)
                """,
                source:
                    """
                    NIM_Web_SDK_v8.5.0.js doRefreshSocketUrl: doRequestLbs(n).then(…).catch(function(e){ \
                    … lbsBackup ? backup LBS URLs : d.call(t) }) (the default link)
                    """),
            Fact(
                "heartbeat",
                "1_2 every 30 s after the previous one completed; 5 s timeout; resend once; 2 failures → reconnect",
                source: "nim.md §3.2, §3.4 step 4"),
            Fact("timeouts", "connect 8 s, command 8 s", source: "nim.md §3.2"),
            Fact("terminal login codes", "302, 417, 422: stop and require the user", source: "nim.md §1.1"),
            Fact("416", "wait the lockout the server gave (r[0] s)", source: "nim.md §1.1 parseResponse"),
            Fact(
                "kicked 2_5", "reasons 1–3: stop; 4 (silentlyKick): drop the link and reconnect with the backoff",
                source: """
                    nim.md §2.2 notes, §3.4; NIM_Web_SDK_v8.5.0.js onKicked \
                    (silentlyKick → forceDisconnect, onDisconnect(1))
                    """),
            Fact(
                "reconnect flag",
                """
                none usable: login tag 8 appLogin is 0 on the SDK's re-login after a socket \
                disconnect and 1 on the app's login, but also 1 on the SDK's own re-login \
                after a silent kick or a heartbeat/login timeout in a first session
                """,
                source:
                    """
                    NIM_Web_SDK_v8.5.0.js assembleIMLogin (appLogin: autoconnect ? 0 : 1), \
                    doReconnect (connected && (autoconnect = !0)); Fixtures/captures/vendor-sdk/nim: \
                    nim-drop [1, 0, 0, 0, 0], nim-kick-silent [1, 1], nim-hb-unanswered [1, 1]
                    """),
            Fact(
                "chat room",
                """
                a separate connection with its own login (13_1 address, 13_2 login): the IM link's \
                reconnect does not re-join it; the chat-room link is not modelled, the reference \
                gives its states and kick reasons (13_3: 1–5), not its reconnect timers
                """,
                source: "nim.md §3.4 step 6, §2.1 NIMChatroomConnectionState, NIMChatroomKickReason"),
            Fact(
                "token expiry",
                "no separate code: the token is the login's password, an invalid one is answered 302 (stop)",
                source: """
                    nim.md §1.1 302 (Web: 请检查appKey和token是否有效); \
                    no token-expired code in §1.1–§1.4
                    """, .inferred),
        ])

    public static let all = [web]
}

// What the SDKs show the app, milestone by milestone (the Spec's output tables come from here).
extension NIMPolicies {

    private static let step = "NIMLoginStep"
    private static let nimWeb = "NIM.getInstance"
    private static let nimStep = "iOS NIMLoginManagerProtocol.h NIMLoginStep (nim.md §2.1)"
    private static let nimCallbacks =
        "Web SDK options onconnect/onwillreconnect/ondisconnect/onsyncdone (NIM_Web_NIM_v8.5.0.js; INFERRED order)"

    /// NIM: the login steps in order, and the Web SDK's callbacks.
    public static let nimLoginSteps = OutputModel(
        "NIMLoginStep and the Web SDK callbacks", vendor: .nim, tables: NIMStatusCodes.tables,
        rules: [
            OutputRule(.connecting, [.status(step, 1)], source: nimStep),
            OutputRule(.reconnecting, [.status(step, 1)], source: nimStep),
            OutputRule(.linkOK, [.status(step, 2)], source: nimStep),
            OutputRule(.linkFailed, [.status(step, 3, carry: .code)], source: nimStep),
            OutputRule(.loggingIn, [.status(step, 4)], source: nimStep),
            OutputRule(
                .opened, [.status(step, 5), .status(step, 7), .event(nimWeb, "onconnect")],
                source: nimStep + "; " + nimCallbacks),
            OutputRule(
                .resumed, [.status(step, 5), .status(step, 7), .event(nimWeb, "onconnect")],
                source: nimStep + "; " + nimCallbacks),
            OutputRule(.loginFailed, [.status(step, 6, carry: .code)], source: nimStep),
            OutputRule(
                .synced, [.status(step, 8), .event(nimWeb, "onsyncdone")],
                source: nimStep + "; 5_1 syncDone (nim.md §3.4)"),
            OutputRule(.connectionLost, [.status(step, 9, carry: .code)], source: nimStep),
            OutputRule(.networkDown, [.status(step, 10)], source: nimStep),
            OutputRule(.networkUp, [.status(step, 10)], source: nimStep),
            OutputRule(
                .retryScheduled, [.event(nimWeb, "onwillreconnect", carry: .attemptAndDelay)],
                source: "Web SDK onwillreconnect({retryCount, duration})"),
            OutputRule(
                .kicked, [.event(nimWeb, "ondisconnect:kicked", carry: .code)],
                source: "2_5 kicked r=[from, reason, …]; Web kickedReasons (nim.md §2 notes)"),
            OutputRule(
                .stopped, when: .causeNotIn([.kicked]), [.event(nimWeb, "ondisconnect", carry: .code)],
                source: nimCallbacks),
        ])
}
