import IMWire
import Testing

/// Every byte a capture carries is decoded, skipped or lost in exactly one connection's account,
/// and no part of an account is negative: on every capture in the repository (the samples and
/// the real recordings under Fixtures/captures/real/), with one checking thread and with two.
@Suite struct AccountingTests {
    static let captures: [String] = [".jsonl", ".pcapng", ".har"].flatMap { suffix in
        Directory.files(under: "\(repositoryRoot)/Fixtures/captures", suffix: suffix)
    }.sorted()

    @Test func thereAreCapturesOfEveryKind() {
        #expect(Self.captures.count >= 30)
        #expect(Self.captures.contains { $0.hasSuffix(".har") } && Self.captures.contains { $0.hasSuffix(".pcapng") })
    }

    @Test(arguments: captures)
    func everyByteIsAccountedFor(path: String) throws {
        var carried = 0
        try CaptureFile.open(path).forEachEvent { carried += $0.byteCount }
        for jobs in [1, 2] {
            let report = try check(path, jobs: jobs)
            for connection in report.connections {
                #expect(connection.account.isConsistent, "\(connection.id): \(connection.account)")
            }
            #expect(report.connections.reduce(0) { $0 + $1.account.captured } == carried, "jobs \(jobs)")
        }
    }
}
