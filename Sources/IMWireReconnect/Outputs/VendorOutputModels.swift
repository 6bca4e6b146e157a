import IMWireCore

/// What each SDK shows the app, milestone by milestone (the Spec's output tables come from here).
public enum VendorOutputModels {
    // MARK: LeanCloud

    private static let status = "AVIMClientStatus"
    private static let delegate = "LCIMClientDelegate"
    private static let objcStatus = "objc LCIMCommon.h:48-57 (AVIMClientStatus); LCIMClientProtocol.h:27-54 (delegate)"
    private static let swiftClient = "swift IMClient.swift:2424-2505 (resuming, paused, closed; sessionDidResume/Pause/Close)"

    /// objc `AVIMClientStatus` 0–6 and the client delegate (Swift: `IMClient.SessionState` and
    /// `IMClientEvent` with the same transitions).
    public static let leanCloudClientStatus = OutputModel("AVIMClientStatus and the client delegate", vendor: .leancloud, rules: [
        OutputRule(.initial, [.status(status, 0)],
                   source: objcStatus + ": None is the status's zero value, held from the client's creation until its first open",
                   .inferred),
        OutputRule(.connecting, [.status(status, 1)], source: objcStatus),
        OutputRule(.reconnecting, when: .reconnect, [.status(status, 4), .event(delegate, "imClientResuming")],
                   source: swiftClient + "; connection inConnecting → resuming"),
        OutputRule(.opened, [.status(status, 2)], source: objcStatus),
        OutputRule(.resumed, [.status(status, 2), .event(delegate, "imClientResumed")], source: objcStatus),
        OutputRule(.connectionLost, [.status(status, 3, carry: .code), .event(delegate, "imClientPaused", carry: .code)],
                   source: swiftClient + "; connection didDisconnect → paused"),
        OutputRule(.linkFailed, when: .reconnect, [.status(status, 3, carry: .code), .event(delegate, "imClientPaused", carry: .code)],
                   source: swiftClient + "; a failed attempt disconnects → paused"),
        OutputRule(.loginFailed, when: .reconnect, [.status(status, 3, carry: .code), .event(delegate, "imClientPaused", carry: .code)],
                   source: swiftClient),
        OutputRule(.backgrounded, [.status(status, 3), .event(delegate, "imClientPaused")],
                   source: "swift RTMConnection.swift applicationStateChanged (error \"application did enter background\")"),
        OutputRule(.stopped, [.status(status, 6, carry: .code), .event(delegate, "imClientClosed", carry: .code)],
                   source: objcStatus + "; closed ⇒ no automatic recovery (4111, 4115)"),
        OutputRule(.loggedOut, [.status(status, 5), .status(status, 6)], source: objcStatus + " (Closing, then Closed)"),
        OutputRule(.chatRoomRejoined, [.event("IMWire", "transientConversationRejoined")],
                   source: "IMWire model (issue #7): no SDK callback is documented", .unconfirmed),
        OutputRule(.chatRoomRejoinExpired, [.event("IMWire", "transientConversationRejoinExpired")],
                   source: "IMWire model (issue #7): no SDK callback is documented", .unconfirmed),
    ])

    private static let jsEvents = "Realtime/IMClient events"
    private static let jsSource = "js src/events/core.js, src/events/im.js; websocket-plus.js"

    /// js-realtime-sdk's events (leancloud.md §8).
    public static let leanCloudJSEvents = OutputModel("js-realtime-sdk events", vendor: .leancloud, rules: [
        OutputRule(.connectionLost, [.event(jsEvents, "disconnect", carry: .code)], source: jsSource),
        OutputRule(.retryScheduled, [.event(jsEvents, "schedule", carry: .attemptAndDelay)], source: jsSource + " schedule(attempt, delay)"),
        OutputRule(.reconnecting, [.event(jsEvents, "retry", carry: .attempt)], source: jsSource + " retry(attempt)"),
        OutputRule(.resumed, [.event(jsEvents, "reconnect")], source: jsSource),
        OutputRule(.loginFailed, when: .reconnect, [.event(jsEvents, "reconnecterror", carry: .code)], source: jsSource + " (IM)"),
        OutputRule(.networkDown, [.event(jsEvents, "offline")], source: jsSource),
        OutputRule(.networkUp, [.event(jsEvents, "online")], source: jsSource),
        OutputRule(.kicked, when: .codeIn([4111]), [.event(jsEvents, "conflict", carry: .code)],
                   source: "js im-client.js:160-190 (conflict for 4111)"),
        OutputRule(.kicked, when: .codeNotIn([4111]), [.event(jsEvents, "close", carry: .code)],
                   source: "js im-client.js:160-190 (close for other codes)"),
        OutputRule(.stopped, when: .causeNotIn([.kicked]), [.event(jsEvents, "error", carry: .code)],
                   source: "js src/realtime.js:255-270 (fatal close codes throw)"),
        OutputRule(.chatRoomRejoined, [.event("IMWire", "transientConversationRejoined")],
                   source: "IMWire model (issue #7): no SDK callback is documented", .unconfirmed),
        OutputRule(.chatRoomRejoinExpired, [.event("IMWire", "transientConversationRejoinExpired")],
                   source: "IMWire model (issue #7): no SDK callback is documented", .unconfirmed),
    ])

