import IMWireCore
import IMWireLeanCloud
import IMWireNIM
import IMWireRegistry
import Testing

@testable import IMWireReconnect

/// The exploration proves a property only if the property can fail. For every `Property` a
/// forged transition (or a forged policy explored for real) that breaks it, shown to be caught.
@Suite struct PropertyNegativeTests {
    /// What the monitor reports for one forged step.
    static func observe(
        _ policy: ReconnectPolicy, _ before: ReconnectState, _ event: ReconnectEvent, _ transition: Transition,
        monitor: Monitor = Monitor()
    ) -> Set<Property> {
        var monitor = monitor
        return Set(monitor.observe(before, event, transition, policy: policy).map(\.0))
    }

    /// Per property, a breach and what the checks report for it.
    static let breaches: [Property: @Sendable () -> Set<Property>] = [
        .noConnectAfterStop: {
            // A stopped client opens a transport on network-up.
            let stopped = forgedState(.stopped) { $0.stop = StopRecord(cause: .kicked, code: 4111) }
            var monitor = Monitor()
            monitor.halted = true
            return observe(
                LeanCloudPolicies.swift, stopped, .networkUp,
                Transition(state: stopped, actions: [.openTransport], milestones: []),
                monitor: monitor)
        },
        .oneTimerPerKind: {
            // A second retry timer while one waits, without cancelling the first.
            let waiting = forgedState(.waiting, timers: [.retry])
            var monitor = Monitor()
            monitor.armed = TimerSet([.retry])
            return observe(
                LeanCloudPolicies.swift, waiting, .commandTimeout,
                Transition(state: waiting, actions: [.scheduleTimer(.retry, delayMillis: 1000)], milestones: []),
                monitor: monitor)
        },
        .positiveTimerDelays: {
            // A policy asking for a 0 ms connect timeout, run through the real machine; and the
            // same request rounded up to 1 ms (a clamp would hide the zero).
            let zero = variant(of: NIMPolicies.web, connectTimeoutMillis: .some(0))
            let resolving = forgedState(.resolving)
            let real = ReconnectMachine.step(resolving, .routeResolved(ttlMillis: nil), policy: zero)
            let clamped = Transition(
                state: forgedState(.connecting, timers: [.connect]),
                actions: [.openTransport, .scheduleTimer(.connect, delayMillis: 1)], milestones: [])
            return observe(zero, resolving, .routeResolved(ttlMillis: nil), real)
                .intersection(observe(zero, resolving, .routeResolved(ttlMillis: nil), clamped))
        },
        .staleTimersInert: {
            // A retry timer nobody armed fires and starts an attempt.
            let online = forgedState(.online, timers: [.heartbeat])
            var monitor = Monitor()
            monitor.armed = TimerSet([.heartbeat])
            monitor.transportOpen = true
            let after = forgedState(.connecting, timers: [.heartbeat])
            return observe(
                LeanCloudPolicies.swift, online, .timerFired(.retry),
                Transition(state: after, actions: [.openTransport], milestones: []), monitor: monitor)
        },
        .timerBookkeeping: {
            // The state says a retry timer is armed; no action scheduled one.
            let failed = Transition(state: forgedState(.waiting, timers: [.retry]), actions: [], milestones: [])
            var monitor = Monitor()
            monitor.transportOpen = true
            return observe(
                LeanCloudPolicies.swift, forgedState(.connecting), .transportFailed, failed, monitor: monitor)
        },
        .retryDelayWithinBounds: {
            // Retry 4 of Swift after 10 ms (the schedule says 4 s).
            var monitor = Monitor()
            monitor.retryIndex = 4
            let tooSoon = Transition(
                state: forgedState(.waiting, timers: [.retry]), actions: [.scheduleTimer(.retry, delayMillis: 10)],
                milestones: [.retryScheduled(attempt: 4, delayMillis: 10)])
            return observe(LeanCloudPolicies.swift, ReconnectState(), .transportFailed, tooSoon, monitor: monitor)
        },
        .budgetHonoured: {
            // Java after its 3 retries schedules a fourth; elsewhere it stops for the budget after one.
            let java = LeanCloudPolicies.java
            var spent = Monitor()
            spent.retryIndex = 3
            let fourth = Transition(
                state: forgedState(.waiting, timers: [.retry]), actions: [.scheduleTimer(.retry, delayMillis: 8000)],
                milestones: [.retryScheduled(attempt: 3, delayMillis: 8000)])
            var early = Monitor()
            early.retryIndex = 1
            let stopped = forgedState(.stopped) { $0.stop = StopRecord(cause: .budgetExhausted, code: nil) }
            let giveUp = Transition(state: stopped, actions: [.stop(.budgetExhausted, code: nil)], milestones: [])
            return observe(java, ReconnectState(), .transportFailed, fourth, monitor: spent)
                .intersection(observe(java, ReconnectState(), .transportFailed, giveUp, monitor: early))
        },
        .boundedImmediateRetries: {
            // LeanCloud JS never retries at once; a forged immediate retry.
            var monitor = Monitor()
            monitor.transportOpen = true
            let atOnce = Transition(
                state: forgedState(.connecting), actions: [.openTransport],
                milestones: [.retryScheduled(attempt: 0, delayMillis: 0)])
            return observe(LeanCloudPolicies.js, forgedState(.connecting), .transportFailed, atOnce, monitor: monitor)
        },
        .noZeroDelayReconnectCycle: {
            // A policy whose every retry goes at once, explored: connecting → failed → connecting.
            let storm = variant(of: LeanCloudPolicies.csharp, schedule: .fixed(millis: 0), budget: .unlimited)
            let report = ReconnectExplorer.explore(storm, maxDepth: 200, maxViolations: 200)
            return Set(report.violations.map(\.property))
        },
        .reconnectFlag: {
            // A re-login after a session without r=true.
            var monitor = Monitor()
            monitor.sessionSinceLogin = true
            monitor.transportOpen = true
            let login = Transition(
                state: forgedState(.authenticating) { $0.hadSession = true }, actions: [.sendLogin(flag: nil)],
                milestones: [])
            return observe(
                LeanCloudPolicies.csharp, forgedState(.connecting), .transportOpened, login, monitor: monitor)
        },
        .idleIsQuiet: {
            // Logged out, network-up opens a transport.
            observe(
                LeanCloudPolicies.swift, ReconnectState(), .networkUp,
                Transition(state: ReconnectState(), actions: [.resolveRoute(clearCache: false)], milestones: []))
        },
        .phaseInvariants: {
            // Waiting without a retry timer (the monitor's count agrees with the state: only
            // the invariant sees it).
            var monitor = Monitor()
            monitor.transportOpen = true
            return observe(
                LeanCloudPolicies.csharp, forgedState(.connecting), .transportFailed,
                Transition(state: forgedState(.waiting), actions: [], milestones: []), monitor: monitor)
        },
        .oneTransport: {
            // A second transport while one is open.
            var monitor = Monitor()
            monitor.transportOpen = true
            let online = forgedState(.online, timers: [.heartbeat])
            monitor.armed = TimerSet([.heartbeat])
            return observe(
                LeanCloudPolicies.swift, online, .goaway,
                Transition(state: online, actions: [.openTransport], milestones: []),
                monitor: monitor)
        },
    ]

