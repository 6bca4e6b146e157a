/// What happened to the connection, in vendor-neutral terms. The machine reports milestones;
/// each policy's `OutputModel` turns them into what its SDK shows (a status value, a callback).
public enum Milestone: Sendable, Hashable {
    /// The client exists and nothing has happened yet: the status it shows before the first
    /// open. No step reports it; `ReconnectMachine.initialOutputs` renders it.
    case created
    /// An attempt starts: the user's login (`reconnect` false) or an automatic reconnect.
    case connecting(reconnect: Bool, attempt: Int)
    /// The transport is open.
    case linkOK
    /// The transport could not be opened or closed before the login was answered.
    case linkFailed(code: Int64?)
    /// The login or handshake was sent.
    case loggingIn(reconnect: Bool)
    /// The login was accepted: the session is open (or open again).
    case loggedIn(reconnect: Bool)
    /// The login was answered with a failure.
    case loginFailed(code: Int64)
    /// The data sync after the login finished (NIM `syncDone`).
    case synced
    /// An established session lost its connection.
    case connectionLost(code: Int64?)
    /// The next attempt is scheduled, `delayMillis` milliseconds from now (0: at once).
    case retryScheduled(attempt: Int, delayMillis: Int64)
    /// The network went down or came back.
    case networkChanged(up: Bool)
    /// The server pushed a kick or conflict (whatever the policy does about it).
    case kicked(code: Int64)
    /// Automatic reconnecting ended; the user has to log in again.
    case stopped(cause: StopCause, code: Int64?)
    /// The user logged out.
    case loggedOut
    /// The app went to the background and the SDK closed the connection.
    case backgrounded
    /// The SDK asks the app for new credentials, after this code (LeanCloud 4112, yun2win 5/6).
    case credentialsRequested(code: Int64?)
    /// The transient conversation / chat room was re-joined after the reconnect.
    case chatRoomRejoined
    /// The re-join window passed: the app has to join the chat room again itself.
    case chatRoomRejoinExpired

    public var kind: Kind {
        switch self {
        case .created: .initial
        case .connecting(let reconnect, _): reconnect ? .reconnecting : .connecting
        case .linkOK: .linkOK
        case .linkFailed: .linkFailed
        case .loggingIn: .loggingIn
        case .loggedIn(let reconnect): reconnect ? .resumed : .opened
        case .loginFailed: .loginFailed
        case .synced: .synced
        case .connectionLost: .connectionLost
        case .retryScheduled: .retryScheduled
        case .networkChanged(let up): up ? .networkUp : .networkDown
        case .kicked: .kicked
        case .stopped: .stopped
        case .loggedOut: .loggedOut
        case .backgrounded: .backgrounded
        case .credentialsRequested: .credentialsRequested
        case .chatRoomRejoined: .chatRoomRejoined
        case .chatRoomRejoinExpired: .chatRoomRejoinExpired
        }
    }

    /// The vendor status code the milestone carries, if any.
    public var code: Int64? {
        switch self {
        case .linkFailed(let code), .connectionLost(let code): code
        case .loginFailed(let code), .kicked(let code): code
        case .stopped(_, let code), .credentialsRequested(let code): code
        default: nil
        }
    }

    /// Milestone kinds, the keys of an output model.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case initial
        case connecting, reconnecting
        case linkOK = "link-ok"
        case linkFailed = "link-failed"
        case loggingIn = "logging-in"
        case opened, resumed
        case loginFailed = "login-failed"
        case synced
        case connectionLost = "connection-lost"
        case retryScheduled = "retry-scheduled"
        case networkDown = "network-down"
        case networkUp = "network-up"
        case kicked, stopped
        case loggedOut = "logged-out"
        case backgrounded
        case credentialsRequested = "credentials-requested"
        case chatRoomRejoined = "chat-room-rejoined"
        case chatRoomRejoinExpired = "chat-room-rejoin-expired"
    }
}
