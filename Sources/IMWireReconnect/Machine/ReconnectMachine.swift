/// The reconnect state machine: a pure function from (state, event) to (state, actions).
/// Time and randomness are inputs: the machine asks for timers with delays and reacts to
/// `timerFired`; the one random input of a step spreads the jitter of a retry delay. Every
/// decision comes from the policy's values; the machine never asks which vendor it runs.
public enum ReconnectMachine {
    /// One step. `random` is used only when the step schedules a retry with jitter.
    public static func step(
        _ state: ReconnectState, _ event: ReconnectEvent, policy: ReconnectPolicy,
        random: UInt32 = 0
    ) -> Transition {
        var stepper = Stepper(state: state, policy: policy, random: random)
        stepper.handle(event)
        return Transition(state: stepper.state, actions: stepper.actions, milestones: stepper.milestones)
    }

    /// What the SDK shows before any event: the status of a client that was created and never
    /// opened (LeanCloud `AVIMClientStatus` 0 None). Empty when the SDK shows nothing then.
    package static func initialOutputs(policy: ReconnectPolicy) -> [VendorOutput] {
        policy.outputs.outputs(for: .created, reconnect: false)
    }
}

/// The work of one step: the state being changed and what it asks for, in order.
private struct Stepper {
    var state: ReconnectState
    let policy: ReconnectPolicy
    let random: UInt32
    var actions: [ReconnectAction] = []
    var milestones: [Milestone] = []

    init(state: ReconnectState, policy: ReconnectPolicy, random: UInt32) {
        self.state = state
        self.policy = policy
        self.random = random
    }

    // MARK: bookkeeping

    mutating func note(_ milestone: Milestone) {
        milestones.append(milestone)
        for output in policy.outputs.outputs(for: milestone, reconnect: state.hadSession) {
            actions.append(.emit(output))
        }
    }

    /// Arms a timer with the delay the policy (or the server) asked for, unchanged: a zero or
    /// negative delay is not rounded up here, so the exploration's `positive-timer-delays` sees
    /// it. Arming a kind that is already armed adds no cancel: a second timer of a kind (two
    /// retries pending) stays visible in the actions for `one-timer-per-kind`. Where a wait
    /// starts again on purpose, `restart` cancels first.
    mutating func arm(_ kind: TimerKind, _ delay: Int64) {
        state.timers.insert(kind)
        actions.append(.scheduleTimer(kind, delayMillis: delay))
    }

    /// Cancels the armed timer of `kind`, if any, and arms it afresh: a resent login waits
    /// anew, an acknowledged login switches to the response wait, a second heartbeat restarts
    /// the answer wait.
    mutating func restart(_ kind: TimerKind, _ delay: Int64) {
        disarm(kind)
        arm(kind, delay)
    }

    mutating func disarm(_ kind: TimerKind) {
        guard state.timers.contains(kind) else { return }
        state.timers.remove(kind)
        actions.append(.cancelTimer(kind))
    }

    /// The timers that belong to one transport.
    mutating func disarmConnectionTimers() {
        for kind in [TimerKind.connect, .login, .heartbeat, .heartbeatTimeout] { disarm(kind) }
        state.loginAcknowledged = false
    }

    var running: Bool { state.phase != .idle && state.phase != .stopped }

    // MARK: events

