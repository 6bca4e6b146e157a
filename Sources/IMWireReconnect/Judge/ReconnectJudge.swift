import IMWireCore

/// Settings of the reconnect judge.
public struct JudgeOptions: Sendable, Hashable {
    /// Slack for capture timing (µs): a reconnect this much sooner than the policy allows still passes.
    public var toleranceMicros: Int64
    /// Early reconnects in a row that make a storm.
    public var stormRun: Int
    /// How soon after a terminal code a flagless login looks automatic (µs); nil: the policy's
    /// longest retry delay, at least 10 s.
    public var suspicionWindowMicros: Int64?

    public init(toleranceMicros: Int64 = 500_000, stormRun: Int = 3, suspicionWindowMicros: Int64? = nil) {
        self.toleranceMicros = toleranceMicros
        self.stormRun = stormRun
        self.suspicionWindowMicros = suspicionWindowMicros
    }
}

/// Judges one client's consecutive connections against its policy: reconnects faster than the
/// schedule (storms), reconnects after a terminal code, missing reconnect flags, budgets and
/// missing heartbeats. Pure: observations in, findings out.
///
/// How each connection counts: after a logout the next connection is a fresh login; after a
/// code the policy stops on, only the user may log in (a flagged login is an error, a quick
/// flagless one suspect); after anything else the next connection is automatic attempt n, where
/// n is 0 after a logged-in connection and grows by one per connection that never logged in.
/// Attempt n must wait at least the schedule's smallest delay for n (or the fixed delay or
/// server wait of the code that ended the previous connection).
public struct ReconnectJudge: Sendable {
    public let policy: ReconnectPolicy
    public var options: JudgeOptions

    public init(policy: ReconnectPolicy, options: JudgeOptions = JudgeOptions()) {
        self.policy = policy
        self.options = options
    }

    private struct Early {
        let observation: ConnectionObservation
        /// The observation's place among those judged (`judge(count:…)`).
        let index: Int
        let gapMicros: Int64
        let minimumMicros: Int64
        let attempt: Int
        let why: String
    }

    /// Findings for `observations` (any order; judged by opening time). `captureEnd` (µs) closes
    /// connections still open, for the heartbeat check.
    public func judge(_ observations: [ConnectionObservation], captureEnd: Int64? = nil) -> [Finding] {
        var all: [Finding] = []
        judge(observations, captureEnd: captureEnd) { all += $0 }
        return all
    }

    /// The same findings in the same order, given to `emit` as each connection is judged rather
    /// than gathered: a client with thousands of connections and a finding on each does not hold
    /// them all at once.
    public func judge(_ observations: [ConnectionObservation], captureEnd: Int64? = nil, emit: ([Finding]) -> Void) {
        judge(
            count: observations.count, opened: { observations[$0].opened }, observation: { observations[$0] },
            captureEnd: captureEnd, emit: { emit($0.map(\.finding)) })
    }

