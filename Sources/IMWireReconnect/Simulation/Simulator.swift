import IMWireCore

/// One step of a simulation: when, what came in, and what the machine did.
public struct TraceStep: Sendable, Hashable {
    /// When the step happened: milliseconds on the simulation's clock.
    public let timeMillis: Int64
    /// What came in: an event fed, or a timer the simulator fired itself.
    public let event: ReconnectEvent
    /// The phase before the step.
    public let from: Phase
    /// The state after the step.
    public let state: ReconnectState
    /// What the machine asked for, outputs (`emit`) included, in order.
    public let actions: [ReconnectAction]
    /// What happened, in vendor-neutral terms.
    public let milestones: [Milestone]

    /// The actions without the outputs.
    public var commands: [ReconnectAction] { actions.filter { if case .emit = $0 { false } else { true } } }

    /// The outputs alone: what the SDK shows the app in this step.
    public var outputs: [VendorOutput] { actions.compactMap { if case .emit(let output) = $0 { output } else { nil } } }
}

/// Drives the machine with a clock and a timer queue: the embedding a client would write. It
/// keeps the timers the machine asked for, fires each when the clock passes its due time, and
/// draws the random input of every step from a seeded SplitMix64, so a run replays identically.
/// An event fed that does not fit the state it meets (`ReconnectSimulation.misfit(_:in:)`), or
/// comes before the clock, is applied all the same (the machine ignores it) and recorded in
/// `misfits`.
public struct ReconnectSimulator: Sendable {
    /// The policy the machine runs.
    public let policy: ReconnectPolicy
    /// The machine's state after the last step.
    public private(set) var state = ReconnectState()
    /// The simulation's clock, milliseconds.
    public private(set) var nowMillis: Int64 = 0
    /// Due time of every armed timer, milliseconds on the clock.
    public private(set) var dueMillis: [TimerKind: Int64] = [:]
    private var generator: SplitMix64
    /// Steps applied so far, timers included.
    public private(set) var stepCount = 0
    /// Events fed so far (the timers the simulator fires itself not counted): the index the
    /// next fed event gets in `misfits`.
    public private(set) var eventCount = 0
    /// Every fed event that did not fit, in order.
    public private(set) var misfits: [ReconnectSimulation.Misfit] = []
    /// `advance` fires no timer once `stepCount` reaches this: a clock moved years ahead would
    /// otherwise fire a connected client's heartbeats without end.
    public var stepLimit = Int.max
    /// Set when `advance` left a due timer unfired because of `stepLimit`.
    public private(set) var stoppedAtLimit = false

    /// A simulator of `policy` at clock 0 in the initial state; `seed` seeds the random input.
    public init(policy: ReconnectPolicy, seed: UInt64 = 0) {
        self.policy = policy
        generator = SplitMix64(seed: seed)
    }

    /// Fires the timers due up to `time` (ms), then applies `event` at `time` (a time before the
    /// clock is taken as the clock). `random` replaces the drawn random input of this event.
    /// An event that does not fit the state it meets, or a time before the clock, is recorded
    /// in `misfits` (one entry per reason) and applied all the same.
    public mutating func feed(_ event: ReconnectEvent, atMillis time: Int64, random: UInt32? = nil) -> [TraceStep] {
        let clock = nowMillis
        var steps = advance(toMillis: time)
        let index = eventCount
        eventCount += 1
        func record(_ reason: ReconnectSimulation.Misfit.Reason) {
            misfits.append(
                ReconnectSimulation.Misfit(
                    eventIndex: index, stepIndex: stepCount, timeMillis: time, event: event, state: state,
                    reason: reason))
        }
        if time < clock { record(.clockWentBack(clockMillis: clock)) }
        if let reason = ReconnectSimulation.misfit(event, in: state) { record(reason) }
        if case .timerFired(let kind) = event { dueMillis[kind] = nil }
        steps.append(apply(event, atMillis: max(nowMillis, time), random: random))
        return steps
    }

    /// Fires, in order of due time, every timer due at or before `time` (ms), and moves the
    /// clock there.
    public mutating func advance(toMillis time: Int64) -> [TraceStep] {
        var steps: [TraceStep] = []
        while let next = nextDue(), next.millis <= time {
            guard stepCount < stepLimit else {
                stoppedAtLimit = true
                break
            }
            dueMillis[next.kind] = nil
            steps.append(apply(.timerFired(next.kind), atMillis: next.millis, random: nil))
        }
        nowMillis = max(nowMillis, time)
        return steps
    }

    /// The earliest armed timer; ties go by `TimerKind` order.
    private func nextDue() -> (kind: TimerKind, millis: Int64)? {
        var best: (kind: TimerKind, millis: Int64)?
        for kind in TimerKind.allCases {
            guard let due = dueMillis[kind] else { continue }
            if let current = best, current.millis <= due { continue }
            best = (kind, due)
        }
        return best
    }

    private mutating func apply(_ event: ReconnectEvent, atMillis time: Int64, random: UInt32?) -> TraceStep {
        stepCount += 1
        nowMillis = max(nowMillis, time)
        let drawn = UInt32(truncatingIfNeeded: generator.next() >> 32)
        let from = state.phase
        let transition = ReconnectMachine.step(state, event, policy: policy, random: random ?? drawn)
        state = transition.state
        for action in transition.actions {
            switch action {
            case .scheduleTimer(let kind, let delay):
                let (due, overflow) = nowMillis.addingReportingOverflow(delay)
                dueMillis[kind] = overflow ? Int64.max : due
            case .cancelTimer(let kind):
                dueMillis[kind] = nil
            default:
                break
            }
        }
        return TraceStep(
            timeMillis: nowMillis, event: event, from: from, state: state, actions: transition.actions,
            milestones: transition.milestones)
    }
}
