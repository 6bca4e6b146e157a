import IMWireDialect
import Testing

@Suite struct PendingTimesTests {
    @Test func nothingWaitedOnIsNeverDue() {
        #expect(PendingTimes().nothingDue(at: .max, timeout: 0))
    }

    /// The oldest item decides; a removed one (the bounds are not narrowed) only costs a scan.
    @Test func theEarliestTimeDecides() {
        var times = PendingTimes()
        for time: Int64 in [5_000, 1_000, 9_000] { times.insert(time) }
        #expect(times.earliest == 1_000 && times.latest == 9_000)
        #expect(times.nothingDue(at: 31_000, timeout: 30_000))
        #expect(!times.nothingDue(at: 31_001, timeout: 30_000))
        times.reset([5_000, 9_000])
        #expect(times.nothingDue(at: 31_001, timeout: 30_000))
        #expect(times.nothingDue(at: 0, timeout: 30_000))  // a clock that went back: nothing has waited yet
    }

    /// A wait that overflows may be overdue to a tracker: never "nothing due" then.
    @Test func anOverflowingWaitIsNotSkipped() {
        var times = PendingTimes()
        times.insert(.max - 10)
        times.insert(-10)
        #expect(!times.nothingDue(at: .min, timeout: .max))
        #expect(!times.nothingDue(at: .max, timeout: .max))
    }
}
