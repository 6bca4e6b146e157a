import Foundation
import IMWire
import Testing

@testable import IMWireReport

/// What `imwire proxy` and `imwire serve` print as a live check goes: the lines a printer emits.
@Suite struct LivePrinterTests {
    /// The emitted lines, in order (the printer is called on one queue at a time).
    final class Emitted: @unchecked Sendable {
        var lines: [String] = []
    }

    static func printed(_ format: LiveFormat, threshold: Severity, report: CheckReport) -> [String] {
        let emitted = Emitted()
        let printer = LivePrinter(format: format, threshold: threshold, messages: false) { emitted.lines.append($0) }
        for connection in report.connections {
            for finding in connection.findings { printer.finding(finding, firstTime: nil) }
        }
        printer.summary(report)
        return emitted.lines
    }

    @Test func textPutsEachConnectionOnceAboveItsFindings() throws {
        let report = try ReportTests.broken()
        let lines = Self.printed(.text, threshold: .warning, report: report)
        let shown = report.connections.filter { $0.findings.contains { $0.severity >= .warning } }
        #expect(!shown.isEmpty)
        // One emit per finding at or above the threshold, and the summary.
        #expect(lines.count == report.summary(.warning).count + 1)
        let headers = lines.flatMap { $0.split(separator: "\n") }.filter { $0.hasPrefix("connection ") }
        #expect(headers.map(String.init) == shown.map { "connection \($0.id)" })
        #expect(lines.last == TextReport.summaryLine(report, threshold: .warning))
    }

    @Test func jsonlIsOneObjectPerFindingThenASummary() throws {
        let report = try ReportTests.broken()
        let lines = Self.printed(.jsonl, threshold: .info, report: report)
        let objects = try lines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let findings = objects.filter { $0["type"] as? String == "finding" }
        #expect(findings.count == report.summary(.info).count)
        let rules = findings.compactMap { ($0["finding"] as? [String: Any])?["rule"] as? String }
        #expect(rules == report.connections.flatMap { $0.findings.map(\.ruleID.rawValue) })
        let summary = try #require(objects.last)
        #expect(summary["type"] as? String == "summary")
        #expect(summary["connections"] as? Int == report.connections.count)
        #expect(summary["error"] as? Int == report.count(.error))
        #expect(summary["exitCode"] as? Int == Int(report.exitCode(threshold: .info)))
    }

    @Test func findingsBelowTheThresholdAreNotPrinted() throws {
        let report = try ReportTests.broken()
        let lines = Self.printed(.jsonl, threshold: .error, report: report)
        #expect(lines.count == report.summary(.error).count + 1)
    }
}
