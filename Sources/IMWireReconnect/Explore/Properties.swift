/// The properties the exploration proves of every policy, checked on every transition it
/// reaches (`no-zero-delay-reconnect-cycle` on the explored graph once the search ends). Each
/// is observed from the events and actions (an independent monitor keeps its own count of
/// timers, transports and retries), not read back from the machine's own counters.
package enum Property: String, Sendable, Hashable, CaseIterable {
    /// After a stop (a terminal code, an exhausted budget) no route lookup, transport or login
    /// is started until the user logs in again.
    case noConnectAfterStop = "no-connect-after-stop"
    /// At most one timer of each kind is outstanding (so at most one retry timer), counted
    /// from the actions: a schedule while one of its kind is armed and not cancelled fails.
    /// The machine adds no cancel of its own when it arms (only a deliberate restart does).
    case oneTimerPerKind = "one-timer-per-kind"
    /// Every timer is scheduled with the delay the policy (or the server's answer) asks for,
    /// as asked (the machine rounds nothing up), and that delay is positive.
    case positiveTimerDelays = "positive-timer-delays"
    /// A timer that was cancelled or never armed does nothing when it fires.
    case staleTimersInert = "stale-timers-inert"
    /// The timers the monitor counted from the actions are the timers the state says are armed.
    case timerBookkeeping = "timer-bookkeeping"
    /// Each retry delay lies within the schedule's bounds for its attempt (or is the fixed
    /// delay or server wait its code asks for), and attempts are numbered 0, 1, 2, … from the
    /// last reset; with the schedule's growth (tested separately) delays grow to the cap.
    case retryDelayWithinBounds = "retry-delay-within-bounds"
    /// No more automatic retries than the budget; when it runs out, the policy's choice happens.
    case budgetHonoured = "budget-honoured"
    /// Retries that go at once (delay ≤ 0) come at most as often in a row as the schedule has
    /// immediate delays at its start (Swift: 2); then the client waits.
    case boundedImmediateRetries = "bounded-immediate-retries"
    /// No cycle of the explored state graph reconnects (opens a transport or looks a route up)
    /// without an external event and in less time than the policy's shortest retry delay (or
    /// in no time). The cycle may use timers (each costing the delay it was scheduled with) and
    /// the answers to the machine's own attempts (free: the network may answer at once); it
    /// may not use the user, the network, the app, the credentials, `goaway`, or an accepted
    /// login (a session in between restarts the schedule by design). Checked on the graph.
    case noZeroDelayReconnectCycle = "no-zero-delay-reconnect-cycle"
    /// A login carries the reconnect flag exactly when a session existed since the user's login.
    case reconnectFlag = "reconnect-flag"
    /// Logged out, the machine ignores everything but the user's login.
    case idleIsQuiet = "idle-is-quiet"
    /// Phase and timers agree, with the timers as the actions armed them (waiting ⇔ retry
    /// timer; no connection timers without a transport; stopped ⇔ a stop record; online keeps
    /// exactly one heartbeat timer; an acknowledged login only while authenticating).
    case phaseInvariants = "phase-invariants"
    /// At most one transport at a time, and none left open outside the phases that have one.
    case oneTransport = "one-transport"

    /// One line for the Spec.
    package var summary: String {
        switch self {
        case .noConnectAfterStop:
            """
            After a stop (terminal code, exhausted budget) no route \
            lookup, transport or login starts until the user logs in.
            """
        case .oneTimerPerKind:
            """
            At most one timer of each kind is outstanding, counted from the actions (a \
            schedule while one is armed and not cancelled fails), so at most one retry timer.
            """
        case .positiveTimerDelays:
            """
            Every timer is scheduled with the delay the policy (or the \
            server's answer) asks for, unclamped, and it is positive.
            """
        case .staleTimersInert: "A cancelled or never-armed timer does nothing when it fires."
        case .timerBookkeeping: "The timers counted from the actions are the timers the state holds."
        case .retryDelayWithinBounds:
            """
            Retry n waits within the schedule's bounds for n (or the fixed delay \
            / server wait of its code); n counts 0, 1, 2, … from the last reset.
            """
        case .budgetHonoured:
            "No more automatic retries than the budget; when it runs out the policy stops or resets the route."
        case .boundedImmediateRetries:
            """
            Immediate retries (delay ≤ 0) come at most as often \
            in a row as the schedule starts with them (Swift: 2).
            """
        case .noZeroDelayReconnectCycle:
            """
            On the explored graph: no cycle that reconnects, driven only by timers and the \
            answers to the machine's own attempts (no user, network, app, credentials, \
            goaway or accepted login), takes less than the policy's shortest retry delay.
            """
        case .reconnectFlag: "A login carries the reconnect flag exactly when a session existed since the user's login."
        case .idleIsQuiet: "Logged out, the machine does nothing until the user logs in."
        case .phaseInvariants:
            """
            Phase and the timers the actions armed agree: waiting ⇔ retry timer; \
            connection timers only with a transport; stopped ⇔ stop record; online \
            keeps one heartbeat timer; a login is acknowledged only while authenticating.
            """
        case .oneTransport:
            "At most one transport at a time, none left open outside connecting, authenticating and online."
        }
    }
}

