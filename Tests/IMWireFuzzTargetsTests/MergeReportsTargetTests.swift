import Foundation
import IMWire
import Testing

@testable import IMWireFuzzTargets

/// The MergeReports target on the reports of the fixtures' captures, as `Fuzz/seeds.py` gives them
/// to the fuzzer (the same option bytes): they merge, alone and as shard sets, and the invariants
/// hold; a set with a shard missing is refused.
@Suite struct MergeReportsTargetTests {
    static let root = FailCaseReplayTests.root

    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "imwire-fuzz-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A capture's or a shard's report as `imwire check --format json --merge-data` writes it, of imwire "fuzz".
    static func shardReport(_ path: String) throws -> [UInt8] {
        var options = CheckOptions()
        options.keepsMergeData = true
        var report = try Checker.check(path: path, options: options)
        report.merge?.tool = MergeFuzzing.tool
        return Array(JSONReport.render(report, threshold: .warning).utf8)
    }

    /// Every JSONL capture's report merges (alone, and rendered), and its connections' and capture
    /// findings' spool bytes do in the template; the invariants hold for all of them.
    @Test func captureReportsMerge() throws {
        var merged = 0
        for path in Directory.files(under: "\(Self.root)/Fixtures/captures", suffix: ".jsonl") {
            let report = try Self.shardReport(path)
            for data in [report, [0, 0b0001_0000] + report] {
                #expect(FuzzTarget.mergeReports.run(data).isEmpty, "\(path)")
            }
            if case .merged = MergeFuzzing.Outcome([("r.json", report)]) { merged += 1 }
            let merge = try #require(
                try JSONParser.parse(report, maxDepth: 64)["merge"].map { try MergeData(json: $0) })
            for connection in merge.connections {
                let spool =
                    [UInt8(connection.report.count >> 8), UInt8(connection.report.count & 0xff)] + connection.report
                    + (connection.judge ?? [])
                let input = [0, 0b1000] + spool
                #expect(FuzzTarget.mergeReports.run(input).isEmpty, "\(path)")
                guard case .merged(let again, _, _) = MergeFuzzing.Outcome(MergeFuzzing.inputs(FuzzInput(input))) else {
                    Issue.record("\(path): a connection's spool bytes in the template do not merge")
                    continue
                }
                #expect(again.connections.count == (MergeFuzzing.template?.merge.connections.count ?? 0) + 1)
            }
            #expect(FuzzTarget.mergeReports.run([0, 0b1100] + merge.captureFindings).isEmpty, "\(path)")
        }
        #expect(merged >= 8)
    }

    /// The JSONL captures of several clients cut into shards of about 100 bytes (a client's
    /// connections stay together) merge as a set (variant 1, the reports separated by 0x1E) to as
    /// many connections as the capture's own report has; a set with a shard missing is refused;
    /// the invariants hold either way.
    @Test func shardSetsMerge() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for name in ["leancloud-reconnect.jsonl", "nim-login-sync-send-kicked.jsonl", "yun2win-kicked-reconnect.jsonl"]
        {
            let path = "\(Self.root)/Fixtures/captures/\(name)"
            try FileManager.default.createDirectory(atPath: "\(directory)/\(name)", withIntermediateDirectories: true)
            let result = try CaptureSharder.shard(
                path: path, into: "\(directory)/\(name)", options: .init(maxBytes: 100))
            let reports = try result.shards.map { try Self.shardReport($0.path) }
            #expect(reports.count >= 2, "\(name)")
            let set = [0, 0b0100] + Array(reports.reversed().joined(separator: [0x1e]))
            #expect(FuzzTarget.mergeReports.run(set).isEmpty, "\(name)")
            guard case .merged(let report, _, _) = MergeFuzzing.Outcome(MergeFuzzing.inputs(FuzzInput(set))) else {
                Issue.record("\(name): the shards do not merge")
                continue
            }
            #expect(report.connections.count == (try Checker.check(path: path)).connections.count, "\(name)")
            let missing = [0, 0b0100] + Array(reports.dropFirst().joined(separator: [0x1e]))
            #expect(FuzzTarget.mergeReports.run(missing).isEmpty, "\(name)")
            guard case .refused(let why) = MergeFuzzing.Outcome(MergeFuzzing.inputs(FuzzInput(missing))) else {
                Issue.record("\(name): a set with a shard missing merges")
                continue
            }
            #expect(why.contains("missing"), "\(why)")
        }
        for text in ["", "{}", #"{"version":1,"source":"s","threshold":"warning","merge":{"version":1}}"#, "[\u{1e}]"] {
            #expect(FuzzTarget.mergeReports.run(Array(text.utf8)).isEmpty, "\(text)")
        }
    }
}
