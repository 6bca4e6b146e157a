import IMWireCheck
import IMWireCore
import IMWireRegistry

/// `--format junit`: one test suite per connection, one test case per rule family (the ID's
/// prefix: LC, PB, WS, CAPTURE…) that applies to it; a case fails when a finding of the family
/// is at or above the threshold. CI systems then show which layer broke on which connection.
public enum JUnitReport {
    public static func render(_ report: CheckReport, threshold: Severity) -> String {
        var suites: [String] = []
        var totalTests = 0
        var totalFailures = 0
        for connection in report.connections {
            let families = Set(RuleCatalog.all.filter { applies($0, to: connection) }.map(family))
                .union(connection.findings.map { family($0.rule) })
            var cases: [String] = []
            var failures = 0
            for name in families.sorted() {
                let failing = connection.findings.filter { family($0.rule) == name && $0.severity >= threshold }
                var testCase = "    <testcase classname=\"\(Markup.escape(connection.id))\" name=\"\(name)\""
                if failing.isEmpty {
                    testCase += "/>"
                } else {
                    failures += 1
                    let body = failing.map { line($0) }.joined(separator: "\n")
                    testCase +=
                        ">\n      <failure message=\"\(counted(failing.count, "finding"))\" type=\"\(Markup.escape(failing[0].ruleID.rawValue))\">"
                    testCase += Markup.escape(body) + "</failure>\n    </testcase>"
                }
                cases.append(testCase)
            }
            totalTests += cases.count
            totalFailures += failures
            suites.append(
                "  <testsuite name=\"\(Markup.escape(connection.id))\" tests=\"\(cases.count)\" failures=\"\(failures)\">\n"
                    + cases.joined(separator: "\n") + "\n  </testsuite>")
        }
        let captureFailing = report.captureFindings.filter { $0.severity >= threshold }
        totalTests += 1
        var captureCase = "    <testcase classname=\"capture\" name=\"CAPTURE\""
        if captureFailing.isEmpty {
            captureCase += "/>"
        } else {
            totalFailures += 1
            captureCase +=
                ">\n      <failure message=\"\(counted(captureFailing.count, "finding"))\" type=\"\(Markup.escape(captureFailing[0].ruleID.rawValue))\">"
                + Markup.escape(captureFailing.map(line).joined(separator: "\n")) + "</failure>\n    </testcase>"
        }
        suites.insert(
            "  <testsuite name=\"capture\" tests=\"1\" failures=\"\(captureFailing.isEmpty ? 0 : 1)\">\n\(captureCase)\n  </testsuite>", at: 0)
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"imwire check \(Markup.escape(report.source))\" tests=\"\(totalTests)\" failures=\"\(totalFailures)\">\n"
            + suites.joined(separator: "\n") + "\n</testsuites>\n"
    }

    static func family(_ rule: Rule) -> String { String(rule.id.rawValue.prefix { $0 != "." }) }

    /// The dialects whose connections use a transport-level rule family (each dialect names its own).
    static let transportFamilies: [String: Set<Dialect>] = Dialects.all.reduce(into: [:]) { table, definition in
        for family in definition.transportRuleFamilies { table[family, default: []].insert(definition.dialect) }
    }

    /// Rules that could fire on this connection: its dialect's, the transports its dialect uses
    /// (MQTT for yun2win, socket.io and HTTP for NIM and JMessage), and the dialect-free layers'
    /// (but the live check's).
    static func applies(_ rule: Rule, to connection: ConnectionReport) -> Bool {
        if let dialect = rule.dialect { return dialect == connection.dialect }
        // A live check's own rules are about the proxy, never about one connection's traffic.
        if LiveRules.all.contains(where: { $0.id == rule.id }) { return false }
        guard let dialects = transportFamilies[family(rule)] else { return true }
        return connection.dialect.map(dialects.contains) ?? false
    }

    private static func line(_ finding: Finding) -> String {
        var text = "[\(finding.ruleID)] \(finding.severity)"
        if let frame = finding.location.frameIndex { text += " #\(frame)" }
        text += ": \(finding.message)"
        if let offset = finding.offset { text += " (offset \(offset))" }
        return text + " [\(finding.specRef)]"
    }
}
