import IMWireCore

/// One step of a simulation: when, what came in, and what the machine did.
public struct TraceStep: Sendable, Hashable {
    /// Milliseconds on the simulation's clock.
    public let time: Int64
    public let event: ReconnectEvent
    public let from: Phase
    public let state: ReconnectState
    public let actions: [ReconnectAction]
    public let milestones: [Milestone]

    /// The actions without the outputs.
    public var commands: [ReconnectAction] { actions.filter { if case .emit = $0 { false } else { true } } }

    public var outputs: [VendorOutput] { actions.compactMap { if case .emit(let output) = $0 { output } else { nil } } }
}

/// Drives the machine with a clock and a timer queue: the embedding a client would write. It
/// keeps the timers the machine asked for, fires each when the clock passes its due time, and
/// draws the random input of every step from a seeded SplitMix64, so a run replays identically.
public struct ReconnectSimulator: Sendable {
    public let policy: ReconnectPolicy
    public private(set) var state = ReconnectState()
    /// Milliseconds.
    public private(set) var now: Int64 = 0
    /// Due time of every armed timer.
    public private(set) var dueTimes: [TimerKind: Int64] = [:]
    private var generator: SplitMix64
    /// Steps applied so far, timers included.
    public private(set) var stepCount = 0
    /// `advance` fires no timer once `stepCount` reaches this: a clock moved years ahead would
    /// otherwise fire a connected client's heartbeats without end.
    public var stepLimit = Int.max
    /// Set when `advance` left a due timer unfired because of `stepLimit`.
    public private(set) var stoppedAtLimit = false

    public init(policy: ReconnectPolicy, seed: UInt64 = 0) {
        self.policy = policy
        generator = SplitMix64(seed: seed)
    }

    /// Fires the timers due up to `time`, then applies `event` at `time` (a time before the
    /// clock is taken as the clock). `random` replaces the drawn random input of this event.
    public mutating func feed(_ event: ReconnectEvent, at time: Int64, random: UInt32? = nil) -> [TraceStep] {
        var steps = advance(to: time)
        if case .timerFired(let kind) = event { dueTimes[kind] = nil }
        steps.append(apply(event, at: max(now, time), random: random))
        return steps
    }

    /// Fires, in order of due time, every timer due at or before `time`, and moves the clock there.
    public mutating func advance(to time: Int64) -> [TraceStep] {
        var steps: [TraceStep] = []
        while let next = nextDue(), next.time <= time {
            guard stepCount < stepLimit else {
                stoppedAtLimit = true
                break
            }
            dueTimes[next.kind] = nil
            steps.append(apply(.timerFired(next.kind), at: next.time, random: nil))
        }
        now = max(now, time)
        return steps
    }

    /// The earliest armed timer; ties go by `TimerKind` order.
    private func nextDue() -> (kind: TimerKind, time: Int64)? {
        var best: (kind: TimerKind, time: Int64)?
        for kind in TimerKind.allCases {
            guard let due = dueTimes[kind] else { continue }
            if let current = best, current.time <= due { continue }
            best = (kind, due)
        }
        return best
    }

    private mutating func apply(_ event: ReconnectEvent, at time: Int64, random: UInt32?) -> TraceStep {
        stepCount += 1
        now = max(now, time)
        let drawn = UInt32(truncatingIfNeeded: generator.next() >> 32)
        let from = state.phase
        let transition = ReconnectMachine.step(state, event, policy: policy, random: random ?? drawn)
        state = transition.state
        for action in transition.actions {
            switch action {
            case .scheduleTimer(let kind, let delay):
                let (due, overflow) = now.addingReportingOverflow(delay)
                dueTimes[kind] = overflow ? Int64.max : due
            case .cancelTimer(let kind):
                dueTimes[kind] = nil
            default:
                break
            }
        }
        return TraceStep(
            time: now, event: event, from: from, state: state, actions: transition.actions,
            milestones: transition.milestones)
    }
}