    mutating func handle(_ event: ReconnectEvent) {
        switch event {
        case .userLogin: userLogin()
        case .userLogout: userLogout()
        case .networkDown: networkDown()
        case .networkUp: networkUp()
        case .routeResolved(let ttl):
            guard state.phase == .resolving else { return }
            // A route whose ttl is already over (0 or less) is used once, not cached.
            let lifetime = ttl ?? policy.route?.defaultTTLMillis
            if lifetime.map({ $0 > 0 }) ?? true {
                state.routeCached = true
                if let lifetime { arm(.routeTTL, lifetime) }
            }
            openTransport()
        case .routeFailed(let status):
            guard state.phase == .resolving else { return }
            let reaction = policy.reaction(.route, status)
            if reaction == .proceedWithoutRoute {
                openTransport()
            } else {
                fail(reaction, code: status, signal: .route)
            }
        case .transportOpened:
            guard state.phase == .connecting else { return }
            disarm(.connect)
            note(.linkOK)
            sendLogin(resend: false)
        case .transportClosed(let code):
            guard state.hasTransport else { return }
            fail(policy.reaction(.close, code), code: code, signal: .close, transportGone: true)
        case .transportFailed:
            guard state.hasTransport else { return }
            fail(policy.reaction(.close, nil), code: nil, signal: .close, transportGone: true)
        case .loginResponse(let code, let wait):
            guard state.phase == .authenticating else { return }
            loginAnswered(code, wait: wait)
        case .loginAcknowledged:
            // JMessage: the server's `ack` of the login; the 5 s ack wait becomes the 30 s
            // response wait. Policies without a response wait have no such step.
            guard state.phase == .authenticating, !state.loginAcknowledged,
                let wait = policy.loginResponseTimeoutMillis
            else { return }
            state.loginAcknowledged = true
            restart(.login, wait)
        case .kicked(let code):
            guard state.phase == .authenticating || state.phase == .online else { return }
            note(.kicked(code: code))
            let reaction = policy.reaction(.kick, code)
            if reaction != .ignore { fail(reaction, code: code, signal: .kick) }
        case .goaway:
            guard state.phase == .authenticating || state.phase == .online, let reaction = policy.goaway else { return }
            fail(reaction, code: nil, signal: .close)
        case .syncCompleted:
            guard state.phase == .online, state.awaitingSync else { return }
            state.awaitingSync = false
            note(.synced)
        case .heartbeatSent:
            guard state.phase == .online, let heartbeat = policy.heartbeat else { return }
            disarm(.heartbeat)
            restart(.heartbeatTimeout, heartbeat.answerTimeoutMillis)
        case .heartbeatAnswered:
            guard state.phase == .online, let heartbeat = policy.heartbeat, state.timers.contains(.heartbeatTimeout)
            else { return }
            disarm(.heartbeatTimeout)
            state.heartbeatMisses = 0
            arm(.heartbeat, heartbeat.intervalMillis)
        case .heartbeatMissed:
            guard state.phase == .online, policy.heartbeat != nil else { return }
            disarm(.heartbeat)
            disarm(.heartbeatTimeout)
            heartbeatMissed()
        case .commandTimeout:
            guard state.phase == .authenticating else { return }
            loginTimedOut()
        case .appBackground: appBackground()
        case .appForeground:
            guard !state.foreground else { return }
            state.foreground = true
            if state.phase == .suspended { beginAttempt(automatic: true) }
        case .systemWake:
            guard policy.wakeForcesReconnect, state.phase == .online else { return }
            fail(.reconnectNow(clearRoute: false), code: nil, signal: .close)
        case .timerFired(let kind):
            guard state.timers.contains(kind) else { return }  // cancelled or never armed: stale
            state.timers.remove(kind)
            fired(kind)
        case .credentialsRefreshed:
            guard state.phase == .refreshing else { return }
            beginAttempt(automatic: true)
        case .credentialsRefreshFailed:
            guard state.phase == .refreshing else { return }
            halt(.credentialsRefused, code: nil)
        case .chatRoomJoined:
            guard policy.chatRoomRejoinWindowMillis != nil, state.phase == .online else { return }
            state.chatRoom = .joined
        case .chatRoomLeft:
            guard state.chatRoom != .none else { return }
            state.chatRoom = .none
            disarm(.chatRoomWindow)
        }
    }

    mutating func userLogin() {
        guard !running else { return }
        state.stop = nil
        state.attempt = 0
        state.failures = 0
        state.hadSession = false
        state.heartbeatMisses = 0
        state.loginResends = 0
        state.awaitingSync = false
        if policy.route?.resolveOnLogin == true {
            state.routeCached = false
            disarm(.routeTTL)
        }
        state.chatRoom = .none
        disarm(.chatRoomWindow)
        beginAttempt(automatic: false)
    }

    mutating func userLogout() {
        guard state.phase != .idle else { return }
        if state.hasTransport { actions.append(.closeTransport) }
        for kind in state.timers where kind != .routeTTL { disarm(kind) }
        state.loginAcknowledged = false
        state.phase = .idle
        state.stop = nil
        state.chatRoom = .none
        state.awaitingSync = false
        note(.loggedOut)
    }

    mutating func networkDown() {
        guard state.networkUp else { return }
        state.networkUp = false
        if policy.networkChangeResetsBackoff { state.attempt = 0 }
        guard running else { return }
        note(.networkChanged(up: false))
        switch state.phase {
        case .resolving, .connecting, .authenticating, .online:
            fail(.retry, code: nil, signal: .close)
        case .waiting:
            disarm(.retry)
            state.phase = .offline
        default:
            break
        }
    }

