import IMWireCheck
import IMWireCore

/// Wycheproof-style vector files (`imwire fixtures export --format vectors`,
/// `Spec/conformance-vectors.schema.json`): one self-describing JSON file per suite, readable by
/// any language without a runner.
public enum ConformanceVectors {
    /// The schema every file names in `schema`.
    public static let schema = "conformance-vectors.schema.json"

    /// One file per suite: its name (`<suite>.json`) and contents, from the cases given. The
    /// round-trip (`both`) cases are left out: a decode test and an encode test of the same
    /// fixture say it already.
    public static func files(_ cases: [ConformanceCase]) -> [(name: String, json: JSONValue)] {
        ConformanceSuite.allCases.compactMap { suite in
            let mine = cases.filter { $0.suite == suite && $0.operation != .both }
            return mine.isEmpty ? nil : (suite.rawValue + ".json", file(suite, mine))
        }
    }

    /// `valid`: a clean fixture; `invalid`: one with a finding that is an error even in lenient
    /// mode; `acceptable`: only findings that lenient mode lowers to a warning or info (strict
    /// implementations reject it, lenient ones may accept it).
    static func result(_ testCase: ConformanceCase) -> String {
        guard case .rejected(let findings) = testCase.expectation else { return "valid" }
        let lenientError = findings.contains { (RuleCatalog.rule($0.rule)?.lenientSeverity ?? .error) >= .error }
        return lenientError ? "invalid" : "acceptable"
    }

    static func file(_ suite: ConformanceSuite, _ cases: [ConformanceCase]) -> JSONValue {
        var groups: [(key: String, operation: ConformanceCase.Operation, options: JSONObject, tests: [JSONValue])] = []
        var notes: [String: String] = [:]
        var tcID = 0
        for testCase in cases {
            tcID += 1
            var test = JSONObject()
            test.append("tcId", .number(JSONNumber(tcID)))
            test.append("caseId", .string(testCase.id))
            test.append("comment", .string(testCase.comment))
            var flags: [JSONValue] = []
            let verdict = result(testCase)
            if verdict == "valid" { flags.append("Valid") }
            if verdict == "acceptable" {
                flags.append("StrictOnly")
                notes["StrictOnly"] =
                    "Rejected in strict mode only: every finding is a warning or info in lenient mode."
            }
            if case .rejected(let findings) = testCase.expectation {
                for finding in findings where !flags.contains(.string(finding.rule.rawValue)) {
                    flags.append(.string(finding.rule.rawValue))
                    if let rule = RuleCatalog.rule(finding.rule) {
                        notes[rule.id.rawValue] = "\(rule.summary) (\(rule.specRef))"
                    }
                }
            }
            test.append("flags", .array(flags))
            test.append("result", .string(verdict))
            switch testCase.input {
            case .hex(let bytes): test.append("input", ["hex": .string(Hex.encode(bytes))])
            case .text(let text): test.append("input", ["text": .string(text)])
            case .value(let value): test.append("input", ["value": value])
            }
            switch testCase.expectation {
            case .value(let value):
                test.append("expected", ["value": value])
            case .bytes(let bytes, let asJSON):
                test.append(
                    "expected",
                    asJSON
                        ? ["hex": .string(Hex.encode(bytes)), "compare": "json"] : ["hex": .string(Hex.encode(bytes))])
            case .roundTrip(let value, let bytes, _):
                test.append("expected", ["value": value, "hex": .string(Hex.encode(bytes))])
            case .rejected(let findings):
                let first = findings.compactMap(\.offset).min()
                let rule = findings.first { $0.offset == first }?.rule ?? findings.first?.rule
                var expected = JSONObject()
                expected.append("firstOffset", first.map { .number(JSONNumber($0)) } ?? .null)
                expected.append("rule", rule.map { .string($0.rawValue) } ?? .null)
                expected.append(
                    "findings",
                    .array(
                        findings.map { finding in
                            [
                                "rule": .string(finding.rule.rawValue),
                                "offset": finding.offset.map { .number(JSONNumber($0)) } ?? .null,
                            ]
                        }))
                test.append("expected", .object(expected))
            }
            let key = testCase.operation.rawValue + JSONWriter.string(.object(testCase.options), sortedKeys: true)
            if let index = groups.firstIndex(where: { $0.key == key }) {
                groups[index].tests.append(.object(test))
            } else {
                groups.append((key, testCase.operation, testCase.options, [.object(test)]))
            }
        }
        notes["Valid"] =
            "A valid input: decodes to `expected.value`, or a canonical value that encodes to `expected.hex`."
        var root = JSONObject()
        root.append("suite", .string(suite.rawValue))
        root.append("schema", .string(schema))
        root.append("protocol", .number(JSONNumber(TesteeProtocol.version)))
        root.append("numberOfTests", .number(JSONNumber(cases.count)))
        root.append(
            "header",
            [
                """
                IMWire golden fixtures of this suite (Fixtures/, \
                Spec/fixtures.schema.json), as vectors. A test's result:
                """,
                "valid (decodes to expected.value / encodes to expected.hex), invalid (must be rejected), acceptable",
                """
                (rejected in strict mode; lenient implementations \
                may accept). expected.firstOffset and rule: where and
                """,
                "why IMWire rejects. Options as in Spec/conformance.md.",
            ])
        var noteObject = JSONObject()
        for key in notes.keys.sorted() { noteObject.append(key, .string(notes[key] ?? "")) }
        root.append("notes", .object(noteObject))
        root.append(
            "testGroups",
            .array(
                groups.map { group in
                    [
                        "type": .string(group.operation == .decode ? "DecodeTest" : "EncodeTest"),
                        "operation": .string(group.operation.rawValue), "options": .object(group.options),
                        "tests": .array(group.tests),
                    ]
                }))
        return .object(root)
    }
}
