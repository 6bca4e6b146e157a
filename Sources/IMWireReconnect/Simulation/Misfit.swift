/// A run of an event file through the simulator: the trace, and beside it every event that did
/// not fit the state it met.
public struct ReconnectSimulation: Sendable {
    /// Every step, the timers the simulator fired included.
    package let steps: [TraceStep]
    /// The fed events that did not fit, in order (empty for a consistent file).
    package let misfits: [Misfit]
    /// The simulator after the run: its state, clock and armed timers.
    package let simulator: ReconnectSimulator

    /// The result of a run: `steps` and `misfits` as the simulator produced them.
    package init(steps: [TraceStep], misfits: [Misfit], simulator: ReconnectSimulator) {
        self.steps = steps
        self.misfits = misfits
        self.simulator = simulator
    }

    /// A fed event that does not fit the state it met, or that comes before the clock. The
    /// machine's transition stays total: it ignores such an event (a state misfit changes
    /// nothing), and the simulator applies it all the same; the misfit only says so.
    public struct Misfit: Sendable, Hashable, CustomStringConvertible {
        /// Why the event does not fit.
        public enum Reason: Sendable, Hashable, CustomStringConvertible {
            /// The event's time is before the simulation's clock (ms); it is taken as the clock.
            case clockWentBack(clockMillis: Int64)
            /// The event fits only these phases.
            case phase(fits: [Phase])
            /// `timer-fired` for a timer that is not armed: cancelled, never armed, or already
            /// fired by the simulator when the clock passed its due time.
            case timerNotArmed(TimerKind)
            /// `network-up` while the network is up.
            case networkAlreadyUp
            /// `network-down` while the network is down.
            case networkAlreadyDown
            /// `app-foreground` while the app is in the foreground.
            case alreadyForeground
            /// `app-background` while the app is in the background.
            case alreadyBackground
            /// `login-acknowledged` for a login that is already acknowledged.
            case loginAlreadyAcknowledged
            /// `heartbeat-answered` while no heartbeat awaits an answer (no `heartbeat-timeout` armed).
            case noHeartbeatOutstanding
            /// `sync-completed` while no sync follows a login.
            case noSyncPending
            /// `chat-room-left` while the user is in no chat room.
            case noChatRoom

            /// The reason's name in JSON output: `clock-went-back`, `phase`, `timer-not-armed`, ….
            package var name: String {
                switch self {
                case .clockWentBack: "clock-went-back"
                case .phase: "phase"
                case .timerNotArmed: "timer-not-armed"
                case .networkAlreadyUp: "network-already-up"
                case .networkAlreadyDown: "network-already-down"
                case .alreadyForeground: "already-foreground"
                case .alreadyBackground: "already-background"
                case .loginAlreadyAcknowledged: "login-already-acknowledged"
                case .noHeartbeatOutstanding: "no-heartbeat-outstanding"
                case .noSyncPending: "no-sync-pending"
                case .noChatRoom: "no-chat-room"
                }
            }

            /// `fits only resolving`, `no retry timer is armed`.
            public var description: String {
                switch self {
                case .clockWentBack(let clock): "it comes before the clock (\(clock) ms) and is taken as \(clock) ms"
                case .phase(let phases): "it fits only " + phases.map(\.rawValue).joined(separator: ", ")
                case .timerNotArmed(let kind):
                    "no \(kind.rawValue) timer is armed (cancelled, never armed, or fired already)"
                case .networkAlreadyUp: "the network is already up"
                case .networkAlreadyDown: "the network is already down"
                case .alreadyForeground: "the app is already in the foreground"
                case .alreadyBackground: "the app is already in the background"
                case .loginAlreadyAcknowledged: "the pending login is already acknowledged"
                case .noHeartbeatOutstanding: "no heartbeat awaits an answer"
                case .noSyncPending: "no sync is pending"
                case .noChatRoom: "the user is in no chat room"
                }
            }
        }