    @Test func everyPropertyHasABreach() {
        #expect(Set(Self.breaches.keys) == Set(Property.allCases))
    }

    @Test(arguments: Property.allCases)
    func theChecksCatchABreachOf(_ property: Property) throws {
        let breach = try #require(Self.breaches[property], "no breach forged for \(property.rawValue)")
        let found = breach()
        #expect(found.contains(property), "\(property.rawValue) did not fire; found \(found.map(\.rawValue).sorted())")
    }

    /// The storm's violation names the cycle and its cost.
    @Test func aStormIsReportedAsItsCycle() throws {
        let storm = variant(of: LeanCloudPolicies.csharp, schedule: .fixed(millis: 0), budget: .unlimited)
        let report = ReconnectExplorer.explore(storm, maxDepth: 200, maxViolations: 200)
        #expect(report.complete)
        let cycle = try #require(report.violations.first { $0.property == .noZeroDelayReconnectCycle })
        #expect(cycle.message.contains("reconnects every 0 ms"))
        // The cycle is an answer to the machine's own attempt (a failed route lookup or
        // transport), repeated at once; the path leads there from the user's login.
        let failures = ["route-failed", "transport-failed", "transport-closed"]
        #expect(failures.contains { cycle.message.hasSuffix(": " + $0) }, "\(cycle)")
        #expect(cycle.path.first == "user-login")
    }

    /// The cycle search on a hand-made graph: 0 → 1 reconnects for free, 1 → 0 is a 500 ms
    /// timer. Under a 1 s bound that is a storm; under a 500 ms bound it is not; without the
    /// reconnect it is no storm at all.
    @Test func theCycleSearchWeighsTimers() {
        var graph = CycleGraph()
        graph.add(from: 0, to: 1, cost: 0, event: 7, reconnects: true)
        graph.add(from: 1, to: 2, cost: 0, event: 8, reconnects: false)
        graph.add(from: 2, to: 0, cost: 500, event: 9, reconnects: false)
        graph.add(from: 2, to: 3, cost: 0, event: 10, reconnects: false)
        let found = graph.cyclesFaster(than: 1000, nodes: 4, limit: 5)
        #expect(found.count == 1)
        #expect(found.first?.events == [7, 8, 9])
        #expect(found.first?.cost == 500)
        #expect(graph.cyclesFaster(than: 500, nodes: 4, limit: 5).isEmpty)

        var quiet = CycleGraph()
        quiet.add(from: 0, to: 1, cost: 0, event: 1, reconnects: false)
        quiet.add(from: 1, to: 0, cost: 0, event: 2, reconnects: false)
        #expect(quiet.cyclesFaster(than: 1000, nodes: 2, limit: 5).isEmpty)

        var instant = CycleGraph()
        instant.add(from: 0, to: 0, cost: 0, event: 3, reconnects: true)
        #expect(instant.cyclesFaster(than: 1, nodes: 1, limit: 5).first?.cost == 0)
    }

    /// The real policies: nothing fires (the proofs), and the cycle graph is searched.
    @Test func theRealPoliciesHaveNoStorm() {
        for policy in ReconnectPolicies.all {
            #expect(
                !(ReconnectExplorer.proofs[policy.name]?.violations.contains {
                    $0.property == .noZeroDelayReconnectCycle
                } ?? true))
        }
    }
}
