import Foundation
import IMWire
import Testing

@Suite struct ReconnectFixtureTests {
    @Test func everyVendorHasFifteenGoldenTracesThatVerify() {
        for vendor in ["leancloud", "nim", "jmessage", "yun2win"] {
            let results = FixtureVerifier.verify(directory: "\(repositoryRoot)/Fixtures/reconnect/\(vendor)")
            #expect(results.count >= 15, "\(vendor): \(results.count) traces")
            for result in results where !result.passed { Issue.record("\(result.path): \(result.problems)") }
        }
    }

    @Test func aTamperedTraceFails() throws {
        let path = "\(repositoryRoot)/Fixtures/reconnect/leancloud/js-backoff-to-cap.json"
        let fixture = try Fixture(path: path)
        #expect(try FixtureVerifier.verify(fixture).isEmpty)
        let text = try readText("Fixtures/reconnect/leancloud/js-backoff-to-cap.json")
        let tampered = text.replacing("\"delay_ms\": 4000", with: "\"delay_ms\": 3000")
        #expect(tampered != text)
        let copy = "/tmp/imwire-reconnect-tampered-js-backoff.json"
        try TextFile.write(tampered, to: copy)
        defer { unlink(copy) }
        let result = FixtureVerifier.verify(path: copy)
        #expect(!result.passed)
        #expect(result.problems.first?.contains("step 8") == true)
    }

    /// `imwire reconnect simulate --events` takes a golden trace as it is: events under `input`.
    @Test func aGoldenTraceIsAnEventFile() throws {
        let file = try EventFile.parse(try readText("Fixtures/reconnect/nim/account-disabled-422.json"))
        #expect(file.policy == "nim-web")
        #expect(file.entries.count == 4)
        #expect(file.untilMillis == 120_000)
        #expect {
            try EventFile.parse(#"{"description": "no events here"}"#)
        } throws: { ($0 as? IMWireError)?.code == .reconnectEventFile }
    }

    /// Every golden trace is a consistent story: each of its 83 event files runs through its
    /// policy without a misfit (an event that does not fit the state it meets).
    @Test func noGoldenTraceHasAMisfit() throws {
        var traces = 0
        for vendor in ["leancloud", "nim", "jmessage", "yun2win"] {
            let names = try FileManager.default.contentsOfDirectory(
                atPath: "\(repositoryRoot)/Fixtures/reconnect/\(vendor)")
            for name in names.sorted() where name.hasSuffix(".json") {
                let file = try EventFile.parse(try readText("Fixtures/reconnect/\(vendor)/\(name)"))
                let policy = try #require(file.policy.flatMap(ReconnectPolicies.named), "\(vendor)/\(name)")
                let simulation = try file.run(policy)
                #expect(simulation.misfits.isEmpty, "\(vendor)/\(name): \(simulation.misfits.map(\.description))")
                #expect(simulation.steps.count >= file.entries.count)
                traces += 1
            }
        }
        #expect(traces == 83)
    }

    /// A connected client's heartbeats fire for as long as the clock runs: `until` three years
    /// ahead stops at `maxSteps` with a clear error instead of running without end; the same
    /// file with `until` a minute ahead runs.
    @Test func untilYearsAheadStopsAtTheStepLimit() throws {
        let events =
            #"{"ms":0,"event":"user-login"}"# + "\n" + #"{"ms":5,"event":"route-resolved"}"# + "\n"
            + #"{"ms":10,"event":"transport-opened"}"# + "\n" + #"{"ms":20,"event":"login-response","code":0}"#
        let policy = try #require(ReconnectPolicies.named("leancloud-swift"))
        let far = try EventFile.parse(#"{"until":100000000000}"# + "\n" + events)
        do {
            _ = try far.run(policy, maxSteps: 1_000)
            Issue.record("ran past its step limit")
        } catch {
            #expect(error.code == .reconnectStepLimit)
            #expect(error.description.contains("1000 steps before ms 100000000000"))
        }
        let near = try EventFile.parse(#"{"until":60000}"# + "\n" + events)
        let steps = try near.run(policy, maxSteps: 1_000).steps
        #expect(steps.count >= 4 && steps.count < 1_000)
    }
}