    /// The same, with observation `i` of `0..<count` made when the judge reaches it
    /// (`opened(i)`: its opening time, for the order), and each finding given with the `i` of
    /// the observation it is on: a client's thousands of observations are not all in memory at
    /// once, nor a table to find them by name.
    package func judge(
        count: Int, opened: (Int) -> Int64, observation make: (Int) -> ConnectionObservation, captureEnd: Int64? = nil,
        emit: ([(finding: Finding, index: Int)]) -> Void
    ) {
        // The order as indices: a sorted copy of a large client's observations (and of their
        // offsets) would add to the check's peak heap. None at all when they come in order
        // already, as a capture's connections of one client usually do.
        let inOrder = count < 2 || (1..<count).allSatisfy { opened($0 - 1) <= opened($0) }
        // Out of order, each time is read once, not at every comparison.
        let order =
            inOrder ? nil : (0..<count).map { (opened($0), $0) }.sorted { $0 < $1 }.map(\.1)
        var findings: [(finding: Finding, index: Int)] = []
        var run: [Early] = []
        var previousIndex = -1
        var sessionInChain = false
        var previous: ConnectionObservation?
        /// Servers the current attempt has tried after its first (`ReconnectPolicy.endpointsPerAttempt`).
        var failovers = 0

        for position in 0..<count {
            let index = order?[position] ?? position
            let observation = make(index)
            if let before = previous {
                let gapStart = before.ended ?? before.opened
                if before.ended == nil || gapStart > observation.opened {
                    // Connections overlapping in time: a second client or tab, not a reconnect.
                    flush(&run, into: &findings)
                } else {
                    let gapMicros = observation.opened.minus(gapStart)
                    switch classify(before.end) {
                    case .fresh:
                        flush(&run, into: &findings)
                        previousIndex = -1
                        sessionInChain = false
                    case .terminal(let reason):
                        flush(&run, into: &findings)
                        findings += judgeAfterTerminal(observation, gapMicros: gapMicros, reason: reason).map {
                            ($0, index)
                        }
                        previousIndex = -1
                        sessionInChain = false
                    case .continuation(let minimumMillis, let why, let countsAsRetry):
                        // Where the SDK restarts its backoff: a login (most), or the transport (NIM Web).
                        let established = before.established || (policy.backoffResetsOnLink && before.linkUp)
                        sessionInChain = sessionInChain || before.established
                        if policy.budget.attempts == 0 {
                            // The SDK never reconnects: every new login is the app's.
                            flush(&run, into: &findings)
                            previousIndex = -1
                            sessionInChain = false
                        } else {
                            var attempt = countsAsRetry ? (established ? 0 : previousIndex + 1) : -1
                            var requiredMillis =
                                minimumMillis ?? max(0, policy.schedule.boundsMillis(max(0, attempt)).lowerBound)
                            // Sooner than the schedule, after a connection that failed before its
                            // transport was up: the same attempt's next server, tried at once.
                            if countsAsRetry, !established, !before.linkUp, before.login == nil,
                                failovers + 1 < policy.endpointsPerAttempt,
                                gapMicros.plus(options.toleranceMicros) < requiredMillis.millisAsMicros
                            {
                                failovers += 1
                                (attempt, requiredMillis) = (previousIndex, 0)
                            } else {
                                failovers = 0
                            }
                            if let allowed = policy.budget.attempts, policy.budget.whenExhausted == .stop,
                                attempt >= allowed
                            {
                                findings.append(
                                    (
                                        finding(
                                            ReconnectRules.budgetExceeded, observation,
                                            """
                                            automatic reconnect \(attempt + 1) in a row; \
                                            \(policy.name) gives up after \(allowed)
                                            """), index
                                    ))
                            }
                            let requiredMicros = requiredMillis.millisAsMicros
                            if gapMicros.plus(options.toleranceMicros) < requiredMicros {
                                run.append(
                                    Early(
                                        observation: observation, index: index, gapMicros: gapMicros,
                                        minimumMicros: requiredMicros, attempt: attempt, why: why))
                            } else {
                                flush(&run, into: &findings)
                            }
                            if let flag = policy.reconnectFlag, sessionInChain,
                                observation.login?.reconnectFlag == false
                            {
                                findings.append(
                                    (
                                        finding(
                                            ReconnectRules.flagMissing, observation,
                                            """
                                            login after \(describe(before.end)) on \(before.connection) \
                                            is an automatic reconnect but lacks \(flag.name)
                                            """
                                        ), index
                                    ))
                            }
                            previousIndex = attempt
                        }
                    }
                }
            }
            findings += heartbeat(observation, captureEnd: captureEnd).map { ($0, index) }
            previous = observation
            if !findings.isEmpty {
                emit(findings)
                findings.removeAll(keepingCapacity: true)
            }
        }
        flush(&run, into: &findings)
        if !findings.isEmpty { emit(findings) }
    }

    // MARK: classification

    private enum Kind {
        /// The user logged out: the next connection starts a new chain.
        case fresh
        /// The policy stops: only the user may log in again.
        case terminal(String)
        /// The SDK reconnects: after `minimumMillis` when the code fixes the delay, else the schedule's.
        case continuation(minimumMillis: Int64?, why: String, countsAsRetry: Bool)
    }

    private func classify(_ end: ConnectionEnd) -> Kind {
        let reaction: Reaction
        var waitMillis: Int64?
        switch end {
        case .clientLogout: return .fresh
        case .open, .lost: reaction = .retry
        case .closed(let code): reaction = policy.reaction(.close, code)
        case .kicked(let code):
            reaction = policy.reaction(.kick, code)
        case .loginRejected(let code, let micros):
            reaction = policy.reaction(.login, code)
            waitMillis = micros.map(\.microsAsMillisRoundedUp)
        case .goaway: reaction = policy.goaway ?? .retry
        }
        switch reaction {
        case .stop(let cause): return .terminal("\(describe(end)) (\(cause.rawValue))")
        case .retryAfter(let delay):
            return .continuation(
                minimumMillis: delay, why: "\(describe(end)) asks for \(DurationText.text(millis: delay))",
                countsAsRetry: true)
        case .retryAfterServerWait:
            if let waitMillis {
                return .continuation(
                    minimumMillis: waitMillis, why: "the server asked to wait \(DurationText.text(millis: waitMillis))",
                    countsAsRetry: true)
            }
            return .continuation(minimumMillis: nil, why: "the schedule", countsAsRetry: true)
        case .reconnectNow: return .continuation(minimumMillis: 0, why: "\(describe(end))", countsAsRetry: false)
        case .refreshCredentials: return .continuation(minimumMillis: 0, why: "new credentials", countsAsRetry: false)
        case .retry, .ignore, .proceedWithoutRoute:
            return .continuation(minimumMillis: nil, why: "the schedule", countsAsRetry: true)
        }
    }

