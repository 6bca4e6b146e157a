/// The earliest and latest times of what a session tracker waits for (requests awaiting their
/// reply, pushes awaiting their ack), so that the timeout check each message runs looks at two
/// numbers instead of every waiting item: for a client that pipelines thousands of requests, that
/// check would be quadratic.
/// Both are bounds, not exact: removing an item leaves them, and `reset` makes them exact again
/// after a scan.
public struct PendingTimes: Sendable, Hashable {
    public private(set) var earliest = Int64.max
    public private(set) var latest = Int64.min

    public init() {}

    /// An item waited on since `time`.
    public mutating func insert(_ time: Int64) {
        earliest = min(earliest, time)
        latest = max(latest, time)
    }

    /// The bounds of exactly these times.
    public mutating func reset(_ times: some Sequence<Int64>) {
        self = PendingTimes()
        for time in times { insert(time) }
    }

    /// Whether no item can have waited longer than `timeout` at `now`: every wait `now - t` for
    /// `t` between the bounds is computed without overflow (a tracker may count an overflowing
    /// wait as overdue) and is at most `timeout`. True when nothing is waited on.
    public func nothingDue(at now: Int64, timeout: Int64) -> Bool {
        guard earliest <= latest else { return true }
        let (longest, overflowed) = now.subtractingReportingOverflow(earliest)
        return !overflowed && !now.subtractingReportingOverflow(latest).overflow && longest <= timeout
    }
}