    // MARK: NIM

    private static let step = "NIMLoginStep"
    private static let nimWeb = "NIM.getInstance"
    private static let nimStep = "iOS NIMLoginManagerProtocol.h NIMLoginStep (nim.md §2.1)"
    private static let nimCallbacks = "Web SDK options onconnect/onwillreconnect/ondisconnect/onsyncdone (NIM_Web_NIM_v8.5.0.js; INFERRED order)"

    /// NIM: the login steps in order, and the Web SDK's callbacks.
    public static let nimLoginSteps = OutputModel("NIMLoginStep and the Web SDK callbacks", vendor: .nim, rules: [
        OutputRule(.connecting, [.status(step, 1)], source: nimStep),
        OutputRule(.reconnecting, [.status(step, 1)], source: nimStep),
        OutputRule(.linkOK, [.status(step, 2)], source: nimStep),
        OutputRule(.linkFailed, [.status(step, 3, carry: .code)], source: nimStep),
        OutputRule(.loggingIn, [.status(step, 4)], source: nimStep),
        OutputRule(.opened, [.status(step, 5), .status(step, 7), .event(nimWeb, "onconnect")], source: nimStep + "; " + nimCallbacks),
        OutputRule(.resumed, [.status(step, 5), .status(step, 7), .event(nimWeb, "onconnect")], source: nimStep + "; " + nimCallbacks),
        OutputRule(.loginFailed, [.status(step, 6, carry: .code)], source: nimStep),
        OutputRule(.synced, [.status(step, 8), .event(nimWeb, "onsyncdone")], source: nimStep + "; 5_1 syncDone (nim.md §3.4)"),
        OutputRule(.connectionLost, [.status(step, 9, carry: .code)], source: nimStep),
        OutputRule(.networkDown, [.status(step, 10)], source: nimStep),
        OutputRule(.networkUp, [.status(step, 10)], source: nimStep),
        OutputRule(.retryScheduled, [.event(nimWeb, "onwillreconnect", carry: .attemptAndDelay)],
                   source: "Web SDK onwillreconnect({retryCount, duration})"),
        OutputRule(.kicked, [.event(nimWeb, "ondisconnect:kicked", carry: .code)],
                   source: "2_5 kicked r=[from, reason, …]; Web kickedReasons (nim.md §2 notes)"),
        OutputRule(.stopped, when: .causeNotIn([.kicked]), [.event(nimWeb, "ondisconnect", carry: .code)], source: nimCallbacks),
    ])

    // MARK: JMessage

    private static let jmWeb = "JMessage Web"
    private static let jmIOS = "JMSGEventDelegate"
    private static let jmSource = "jchat-web@32670a7 src/assets/static/js/jmessage-sdk-web.js (2.4.0)"

    /// JMessage: the login's callbacks, `onDisconnect`, and the login-status-change events.
    public static let jmessageEvents = OutputModel("JMessage login callbacks and login status events", vendor: .jmessage, rules: [
        OutputRule(.opened, [.event(jmWeb, "login.onSuccess")], source: jmSource + " MsgBuilder onSuccess"),
        OutputRule(.loginFailed, [.event(jmWeb, "login.onFail", carry: .code)], source: jmSource + " MsgBuilder onFail"),
        OutputRule(.stopped, when: .causeIn([.loginUnanswered]), [.event(jmWeb, "login.onTimeout")],
                   source: jmSource + " MsgBuilder onTimeout (after RETRY_TIMES)"),
        OutputRule(.connectionLost, [.event(jmWeb, "onDisconnect")], source: jmSource + " JMessage.prototype._onDisconnect"),
        OutputRule(.kicked, [.event(jmIOS, "onReceiveUserLoginStatusChangeEvent", carry: .code)],
                   source: "iOS JMSGConstants.h JMSGLoginStatusChangeEventType (jmessage.md §2.1)"),
    ])

    // MARK: yun2win

    private static let connection = "ConnectionStatus"
    private static let y2wWeb = "yun2win web bundle y2wIMSDK.min.js (yun2win.md §3)"
    private static let y2wAndroid = "Android YunConnection (yun2win-0.1.jar, yun2win.md §3)"
    private static let y2wIOS = "iOS Y2WIMClientSession (binary, yun2win.md §3)"

