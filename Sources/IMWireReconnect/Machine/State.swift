/// Where the connection is.
public enum Phase: String, Sendable, Hashable, CaseIterable {
    /// Not logged in: before the user's login or after the user's logout.
    case idle
    /// Looking the route up (router, LBS, gate).
    case resolving
    /// Opening the transport.
    case connecting
    /// The transport is open; the login is sent and not yet accepted.
    case authenticating
    /// Logged in.
    case online
    /// Waiting for the retry timer.
    case waiting
    /// The network is down; waiting for it to come back.
    case offline
    /// The app is in the background and the SDK closed the connection; waiting for the foreground.
    case suspended
    /// Waiting for the app to provide new credentials.
    case refreshing
    /// Automatic reconnecting ended; only the user's login starts again.
    case stopped

    /// One line for the Spec.
    package var summary: String {
        switch self {
        case .idle: "Not logged in: before the user's login or after the logout."
        case .resolving: "Looking the route up (router, LBS, gate)."
        case .connecting: "Opening the transport."
        case .authenticating: "Transport open; the login is sent and not yet accepted."
        case .online: "Logged in; heartbeats run."
        case .waiting: "The retry timer runs."
        case .offline: "The network is down; the next attempt waits for it."
        case .suspended: "In the background with the connection closed (policies that close it)."
        case .refreshing: "Waiting for the app's new credentials."
        case .stopped: "Automatic reconnecting ended (terminal code, budget); only the user's login starts again."
        }
    }
}

/// The machine's timers. The machine never reads a clock: it asks for a timer with a delay and
/// reacts when the embedding reports `timerFired`.
public enum TimerKind: String, Sendable, Hashable, CaseIterable {
    /// The next reconnect attempt.
    case retry
    /// Opening the transport takes too long.
    case connect
    /// The login is not answered in time (the command timeout; with an ack step, the ack wait
    /// and then the response wait).
    case login
    /// Time for the next heartbeat.
    case heartbeat
    /// The heartbeat's answer is late.
    case heartbeatTimeout = "heartbeat-timeout"
    /// The cached route expires.
    case routeTTL = "route-ttl"
    /// The chat-room re-join window closes.
    case chatRoomWindow = "chat-room-window"

    var bit: UInt8 { UInt8(1) << UInt8(Self.allCases.firstIndex(of: self) ?? 0) }

    /// One line for the Spec.
    package var summary: String {
        switch self {
        case .retry: "The next reconnect attempt (the schedule's delay)."
        case .connect: "Opening the transport takes too long (the policy's connect timeout)."
        case .login:
            """
            The login is not answered in time: the command timeout; where the \
            server acknowledges first, the ack wait, then the response wait.
            """
        case .heartbeat: "Time for the next heartbeat."
        case .heartbeatTimeout: "The heartbeat's answer is late."
        case .routeTTL: "The cached route expires."
        case .chatRoomWindow: "The chat-room re-join window closes."
        }
    }
}

/// A set of timers, kept as bits so states hash cheaply.
public struct TimerSet: Sendable, Hashable, Sequence {
    package private(set) var bits: UInt8 = 0

    package init(_ kinds: [TimerKind] = []) { for kind in kinds { insert(kind) } }

    public func contains(_ kind: TimerKind) -> Bool { bits & kind.bit != 0 }
    package mutating func insert(_ kind: TimerKind) { bits |= kind.bit }
    package mutating func remove(_ kind: TimerKind) { bits &= ~kind.bit }
    public var isEmpty: Bool { bits == 0 }

    public func makeIterator() -> IndexingIterator<[TimerKind]> {
        TimerKind.allCases.filter(contains).makeIterator()
    }
}

/// A transient conversation (LeanCloud) or chat room the user joined.
public enum ChatRoom: String, Sendable, Hashable {
    case none
    case joined
    /// Dropped with the connection; re-joined on reconnect while the window is open.
    case awaitingRejoin = "awaiting-rejoin"
}

/// Why the machine stopped, kept until the user logs in again.
public struct StopRecord: Sendable, Hashable {
    public let cause: StopCause
    public let code: Int64?
}

/// Everything the machine remembers. No clock values: timers carry time.
public struct ReconnectState: Sendable, Hashable {
    public internal(set) var phase: Phase = .idle
    /// The index of the next retry in the schedule: retries scheduled since the last session,
    /// user login or reset. Exploration treats every count from the policy's attempt ceiling
    /// on as one, since the schedule and the budget no longer tell them apart.
    public internal(set) var attempt = 0
    /// Consecutive failed connects, for clearing the route cache.
    public internal(set) var failures = 0
    /// A session existed since the user's login: re-logins are reconnects and carry the flag.
    public internal(set) var hadSession = false
    public internal(set) var routeCached = false
    /// The next route lookup must bypass the cache.
    public internal(set) var clearRouteNext = false
    public internal(set) var networkUp = true
    public internal(set) var foreground = true
    public internal(set) var timers = TimerSet()
    public internal(set) var heartbeatMisses = 0
    public internal(set) var loginResends = 0
    /// The server acknowledged the pending login; its response is awaited (JMessage `ack`).
    public internal(set) var loginAcknowledged = false
    public internal(set) var awaitingSync = false
    public internal(set) var chatRoom = ChatRoom.none
    public internal(set) var stop: StopRecord?

    public init() {}

    /// A transport exists (opening, logging in, or logged in).
    public var hasTransport: Bool { phase == .connecting || phase == .authenticating || phase == .online }

    /// `online attempt=0 timers=heartbeat`, for traces.
    package var summary: String {
        var parts = [phase.rawValue]
        if attempt > 0 { parts.append("attempt=\(attempt)") }
        if !timers.isEmpty { parts.append("timers=" + timers.map(\.rawValue).joined(separator: ",")) }
        if let stop { parts.append("stop=\(stop.cause.rawValue)" + (stop.code.map { "(\($0))" } ?? "")) }
        if !networkUp { parts.append("network-down") }
        if !foreground { parts.append("background") }
        if chatRoom != .none { parts.append("chat-room=\(chatRoom.rawValue)") }
        return parts.joined(separator: " ")
    }
}