    mutating func networkUp() {
        guard !state.networkUp else { return }
        state.networkUp = true
        if policy.networkChangeResetsBackoff { state.attempt = 0 }
        guard running else { return }
        note(.networkChanged(up: true))
        if state.phase == .offline { beginAttempt(automatic: true) }
    }

    mutating func appBackground() {
        guard state.foreground else { return }
        state.foreground = false
        let phases: Set<Phase> = [.resolving, .connecting, .authenticating, .online, .waiting, .offline]
        guard policy.backgroundClosesConnection, phases.contains(state.phase) else { return }
        if state.hasTransport { actions.append(.closeTransport) }
        if state.phase == .online { dropChatRoom() }
        disarmConnectionTimers()
        disarm(.retry)
        state.attempt = 0
        state.phase = .suspended
        note(.backgrounded)
    }

    // MARK: connecting

    /// Starts an attempt now, unless the network is down or the app is suspended.
    mutating func beginAttempt(automatic: Bool) {
        guard state.networkUp else {
            state.phase = .offline
            return
        }
        if policy.backgroundClosesConnection, !state.foreground {
            state.phase = .suspended
            return
        }
        note(.connecting(reconnect: automatic, attempt: state.attempt))
        if policy.route != nil, !state.routeCached {
            actions.append(.resolveRoute(clearCache: state.clearRouteNext))
            state.clearRouteNext = false
            state.phase = .resolving
        } else {
            openTransport()
        }
    }

    mutating func openTransport() {
        actions.append(.openTransport)
        if let timeout = policy.connectTimeoutMillis { arm(.connect, timeout) }
        state.phase = .connecting
    }

    /// Sends the login (again, with `resend`: the same request on the same connection, which
    /// waits for its ack anew).
    mutating func sendLogin(resend: Bool) {
        actions.append(.sendLogin(flag: state.hadSession ? policy.reconnectFlag?.name : nil))
        if !resend {
            state.loginResends = 0
            note(.loggingIn(reconnect: state.hadSession))
        }
        state.loginAcknowledged = false
        if let timeout = policy.loginTimeoutMillis { restart(.login, timeout) }
        state.phase = .authenticating
    }

    mutating func loginAnswered(_ code: Int64, wait: Int64?) {
        if policy.acceptCodes.contains(code) {
            disarm(.login)
            state.loginAcknowledged = false
            goOnline()
        } else if !policy.progressCodes.contains(code) {
            disarm(.login)
            note(.loginFailed(code: code))
            fail(policy.reaction(.login, code), code: code, signal: .login, wait: wait)
        }
    }

    /// The login's wait ran out (the ack wait, or after an ack the response wait; or the
    /// embedding's command timeout): send it again while the resend budget lasts (one budget
    /// for both waits, jmessage.md §3), then give up; without resends, the attempt failed.
    mutating func loginTimedOut() {
        if state.loginResends < policy.loginResends {
            state.loginResends += 1
            sendLogin(resend: true)
        } else if policy.loginResends > 0 {
            disarmConnectionTimers()
            actions.append(.closeTransport)
            halt(.loginUnanswered, code: nil)
        } else {
            // The login went unanswered: not a link failure, not a refusal with a code.
            fail(.retry, code: nil, signal: .login)
        }
    }

    mutating func goOnline() {
        let reconnect = state.hadSession
        state.phase = .online
        state.attempt = 0
        state.failures = 0
        state.heartbeatMisses = 0
        state.loginResends = 0
        note(.loggedIn(reconnect: reconnect))
        state.hadSession = true
        state.awaitingSync = policy.syncAfterLogin
        if let heartbeat = policy.heartbeat { arm(.heartbeat, heartbeat.intervalMillis) }
        if state.chatRoom == .awaitingRejoin, state.timers.contains(.chatRoomWindow) {
            disarm(.chatRoomWindow)
            actions.append(.rejoinChatRoom)
            state.chatRoom = .joined
            note(.chatRoomRejoined)
        }
    }

    // MARK: heartbeats and timers

    mutating func heartbeatMissed() {
        guard let heartbeat = policy.heartbeat else { return }
        state.heartbeatMisses = min(state.heartbeatMisses + 1, heartbeat.missesBeforeDead ?? 1)
        if let limit = heartbeat.missesBeforeDead, state.heartbeatMisses >= limit {
            fail(.retry, code: nil, signal: .close)
        } else {
            actions.append(.sendHeartbeat)
            arm(.heartbeatTimeout, heartbeat.answerTimeoutMillis)
        }
    }

