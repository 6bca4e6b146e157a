import IMWireCore
import IMWireReconnect

/// yun2win: MQTT with yun2win return codes, per platform (Spec/yun2win.md#connection-established, #sdk-reconnect).
public enum Yun2winPolicies {
    static let registry = RegistryScope(
        .yun2win, [.login: ["ConnectionReturnCode"], .kick: ["ConnectionReturnCode"]], in: Yun2winStatusCodes.tables)
    static let flag = ReconnectFlag(
        "client id prefix 1",
        source: "Spec/yun2win.md#client-id: first char 1 after a successful connect (all three SDKs)")
    static let kicked = SignalRule(
        .kick, [10], .stop(.kicked),
        source: "Spec/yun2win.md#connection-established: PUBLISH returnCode 10 → end, disconnected(100, 10)")
    static let refreshToken = SignalRule(
        .login, [5, 6], .refreshCredentials,
        source: "Spec/yun2win.md#connection-established: 5/6 → obtain a new imToken and reconnect(token)")
    static let web2to4 = SignalRule(
        .login, [2, 3, 4], .stop(.loginRejected),
        source: "Spec/yun2win.md#connection-established: web error handler 2/3/4 → allowReconnect=false")

    public static let web = ReconnectPolicy(
        name: "yun2win-web", dialect: .yun2win, sdk: "yun2win web y2wIMSDK.min.js (MQTT.js over WebSocket, Nov 2016)",
        schedule: .fixed(millis: 1000),
        heartbeat: HeartbeatPolicy(
            "MQTT PINGREQ (keep-alive 300 s)", intervalMillis: 300_000, answerTimeoutMillis: 300_000,
            missesBeforeDead: 1, idleBased: true),
        connectTimeoutMillis: nil, loginTimeoutMillis: 10_000,
        route: RoutePolicy("imgate gateHandler", resolveOnLogin: true),
        reconnectFlag: flag, acceptCodes: [11], progressCodes: [0],
        rules: [
            SignalRule(
                .route, nil, .retryAfter(millis: 5000),
                source: "Spec/yun2win.md#gate-discovery: web retries the gate after 5 s"),
            web2to4, refreshToken,
            SignalRule(
                .login, [7, 99], .retry,
                source: "Spec/yun2win.md#sdk-reconnect: web error handler 7, 99 → log, reconnect"),
            kicked,
        ],
        registry: registry, wakeForcesReconnect: true,
        outputs: yun2winWeb,
        facts: [
            Fact(
                "retry delays",
                """
                1 s after each close (setInterval(_reconnect, reconnectPeriod=1000), \
                cleared when the attempt starts); the genuine SDK: 1.006–1.012 s
                """,
                source:
                    """
                    Spec/yun2win.md#sdk-reconnect; y2wIMSDK.min.js _setupReconnect/_setupStream; \
                    Fixtures/captures/vendor-sdk/yun2win (drop, refuse)
                    """
            ),
            Fact(
                "CONNACK timeout",
                "10 s (connectTimeout) from the stream's creation to CONNACK; nothing times the wait for returnCode 11",
                source:
                    """
                    Spec/yun2win.md#connection-established; y2wIMSDK.min.js _setupStream/_handleConnack; \
                    Fixtures/captures/vendor-sdk/yun2win/yun2win-no-accept (25 s, no retry)
                    """
            ),
            Fact(
                "connected", "on PUBLISH {\"returnCode\":11}, not on CONNACK 0",
                source: "Spec/yun2win.md#connection-established"),
            Fact(
                "keep-alive",
                "300 s after the client's last packet; a missing PINGRESP at the next tick destroys the socket",
                source:
                    """
                    Spec/yun2win.md#sdk-reconnect; y2wIMSDK.min.js _shiftPingInterval/_checkPing; \
                    Fixtures/captures/vendor-sdk/yun2win/yun2win-keepalive (300.07 s)
                    """
            ),
            Fact(
                "sleep detection", "every 2 min; more than 3 min elapsed → forced reconnect",
                source: "Spec/yun2win.md#sdk-reconnect"),
            Fact(
                "network", "offline → networkDisconnected(3), socket destroyed; online → reconnect",
                source: "Spec/yun2win.md#sdk-reconnect"),
            Fact("gate", "retried after 5 s", source: "Spec/yun2win.md#gate-discovery"),
            Fact(
                "codes", "2/3/4 stop; 5/6 refresh the token, reconnect; 7, 99 and others reconnect; PUBLISH 10 stop",
                source: "Spec/yun2win.md#connection-established, Spec/yun2win.md#sdk-reconnect"),
            Fact(
                "CONNACK 2/3/4", "console.error only: no onConnectionStatusChanged, allowReconnect = false",
                source: """
                    y2wIMSDK.min.js on("error") handler; \
                    Fixtures/captures/vendor-sdk/yun2win/yun2win-error-uid
                    """),
            Fact(
                "after 5/6",
                """
                allowReconnect stays false after the app's reconnect(token): \
                a later drop is neither retried nor reported
                """,
                source: """
                    y2wIMSDK.min.js on("error"), reconnect, _setupReconnect; \
                    Fixtures/captures/vendor-sdk/yun2win/yun2win-error-token
                    """),
            Fact(
                "refused CONNACK",
                "the SDK does not close the connection itself after a refused CONNACK; the server does",
                source: "y2wIMSDK.min.js _handleConnack"),
        ])

