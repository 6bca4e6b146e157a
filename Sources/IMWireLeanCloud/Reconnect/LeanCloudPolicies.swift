import IMWireCore
import IMWireReconnect

/// LeanCloud realtime: one policy per SDK family (Spec/leancloud.md#sdk-reconnect, #session-commands, #keep-alive).
public enum LeanCloudPolicies {
    static let registry = RegistryScope(
        .leancloud,
        [
            .login: ["im-error"], .close: ["close-code", "im-error"], .kick: ["im-error"],
        ], in: LeanCloudStatusCodes.tables)
    static let flag = "r=true in session/open"
    static let chatRoomWindow: Int64 = 30 * 60_000

    static let kickStops = SignalRule(
        .kick, [4111, 4115], .stop(.kicked),
        source: """
            session/closed 4111/4115: objc LCIMClientProtocol.h:46-54 \
            (closed ⇒ no auto-recover); swift IMClient.swift:2493-2505
            """)
    static let tokenExpired = SignalRule(
        .login, [4112], .refreshCredentials,
        source: "swift IMClient.swift:1465-1510, 2435-2480: on 4112 SESSION_TOKEN_EXPIRED re-sign and re-open")
    static let chatRoomFact = Fact(
        "transient conversation re-joined", "within 30 min of the drop",
        source: "issue #7; no public SDK source found (leancloud.md does not state it)", .unconfirmed)
    static let goawayFact = Fact(
        "goaway", "clear the router cache, reconnect",
        source: """
            Spec/leancloud.md#goaway: swift RTMConnection.swift handleGoaway; \
            js realtime.js EXPIRE; csharp ConnectedState.cs router.Reset()
            """)

    /// swift-sdk and objc-sdk (identical connection code).
    public static let swift = ReconnectPolicy(
        name: "leancloud-swift", dialect: .leancloud,
        sdk: "swift-sdk Sources/RTM/RTMConnection.swift, IMClient.swift; objc-sdk LCRTMConnection.m (identical code)",
        schedule: .table(millis: [-1000, 0, 1000, 2000, 4000, 8000, 16000], thenRepeatingMillis: 30000),
        heartbeat: HeartbeatPolicy(
            "WebSocket ping frame", intervalMillis: 180_000, answerTimeoutMillis: 20_000, missesBeforeDead: nil),
        connectTimeoutMillis: 60_000, loginTimeoutMillis: 30_000,
        route: RoutePolicy(
            "RTM router /v1/route (cached on disk, ttl from the answer)", resolveOnLogin: false,
            clearAfterFailures: 10),
        reconnectFlag: ReconnectFlag(
            flag, source: "Spec/leancloud.md#session-commands: swift re-opens with isReopen (r=true) and st"),
        acceptCodes: [0],
        rules: [
            SignalRule(
                .route, [404], .stop(.routeRejected),
                source: "swift RTMConnection.swift connectingWorkItem: if error.code != 404 { tryConnecting() }"),
            kickStops, tokenExpired,
        ],
        registry: registry, goaway: .reconnectNow(clearRoute: true), backgroundClosesConnection: true,
        networkChangeResetsBackoff: true, chatRoomRejoinWindowMillis: chatRoomWindow,
        outputs: leanCloudClientStatus,
        facts: [
            Fact(
                "retry delays",
                """
                −1, 0, 1, 2, 4, 8, 16 s, then 30 s (≤ 0: at once); \
                reset on connect, background, reachability change
                """,
                source: """
                    Spec/leancloud.md#sdk-reconnect: RTMConnection.swift:140-165 \
                    nextConnectingDelayInterval; objc LCRTMConnection.m:172-195
                    """),
            Fact(
                "heartbeat", "ping when no pong for 180 s; unanswered after 20 s: ping again",
                source: "Spec/leancloud.md#keep-alive: RTMConnection.swift:242-243, 354-372"),
            Fact(
                "timeouts", "connect 60 s, command 30 s",
                source: "Spec/leancloud.md#sdk-reconnect: Application.swift:123-141"),
            Fact(
                "router cache",
                "cleared after 10 consecutive failures or when the ttl expires; HTTP 404 stops retrying",
                source: """
                    Spec/leancloud.md#sdk-reconnect: RTMRouter.swift \
                    Table.shouldClear; RTMConnection.swift connectingWorkItem
                    """),
            Fact(
                "background", "entering the background closes the connection; the foreground reconnects",
                source: "Spec/leancloud.md#sdk-reconnect: RTMConnection.swift applicationStateChanged (iOS/tvOS)"),
            Fact(
                "close codes", "reconnect, unless the registry stops on the code (4111/4115…)",
                source: """
                    Spec/leancloud.md#sdk-reconnect: swift toggles servers and \
                    reconnects after every disconnect; per-code handling not stated
                    """,
                .inferred),
            Fact("reconnect flag", flag, source: "Spec/leancloud.md#session-commands: IMClient.swift:445-455"),
            goawayFact, chatRoomFact,
        ])

