/// How long an SDK waits before its n-th automatic reconnect attempt. `n` counts from 0: the
/// first attempt after a drop of an established session, or after the failure of the user's
/// first connect. Milliseconds throughout; a delay of zero or less means "at once".
public enum RetrySchedule: Sendable, Hashable {
    /// Listed delays for the first attempts, then one delay repeating (LeanCloud Swift/ObjC).
    case table(millis: [Int64], thenRepeatingMillis: Int64)
    /// `base·factor^n`, moved by up to ±`jitterPPM` parts per million of itself, then capped
    /// (the backo2 formula of socket.io clients; LeanCloud JS, Java, NIM Web).
    case exponential(baseMillis: Int64, factor: Int64, capMillis: Int64, jitterPPM: Int64)
    /// The same delay every time (LeanCloud C#, yun2win Web and Android).
    case fixed(millis: Int64)
    /// `step·(n+1)`, capped (the yun2win iOS watchdog `min(n+1, 3)` s).
    case linear(stepMillis: Int64, capMillis: Int64)

    /// The largest jitter a schedule may declare: beyond ±50 % a delay could reach zero.
    package static let maximumJitterPPM: Int64 = 500_000

    /// The delay before attempt `n` without jitter (capped), ms.
    public func nominalMillis(_ n: Int) -> Int64 {
        switch self {
        case .table(let delays, let repeating): return delays.indices.contains(n) ? delays[n] : repeating
        case .exponential(let base, let factor, let cap, _): return min(Self.raw(base, factor, n, cap), cap)
        case .fixed(let delay): return delay
        case .linear(let step, let cap):
            let (count, tooMany) = Int64(max(0, n)).addingReportingOverflow(1)
            let (product, overflow) = step.multipliedReportingOverflow(by: count)
            return tooMany || overflow ? cap : min(product, cap)
        }
    }

    /// The delays attempt `n` can get, whatever the random input, ms.
    public func boundsMillis(_ n: Int) -> ClosedRange<Int64> {
        guard case .exponential(let base, let factor, let cap, let jitter) = self else {
            let delay = nominalMillis(n)
            return delay...delay
        }
        let raw = Self.raw(base, factor, n, cap)
        let deviation = Self.deviationLimit(raw, jitter)
        let lower = min(max(0, raw - deviation), cap)
        let upper = min(raw + deviation, cap)
        return lower...max(lower, upper)
    }

    /// The delay of attempt `n` for the random input `random` (uniform over all `UInt32`
    /// values), ms. Without jitter the random input is ignored.
    public func delayMillis(_ n: Int, random: UInt32) -> Int64 {
        guard case .exponential(let base, let factor, let cap, let jitter) = self, jitter > 0 else {
            return nominalMillis(n)
        }
        let raw = Self.raw(base, factor, n, cap)
        // The random input as parts per million, then a signed share of the jitter.
        let fraction = Int64((UInt64(random) &* 1_000_000) >> 32)
        let (scaled, overflow) = raw.multipliedReportingOverflow(by: jitter)
        guard !overflow else { return cap }
        let (signed, overflow2) = scaled.multipliedReportingOverflow(by: 2 * fraction - 1_000_000)
        guard !overflow2 else { return cap }
        return min(max(0, raw + signed / 1_000_000_000_000), cap)
    }

    /// The first attempt from which every later attempt gets the same delays (the cap).
    package var capIndex: Int {
        switch self {
        case .table(let delays, _): return delays.count
        case .fixed: return 0
        case .linear(let step, let cap):
            guard step > 0, cap > 0 else { return 0 }
            return Int(max(0, (cap - 1) / step))
        case .exponential:
            var n = 0
            while n < 64, boundsMillis(n) != boundsMillis(n + 1) { n += 1 }
            return n
        }
    }

    /// How many attempts at the start of the schedule go at once (delay ≤ 0).
    package var leadingImmediateAttempts: Int {
        var n = 0
        while n < 64, nominalMillis(n) <= 0 { n += 1 }
        return n
    }

