/// What the embedding tells the machine: the user, the network, the transport, the server,
/// the app's lifecycle and the timers the machine asked for.
public enum ReconnectEvent: Sendable, Hashable {
    /// The user logs in (or the app calls login/open).
    case userLogin
    /// The user logs out.
    case userLogout
    case networkUp
    case networkDown
    /// The route lookup answered; `ttlMillis` when the answer carries one.
    case routeResolved(ttlMillis: Int64?)
    /// The route lookup failed; `status` is the HTTP status when there was one.
    case routeFailed(status: Int64?)
    case transportOpened
    /// The transport closed, with its close code when there was one.
    case transportClosed(code: Int64?)
    /// The transport could not be opened, or broke without a close code.
    case transportFailed
    /// The login or handshake was answered with the vendor's status code; `waitMillis` is a wait
    /// the server asked for (NIM 416).
    case loginResponse(code: Int64, waitMillis: Int64?)
    /// The server acknowledged the login request before answering it (JMessage `ack {rid}`).
    case loginAcknowledged
    /// The server pushed a kick or conflict with the vendor's code or reason.
    case kicked(code: Int64)
    /// The server asked the client to move (LeanCloud `goaway`).
    case goaway
    /// The data sync after the login finished (NIM `syncDone`).
    case syncCompleted
    /// The embedding sent a heartbeat itself.
    case heartbeatSent
    case heartbeatAnswered
    /// A heartbeat went unanswered (the embedding's own timer).
    case heartbeatMissed
    /// A request timed out (while logging in: the login).
    case commandTimeout
    case appBackground
    case appForeground
    /// The machine woke from sleep: the clock jumped (yun2win Web checks every 2 min).
    case systemWake
    case timerFired(TimerKind)
    case credentialsRefreshed
    case credentialsRefreshFailed
    /// The user joined a transient conversation / chat room.
    case chatRoomJoined
    case chatRoomLeft

    /// The name used in event files and traces.
    public var name: String {
        switch self {
        case .userLogin: "user-login"
        case .userLogout: "user-logout"
        case .networkUp: "network-up"
        case .networkDown: "network-down"
        case .routeResolved: "route-resolved"
        case .routeFailed: "route-failed"
        case .transportOpened: "transport-opened"
        case .transportClosed: "transport-closed"
        case .transportFailed: "transport-failed"
        case .loginResponse: "login-response"
        case .loginAcknowledged: "login-acknowledged"
        case .kicked: "kicked"
        case .goaway: "goaway"
        case .syncCompleted: "sync-completed"
        case .heartbeatSent: "heartbeat-sent"
        case .heartbeatAnswered: "heartbeat-answered"
        case .heartbeatMissed: "heartbeat-missed"
        case .commandTimeout: "command-timeout"
        case .appBackground: "app-background"
        case .appForeground: "app-foreground"
        case .systemWake: "system-wake"
        case .timerFired: "timer-fired"
        case .credentialsRefreshed: "credentials-refreshed"
        case .credentialsRefreshFailed: "credentials-refresh-failed"
        case .chatRoomJoined: "chat-room-joined"
        case .chatRoomLeft: "chat-room-left"
        }
    }

    /// Every event with its event-file fields and meaning (the Spec's event table).
    package static let catalogue: [(name: String, fields: String, meaning: String)] = [
        ("user-login", "", "The user logs in (the app calls login/open); starts a first attempt."),
        ("user-logout", "", "The user logs out; everything stops, the transport closes."),
        ("network-up", "", "The network came back."),
        ("network-down", "", "The network went away."),
        ("route-resolved", "ttl_ms?", "The route lookup answered; ttl_ms when the answer has a ttl."),
        ("route-failed", "status?", "The route lookup failed; status = HTTP status."),
        ("transport-opened", "", "The transport (WebSocket, TCP) is open."),
        ("transport-closed", "code?", "The transport closed; code = close code."),
        ("transport-failed", "", "The transport could not open, or broke without a close code."),
        (
            "login-response", "code, wait_ms?",
            "The login/handshake answer with the vendor's code; wait_ms = a wait the server asked for (NIM 416)."
        ),
        (
            "login-acknowledged", "",
            "The server acknowledged the login request (JMessage `ack {rid}`); the wait for its response begins."
        ),
        ("kicked", "code", "A kick or conflict push with the vendor's code or reason."),
        ("goaway", "", "The server asks the client to move (LeanCloud)."),
        ("sync-completed", "", "The sync after the login finished (NIM)."),
        ("heartbeat-sent", "", "The embedding sent a heartbeat itself."),
        ("heartbeat-answered", "", "The heartbeat's answer arrived."),
        ("heartbeat-missed", "", "A heartbeat went unanswered (the embedding's own timer)."),
        ("command-timeout", "", "A request timed out; while logging in, the login."),
        ("app-background", "", "The app went to the background."),
        ("app-foreground", "", "The app came to the foreground."),
        ("system-wake", "", "The machine woke from sleep (the clock jumped)."),
        ("timer-fired", "timer", "A timer the machine asked for fired (the simulator fires them itself)."),
        ("credentials-refreshed", "", "The app provided new credentials."),
        ("credentials-refresh-failed", "", "The app could not provide new credentials."),
        ("chat-room-joined", "", "The user joined a transient conversation / chat room."),
        ("chat-room-left", "", "The user left it."),
    ]

    /// Every event name, for the event file's validation.
    package static var names: [String] { catalogue.map(\.name) }

    /// `login-response(code=302)`, `timer-fired(retry)`.
    package var summary: String {
        switch self {
        case .routeResolved(let ttl): ttl.map { "\(name)(ttl=\($0)ms)" } ?? name
        case .routeFailed(let status): status.map { "\(name)(status=\($0))" } ?? name
        case .transportClosed(let code): code.map { "\(name)(code=\($0))" } ?? name
        case .loginResponse(let code, let wait): "\(name)(code=\(code)" + (wait.map { " wait=\($0)ms" } ?? "") + ")"
        case .kicked(let code): "\(name)(code=\(code))"
        case .timerFired(let kind): "\(name)(\(kind.rawValue))"
        default: name
        }
    }
}
