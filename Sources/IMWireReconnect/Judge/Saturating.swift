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
}
