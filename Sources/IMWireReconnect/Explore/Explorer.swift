/// What an exploration saw.
package struct ExplorationReport: Sendable {
    package let policy: String
    /// Distinct (machine state, monitor) pairs reached.
    package let states: Int
    package let transitions: Int
    /// The deepest level expanded (events from the initial state).
    package let depth: Int
    /// True when the search ran out of new states before the depth bound: every state
    /// reachable by any event order was seen.
    package let complete: Bool
    package let phases: Set<Phase>
    /// `OutputModel.key`s of the outputs emitted somewhere.
    package let outputs: Set<String>
    package let stopCauses: Set<StopCause>
    package let violations: [Violation]
    /// Phase-to-phase edges with their labels, for the diagrams.
    package let edges: Set<PhaseEdge>
}

/// One edge of the phase graph: `from --label--> to`.
package struct PhaseEdge: Sendable, Hashable, Comparable {
    package let from: Phase
    package let to: Phase
    package let label: String

    package static func < (a: PhaseEdge, b: PhaseEdge) -> Bool {
        let order = Phase.allCases
        let left = (order.firstIndex(of: a.from) ?? 0, order.firstIndex(of: a.to) ?? 0)
        let right = (order.firstIndex(of: b.from) ?? 0, order.firstIndex(of: b.to) ?? 0)
        if left != right { return left < right }
        return a.label < b.label
    }
}