    /// The close codes on which js-realtime-sdk stops instead of reconnecting (`realtime.js:255-270`).
    public static let jsFatalCloseCodes: [Int64] = [4100, 4103, 4110]

    /// js-realtime-sdk.
    public static let js = ReconnectPolicy(
        name: "leancloud-js", dialect: .leancloud,
        sdk: "js-realtime-sdk src/websocket-plus.js, src/realtime.js, src/im-client.js",
        schedule: .exponential(baseMillis: 1000, factor: 2, capMillis: 300_000, jitterPPM: 0),
        heartbeat: HeartbeatPolicy(
            "echo command (cmd 14)", intervalMillis: 180_000, answerTimeoutMillis: 200_000, missesBeforeDead: 1),
        connectTimeoutMillis: nil, loginTimeoutMillis: 20_000,
        route: RoutePolicy(
            "RTM router /v1/route (cached for ttl·1000 ms)", resolveOnLogin: false, defaultTTLMillis: 3_600_000),
        reconnectFlag: ReconnectFlag(
            flag, source: "Spec/leancloud.md#session-commands: js im-client.js:872-910 sends r: true + st on re-open"),
        acceptCodes: [0],
        rules: [
            SignalRule(
                .close, jsFatalCloseCodes, .stop(.closeCode), source: "js src/realtime.js:255-270 (fatal close codes)"),
            SignalRule(.close, nil, .retry, source: "js src/realtime.js:255-270 (any other close reconnects)"),
            SignalRule(
                .kick, nil, .stop(.kicked),
                source: "js im-client.js:160-190: session/closed emits conflict (4111) or close"),
        ],
        registry: registry, goaway: .reconnectNow(clearRoute: true), networkChangeResetsBackoff: true,
        chatRoomRejoinWindowMillis: chatRoomWindow, backoffResetsOnLink: true, endpointsPerAttempt: 2,
        outputs: leanCloudJSEvents,
        facts: [
            Fact(
                "retry delays", "min(1000·2^attempt, 300000) ms; 0 when coming from offline",
                source: "Spec/leancloud.md#sdk-reconnect: websocket-plus.js:24, ondisconnected"),
            Fact(
                "servers per attempt",
                """
                2: the router's server, then at once its secondary when the first fails before the \
                WebSocket opens; the backoff waits only after both failed (imwire serve, which \
                names itself as both: refused connections 3 ms apart, pairs 1 s, 2 s, 4 s apart)
                """,
                source: """
                    im.js 5.0.0-rc.7 _getRTMServers: return [info.server, info.secondary]; \
                    WebSocketPlus _createWs: tryAll(urls.map(url => (resolve, reject) => { … \
                    ws.onclose = … reject(new Error('Failed to connect [' + url + ']')) }))
                    """),
            Fact(
                "backoff reset",
                """
                when the WebSocket opens, not when the session opens: a connection \
                dropped before session/opened is retried after 1 s again (recorded: \
                1.002-1.004 s, Fixtures/captures/vendor-sdk/leancloud/leancloud-drop)
                """,
                source: "im.js 5.0.0-rc.7 onretry: this._open().then(() => this.can('reconnect') && this.reconnect()); "
                    + "ondisconnected(…, attempt = 0)"),
            Fact(
                "heartbeat",
                "echo every 180 s; dead after 380 s without inbound data (modelled as 200 s for the echo's answer)",
                source: "Spec/leancloud.md#keep-alive: websocket-plus.js:21-22 HEARTBEAT_TIME, TIMEOUT_TIME",
                .inferred),
            Fact(
                "timeouts", "command 20 s",
                source: "Spec/leancloud.md#request-correlation: connection.js:20 COMMAND_TIMEOUT"),
            Fact(
                "router cache", "ttl from the answer, default 3600 s; [server, secondary] rotated",
                source: "Spec/leancloud.md#sdk-reconnect: realtime.js:294-331"),
            Fact(
                "close codes", "4100, 4103, 4110 fatal; any other close reconnects",
                source: "Spec/leancloud.md#sdk-reconnect: realtime.js:255-270"),
            Fact(
                "token expiry 4112", "refresh the signature, re-open (registry advice)",
                source: "registry im-error 4112", .inferred),
            Fact("reconnect flag", flag, source: "Spec/leancloud.md#session-commands: im-client.js:872-910"),
            goawayFact, chatRoomFact,
        ])

