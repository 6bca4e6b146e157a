import IMWireCheck
import IMWireCore
import IMWireRegistry

/// `--format junit`: one test suite per connection, one test case per rule family (the ID's
/// prefix: LC, PB, WS, CAPTURE…) that applies to it; a case fails when a finding of the family
/// is at or above the threshold. CI systems then show which layer broke on which connection.
package enum JUnitReport {
    package static func render(_ report: CheckReport, threshold: Severity) -> String {
        var text: [UInt8] = []
        write(report, threshold: threshold) { text += $0 }
        return String(decoding: text, as: UTF8.self)
    }

    /// The report in pieces, one connection's suite at a time, so a long report is never held
    /// whole. The totals come first, so the connections are gone through twice: once to count,
    /// once to write.
    package static func write(_ report: CheckReport, threshold: Severity, to emit: ([UInt8]) -> Void) {
        let captureFailing = report.captureFindings.filter { $0.severity >= threshold }
        var totalTests = 1
        var totalFailures = captureFailing.isEmpty ? 0 : 1
        for connection in report.connections {
            // Counted without writing the suite: a family fails when one of its findings does.
            totalTests += families(connection).count
            totalFailures +=
                Set(connection.findings.lazy.filter { $0.severity >= threshold }.map { family($0.rule) }).count
        }
        var captureCase = "    <testcase classname=\"capture\" name=\"CAPTURE\""
        if captureFailing.isEmpty {
            captureCase += "/>"
        } else {
            captureCase +=
                """
                >\n\
                      <failure message="\(counted(captureFailing.count, "finding"))" \
                type="\(Markup.escape(captureFailing[0].ruleID.rawValue))">
                """
                + Markup.escape(captureFailing.map(line).joined(separator: "\n")) + "</failure>\n    </testcase>"
        }
        var head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        head += """
            <testsuites name="imwire check \(Markup.escape(report.source))" \
            tests="\(totalTests)" failures="\(totalFailures)">\n
            """
        head += """
              <testsuite name="capture" tests="1" failures="\(captureFailing.isEmpty ? 0 : 1)">\n\
            \(captureCase)\n  </testsuite>
            """
        emit(Array(head.utf8))
        for connection in report.connections { emit(Array(("\n" + suite(connection, threshold: threshold)).utf8)) }
        emit(Array("\n</testsuites>\n".utf8))
    }

    /// A connection's test cases: the families of the rules that apply to it, and of its findings.
    private static func families(_ connection: ConnectionReport) -> Set<String> {
        (applicableFamilies[connection.dialect] ?? []).union(connection.findings.map { family($0.rule) })
    }

    /// A connection's test suite.
    private static func suite(_ connection: ConnectionReport, threshold: Severity) -> String {
        var cases: [String] = []
        var failures = 0
        for name in families(connection).sorted() {
            let failing = connection.findings.filter { family($0.rule) == name && $0.severity >= threshold }
            var testCase = "    <testcase classname=\"\(Markup.escape(connection.id))\" name=\"\(name)\""
            if failing.isEmpty {
                testCase += "/>"
            } else {
                failures += 1
                let body = failing.map { line($0) }.joined(separator: "\n")
                testCase +=
                    """
                    >\n\
                          <failure message="\(counted(failing.count, "finding"))" \
                    type="\(Markup.escape(failing[0].ruleID.rawValue))">
                    """
                testCase += Markup.escape(body) + "</failure>\n    </testcase>"
            }
            cases.append(testCase)
        }
        return
            "  <testsuite name=\"\(Markup.escape(connection.id))\" tests=\"\(cases.count)\" failures=\"\(failures)\">\n"
            + cases.joined(separator: "\n") + "\n  </testsuite>"
    }

    static func family(_ rule: Rule) -> String { String(rule.id.rawValue.prefix { $0 != "." }) }

    /// The dialects whose connections use a transport-level rule family (each dialect names its own).
    static let transportFamilies: [String: Set<Dialect>] = Dialects.standard.all.reduce(into: [:]) {
        table, definition in
        for family in definition.transportRuleFamilies { table[family, default: []].insert(definition.dialect) }
    }

    /// Rules that could fire on a connection of `dialect` (nil: unknown): its dialect's, the
    /// transports its dialect uses (MQTT for yun2win, socket.io and HTTP for NIM and JMessage),
    /// and the dialect-free layers' (but the live check's).
    static func applies(_ rule: Rule, to dialect: Dialect?) -> Bool {
        if let ruleDialect = rule.dialect { return ruleDialect == dialect }
        // A live check's own rules are about the proxy, never about one connection's traffic.
        if LiveRules.all.contains(where: { $0.id == rule.id }) { return false }
        guard let dialects = transportFamilies[family(rule)] else { return true }
        return dialect.map(dialects.contains) ?? false
    }

    /// The families of the rules that apply to a connection of each of IMWire's dialects (nil:
    /// unknown), worked out once rather than for every connection of every report. Another
    /// dialect's connection lists the families of its findings.
    static let applicableFamilies: [Dialect?: Set<String>] = Dictionary(
        uniqueKeysWithValues: ([nil] + Dialects.standard.all.map { Optional.some($0.dialect) }).map { dialect in
            (dialect, Set(RuleCatalog.all.filter { applies($0, to: dialect) }.map(family)))
        })

    private static func line(_ finding: Finding) -> String {
        var text = "[\(finding.ruleID)] \(finding.severity)"
        if let frame = finding.location.frameIndex { text += " #\(frame)" }
        text += ": \(finding.message)"
        if let offset = finding.offset { text += " (offset \(offset))" }
        return text + " [\(finding.specRef)]"
    }
}
