/// What the machine asks the embedding to do, in order.
public enum ReconnectAction: Sendable, Hashable, CustomStringConvertible {
    /// Look the route up; `clearCache` asks to bypass and forget the cached one.
    case resolveRoute(clearCache: Bool)
    case openTransport
    case closeTransport
    /// Send the login or handshake; `flag` names the reconnect flag to set (LeanCloud
    /// `r=true`, yun2win client id prefix `1`), nil for a fresh login.
    case sendLogin(flag: String?)
    /// Arm a timer of this kind to fire `delayMillis` milliseconds from now.
    case scheduleTimer(TimerKind, delayMillis: Int64)
    case cancelTimer(TimerKind)
    case sendHeartbeat
    /// Ask the app for new credentials (token, signature); answer with `credentialsRefreshed`.
    case refreshCredentials
    /// Re-join the transient conversation / chat room the user was in.
    case rejoinChatRoom
    /// Show the app a status or callback.
    case emit(VendorOutput)
    /// Automatic reconnecting ends here; only the user's login starts again.
    case stop(StopCause, code: Int64?)

    public var description: String {
        switch self {
        case .resolveRoute(let clear): clear ? "resolve-route(clear-cache)" : "resolve-route"
        case .openTransport: "open-transport"
        case .closeTransport: "close-transport"
        case .sendLogin(let flag): flag.map { "send-login(\($0))" } ?? "send-login"
        case .scheduleTimer(let kind, let delay): "schedule(\(kind.rawValue), \(delay)ms)"
        case .cancelTimer(let kind): "cancel(\(kind.rawValue))"
        case .sendHeartbeat: "send-heartbeat"
        case .refreshCredentials: "refresh-credentials"
        case .rejoinChatRoom: "rejoin-chat-room"
        case .emit(let output): "emit \(output)"
        case .stop(let cause, let code): "stop(\(cause.rawValue)" + (code.map { " code=\($0)" } ?? "") + ")"
        }
    }
}

extension ReconnectAction {
    /// Every action with its trace-JSON fields (the Spec's action table).
    package static let catalogue: [(name: String, fields: String, meaning: String)] = [
        ("resolve-route", "clear_cache", "Look the route up; clear_cache: bypass and forget the cached one."),
        ("open-transport", "", "Open the transport."),
        ("close-transport", "", "Close the transport."),
        ("send-login", "reconnect_flag", "Send the login; reconnect_flag names the flag to set (null: a fresh login)."),
        ("schedule-timer", "timer, delay_ms", "Arm a timer (one of each kind at most)."),
        ("cancel-timer", "timer", "Disarm a timer."),
        ("send-heartbeat", "", "Send a heartbeat."),
        (
            "refresh-credentials", "",
            "Ask the app for new credentials; it answers credentials-refreshed or credentials-refresh-failed."
        ),
        ("rejoin-chat-room", "", "Re-join the transient conversation / chat room."),
        ("stop", "cause, code", "Automatic reconnecting ends; only the user's login starts again."),
    ]
}

/// One step of the machine: the state it moved to, what to do, and what happened.
public struct Transition: Sendable, Hashable {
    public let state: ReconnectState
    public let actions: [ReconnectAction]
    public let milestones: [Milestone]
}
