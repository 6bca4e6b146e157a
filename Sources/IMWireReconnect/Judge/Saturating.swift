/// Arithmetic on capture times that never traps: captures are untrusted input.
extension Int64 {
    func minus(_ other: Int64) -> Int64 {
        let (result, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : result
    }

    func plus(_ other: Int64) -> Int64 {
        let (result, overflow) = addingReportingOverflow(other)
        return overflow ? (other < 0 ? .min : .max) : result
    }

    func times(_ other: Int64) -> Int64 {
        let (result, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) != (other < 0) ? .min : .max) : result
    }

    /// Milliseconds (the machine's and the policies' unit) as microseconds (the capture's and
    /// the judge's), saturating.
    var millisAsMicros: Int64 { times(1000) }

    /// Microseconds as milliseconds, rounded up (a server wait of 1 µs still waits 1 ms).
    var microsAsMillisRoundedUp: Int64 { self / 1000 + (self % 1000 > 0 ? 1 : 0) }
}
