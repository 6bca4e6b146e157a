import IMWireCore

/// A conformance run as text, JSON or JUnit XML (`imwire conformance run --format`).
public enum ConformanceReport {
    /// One line per test that did not pass as expected, the stale entries, and per suite the
    /// Required and Recommended counts.
    public static func text(_ run: ConformanceRun, verbose: Bool = false) -> String {
        var lines: [String] = []
        for result in run.results where verbose || result.isUnexpectedFailure || result.isStale {
            let mark =
                result.isStale
                ? "STALE"
                : result.isUnexpectedFailure
                    ? "FAIL " : result.listed ? "xfail" : result.verdict == .passed ? "ok   " : "skip "
            lines.append(
                "\(mark) \(result.name)" + (result.detail.isEmpty || result.isStale ? "" : "\n      \(result.detail)"))
            if result.isStale { lines.append("      passes but is in the failure list: remove it") }
        }
        for suite in ConformanceSuite.allCases where run.results.contains(where: { $0.suite == suite }) {
            lines.append(summaryLine(run, suite: suite))
        }
        if !run.unknownListed.isEmpty { lines.append("failure list names \(run.unknownListed.count) test(s) not run") }
        if let stop = run.stopped {
            lines.append(
                """
                STOPPED after \(stop.consecutiveErrors) cases in a row the testee failed (the \
                last, \(stop.lastCase): \(stop.reason)); \(stop.casesNotRun) cases not run
                """)
        }
        lines.append(
            """
            \(run.results.count) tests: \(run.unexpectedFailures.count) \
            unexpected failures, \(run.stale.count) stale failure-list entries
            """
                + (run.passed ? "; PASSED" : "; FAILED"))
        return lines.joined(separator: "\n") + "\n"
    }

    static func summaryLine(_ run: ConformanceRun, suite: ConformanceSuite) -> String {
        func part(_ required: Bool) -> String {
            let all = run.results.filter { $0.suite == suite && $0.required == required }.count
            let passed = run.count(required: required, .passed, suite: suite)
            let skipped = run.count(required: required, .skipped, suite: suite)
            return "\(passed)/\(all)" + (skipped > 0 ? " (\(skipped) skipped)" : "")
        }
        return "\(suite.rawValue): Required \(part(true)), Recommended \(part(false))"
    }

    /// Every test as JSON: `{tests: [{name, case, suite, level, verdict, listed, detail}], summary}`.
    public static func json(_ run: ConformanceRun) -> JSONValue {
        var tests: [JSONValue] = []
        for result in run.results {
            var object = JSONObject()
            object.append("name", .string(result.name))
            object.append("case", .string(result.caseID))
            object.append("suite", .string(result.suite.rawValue))
            object.append("level", result.required ? "Required" : "Recommended")
            object.append("verdict", .string(result.verdict.rawValue))
            object.append("listed", .bool(result.listed))
            object.append("detail", .string(result.detail))
            tests.append(.object(object))
        }
        var suites: [JSONValue] = []
        for suite in ConformanceSuite.allCases where run.results.contains(where: { $0.suite == suite }) {
            var object = JSONObject()
            object.append("suite", .string(suite.rawValue))
            for (key, required) in [("required", true), ("recommended", false)] {
                var counts = JSONObject()
                counts.append(
                    "total",
                    .number(JSONNumber(run.results.filter { $0.suite == suite && $0.required == required }.count)))
                for verdict in [ConformanceVerdict.passed, .failed, .skipped, .error] {
                    counts.append(
                        verdict.rawValue, .number(JSONNumber(run.count(required: required, verdict, suite: suite))))
                }
                object.append(key, .object(counts))
            }
            suites.append(.object(object))
        }
        var summary = JSONObject()
        summary.append("passed", .bool(run.passed))
        summary.append("unexpected_failures", .array(run.unexpectedFailures.map { .string($0.name) }))
        summary.append("stale", .array(run.stale.map { .string($0.name) }))
        summary.append("unknown_listed", .array(run.unknownListed.map(JSONValue.string)))
        if let stop = run.stopped {
            summary.append(
                "stopped",
                .object(
                    JSONObject([
                        "consecutive_errors": .number(JSONNumber(stop.consecutiveErrors)),
                        "last_case": .string(stop.lastCase),
                        "reason": .string(stop.reason), "cases_not_run": .number(JSONNumber(stop.casesNotRun)),
                    ])))
        }
        var root = JSONObject()
        root.append("protocol", .number(JSONNumber(TesteeProtocol.version)))
        root.append("suites", .array(suites))
        root.append("summary", .object(summary))
        root.append("tests", .array(tests))
        return .object(root)
    }

    /// JUnit XML: a testsuite per suite, a testcase per test; unexpected failures and stale
    /// entries are failures, errors errors, skipped and listed failures skipped.
    public static func junit(_ run: ConformanceRun) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"imwire conformance\">\n"
        for suite in ConformanceSuite.allCases {
            let results = run.results.filter { $0.suite == suite }
            guard !results.isEmpty else { continue }
            let failures = results.filter { ($0.verdict == .failed && !$0.listed) || $0.isStale }.count
            let errors = results.filter { $0.verdict == .error && !$0.listed }.count
            let skipped = results.filter { $0.verdict == .skipped || ($0.listed && $0.verdict != .passed) }.count
            out +=
                """
                  <testsuite name="\(escape(suite.rawValue))" tests="\(results.count)" \
                failures="\(failures)" errors="\(errors)" skipped="\(skipped)">\n
                """
            for result in results {
                out += "    <testcase classname=\"\(escape(suite.rawValue))\" name=\"\(escape(result.name))\""
                if result.isStale {
                    out += "><failure message=\"stale failure-list entry: the test passes\"/></testcase>\n"
                } else if result.isUnexpectedFailure {
                    let tag = result.verdict == .error ? "error" : "failure"
                    out += "><\(tag) message=\"\(escape(result.detail))\"/></testcase>\n"
                } else if result.verdict != .passed {
                    out += """
                        ><skipped \
                        message="\(escape((result.listed ? "in the failure list: " : "") + result.detail))"/>\
                        </testcase>\n
                        """
                } else {
                    out += "/>\n"
                }
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            // XML 1.0 allows neither most control characters nor U+FFFE and U+FFFF, even escaped.
            case _ where !scalar.isXMLCharacter: out += "?"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