/// Breadth-first exploration of every event order: from the initial state, every event of the
/// policy's alphabet with every random input, to a depth bound or until nothing new is reached.
/// Every transition is checked against the `Property` list.
package enum ReconnectExplorer {
    /// The events worth trying for `policy`: the lifecycle, the network, the transport, one
    /// code per reaction for each signal (plus every code an SDK rule names), the server
    /// pushes, the heartbeats, the app, the credentials, the chat room and every timer.
    package static func alphabet(_ policy: ReconnectPolicy) -> [ReconnectEvent] {
        var events: [ReconnectEvent] = [.userLogin, .userLogout, .networkUp, .networkDown]
        if policy.route != nil {
            events += [.routeResolved(ttlMillis: nil), .routeFailed(status: nil)]
            events += policy.interestingCodes(.route).map { .routeFailed(status: $0) }
        }
        events += [.transportOpened, .transportFailed, .transportClosed(code: nil)]
        events += policy.interestingCodes(.close).map { .transportClosed(code: $0) }
        for code in policy.interestingCodes(.login) {
            events.append(.loginResponse(code: code, waitMillis: nil))
            if policy.reaction(.login, code) == .retryAfterServerWait {
                events.append(.loginResponse(code: code, waitMillis: 5000))
            }
        }
        events += policy.interestingCodes(.kick).map { .kicked(code: $0) }
        if policy.loginResponseTimeoutMillis != nil { events.append(.loginAcknowledged) }
        if policy.goaway != nil { events.append(.goaway) }
        if policy.syncAfterLogin { events.append(.syncCompleted) }
        if policy.heartbeat != nil { events += [.heartbeatSent, .heartbeatAnswered, .heartbeatMissed] }
        events += [
            .commandTimeout, .appBackground, .appForeground, .systemWake, .credentialsRefreshed,
            .credentialsRefreshFailed,
        ]
        if policy.chatRoomRejoinWindowMillis != nil { events += [.chatRoomJoined, .chatRoomLeft] }
        events += TimerKind.allCases.map { .timerFired($0) }
        return events
    }

    /// Random inputs worth trying: without jitter one; with jitter the smallest, middle and largest.
    package static func randoms(_ policy: ReconnectPolicy) -> [UInt32] {
        if case .exponential(_, _, _, let jitter) = policy.schedule, jitter > 0 {
            return [0, UInt32.max / 2, UInt32.max]
        }
        return [0]
    }

    private struct EdgeKey: Hashable {
        let from: Phase
        let to: Phase
        let event: Int32
    }

    private struct Node: Hashable {
        let state: ReconnectState
        let monitor: Monitor
    }

    /// Events from outside the machine's own attempts: the user, the network, the app, the
    /// credentials, a `goaway` (the server asks for the move). A reconnect cycle through one of
    /// these is not a storm. Timers and the answers to an attempt (route, transport, login,
    /// kick, heartbeat, command timeout) are not external.
    package static func isExternal(_ event: ReconnectEvent) -> Bool {
        switch event {
        case .userLogin, .userLogout, .networkUp, .networkDown, .appBackground, .appForeground, .systemWake,
            .credentialsRefreshed, .credentialsRefreshFailed, .chatRoomJoined, .chatRoomLeft, .goaway:
            true
        case .routeResolved, .routeFailed, .transportOpened, .transportClosed, .transportFailed, .loginResponse,
            .loginAcknowledged, .kicked, .syncCompleted, .heartbeatSent, .heartbeatAnswered, .heartbeatMissed,
            .commandTimeout, .timerFired:
            false
        }
    }

    /// Explores `policy` to `maxDepth` events (or until every reachable state is seen, or
    /// `maxStates` are stored). `checkProperties: false` explores the machine alone, for diagrams.
    package static func explore(
        _ policy: ReconnectPolicy, maxDepth: Int, maxStates: Int = 3_000_000,
        checkProperties: Bool = true, maxViolations: Int = 20
    ) -> ExplorationReport {
        let maxStates = min(maxStates, Int(Int32.max))
        let events = alphabet(policy)
        let labels = events.map { label($0, policy) }
        let randoms = randoms(policy)
        var nodes: [Node] = [Node(state: ReconnectState(), monitor: Monitor())]
        var parents: [(parent: Int32, event: Int32)] = [(-1, -1)]
        var index: [Node: Int32] = [nodes[0]: 0]
        var frontier: [Int32] = [0]
        var depth = 0
        var transitions = 0
        var phases: Set<Phase> = [.idle]
        // Cheap keys while searching; outputs and labels are made once at the end.
        var emitted: Set<VendorOutput> = []
        var edgeKeys: Set<EdgeKey> = []
        var causes: Set<StopCause> = []
        var violations: [Violation] = []
        // The graph of the cycle check: transitions by non-external events that accept no
        // login and cost less than the policy's shortest retry delay (the others cannot be on
        // a cycle that is too fast).
        let shortest = policy.shortestRetryDelayMillis
        var quick = CycleGraph()
        for output in ReconnectMachine.initialOutputs(policy: policy) { emitted.insert(output) }

        func path(_ node: Int32, _ last: ReconnectEvent) -> [String] {
            var names = [last.summary]
            var current = node
            while current > 0 {
                let link = parents[Int(current)]
                names.append(events[Int(link.event)].summary)
                current = link.parent
            }
            return names.reversed()
        }

        while !frontier.isEmpty, depth < maxDepth, nodes.count < maxStates {
            var next: [Int32] = []
            for id in frontier {
                let node = nodes[Int(id)]
                for (eventIndex, event) in events.enumerated() {
                    // The random input only matters where a retry with jitter is scheduled.
                    var seen: [Transition] = []
                    for random in randoms {
                        let transition = ReconnectMachine.step(node.state, event, policy: policy, random: random)
                        if randoms.count > 1 {
                            guard !seen.contains(transition) else { continue }
                            seen.append(transition)
                        }
                        transitions += 1
                        var monitor = node.monitor
                        if checkProperties {
                            let problems = monitor.observe(node.state, event, transition, policy: policy)
                            for (property, message) in problems where violations.count < maxViolations {
                                violations.append(
                                    Violation(property: property, message: message, path: path(id, event)))
                            }
                        }
                        let after = transition.state
                        phases.insert(after.phase)
                        if let stop = after.stop { causes.insert(stop.cause) }
                        for action in transition.actions {
                            if case .emit(let output) = action { emitted.insert(output) }
                        }
                        if after.phase != node.state.phase {
                            edgeKeys.insert(EdgeKey(from: node.state.phase, to: after.phase, event: Int32(eventIndex)))
                        }
                        // Counts past the ceiling behave alike (same delays, same budget verdict).
                        var abstract = after
                        abstract.attempt = min(after.attempt, policy.attemptCeiling)
                        let child = Node(state: abstract, monitor: checkProperties ? monitor : Monitor())
                        var childID = index[child]
                        if childID == nil, nodes.count < maxStates {
                            let newID = Int32(nodes.count)
                            index[child] = newID
                            nodes.append(child)
                            parents.append((id, Int32(eventIndex)))
                            next.append(newID)
                            childID = newID
                        }
                        if checkProperties, let childID, !isExternal(event),
                            !transition.milestones.contains(where: { if case .loggedIn = $0 { true } else { false } })
                        {
                            // A timer costs the delay it was scheduled with; anything else is free.
                            var cost: Int64 = 0
                            if case .timerFired(let kind) = event, node.monitor.armed.contains(kind) {
                                cost = node.monitor.delays[kind]
                            }
                            if cost < shortest, childID != id || reconnects(transition) {
                                quick.add(
                                    from: id, to: childID, cost: cost, event: Int32(eventIndex),
                                    reconnects: reconnects(transition))
                            }
                        }
                    }
                }
            }
            frontier = next
            depth += 1
        }
        if checkProperties {
            // Its own allowance: per-transition violations of a storm (immediate retries) must
            // not crowd out the cycle that explains them.
            for cycle in quick.cyclesFaster(than: shortest, nodes: nodes.count, limit: maxViolations) {
                let names = cycle.events.map { events[Int($0)].summary }
                var lead = path(cycle.start, events[Int(cycle.events[0])])
                lead.removeLast()
                violations.append(
                    Violation(
                        property: .noZeroDelayReconnectCycle,
                        message: """
                            a cycle of \(cycle.events.count) transitions reconnects every \(cycle.cost) ms \
                            (shortest retry delay \(shortest) ms) without an external event: \
                            \(names.joined(separator: " → "))
                            """,
                        path: lead + names))
            }
        }
        return ExplorationReport(
            policy: policy.name, states: nodes.count, transitions: transitions, depth: depth,
            complete: frontier.isEmpty,
            phases: phases,
            outputs: Set(emitted.map(OutputModel.key)),
            stopCauses: causes, violations: violations,
            edges: Set(edgeKeys.map { PhaseEdge(from: $0.from, to: $0.to, label: labels[Int($0.event)]) }))
    }

    /// The transition starts a connection: it opens a transport or looks a route up.
    static func reconnects(_ transition: Transition) -> Bool {
        transition.actions.contains {
            switch $0 {
            case .openTransport, .resolveRoute: true
            default: false
            }
        }
    }

    /// `login-response (stop login-rejected)`, `timer retry`.
    static func label(_ event: ReconnectEvent, _ policy: ReconnectPolicy) -> String {
        // Plain backing off is the default; other reactions are named.
        func tagged(_ signal: Signal, _ code: Int64?) -> String {
            let reaction = policy.reaction(signal, code)
            return reaction == .retry ? event.name : "\(event.name) (\(shortName(reaction)))"
        }
        switch event {
        case .transportClosed(let code): return code == nil ? event.name : tagged(.close, code)
        case .loginResponse(let code, _):
            if policy.acceptCodes.contains(code) { return "\(event.name) (accepted)" }
            if policy.progressCodes.contains(code) { return "\(event.name) (progress)" }
            return tagged(.login, code)
        case .kicked(let code): return tagged(.kick, code)
        case .routeFailed(let status): return tagged(.route, status)
        case .timerFired(let kind): return "timer \(kind.rawValue)"
        default: return event.name
        }
    }

    static func shortName(_ reaction: Reaction) -> String {
        switch reaction {
        case .retry: "retry"
        case .retryAfter(let delay): "retry after \(DurationText.text(millis: delay))"
        case .retryAfterServerWait: "server wait"
        case .reconnectNow: "reconnect now"
        case .refreshCredentials: "refresh credentials"
        case .proceedWithoutRoute: "default address"
        case .stop(let cause): "stop \(cause.rawValue)"
        case .ignore: "ignore"
        }
    }
}