/// A property that failed, with the events that lead there from the initial state.
package struct Violation: Sendable, Hashable, CustomStringConvertible {
    package let property: Property
    package let message: String
    package let path: [String]

    package var description: String { "\(property.rawValue): \(message) after \(path.joined(separator: " → "))" }
}

/// The delay each armed timer was scheduled with, as the actions said.
struct TimerDelays: Sendable, Hashable {
    private var values = [Int64](repeating: 0, count: TimerKind.allCases.count)

    subscript(kind: TimerKind) -> Int64 {
        get { values[TimerKind.allCases.firstIndex(of: kind) ?? 0] }
        set { values[TimerKind.allCases.firstIndex(of: kind) ?? 0] = newValue }
    }
}

/// What the monitor remembers between transitions, next to the machine's state.
struct Monitor: Sendable, Hashable {
    var armed = TimerSet()
    /// The delay of each timer in `armed` (0 for the others).
    var delays = TimerDelays()
    var halted = false
    var retryIndex = 0
    /// Immediate retries in a row, counted up to one past what the schedule allows (a storm
    /// then keeps the graph finite, and the cycle check finds it).
    var immediateRun = 0
    var sessionSinceLogin = false
    var transportOpen = false

    /// Checks one transition and moves the monitor along; returns the properties it breaks.
    mutating func observe(
        _ before: ReconnectState, _ event: ReconnectEvent, _ transition: Transition,
        policy: ReconnectPolicy
    ) -> [(Property, String)] {
        var problems: [(Property, String)] = []
        func fail(_ property: Property, _ message: String) { problems.append((property, message)) }
        let after = transition.state
        let actions = transition.actions

        if case .userLogin = event, before.phase == .idle || before.phase == .stopped {
            halted = false
            sessionSinceLogin = false
            retryIndex = 0
            immediateRun = 0
        }
        if before.phase == .idle, event != .userLogin, !actions.isEmpty {
            fail(.idleIsQuiet, "\(event.summary) in idle did \(actions)")
        }
        resetBackoff(before, event, transition, policy: policy)

        if case .timerFired(let kind) = event {
            if armed.contains(kind) {
                armed.remove(kind)
                delays[kind] = 0
            } else if !actions.isEmpty || after != before {
                fail(
                    .staleTimersInert, "a stale \(kind.rawValue) timer changed \(before.summary) into \(after.summary)")
            }
        }
        // Transports closed by the event itself.
        switch event {
        case .transportClosed, .transportFailed: if before.hasTransport { transportOpen = false }
        default: break
        }

        for milestone in transition.milestones {
            switch milestone {
            case .loggedIn:
                sessionSinceLogin = true
                retryIndex = 0
                immediateRun = 0
            case .retryScheduled(let attempt, let delay):
                problems += checkRetry(attempt: attempt, delay: delay, event: event, actions: actions, policy: policy)
            default:
                break
            }
        }

        for action in actions {
            switch action {
            case .scheduleTimer(let kind, let delay):
                if armed.contains(kind) { fail(.oneTimerPerKind, "\(kind.rawValue) scheduled while one is armed") }
                if delay <= 0 { fail(.positiveTimerDelays, "\(kind.rawValue) scheduled with \(delay) ms") }
                if kind != .retry {
                    // Retry delays are retry-delay-within-bounds' business.
                    if let asked = Self.requestedDelay(kind, event: event, policy: policy) {
                        if delay != asked {
                            fail(
                                .positiveTimerDelays,
                                "\(kind.rawValue) scheduled with \(delay) ms; the policy asks \(asked) ms")
                        }
                    } else {
                        fail(
                            .positiveTimerDelays,
                            "\(kind.rawValue) scheduled with \(delay) ms; the policy has no such timer here")
                    }
                }
                armed.insert(kind)
                delays[kind] = delay
            case .cancelTimer(let kind):
                armed.remove(kind)
                delays[kind] = 0
            case .openTransport:
                if halted { fail(.noConnectAfterStop, "open-transport after a stop") }
                if transportOpen { fail(.oneTransport, "open-transport while a transport is open") }
                transportOpen = true
            case .resolveRoute:
                if halted { fail(.noConnectAfterStop, "resolve-route after a stop") }
            case .sendLogin(let flag):
                if halted { fail(.noConnectAfterStop, "send-login after a stop") }
                let expected = sessionSinceLogin ? policy.reconnectFlag?.name : nil
                if flag != expected {
                    fail(.reconnectFlag, "login flag \(flag ?? "none"), expected \(expected ?? "none")")
                }
            case .closeTransport:
                transportOpen = false
            case .stop(let cause, _):
                halted = true
                if cause == .budgetExhausted, let allowed = policy.budget.attempts, retryIndex != allowed {
                    fail(.budgetHonoured, "stopped for the budget after \(retryIndex) retries, budget \(allowed)")
                }
            default:
                break
            }
        }

        if armed != after.timers { fail(.timerBookkeeping, "monitor \(Array(armed)) vs state \(Array(after.timers))") }
        if transportOpen != after.hasTransport {
            fail(.oneTransport, "monitor transport \(transportOpen) vs state \(after.phase.rawValue)")
        }
        problems += Self.invariants(after, timers: armed, policy: policy).map { (.phaseInvariants, $0) }
        return problems
    }