    private func describe(_ end: ConnectionEnd) -> String {
        switch end {
        case .open: "an open connection"
        case .clientLogout: "a logout"
        case .closed(let code): code.map { "close code \($0)" } ?? "a close"
        case .lost: "a lost connection"
        case .kicked(let code): "kick \(code)"
        case .loginRejected(let code, _): "login refused with \(code)"
        case .goaway: "goaway"
        }
    }

    // MARK: findings

    private func judgeAfterTerminal(_ observation: ConnectionObservation, gapMicros gap: Int64, reason: String)
        -> [Finding]
    {
        if observation.login?.reconnectFlag == true {
            let flag = policy.reconnectFlag?.name ?? "the reconnect flag"
            return [
                finding(
                    ReconnectRules.afterTerminal, observation,
                    """
                    logs in with \(flag) \(seconds(gap)) after \(reason); \
                    \(policy.name) stops there and leaves the login to the user
                    """)
            ]
        }
        guard observation.login?.reconnectFlag == nil || policy.reconnectFlag == nil else { return [] }
        let longest = policy.budget.attempts == 0 ? 0 : policy.schedule.maximumMillis.millisAsMicros
        let window = options.suspicionWindowMicros ?? max(longest, 10_000_000)
        guard gap <= window else { return [] }
        return [
            finding(
                ReconnectRules.afterTerminalSuspected, observation,
                """
                a new login \(seconds(gap)) after \(reason); \(policy.name) \
                stops there, and nothing shows the user logged in again
                """)
        ]
    }

    private func flush(_ run: inout [Early], into findings: inout [(finding: Finding, index: Int)]) {
        defer { run.removeAll() }
        guard let first = run.first, let last = run.last else { return }
        if run.count >= options.stormRun {
            let gaps = run.map { seconds($0.gapMicros) }.joined(separator: ", ")
            let minima = run.map { seconds($0.minimumMicros) }.joined(separator: ", ")
            findings.append(
                (
                    finding(
                        ReconnectRules.storm, first.observation,
                        """
                        \(run.count) reconnects from \(first.observation.connection) to \
                        \(last.observation.connection) after gaps of \(gaps); \(policy.name) waits at least \(minima)
                        """
                    ), first.index
                ))
        } else {
            for early in run {
                let attempt = early.attempt >= 0 ? "attempt \(early.attempt + 1)" : "reconnect"
                findings.append(
                    (
                        finding(
                            ReconnectRules.tooEarly, early.observation,
                            """
                            \(attempt) \(seconds(early.gapMicros)) after the previous connection ended; \
                            \(policy.name) waits at least \(seconds(early.minimumMicros)) (\(early.why))
                            """
                        ), early.index
                    ))
            }
        }
    }

    private func heartbeat(_ observation: ConnectionObservation, captureEnd: Int64?) -> [Finding] {
        guard observation.keepAliveVisible, let heartbeat = policy.heartbeat, let since = observation.login?.accepted,
            let end = observation.ended ?? captureEnd, end > since
        else { return [] }
        let silence = observation.keepAlive.longestSilence(from: since, to: end)
        let allowed = heartbeat.longestSilenceMillis.millisAsMicros
        guard silence.length > allowed.plus(options.toleranceMicros) else { return [] }
        var result = finding(
            ReconnectRules.heartbeatMissing, observation,
            """
            no \(heartbeat.what) for \(seconds(silence.length)); \
            \(policy.name) sends one at least every \(seconds(allowed))
            """)
        result.location.time = silence.start
        return [result]
    }

    private func finding(_ rule: Rule, _ observation: ConnectionObservation, _ message: String) -> Finding {
        Finding(
            rule: rule, message: message,
            location: Location(
                connection: observation.connection, time: observation.login?.sent ?? observation.opened,
                direction: .send),
            subject: "connection \(observation.connection)")
    }

    /// A capture duration (µs) as people read it, truncated to whole milliseconds.
    private func seconds(_ micros: Int64) -> String {
        DurationText.text(millis: micros / 1000)
    }
}
