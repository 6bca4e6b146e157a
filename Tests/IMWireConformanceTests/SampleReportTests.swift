import IMWire
import Testing

/// The JSON report of every sample capture, pinned byte for byte (`scripts/pin-sample-reports.sh`
/// writes the pinned files): a refactoring changes nothing a user sees, and a fix that does
/// change a report shows up in the commit that makes it.
@Suite struct SampleReportTests {
    /// The samples of Fixtures/captures/ itself (the recordings under real/ are verified by
    /// Tests/CrossCheck/real_traffic.py against tshark).
    static let captures: [String] = [".jsonl", ".pcapng", ".har"].flatMap { suffix in
        Directory.files(under: "\(repositoryRoot)/Fixtures/captures", suffix: suffix)
            .filter { !$0.dropFirst("\(repositoryRoot)/Fixtures/captures/".count).contains("/") }
            .map { String($0.split(separator: "/").last ?? "") }
    }.sorted()

    @Test func everySampleHasAPinnedReport() {
        #expect(Self.captures.count >= 10)
        let pinned = Directory.files(under: "\(repositoryRoot)/Fixtures/captures/reports", suffix: ".json")
            .map { String($0.split(separator: "/").last ?? "") }.sorted()
        #expect(pinned == Self.captures.map { "\($0).json" })
    }

    @Test(arguments: captures)
    func reportIsPinned(name: String) throws {
        let report = try check("Fixtures/captures/\(name)")
        let json = JSONReport.render(report, threshold: .info)
        let pinned = try readText("Fixtures/captures/reports/\(name).json")
        #expect(json == pinned, "scripts/pin-sample-reports.sh rewrites the pinned reports")
    }
}
