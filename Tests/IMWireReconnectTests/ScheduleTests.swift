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
        #expect((0..<10).map(schedule.nominalMillis) == [-1000, 0, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000])
        #expect(schedule.leadingImmediateAttempts == 2)
        #expect(schedule.capIndex == 7)
    }

    @Test func leanCloudJSDoublesToFiveMinutes() {
        let schedule = LeanCloudPolicies.js.schedule
        #expect(
            (0..<11).map(schedule.nominalMillis) == [
                1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 300000, 300000,
            ])
        #expect(schedule.capIndex == 9)
        #expect(schedule.leadingImmediateAttempts == 0)
    }

    @Test func javaAndCSharpAndYun2win() {
        #expect((0..<4).map(LeanCloudPolicies.java.schedule.nominalMillis) == [2000, 4000, 8000, 8000])
        #expect((0..<12).allSatisfy { LeanCloudPolicies.csharp.schedule.nominalMillis($0) == 10_000 })
        #expect((0..<5).map(Yun2winPolicies.ios.schedule.nominalMillis) == [1000, 2000, 3000, 3000, 3000])
        #expect(Yun2winPolicies.web.schedule.nominalMillis(7) == 1000)
        #expect(Yun2winPolicies.android.schedule.nominalMillis(0) == 10_000)
    }

    @Test func nimJitterBoundsAreOnePercentUntilTheCap() {
        let schedule = NIMPolicies.web.schedule
        #expect(schedule.boundsMillis(0) == 1584...1616)
        #expect(schedule.boundsMillis(1) == 3168...3232)
        #expect(schedule.boundsMillis(2) == 6336...6464)
        #expect(schedule.boundsMillis(3) == 8000...8000)
        #expect(schedule.capIndex == 3)
        #expect(schedule.delayMillis(0, random: 0) == 1584)
        #expect(schedule.delayMillis(0, random: UInt32.max) == 1615)
        #expect(schedule.delayMillis(2, random: UInt32.max / 2) == 6400)
    }

    @Test(arguments: ReconnectPolicies.all)
    func delaysGrowUntilTheCapThenStay(_ policy: ReconnectPolicy) {
        let schedule = policy.schedule
        let cap = schedule.capIndex
        for n in 0..<(cap + 5) {
            #expect(schedule.nominalMillis(n) <= schedule.nominalMillis(n + 1), "\(policy.name) shrinks at \(n)")
            #expect(schedule.boundsMillis(n).lowerBound <= schedule.boundsMillis(n + 1).lowerBound)
            if n >= cap {
                #expect(
                    schedule.boundsMillis(n) == schedule.boundsMillis(cap), "\(policy.name) moves after its cap at \(n)"
                )
            }
        }
        #expect(schedule.maximumMillis >= schedule.nominalMillis(cap))
    }

    @Test(arguments: ReconnectPolicies.all)
    func everyRandomInputStaysWithinTheBounds(_ policy: ReconnectPolicy) {
        var generator = SplitMix64(seed: 11)
        for n in 0..<(policy.schedule.capIndex + 3) {
            for _ in 0..<200 {
                let random = UInt32(truncatingIfNeeded: generator.next())
                #expect(policy.schedule.boundsMillis(n).contains(policy.schedule.delayMillis(n, random: random)))
            }
        }
        if case .exponential(_, _, _, let jitter) = policy.schedule {
            #expect(jitter <= RetrySchedule.maximumJitterPPM)
        }
    }

    @Test func hugeSchedulesSaturateInsteadOfTrapping() {
        let schedule = RetrySchedule.exponential(
            baseMillis: Int64.max / 3, factor: 1000, capMillis: Int64.max / 2, jitterPPM: 500_000)
        #expect(schedule.delayMillis(60, random: UInt32.max) <= Int64.max / 2)
        #expect(RetrySchedule.linear(stepMillis: Int64.max, capMillis: 10).nominalMillis(Int.max) == 10)
        #expect(
            RetrySchedule.exponential(baseMillis: 0, factor: 2, capMillis: 10, jitterPPM: 0).nominalMillis(Int.max) == 0
        )
        #expect(RetrySchedule.linear(stepMillis: 1000, capMillis: 3000).capIndex == 2)
    }

    @Test func durationsReadAsPeopleWriteThem() {
        #expect(DurationText.text(millis: 1600) == "1.6 s")
        #expect(DurationText.text(millis: -1000) == "−1 s")
        #expect(DurationText.text(millis: 1_800_000) == "30 min")
        #expect(DurationText.text(millis: 250) == "250 ms")
        #expect(DurationText.ppm(10_000) == "1 %")
        #expect(DurationText.text(millis: Int64.min).hasPrefix("−"))
    }
}