    /// The delay the policy asks for a timer of `kind` armed by `event` (the route's ttl from
    /// the answer, else the policy's default); nil when the policy has no such timer.
    static func requestedDelay(_ kind: TimerKind, event: ReconnectEvent, policy: ReconnectPolicy) -> Int64? {
        switch kind {
        case .retry: nil
        case .connect: policy.connectTimeoutMillis
        case .login: event == .loginAcknowledged ? policy.loginResponseTimeoutMillis : policy.loginTimeoutMillis
        case .heartbeat: policy.heartbeat?.intervalMillis
        case .heartbeatTimeout: policy.heartbeat?.answerTimeoutMillis
        case .routeTTL: if case .routeResolved(let ttl) = event { ttl ?? policy.route?.defaultTTLMillis } else { nil }
        case .chatRoomWindow: policy.chatRoomRejoinWindowMillis
        }
    }

    /// Events after which the policy starts its schedule again.
    private mutating func resetBackoff(
        _ before: ReconnectState, _ event: ReconnectEvent, _ transition: Transition,
        policy: ReconnectPolicy
    ) {
        var reset = false
        switch event {
        case .networkUp: reset = policy.networkChangeResetsBackoff && !before.networkUp
        case .networkDown: reset = policy.networkChangeResetsBackoff && before.networkUp
        case .appBackground: reset = transition.milestones.contains(.backgrounded)
        default: break
        }
        if reset {
            retryIndex = 0
            immediateRun = 0
        }
        // Non-failure events that start an attempt at once are external triggers, not retries.
        switch event {
        case .networkUp, .appForeground, .credentialsRefreshed, .goaway, .systemWake, .userLogin: immediateRun = 0
        default: break
        }
    }

    /// The reaction the policy's data gives the event that caused a retry.
    private func reaction(of event: ReconnectEvent, policy: ReconnectPolicy) -> (Reaction, Int64?) {
        switch event {
        case .transportClosed(let code): (policy.reaction(.close, code), nil)
        case .transportFailed: (policy.reaction(.close, nil), nil)
        case .loginResponse(let code, let wait): (policy.reaction(.login, code), wait)
        case .kicked(let code): (policy.reaction(.kick, code), nil)
        case .routeFailed(let status): (policy.reaction(.route, status), nil)
        default: (.retry, nil)
        }
    }