    public static let android = ReconnectPolicy(
        name: "yun2win-android", dialect: .yun2win,
        sdk: "yun2win Android com.yun2win.push.YunConnection (yun2win-0.1.jar, FuseSource mqtt-client 1.7)",
        schedule: .fixed(millis: 10_000),
        heartbeat: HeartbeatPolicy(
            "MQTT PINGREQ (keep-alive 30 s)", intervalMillis: 30_000, answerTimeoutMillis: 30_000, missesBeforeDead: 1,
            idleBased: true),
        connectTimeoutMillis: nil, loginTimeoutMillis: nil,
        route: RoutePolicy("imgate gateHandler", resolveOnLogin: true),
        reconnectFlag: flag, acceptCodes: [11], progressCodes: [0],
        rules: [
            SignalRule(
                .route, nil, .stop(.routeRejected),
                source: "Spec/yun2win.md#gate-discovery: Android reports onChanged(100, 101) on a gate failure"),
            SignalRule(
                .login, [2, 3, 4], .stop(.loginRejected),
                source: """
                    Spec/yun2win.md#connection-established: Android \
                    Tracer 2–6 → onChanged(100, code), no reconnect
                    """),
            refreshToken,
            SignalRule(
                .login, [7], .retryAfter(millis: 15_000),
                source: "Spec/yun2win.md#connection-established: Android Tracer 7 → reconnect after 15 s"),
            kicked,
        ],
        registry: registry,
        outputs: yun2winAndroid,
        facts: [
            Fact(
                "retry delays", "10 s after onDisconnected (unless the network is down)",
                source: "Spec/yun2win.md#sdk-reconnect"),
            Fact("CONNACK 7", "reconnect after 15 s", source: "Spec/yun2win.md#connection-established"),
            Fact(
                "CONNACK 2–6", "onChanged(100, code), no reconnect (5/6: the app refreshes the token)",
                source: "Spec/yun2win.md#connection-established"),
            Fact(
                "keep-alive", "30 s (FuseSource default); when the client gives the link up is not documented",
                source: "Spec/yun2win.md#sdk-reconnect",
                .unconfirmed),
            Fact("gate failure", "onChanged(100, 101)", source: "Spec/yun2win.md#gate-discovery"),
        ])

    public static let ios = ReconnectPolicy(
        name: "yun2win-ios", dialect: .yun2win,
        sdk: "yun2win iOS Y2WIMClientSession (Y2W_IM_SDK.framework binary, MQTT-Client-Framework)",
        schedule: .linear(stepMillis: 1000, capMillis: 3000),
        heartbeat: HeartbeatPolicy(
            "MQTT PINGREQ (keep-alive 60 s)", intervalMillis: 60_000, answerTimeoutMillis: 60_000, missesBeforeDead: 1,
            idleBased: true),
        connectTimeoutMillis: nil, loginTimeoutMillis: nil,
        route: RoutePolicy("imgate gateHandler (10 s timeout)", resolveOnLogin: true),
        reconnectFlag: flag, acceptCodes: [11], progressCodes: [0],
        rules: [web2to4, refreshToken, kicked],
        registry: registry,
        outputs: yun2winIOS,
        facts: [
            Fact(
                "retry delays",
                "watchdog min(reconnectTime+1, 3) s; reconnectTime grows by 1 per reconnect, reset on connected",
                source: "Spec/yun2win.md#sdk-reconnect (binary)"),
            Fact(
                "codes", "iOS handling of CONNACK 2–7 is not documented; the web SDK's and the registry's apply",
                source: "Spec/yun2win.md#connection-established", .inferred),
            Fact(
                "keep-alive", "60 s (MQTT-Client-Framework); when the client gives the link up is not documented",
                source: "Spec/yun2win.md#sdk-reconnect",
                .unconfirmed),
        ])

    public static let all = [web, android, ios]

    /// The policy of the platform a client id names (`[0|1][0 web|1 android|2 ios]<uuid>`).
    public static func policy(forClientIDPlatformDigit digit: Character) -> ReconnectPolicy? {
        switch digit {
        case "0": web
        case "1": android
        case "2": ios
        default: nil
        }
    }
}

// What the SDKs show the app, milestone by milestone (the Spec's output tables come from here).
extension Yun2winPolicies {

    private static let connection = "ConnectionStatus"
    private static let y2wWeb = "yun2win web bundle y2wIMSDK.min.js (Spec/yun2win.md#sdk-reconnect)"
    private static let y2wAndroid = "Android YunConnection (yun2win-0.1.jar, Spec/yun2win.md#sdk-reconnect)"
    private static let y2wIOS = "iOS Y2WIMClientSession (binary, Spec/yun2win.md#sdk-reconnect)"

