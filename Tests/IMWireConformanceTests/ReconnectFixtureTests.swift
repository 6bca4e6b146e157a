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
        let result = FixtureVerifier.verify(path: copy)
        #expect(!result.passed)
        #expect(result.problems.first?.contains("step 8") == true)
    }
}