    private mutating func checkRetry(
        attempt: Int, delay: Int64, event: ReconnectEvent, actions: [ReconnectAction],
        policy: ReconnectPolicy
    ) -> [(Property, String)] {
        var problems: [(Property, String)] = []
        if let allowed = policy.budget.attempts, retryIndex >= allowed {
            if policy.budget.whenExhausted == .stop {
                problems.append((.budgetHonoured, "retry \(retryIndex) scheduled; the budget is \(allowed)"))
            } else {
                retryIndex = 0
            }
        }
        if min(attempt, policy.attemptCeiling) != retryIndex {
            problems.append((.retryDelayWithinBounds, "attempt numbered \(attempt), the monitor counted \(retryIndex)"))
        }
        let (reaction, wait) = reaction(of: event, policy: policy)
        let expected: ClosedRange<Int64>
        switch reaction {
        case .retryAfter(let fixed): expected = max(0, fixed)...max(0, fixed)
        case .retryAfterServerWait where wait != nil: expected = max(0, wait ?? 0)...max(0, wait ?? 0)
        default:
            let bounds = policy.schedule.boundsMillis(retryIndex)
            expected = max(0, bounds.lowerBound)...max(0, bounds.upperBound)
        }
        if !expected.contains(delay) {
            problems.append((.retryDelayWithinBounds, "retry \(retryIndex) after \(delay) ms, expected \(expected)"))
        }
        let timer = actions.contains { if case .scheduleTimer(.retry, let d) = $0 { d == delay } else { false } }
        let started = actions.contains {
            $0 == .openTransport || { if case .resolveRoute = $0 { true } else { false } }($0)
        }
        if delay > 0, !timer { problems.append((.retryDelayWithinBounds, "retry after \(delay) ms without its timer")) }
        if delay <= 0, !started { problems.append((.retryDelayWithinBounds, "immediate retry without an attempt")) }
        retryIndex = min(retryIndex + 1, policy.attemptCeiling)
        if delay <= 0 {
            immediateRun = min(immediateRun + 1, policy.schedule.leadingImmediateAttempts + 1)
            if immediateRun > policy.schedule.leadingImmediateAttempts {
                problems.append((.boundedImmediateRetries, "\(immediateRun) immediate retries in a row"))
            }
        } else {
            immediateRun = 0
        }
        return problems
    }

    private static let connectionTimers = TimerSet([.connect, .login, .heartbeat, .heartbeatTimeout])

    /// The phase invariants, over `timers` as the actions armed them (not the state's own set).
    static func invariants(_ state: ReconnectState, timers: TimerSet, policy: ReconnectPolicy) -> [String] {
        var problems: [String] = []
        if (state.phase == .waiting) != timers.contains(.retry) {
            problems.append("\(state.phase.rawValue) with timers \(Array(timers))")
        }
        if !state.hasTransport, timers.bits & Self.connectionTimers.bits != 0 {
            problems.append("connection timers \(Array(timers)) without a transport (\(state.phase.rawValue))")
        }
        if (state.phase == .stopped) != (state.stop != nil) {
            problems.append("stop record \(String(describing: state.stop)) in \(state.phase.rawValue)")
        }
        if state.phase == .online, policy.heartbeat != nil,
            timers.contains(.heartbeat) == timers.contains(.heartbeatTimeout)
        {
            problems.append("online with timers \(Array(timers))")
        }
        if state.phase == .connecting, timers.contains(.connect) != (policy.connectTimeoutMillis != nil) {
            problems.append("connecting with timers \(Array(timers))")
        }
        if state.phase == .authenticating, timers.contains(.login) != (policy.loginTimeoutMillis != nil) {
            problems.append("authenticating with timers \(Array(timers))")
        }
        if state.chatRoom == .awaitingRejoin, !timers.contains(.chatRoomWindow) {
            problems.append("awaiting a re-join without its window")
        }
        if state.loginAcknowledged, state.phase != .authenticating {
            problems.append("a login acknowledged in \(state.phase.rawValue)")
        }
        return problems
    }
}