    /// The largest delay the schedule ever gives, ms.
    package var maximumMillis: Int64 { (0...capIndex).map { boundsMillis($0).upperBound }.max() ?? 0 }

    /// "−1, 0, 1, 2, 4, 8, 16 s, then 30 s repeating", for the Spec.
    package var summary: String {
        switch self {
        case .table(let delays, let repeating):
            return delays.map { DurationText.text(millis: $0) }.joined(separator: ", ")
                + ", then \(DurationText.text(millis: repeating)) repeating (≤ 0: at once)"
        case .exponential(let base, let factor, let cap, let jitter):
            let spread = jitter > 0 ? " ± \(DurationText.ppm(jitter)) of the delay" : ""
            return "min(\(DurationText.text(millis: base))·\(factor)^n\(spread), \(DurationText.text(millis: cap)))"
        case .fixed(let delay): return "\(DurationText.text(millis: delay)) every time"
        case .linear(let step, let cap):
            return "min(\(DurationText.text(millis: step))·(n+1), \(DurationText.text(millis: cap)))"
        }
    }

    /// `base·factor^n`, stopping the growth once it is far enough past the cap that jitter
    /// cannot bring it back below (so it never overflows).
    static func raw(_ base: Int64, _ factor: Int64, _ n: Int, _ cap: Int64) -> Int64 {
        var value = max(0, base)
        var remaining = max(0, n)
        let ceiling = cap > Int64.max / 4 ? Int64.max / 2 : 2 * cap
        while remaining > 0, value > 0, value <= ceiling, factor > 1 {
            let (product, overflow) = value.multipliedReportingOverflow(by: factor)
            if overflow { return Int64.max / 2 }
            value = product
            remaining -= 1
        }
        return value
    }

    static func deviationLimit(_ raw: Int64, _ jitter: Int64) -> Int64 {
        let (scaled, overflow) = raw.multipliedReportingOverflow(by: max(0, jitter))
        return overflow ? raw : scaled / 1_000_000
    }
}

/// How many automatic attempts an SDK makes before it gives up, and what it does then.
public struct RetryBudget: Sendable, Hashable {
    /// What the SDK does when its schedule runs out.
    public enum Exhausted: String, Sendable, Hashable {
        /// Stop reconnecting; the user has to log in again (LeanCloud Java).
        case stop
        /// Forget the route, start counting again (LeanCloud C#: reset the router and loop).
        case resetRouteAndRestart = "reset-route-and-restart"
    }

    /// Attempts allowed after a drop; nil: unlimited.
    public let attempts: Int?
    public let whenExhausted: Exhausted

    package init(attempts: Int?, whenExhausted: Exhausted = .stop) {
        self.attempts = attempts
        self.whenExhausted = whenExhausted
    }

    public static let unlimited = RetryBudget(attempts: nil)

    package var summary: String {
        guard let attempts else { return "unlimited" }
        if attempts == 0 { return "none: no automatic reconnect" }
        return "\(attempts) attempts, then " + (whenExhausted == .stop ? "stop" : "reset the route and start again")
    }
}

/// Durations as people read them.
package enum DurationText {
    /// `millis` milliseconds as "1.6 s", "300 ms", "30 min", "−1 s".
    package static func text(millis ms: Int64) -> String {
        if ms < 0 { return "−" + text(millis: ms == Int64.min ? Int64.max : -ms) }
        if ms >= 60_000, ms % 60_000 == 0 { return "\(ms / 60_000) min" }
        if ms >= 1000 || ms == 0 {
            return ms % 1000 == 0 ? "\(ms / 1000) s" : "\(ms / 1000).\(Self.decimals(ms % 1000)) s"
        }
        return "\(ms) ms"
    }

    static func decimals(_ remainder: Int64) -> String {
        var digits = String(remainder)
        while digits.count < 3 { digits = "0" + digits }
        while digits.hasSuffix("0") { digits.removeLast() }
        return digits
    }

    /// "1 %" for 10 000 ppm.
    package static func ppm(_ value: Int64) -> String {
        value % 10_000 == 0 ? "\(value / 10_000) %" : "\(value) ppm"
    }
}