    /// yun2win Web: `connecting`, `reconnecting(times)`, `connected` on PUBLISH 11, `networkDisconnected`, `disconnected(code)`.
    public static let yun2winWeb = OutputModel("yun2win ConnectionStatus (Web)", vendor: .yun2win, rules: [
        OutputRule(.connecting, [.status(connection, 0, carry: .codeOrZero)], source: y2wWeb),
        OutputRule(.reconnecting, [.status(connection, 2, carry: .attempt)], source: y2wWeb + " reconnecting(reconnectingTimes)"),
        OutputRule(.opened, [.status(connection, 1, carry: .codeOrZero)], source: y2wWeb + " (PUBLISH returnCode 11)"),
        OutputRule(.resumed, [.status(connection, 1, carry: .codeOrZero)], source: y2wWeb + " (PUBLISH returnCode 11)"),
        OutputRule(.networkDown, [.status(connection, 3, carry: .codeOrZero)], source: y2wWeb + " (browser offline)"),
        OutputRule(.stopped, [.status(connection, 100, carry: .codeOrZero)], source: y2wWeb + " disconnected(100, code)"),
        OutputRule(.credentialsRequested, [.status(connection, 100, carry: .codeOrZero)],
                   source: y2wWeb + " 5/6 → disconnected(100, code); the app gets a new token and reconnects"),
        OutputRule(.loggedOut, [.status(connection, 100, carry: .codeOrZero)], source: y2wWeb, .inferred),
    ])

    /// yun2win Android: `onChanged(status, code)`.
    public static let yun2winAndroid = OutputModel("yun2win ConnectionStatus (Android onChanged)", vendor: .yun2win, rules: [
        OutputRule(.connecting, [.status(connection, 0, carry: .codeOrZero)], source: y2wAndroid + " onChanged(0,0)"),
        OutputRule(.reconnecting, [.status(connection, 0, carry: .codeOrZero)], source: y2wAndroid + " onChanged(0,0) before each connect"),
        OutputRule(.opened, [.status(connection, 1, carry: .codeOrZero)], source: y2wAndroid + " onChanged(1,0) on returnCode 11"),
        OutputRule(.resumed, [.status(connection, 1, carry: .codeOrZero)], source: y2wAndroid + " onChanged(1,0) on returnCode 11"),
        OutputRule(.connectionLost, [.status(connection, 100, code: 0)], source: y2wAndroid + " onDisconnected → onChanged(100,0)"),
        OutputRule(.networkDown, [.status(connection, 3, carry: .codeOrZero)], source: y2wAndroid + " connectivity lost → onChanged(3,0)"),
        OutputRule(.stopped, when: .causeIn([.routeRejected]), [.status(connection, 100, code: 101)],
                   source: y2wAndroid + " gate failure → onChanged(100,101)"),
        OutputRule(.stopped, when: .causeNotIn([.routeRejected]), [.status(connection, 100, carry: .codeOrZero)],
                   source: y2wAndroid + " onChanged(100, code)"),
        OutputRule(.credentialsRequested, [.status(connection, 100, carry: .codeOrZero)],
                   source: y2wAndroid + " 5/6 → onChanged(100, code); the app gets a new token and reconnects"),
        OutputRule(.loggedOut, [.status(connection, 100, carry: .codeOrZero)], source: y2wAndroid, .inferred),
    ])

    /// yun2win iOS: `im_client:didChangeStatus:returnCode:`.
    public static let yun2winIOS = OutputModel("yun2win ConnectionStatus (iOS didChangeStatus)", vendor: .yun2win, rules: [
        OutputRule(.connecting, [.status(connection, 0, carry: .codeOrZero)], source: y2wIOS, .inferred),
        OutputRule(.reconnecting, [.status(connection, 2, carry: .attempt)], source: y2wIOS + " reconnect increments reconnectingTimes", .inferred),
        OutputRule(.opened, [.status(connection, 1, carry: .codeOrZero)], source: y2wIOS + " connected: reports the status"),
        OutputRule(.resumed, [.status(connection, 1, carry: .codeOrZero)], source: y2wIOS + " connected: reports the status"),
        OutputRule(.networkDown, [.status(connection, 3, carry: .codeOrZero)], source: y2wIOS, .inferred),
        OutputRule(.stopped, [.status(connection, 100, carry: .codeOrZero)], source: y2wIOS + " didChangeStatus:100 returnCode:10"),
        OutputRule(.credentialsRequested, [.status(connection, 100, carry: .codeOrZero)], source: y2wIOS, .inferred),
        OutputRule(.loggedOut, [.status(connection, 100, carry: .codeOrZero)], source: y2wIOS, .inferred),
    ])
}
