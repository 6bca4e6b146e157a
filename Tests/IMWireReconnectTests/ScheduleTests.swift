import IMWireCore
import IMWireLeanCloud
import IMWireNIM
import IMWireRegistry
import IMWireYun2win
import Testing

@testable import IMWireReconnect

@Suite struct ScheduleTests {
    @Test func leanCloudSwiftDelaysAreTheSDKTable() {
        let schedule = LeanCloudPolicies.swift.schedule
        #expect((0..<10).map(schedule.nominal) == [-1000, 0, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000])
        #expect(schedule.leadingImmediateAttempts == 2)
        #expect(schedule.capIndex == 7)
    }

    @Test func leanCloudJSDoublesToFiveMinutes() {
        let schedule = LeanCloudPolicies.js.schedule
        #expect((0..<11).map(schedule.nominal) == [1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 300000, 300000])
        #expect(schedule.capIndex == 9)
        #expect(schedule.leadingImmediateAttempts == 0)
    }

    @Test func javaAndCSharpAndYun2win() {
        #expect((0..<4).map(LeanCloudPolicies.java.schedule.nominal) == [2000, 4000, 8000, 8000])
        #expect((0..<12).allSatisfy { LeanCloudPolicies.csharp.schedule.nominal($0) == 10_000 })
        #expect((0..<5).map(Yun2winPolicies.ios.schedule.nominal) == [1000, 2000, 3000, 3000, 3000])
        #expect(Yun2winPolicies.web.schedule.nominal(7) == 1000)
        #expect(Yun2winPolicies.android.schedule.nominal(0) == 10_000)
    }

    @Test func nimJitterBoundsAreOnePercentUntilTheCap() {
        let schedule = NIMPolicies.web.schedule
        #expect(schedule.bounds(0) == 1584...1616)
        #expect(schedule.bounds(1) == 3168...3232)
        #expect(schedule.bounds(2) == 6336...6464)
        #expect(schedule.bounds(3) == 8000...8000)
        #expect(schedule.capIndex == 3)
        #expect(schedule.delay(0, random: 0) == 1584)
        #expect(schedule.delay(0, random: UInt32.max) == 1615)
        #expect(schedule.delay(2, random: UInt32.max / 2) == 6400)
    }

    @Test(arguments: ReconnectPolicies.all)
    func delaysGrowUntilTheCapThenStay(_ policy: ReconnectPolicy) {
        let schedule = policy.schedule
        let cap = schedule.capIndex
        for n in 0..<(cap + 5) {
            #expect(schedule.nominal(n) <= schedule.nominal(n + 1), "\(policy.name) shrinks at \(n)")
            #expect(schedule.bounds(n).lowerBound <= schedule.bounds(n + 1).lowerBound)
            if n >= cap { #expect(schedule.bounds(n) == schedule.bounds(cap), "\(policy.name) moves after its cap at \(n)") }
        }
        #expect(schedule.maximum >= schedule.nominal(cap))
    }

    @Test(arguments: ReconnectPolicies.all)
    func everyRandomInputStaysWithinTheBounds(_ policy: ReconnectPolicy) {
        var generator = SplitMix64(seed: 11)
        for n in 0..<(policy.schedule.capIndex + 3) {
            for _ in 0..<200 {
                let random = UInt32(truncatingIfNeeded: generator.next())
                #expect(policy.schedule.bounds(n).contains(policy.schedule.delay(n, random: random)))
            }
        }
        if case .exponential(_, _, _, let jitter) = policy.schedule {
            #expect(jitter <= RetrySchedule.maximumJitterPPM)
        }
    }

    @Test func hugeSchedulesSaturateInsteadOfTrapping() {
        let schedule = RetrySchedule.exponential(baseMs: Int64.max / 3, factor: 1000, capMs: Int64.max / 2, jitterPPM: 500_000)
        #expect(schedule.delay(60, random: UInt32.max) <= Int64.max / 2)
        #expect(RetrySchedule.linear(stepMs: Int64.max, capMs: 10).nominal(Int.max) == 10)
        #expect(RetrySchedule.exponential(baseMs: 0, factor: 2, capMs: 10, jitterPPM: 0).nominal(Int.max) == 0)
        #expect(RetrySchedule.linear(stepMs: 1000, capMs: 3000).capIndex == 2)
    }

    @Test func durationsReadAsPeopleWriteThem() {
        #expect(DurationText.text(1600) == "1.6 s")
        #expect(DurationText.text(-1000) == "−1 s")
        #expect(DurationText.text(1_800_000) == "30 min")
        #expect(DurationText.text(250) == "250 ms")
        #expect(DurationText.ppm(10_000) == "1 %")
        #expect(DurationText.text(Int64.min).hasPrefix("−"))
    }
}