        /// The event's index among the events fed (an event file's entry index), from 0.
        public let eventIndex: Int
        /// The index of the trace step that applied the event.
        public let stepIndex: Int
        /// The time the event was fed with, ms (before the clock for `clockWentBack`).
        public let timeMillis: Int64
        /// The event.
        public let event: ReconnectEvent
        /// The state the event met: after the timers due by its time fired.
        public let state: ReconnectState
        /// Why it does not fit.
        public let reason: Reason

        /// A misfit of the event fed `eventIndex`-th, applied by step `stepIndex`.
        package init(
            eventIndex: Int, stepIndex: Int, timeMillis: Int64, event: ReconnectEvent, state: ReconnectState,
            reason: Reason
        ) {
            self.eventIndex = eventIndex
            self.stepIndex = stepIndex
            self.timeMillis = timeMillis
            self.event = event
            self.state = state
            self.reason = reason
        }

        /// `event 3 at 500 ms (login-response(code=0)) does not fit idle: it fits only authenticating;
        /// the machine ignores it`.
        public var description: String {
            let head = "event \(eventIndex) at \(timeMillis) ms (\(event.summary))"
            if case .clockWentBack = reason { return "\(head) goes back in time: \(reason)" }
            return "\(head) does not fit \(state.summary): \(reason); the machine ignores it"
        }
    }

    /// Why `event` does not fit `state`, or nil when it fits. The conditions are the state parts
    /// of the guards of `ReconnectMachine.step` (Spec/reconnect.md §2): an answer fits only
    /// while the machine waits for it, a server push only on a connection with a login, a
    /// change of the network or the app only when it changes something, a timer only while
    /// armed. Guards on the policy alone (no heartbeat, no `goaway`, no ack step, no wake
    /// detection, no chat rooms) do not make a misfit: the event fits, the policy ignores it.
    /// Whatever this returns non-nil for, the machine ignores (same state, no actions).
    package static func misfit(_ event: ReconnectEvent, in state: ReconnectState) -> Misfit.Reason? {
        func needs(_ phases: Phase...) -> Misfit.Reason? { phases.contains(state.phase) ? nil : .phase(fits: phases) }
        switch event {
        case .userLogin: return needs(.idle, .stopped)
        case .userLogout: return state.phase == .idle ? .phase(fits: Phase.allCases.filter { $0 != .idle }) : nil
        case .networkUp: return state.networkUp ? .networkAlreadyUp : nil
        case .networkDown: return state.networkUp ? nil : .networkAlreadyDown
        case .routeResolved, .routeFailed: return needs(.resolving)
        case .transportOpened: return needs(.connecting)
        case .transportClosed, .transportFailed: return needs(.connecting, .authenticating, .online)
        case .loginResponse, .commandTimeout: return needs(.authenticating)
        case .loginAcknowledged:
            return needs(.authenticating) ?? (state.loginAcknowledged ? .loginAlreadyAcknowledged : nil)
        case .kicked, .goaway: return needs(.authenticating, .online)
        case .syncCompleted: return needs(.online) ?? (state.awaitingSync ? nil : .noSyncPending)
        case .heartbeatSent, .heartbeatMissed, .chatRoomJoined: return needs(.online)
        case .heartbeatAnswered:
            return needs(.online) ?? (state.timers.contains(.heartbeatTimeout) ? nil : .noHeartbeatOutstanding)
        case .appBackground: return state.foreground ? nil : .alreadyBackground
        case .appForeground: return state.foreground ? .alreadyForeground : nil
        case .systemWake: return nil
        case .timerFired(let kind): return state.timers.contains(kind) ? nil : .timerNotArmed(kind)
        case .credentialsRefreshed, .credentialsRefreshFailed: return needs(.refreshing)
        case .chatRoomLeft: return state.chatRoom == .none ? .noChatRoom : nil
        }
    }
}
