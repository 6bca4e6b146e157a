import Foundation
import IMWire
import Testing

/// `--jobs` spreads connections over threads; the report must not depend on how many.
@Suite struct JobsTests {
    static let samples: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "\(repositoryRoot)/Fixtures/captures")) ?? []
        return names.filter { $0.hasSuffix(".jsonl") || $0.hasSuffix(".pcapng") }.sorted().map {
            "Fixtures/captures/\($0)"
        }
    }()

    /// The report of `imwire check FILE --jobs`: a file, whose socket.io connections are spread.
    static func report(_ path: String, jobs: Int) throws -> String {
        var options = CheckOptions()
        options.dialectOptions[JMessageSessionOptions.self].secret = "master-secret-1"
        return JSONReport.render(
            try Checker.check(path: "\(repositoryRoot)/\(path)", options: options, jobs: jobs), threshold: .info)
    }

    @Test func samplesAreThere() {
        #expect(Self.samples.count >= 10)
    }

    @Test(arguments: samples) func sameReportForAnyJobs(_ path: String) throws {
        let one = try Self.report(path, jobs: 1)
        for jobs in [2, 3, 8] {
            #expect(try Self.report(path, jobs: jobs) == one, "jobs \(jobs) on \(path)")
        }
    }

    /// Every sample's lines dealt into one transcript, connections renamed apart, so the lanes get
    /// connections of all four dialects interleaved, and reconnects span lanes.
    @Test func interleavedDialects() throws {
        let files = Self.samples.filter { $0.hasSuffix(".jsonl") }
        var columns = try files.enumerated().map { index, path in
            try readText(path).split(separator: "\n").map { line in
                line.replacingOccurrences(
                    of: #""conn": ?""#, with: #""conn": "f\#(index)-"#, options: .regularExpression)
            }
        }
        var merged: [String] = []
        while columns.contains(where: { !$0.isEmpty }) {
            for index in columns.indices where !columns[index].isEmpty { merged.append(columns[index].removeFirst()) }
        }
        let path = NSTemporaryDirectory() + "imwire-jobs-\(getpid()).jsonl"
        try (merged.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }

        let one = try check(path, jobs: 1)
        #expect(one.connections.count > 20)
        #expect(one.allFindings.contains { $0.ruleID.rawValue == "RECONNECT.STORM" })
        #expect(one.allFindings.contains { $0.ruleID.rawValue == "NIM.AUTO-RELOGIN" })
        let expected = JSONReport.render(one, threshold: .info)
        var spooled = CheckOptions()
        spooled.reportsInMemory = 3  // most connections' reports in the spool, judge findings added to them there
        let spooledReport = try check(path, options: spooled, jobs: 2)
        #expect(spooledReport == one)
        // The counts kept as connections end (judge findings included) are those of the reports.
        for report in [one, spooledReport] {
            for severity in Severity.allCases {
                let counted = report.connections.reduce(0) { $0 + $1.findings.count { $0.severity == severity } }
                #expect(report.connections.count(severity) == counted, "\(severity)")
            }
            #expect(report.connections.dialects == Set(report.connections.compactMap(\.dialect)))
        }
        #expect(one.connections.count(.warning) > 0)
        for jobs in [2, 4] {
            #expect(JSONReport.render(try check(path, jobs: jobs), threshold: .info) == expected, "jobs \(jobs)")
            let spread = try Checker.check(path: path, jobs: jobs)
            #expect(JSONReport.render(spread, threshold: .info) == expected, "jobs \(jobs), spread")
        }
    }

    /// Text and JSON reports read and render connections a batch at a time on `jobs` threads:
    /// the bytes are those of one thread, over several batches, from the spool.
    @Test func reportsRenderTheSameOnSeveralThreads() {
        var options = CheckOptions()
        options.reportsInMemory = 10
        let report = check(lines: SpreadSessionsTests.transcript(clients: 150), options: options)
        #expect(report.connections.count == 150)
        for format in [ReportFormat.text, .json] {
            var formatOptions = ReportFormat.Options(threshold: .info, toolVersion: "test")
            let one = format.render(report, options: formatOptions)
            for jobs in [2, 3] {
                formatOptions.jobs = jobs
                #expect(format.render(report, options: formatOptions) == one, "\(format) jobs \(jobs)")
            }
        }
    }
}