    /// java-unified-sdk (Android and Java).
    public static let java = ReconnectPolicy(
        name: "leancloud-java", dialect: .leancloud,
        sdk: "java-unified-sdk realtime session/LCConnectionManager.java, websocket/HeartBeatPolicy.java",
        schedule: .exponential(baseMillis: 2000, factor: 2, capMillis: 8000, jitterPPM: 0),
        budget: RetryBudget(attempts: 3, whenExhausted: .stop),
        heartbeat: HeartbeatPolicy(
            "WebSocket ping frame", intervalMillis: 180_000, answerTimeoutMillis: 180_000, missesBeforeDead: 1),
        connectTimeoutMillis: nil, loginTimeoutMillis: 10_000,
        route: RoutePolicy("RTM router /v1/route", resolveOnLogin: false),
        reconnectFlag: ReconnectFlag(
            flag,
            source: "the protocol's flag (Spec/leancloud.md#session-commands); no cited source shows Java's re-open",
            .inferred),
        acceptCodes: [0], rules: [kickStops, tokenExpired],
        registry: registry, goaway: .reconnectNow(clearRoute: true), chatRoomRejoinWindowMillis: chatRoomWindow,
        outputs: leanCloudClientStatus,
        facts: [
            Fact(
                "retry delays", "2, 4, 8 s (2^n s)",
                source: "Spec/leancloud.md#sdk-reconnect: LCConnectionManager.java:114-133"),
            Fact(
                "retry budget", "3 attempts, then give up",
                source: "Spec/leancloud.md#sdk-reconnect: LCConnectionManager.java:114-133"),
            Fact(
                "heartbeat", "ping every 180 s; dead after 2×180 s without pong",
                source: "Spec/leancloud.md#keep-alive: HeartBeatPolicy.java"),
            Fact("timeouts", "command 10 s", source: "Spec/leancloud.md#request-correlation: LCIMOptions.java:7"),
            Fact(
                "outputs", "modelled with AVIMClientStatus; Java's own callbacks are not in the reference",
                source: "Spec/leancloud.md#sdk-reconnect",
                .inferred),
            goawayFact, chatRoomFact,
        ])