    mutating func fired(_ kind: TimerKind) {
        switch kind {
        case .retry:
            if state.phase == .waiting { beginAttempt(automatic: true) }
        case .connect:
            if state.phase == .connecting { fail(.retry, code: nil, signal: .close) }
        case .login:
            if state.phase == .authenticating { loginTimedOut() }
        case .heartbeat:
            guard state.phase == .online, let heartbeat = policy.heartbeat else { return }
            actions.append(.sendHeartbeat)
            arm(.heartbeatTimeout, heartbeat.answerTimeoutMillis)
        case .heartbeatTimeout:
            if state.phase == .online { heartbeatMissed() }
        case .routeTTL:
            state.routeCached = false
        case .chatRoomWindow:
            guard state.chatRoom == .awaitingRejoin else { return }
            state.chatRoom = .none
            note(.chatRoomRejoinExpired)
        }
    }

    // MARK: failures

    /// The user was in a chat room when the connection dropped: re-join on reconnect within the window.
    mutating func dropChatRoom() {
        guard state.chatRoom == .joined, let window = policy.chatRoomRejoinWindowMillis else { return }
        state.chatRoom = .awaitingRejoin
        arm(.chatRoomWindow, window)
    }

    /// The current attempt or session ended with `reaction`. `transportGone`: the event itself
    /// says the transport is closed, so the machine does not close it again.
    mutating func fail(
        _ reaction: Reaction, code: Int64?, signal: Signal, wait: Int64? = nil, transportGone: Bool = false
    ) {
        let phase = state.phase
        disarmConnectionTimers()
        if state.hasTransport, !transportGone { actions.append(.closeTransport) }
        if phase == .online {
            // A kick ends the session itself; the other causes lose a connection first.
            if signal != .kick { note(.connectionLost(code: code)) }
            if !reaction.stops { dropChatRoom() }
        } else {
            if signal == .close, phase == .connecting || phase == .authenticating { note(.linkFailed(code: code)) }
            countFailure()
        }
        switch reaction {
        case .stop(let cause):
            halt(cause, code: code)
        case .refreshCredentials:
            state.phase = .refreshing
            actions.append(.refreshCredentials)
            note(.credentialsRequested(code: code))
        case .reconnectNow(let clearRoute):
            if clearRoute { forgetRoute() }
            beginAttempt(automatic: true)
        case .retryAfter(let delay):
            scheduleRetry(fixed: delay)
        case .retryAfterServerWait:
            scheduleRetry(fixed: wait)
        case .retry, .ignore, .proceedWithoutRoute:
            scheduleRetry(fixed: nil)
        }
    }

    mutating func countFailure() {
        guard let limit = policy.route?.clearAfterFailures else { return }
        state.failures += 1
        if state.failures >= limit {
            state.failures = 0
            forgetRoute()
        }
    }

    mutating func forgetRoute() {
        state.routeCached = false
        state.clearRouteNext = true
        disarm(.routeTTL)
    }

    mutating func scheduleRetry(fixed: Int64?) {
        if let allowed = policy.budget.attempts, state.attempt >= allowed {
            switch policy.budget.whenExhausted {
            case .stop:
                halt(allowed == 0 ? .disconnected : .budgetExhausted, code: nil)
                return
            case .resetRouteAndRestart:
                state.attempt = 0
                forgetRoute()
            }
        }
        guard state.networkUp else {
            state.phase = .offline
            return
        }
        if policy.backgroundClosesConnection, !state.foreground {
            state.phase = .suspended
            return
        }
        let index = state.attempt
        let delay = fixed ?? policy.schedule.delayMillis(index, random: random)
        state.attempt = index == Int.max ? index : index + 1
        note(.retryScheduled(attempt: index, delayMillis: max(0, delay)))
        if delay <= 0 {
            beginAttempt(automatic: true)
        } else {
            arm(.retry, delay)
            state.phase = .waiting
        }
    }

    mutating func halt(_ cause: StopCause, code: Int64?) {
        for kind in state.timers where kind != .routeTTL { disarm(kind) }
        state.loginAcknowledged = false
        state.chatRoom = .none
        state.awaitingSync = false
        state.phase = .stopped
        state.stop = StopRecord(cause: cause, code: code)
        actions.append(.stop(cause, code: code))
        note(.stopped(cause: cause, code: code))
    }
}
