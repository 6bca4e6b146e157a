import IMWireCore

@testable import IMWireReconnect

/// Runs `events` (milliseconds, event) through a simulator of `policy`, then fires timers until `untilMillis`.
func simulate(
    _ policy: ReconnectPolicy, _ events: [(Int64, ReconnectEvent)], untilMillis: Int64? = nil, seed: UInt64 = 0
) -> [TraceStep] {
    run(policy, events, untilMillis: untilMillis, seed: seed).steps
}

/// `simulate`, with the misfits the simulator reported beside the steps.
func run(
    _ policy: ReconnectPolicy, _ events: [(Int64, ReconnectEvent)], untilMillis: Int64? = nil, seed: UInt64 = 0
) -> (steps: [TraceStep], misfits: [ReconnectSimulation.Misfit]) {
    var simulator = ReconnectSimulator(policy: policy, seed: seed)
    var steps: [TraceStep] = []
    for (time, event) in events { steps += simulator.feed(event, atMillis: time) }
    if let untilMillis { steps += simulator.advance(toMillis: untilMillis) }
    return (steps, simulator.misfits)
}

/// Every command of a trace as text, outputs left out.
func commands(_ steps: [TraceStep]) -> [String] { steps.flatMap { $0.commands.map(\.description) } }

/// The retry delays a trace scheduled.
func retryDelays(_ steps: [TraceStep]) -> [Int64] {
    steps.flatMap(\.actions).compactMap { if case .scheduleTimer(.retry, let delay) = $0 { delay } else { nil } }
}

/// The events of a connect that succeeds: route (when the policy has one), transport, login.
func connect(_ policy: ReconnectPolicy, atMillis time: Int64) -> [(Int64, ReconnectEvent)] {
    var events: [(Int64, ReconnectEvent)] = []
    if policy.route != nil { events.append((time, .routeResolved(ttlMillis: nil))) }
    events.append((time + 1, .transportOpened))
    events.append((time + 2, .loginResponse(code: policy.acceptCodes.first ?? 0, waitMillis: nil)))
    return events
}

/// µs from seconds, for judge observations.
func µs(_ seconds: Double) -> Int64 { Int64(seconds * 1_000_000) }

/// `policy` with some values changed: the forged policies the negative tests explore.
func variant(
    of policy: ReconnectPolicy, name: String? = nil, schedule: RetrySchedule? = nil, budget: RetryBudget? = nil,
    connectTimeoutMillis: Int64?? = nil
) -> ReconnectPolicy {
    ReconnectPolicy(
        name: name ?? policy.name + "-forged", dialect: policy.dialect, sdk: policy.sdk,
        schedule: schedule ?? policy.schedule,
        budget: budget ?? policy.budget, heartbeat: policy.heartbeat,
        connectTimeoutMillis: connectTimeoutMillis ?? policy.connectTimeoutMillis,
        loginTimeoutMillis: policy.loginTimeoutMillis, loginResponseTimeoutMillis: policy.loginResponseTimeoutMillis,
        loginResends: policy.loginResends,
        route: policy.route, reconnectFlag: policy.reconnectFlag, acceptCodes: policy.acceptCodes,
        progressCodes: policy.progressCodes,
        rules: policy.rules, registry: policy.registry, goaway: policy.goaway,
        backgroundClosesConnection: policy.backgroundClosesConnection,
        networkChangeResetsBackoff: policy.networkChangeResetsBackoff, wakeForcesReconnect: policy.wakeForcesReconnect,
        chatRoomRejoinWindowMillis: policy.chatRoomRejoinWindowMillis, syncAfterLogin: policy.syncAfterLogin,
        outputs: policy.outputs,
        facts: policy.facts)
}

/// A state in `phase` with `timers` armed, for forged transitions.
func forgedState(_ phase: Phase, timers: [TimerKind] = [], _ edit: (inout ReconnectState) -> Void = { _ in })
    -> ReconnectState
{
    var state = ReconnectState()
    state.phase = phase
    state.timers = TimerSet(timers)
    edit(&state)
    return state
}