    /// csharp-sdk (the new C# SDK).
    public static let csharp = ReconnectPolicy(
        name: "leancloud-csharp", dialect: .leancloud,
        sdk: "csharp-sdk Realtime Internal/Connection/LCConnection.cs, State/ReconnectState.cs",
        schedule: .fixed(millis: 10_000),
        budget: RetryBudget(attempts: 10, whenExhausted: .resetRouteAndRestart),
        heartbeat: HeartbeatPolicy(
            "echo command (cmd 14)", intervalMillis: 180_000, answerTimeoutMillis: 180_000, missesBeforeDead: 1),
        connectTimeoutMillis: nil, loginTimeoutMillis: nil,
        route: RoutePolicy("RTM router /v1/route", resolveOnLogin: false),
        reconnectFlag: ReconnectFlag(
            flag,
            source: "the protocol's flag (Spec/leancloud.md#session-commands); no cited source shows C#'s re-open",
            .inferred),
        acceptCodes: [0], rules: [kickStops, tokenExpired],
        registry: registry, goaway: .reconnectNow(clearRoute: true), chatRoomRejoinWindowMillis: chatRoomWindow,
        outputs: leanCloudClientStatus,
        facts: [
            Fact(
                "retry delays", "10 s every time",
                source: "Spec/leancloud.md#sdk-reconnect: State/ReconnectState.cs:8-10"),
            Fact(
                "retry budget", "10 attempts, then reset the router and loop",
                source: "Spec/leancloud.md#sdk-reconnect: State/ReconnectState.cs:8-10"
            ),
            Fact(
                "heartbeat", "echo every 180 s; disconnected after 360 s without pong",
                source: "Spec/leancloud.md#keep-alive: LCHeartBeat.cs:7-11, LCRTMHeartBeat.cs:9"),
            Fact(
                "outputs", "modelled with AVIMClientStatus; C#'s own events are not in the reference",
                source: "Spec/leancloud.md#sdk-reconnect",
                .inferred),
            goawayFact, chatRoomFact,
        ])

    public static let all = [swift, js, java, csharp]

    /// The policy a client names by the `ua` of its `session/open` (SessionCommand field 4),
    /// which the checker uses when `--policy` names none for LeanCloud:
    /// - `js/<version>`: js-realtime-sdk (im.js `_open`: `ua: "js/".concat(version)`; recorded
    ///   from leancloud-realtime 5.0.0-rc.7 as `js/5.0.0-rc.7`);
    /// - `LeanCloud-Swift-SDK/…`, `LeanCloud-Objc-SDK/…`: swift-sdk and objc-sdk (the HTTP
    ///   User-Agent, Spec/leancloud.md#session-commands; identical connection code);
    /// - `LeanCloud-CSharp-SDK/…`: csharp-sdk (`LCIMSessionController.Open`:
    ///   `session.Ua = $"{LCCore.SDKName}/{LCCore.SDKVersion}"`, `SDKName = "LeanCloud-CSharp-SDK"`;
    ///   its re-open sends no `ua`, so the first connection names the client's policy).
    /// Anything else (older objc `ios/v3…`, the Java SDK's, none) names no policy: the default judges.
    public static func policy(forUserAgent ua: String) -> ReconnectPolicy? {
        if ua.hasPrefix("js/") { return js }
        if ua.hasPrefix("LeanCloud-Swift-SDK/") || ua.hasPrefix("LeanCloud-Objc-SDK/") { return swift }
        if ua.hasPrefix("LeanCloud-CSharp-SDK/") { return csharp }
        return nil
    }
}

// What the SDKs show the app, milestone by milestone (the Spec's output tables come from here).
extension LeanCloudPolicies {

    private static let status = "AVIMClientStatus"
    private static let delegate = "LCIMClientDelegate"
    private static let objcStatus = "objc LCIMCommon.h:48-57 (AVIMClientStatus); LCIMClientProtocol.h:27-54 (delegate)"
    private static let swiftClient =
        "swift IMClient.swift:2424-2505 (resuming, paused, closed; sessionDidResume/Pause/Close)"