    /// yun2win Web: `connecting`, `reconnecting(times)`, `connected` on PUBLISH 11, `networkDisconnected`,
    /// `disconnected(code)`.
    public static let yun2winWeb = OutputModel(
        "yun2win ConnectionStatus (Web)", vendor: .yun2win, tables: Yun2winStatusCodes.tables,
        rules: [
            OutputRule(.connecting, [.status(connection, 0, carry: .codeOrZero)], source: y2wWeb),
            OutputRule(
                .reconnecting, [.status(connection, 2, carry: .attempt)],
                source: y2wWeb + " reconnecting(reconnectingTimes)"),
            OutputRule(
                .opened, [.status(connection, 1, carry: .codeOrZero)], source: y2wWeb + " (PUBLISH returnCode 11)"),
            OutputRule(
                .resumed, [.status(connection, 1, carry: .codeOrZero)], source: y2wWeb + " (PUBLISH returnCode 11)"),
            OutputRule(
                .networkDown, [.status(connection, 3, carry: .codeOrZero)], source: y2wWeb + " (browser offline)"),
            OutputRule(
                .stopped, [.status(connection, 100, carry: .codeOrZero)], source: y2wWeb + " disconnected(100, code)"),
            OutputRule(
                .credentialsRequested, [.status(connection, 100, carry: .codeOrZero)],
                source: y2wWeb + " 5/6 → disconnected(100, code); the app gets a new token and reconnects"),
            OutputRule(.loggedOut, [.status(connection, 100, carry: .codeOrZero)], source: y2wWeb, .inferred),
        ])

    /// yun2win Android: `onChanged(status, code)`.
    public static let yun2winAndroid = OutputModel(
        "yun2win ConnectionStatus (Android onChanged)", vendor: .yun2win, tables: Yun2winStatusCodes.tables,
        rules: [
            OutputRule(
                .connecting, [.status(connection, 0, carry: .codeOrZero)], source: y2wAndroid + " onChanged(0,0)"),
            OutputRule(
                .reconnecting, [.status(connection, 0, carry: .codeOrZero)],
                source: y2wAndroid + " onChanged(0,0) before each connect"),
            OutputRule(
                .opened, [.status(connection, 1, carry: .codeOrZero)],
                source: y2wAndroid + " onChanged(1,0) on returnCode 11"),
            OutputRule(
                .resumed, [.status(connection, 1, carry: .codeOrZero)],
                source: y2wAndroid + " onChanged(1,0) on returnCode 11"),
            OutputRule(
                .connectionLost, [.status(connection, 100, code: 0)],
                source: y2wAndroid + " onDisconnected → onChanged(100,0)"),
            OutputRule(
                .networkDown, [.status(connection, 3, carry: .codeOrZero)],
                source: y2wAndroid + " connectivity lost → onChanged(3,0)"),
            OutputRule(
                .stopped, when: .causeIn([.routeRejected]), [.status(connection, 100, code: 101)],
                source: y2wAndroid + " gate failure → onChanged(100,101)"),
            OutputRule(
                .stopped, when: .causeNotIn([.routeRejected]), [.status(connection, 100, carry: .codeOrZero)],
                source: y2wAndroid + " onChanged(100, code)"),
            OutputRule(
                .credentialsRequested, [.status(connection, 100, carry: .codeOrZero)],
                source: y2wAndroid + " 5/6 → onChanged(100, code); the app gets a new token and reconnects"),
            OutputRule(.loggedOut, [.status(connection, 100, carry: .codeOrZero)], source: y2wAndroid, .inferred),
        ])

    /// yun2win iOS: `im_client:didChangeStatus:returnCode:`.
    public static let yun2winIOS = OutputModel(
        "yun2win ConnectionStatus (iOS didChangeStatus)", vendor: .yun2win, tables: Yun2winStatusCodes.tables,
        rules: [
            OutputRule(.connecting, [.status(connection, 0, carry: .codeOrZero)], source: y2wIOS, .inferred),
            OutputRule(
                .reconnecting, [.status(connection, 2, carry: .attempt)],
                source: y2wIOS + " reconnect increments reconnectingTimes", .inferred),
            OutputRule(
                .opened, [.status(connection, 1, carry: .codeOrZero)], source: y2wIOS + " connected: reports the status"
            ),
            OutputRule(
                .resumed, [.status(connection, 1, carry: .codeOrZero)],
                source: y2wIOS + " connected: reports the status"),
            OutputRule(.networkDown, [.status(connection, 3, carry: .codeOrZero)], source: y2wIOS, .inferred),
            OutputRule(
                .stopped, [.status(connection, 100, carry: .codeOrZero)],
                source: y2wIOS + " didChangeStatus:100 returnCode:10"),
            OutputRule(
                .credentialsRequested, [.status(connection, 100, carry: .codeOrZero)], source: y2wIOS, .inferred),
            OutputRule(.loggedOut, [.status(connection, 100, carry: .codeOrZero)], source: y2wIOS, .inferred),
        ])
}