    /// objc `AVIMClientStatus` 0–6 and the client delegate (Swift: `IMClient.SessionState` and
    /// `IMClientEvent` with the same transitions).
    public static let leanCloudClientStatus = OutputModel(
        "AVIMClientStatus and the client delegate", vendor: .leancloud, tables: LeanCloudStatusCodes.tables,
        rules: [
            OutputRule(
                .initial, [.status(status, 0)],
                source: objcStatus
                    + ": None is the status's zero value, held from the client's creation until its first open",
                .inferred),
            OutputRule(.connecting, [.status(status, 1)], source: objcStatus),
            OutputRule(
                .reconnecting, when: .reconnect, [.status(status, 4), .event(delegate, "imClientResuming")],
                source: swiftClient + "; connection inConnecting → resuming"),
            OutputRule(.opened, [.status(status, 2)], source: objcStatus),
            OutputRule(.resumed, [.status(status, 2), .event(delegate, "imClientResumed")], source: objcStatus),
            OutputRule(
                .connectionLost, [.status(status, 3, carry: .code), .event(delegate, "imClientPaused", carry: .code)],
                source: swiftClient + "; connection didDisconnect → paused"),
            OutputRule(
                .linkFailed, when: .reconnect,
                [.status(status, 3, carry: .code), .event(delegate, "imClientPaused", carry: .code)],
                source: swiftClient + "; a failed attempt disconnects → paused"),
            OutputRule(
                .loginFailed, when: .reconnect,
                [.status(status, 3, carry: .code), .event(delegate, "imClientPaused", carry: .code)],
                source: swiftClient),
            OutputRule(
                .backgrounded, [.status(status, 3), .event(delegate, "imClientPaused")],
                source: "swift RTMConnection.swift applicationStateChanged (error \"application did enter background\")"
            ),
            OutputRule(
                .stopped, [.status(status, 6, carry: .code), .event(delegate, "imClientClosed", carry: .code)],
                source: objcStatus + "; closed ⇒ no automatic recovery (4111, 4115)"),
            OutputRule(
                .loggedOut, [.status(status, 5), .status(status, 6)], source: objcStatus + " (Closing, then Closed)"),
            OutputRule(
                .chatRoomRejoined, [.event("IMWire", "transientConversationRejoined")],
                source: "IMWire model (issue #7): no SDK callback is documented", .unconfirmed),
            OutputRule(
                .chatRoomRejoinExpired, [.event("IMWire", "transientConversationRejoinExpired")],
                source: "IMWire model (issue #7): no SDK callback is documented", .unconfirmed),
        ])

    private static let jsEvents = "Realtime/IMClient events"
    private static let jsSource = "js src/events/core.js, src/events/im.js; websocket-plus.js"

    /// js-realtime-sdk's events (Spec/leancloud.md#sdk-reconnect).
    public static let leanCloudJSEvents = OutputModel(
        "js-realtime-sdk events", vendor: .leancloud, tables: LeanCloudStatusCodes.tables,
        rules: [
            OutputRule(.connectionLost, [.event(jsEvents, "disconnect", carry: .code)], source: jsSource),
            OutputRule(
                .retryScheduled, [.event(jsEvents, "schedule", carry: .attemptAndDelay)],
                source: jsSource + " schedule(attempt, delay)"),
            OutputRule(
                .reconnecting, [.event(jsEvents, "retry", carry: .attempt)], source: jsSource + " retry(attempt)"),
            OutputRule(.resumed, [.event(jsEvents, "reconnect")], source: jsSource),
            OutputRule(
                .loginFailed, when: .reconnect, [.event(jsEvents, "reconnecterror", carry: .code)],
                source: jsSource + " (IM)"),
            OutputRule(.networkDown, [.event(jsEvents, "offline")], source: jsSource),
            OutputRule(.networkUp, [.event(jsEvents, "online")], source: jsSource),
            OutputRule(
                .kicked, when: .codeIn([4111]), [.event(jsEvents, "conflict", carry: .code)],
                source: "js im-client.js:160-190 (conflict for 4111)"),
            OutputRule(
                .kicked, when: .codeNotIn([4111]), [.event(jsEvents, "close", carry: .code)],
                source: "js im-client.js:160-190 (close for other codes)"),
            OutputRule(
                .stopped, when: .causeNotIn([.kicked]), [.event(jsEvents, "error", carry: .code)],
                source: "js src/realtime.js:255-270 (fatal close codes throw)"),
            OutputRule(
                .chatRoomRejoined, [.event("IMWire", "transientConversationRejoined")],
                source: "IMWire model (issue #7): no SDK callback is documented", .unconfirmed),
            OutputRule(
                .chatRoomRejoinExpired, [.event("IMWire", "transientConversationRejoinExpired")],
                source: "IMWire model (issue #7): no SDK callback is documented", .unconfirmed),
        ])
}
