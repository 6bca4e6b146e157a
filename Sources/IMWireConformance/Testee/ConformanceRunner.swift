import IMWireCore

/// The verdict of one conformance test.
public enum ConformanceVerdict: String, Sendable {
    /// The answer conforms.
    case passed
    /// The testee answered, wrongly.
    case failed
    /// The testee skipped the case or does not implement its suite or operation.
    case skipped
    /// The testee answered `error`, crashed, hung, or wrote garbage or a wrong id.
    case error
}

/// One graded test: a case's Required test or its Recommended one.
public struct ConformanceTestResult: Sendable {
    public let name: String
    public let caseID: String
    public let suite: ConformanceSuite
    public let required: Bool
    public let verdict: ConformanceVerdict
    /// Why it did not pass (empty when it did).
    public let detail: String
    /// The failure list names it.
    public var listed = false

    /// A failure the failure list does not name.
    public var isUnexpectedFailure: Bool { (verdict == .failed || verdict == .error) && !listed }
    /// A listed test that passes: the failure list is stale.
    public var isStale: Bool { verdict == .passed && listed }
}

/// What became of one request.
public enum TesteeOutcome: Sendable {
    /// The testee answered (with the request's id).
    case response(TesteeResponse)
    /// It crashed, hung past the timeout, wrote garbage or answered another id.
    case failure(String)
}

/// Grades testee answers against cases.
public enum ConformanceGrader {
    /// The Required test of `testCase` and, when it has one, its Recommended test.
    public static func grade(_ testCase: ConformanceCase, _ outcome: TesteeOutcome) -> [ConformanceTestResult] {
        let (verdict, detail) = required(testCase, outcome)
        var results = [
            ConformanceTestResult(
                name: testCase.requiredName, caseID: testCase.id, suite: testCase.suite, required: true,
                verdict: verdict, detail: detail)
        ]
        if let name = testCase.recommendedName, case .rejected(let findings) = testCase.expectation {
            var recommended = (verdict, detail)
            if verdict == .passed, case .response(let response) = outcome {
                recommended = offsetMatches(response, findings)
            }
            results.append(
                ConformanceTestResult(
                    name: name, caseID: testCase.id, suite: testCase.suite, required: false, verdict: recommended.0,
                    detail: recommended.1))
        }
        return results
    }

    static func required(_ testCase: ConformanceCase, _ outcome: TesteeOutcome) -> (ConformanceVerdict, String) {
        let response: TesteeResponse
        switch outcome {
        case .failure(let why): return (.error, why)
        case .response(let given): response = given
        }
        switch response.result {
        case .skipped, .unsupported:
            return (.skipped, response.result.rawValue + (response.message.map { ": \($0)" } ?? ""))
        case .error: return (.error, "testee error" + (response.message.map { ": \($0)" } ?? ""))
        case .ok, .rejected: break
        }
        switch testCase.expectation {
        case .rejected:
            return response.result == .rejected ? (.passed, "") : (.failed, "accepted input that must be rejected")
        case .value(let expected):
            guard response.result == .ok else { return (.failed, "rejected a valid input: \(describe(response))") }
            guard let value = response.value else { return (.failed, "ok without a value") }
            return value.semanticallyEquals(expected)
                ? (.passed, "") : (.failed, "value \(clip(value.description)), expected \(clip(expected.description))")
        case .bytes(let expected, let asJSON):
            guard response.result == .ok else { return (.failed, "refused to encode: \(describe(response))") }
            return sameBytes(response, expected, asJSON: asJSON)
        case .roundTrip(let value, let bytes, let asJSON):
            guard response.result == .ok else { return (.failed, "rejected a valid input: \(describe(response))") }
            guard let given = response.value else { return (.failed, "ok without a value") }
            guard given.semanticallyEquals(value) else {
                return (.failed, "value \(clip(given.description)), expected \(clip(value.description))")
            }
            return sameBytes(response, bytes, asJSON: asJSON)
        }
    }

    /// The response's bytes are `expected` (as JSON documents for `asJSON`).
    static func sameBytes(_ response: TesteeResponse, _ expected: [UInt8], asJSON: Bool) -> (ConformanceVerdict, String)
    {
        guard let bytes = response.bytes else { return (.failed, "ok without hex or text") }
        let same: Bool
        if asJSON, let left = try? JSONParser.parse(bytes), let right = try? JSONParser.parse(expected) {
            same = left.semanticallyEquals(right)
        } else {
            same = bytes == expected
        }
        return same
            ? (.passed, "") : (.failed, "encoded \(clip(Hex.encode(bytes))), expected \(clip(Hex.encode(expected)))")
    }

    /// Recommended: the rejection names an offset one expected finding has (and, when it names a
    /// rule in IMWire's form, that finding's rule).
    static func offsetMatches(_ response: TesteeResponse, _ findings: [Fixture.ExpectedFinding]) -> (
        ConformanceVerdict, String
    ) {
        let expected = findings.map(\.description).joined(separator: ", ")
        guard let offset = response.offset else {
            return (.failed, "rejection without an offset; expected \(expected)")
        }
        let atOffset = findings.filter { $0.offset == offset }
        guard !atOffset.isEmpty else { return (.failed, "rejected at offset \(offset), expected \(expected)") }
        if let rule = response.rule, rule.contains("."), rule.uppercased() == rule,
            !atOffset.contains(where: { $0.rule.rawValue == rule })
        {
            return (.failed, "rejected by \(rule)@\(offset), expected \(expected)")
        }
        return (.passed, "")
    }

    static func describe(_ response: TesteeResponse) -> String {
        var text = response.result.rawValue
        if let rule = response.rule { text += " \(rule)" }
        if let offset = response.offset { text += " at \(offset)" }
        if let message = response.message { text += " (\(clip(message)))" }
        return text
    }

    static func clip(_ text: String) -> String { text.count > 200 ? String(text.prefix(200)) + "…" : text }
}

/// A failure list: names of tests a testee is known to fail, one a line; `#` starts a comment.
public struct ConformanceFailureList: Sendable {
    public let names: Set<String>

    /// Parses the list's text.
    public init(text: String) {
        var names: Set<String> = []
        for line in text.split(whereSeparator: \.isNewline) {
            let name = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let trimmed = name.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
            if !trimmed.isEmpty { names.insert(trimmed) }
        }
        self.names = names
    }

    /// An empty list.
    public init() { names = [] }
}

/// A way to exchange framed messages with a testee: a child process in the CLI, a function in tests.
public protocol TesteeChannel {
    /// Sends one request body and waits (at most `timeoutMilliseconds`) for one response body.
    /// A failure (crash, hang, garbage) is returned as `.failure`; the runner then calls `restart`.
    func exchange(_ request: [UInt8], timeoutMilliseconds: Int) -> ExchangeResult
    /// Ends the testee and starts a fresh one.
    func restart()
}

/// What came of sending one request over a `TesteeChannel`.
public enum ExchangeResult: Sendable {
    case body([UInt8])
    case failure(String)
}

/// A conformance run: every test's result and the run's verdict.
public struct ConformanceRun: Sendable {
    public var results: [ConformanceTestResult]
    /// Names in the failure list that name no test of the run.
    public var unknownListed: [String]
    /// Set when the run stopped early: a testee that failed this many cases in a row (crashed,
    /// hung, wrote garbage) is taken for broken on every case, and the cases after are not run.
    public var stopped: ConformanceStop?

    /// Failures the failure list does not name.
    public var unexpectedFailures: [ConformanceTestResult] { results.filter(\.isUnexpectedFailure) }
    /// Listed tests that pass.
    public var stale: [ConformanceTestResult] { results.filter(\.isStale) }
    /// The run passes: no unexpected failure, no stale entry, every case run.
    public var passed: Bool { unexpectedFailures.isEmpty && stale.isEmpty && stopped == nil }

    /// How many tests of `required` kind have `verdict`.
    public func count(required: Bool, _ verdict: ConformanceVerdict, suite: ConformanceSuite? = nil) -> Int {
        results.filter { $0.required == required && $0.verdict == verdict && (suite == nil || $0.suite == suite) }.count
    }
}

/// Why a conformance run stopped before its last case.
public struct ConformanceStop: Sendable, Hashable {
    /// The consecutive cases the testee failed (crash, hang, garbage, another id).
    public var consecutiveErrors: Int
    /// The last of them, and what went wrong with it.
    public var lastCase: String
    public var reason: String
    /// Cases not run.
    public var casesNotRun: Int
}

/// Drives a testee through cases.
public enum ConformanceRunner {
    /// Consecutive failed cases after which a run stops (`--max-consecutive-errors`): a testee
    /// broken on every case would otherwise wait out the timeout and a restart for each of them.
    public static let defaultMaxConsecutiveErrors = 20

    /// Sends every case (request ids count from 1), grades each answer and applies the failure
    /// list. A response with another id, garbage or a failure of the channel is the case's error
    /// and restarts the testee; after `maxConsecutiveErrors` such cases in a row (nil: never)
    /// the run stops, says so in `stopped`, and does not pass.
    public static func run(
        _ cases: [ConformanceCase], channel: some TesteeChannel,
        failureList: ConformanceFailureList = ConformanceFailureList(),
        timeoutMilliseconds: Int = 5_000, maxConsecutiveErrors: Int? = defaultMaxConsecutiveErrors,
        progress: (ConformanceCase, [ConformanceTestResult]) -> Void = { _, _ in }
    ) -> ConformanceRun {
        var results: [ConformanceTestResult] = []
        var consecutive = 0
        var stopped: ConformanceStop?
        for (index, testCase) in cases.enumerated() {
            let id = index + 1
            let outcome: TesteeOutcome
            var body: [UInt8] = []
            JSONWriter.write(testCase.request(id: id), into: &body)
            switch channel.exchange(body, timeoutMilliseconds: timeoutMilliseconds) {
            case .failure(let why):
                outcome = .failure(why)
            case .body(let answer):
                do {
                    let response = try TesteeResponse.parse(answer)
                    outcome =
                        response.id == id
                        ? .response(response) : .failure("answered id \(response.id) to request \(id)")
                } catch {
                    outcome = .failure("garbage response: \(error)")
                }
            }
            if case .failure = outcome { channel.restart() }
            var graded = ConformanceGrader.grade(testCase, outcome)
            for index in graded.indices { graded[index].listed = failureList.names.contains(graded[index].name) }
            progress(testCase, graded)
            results += graded
            if case .failure(let why) = outcome {
                consecutive += 1
                if let maxConsecutiveErrors, consecutive >= maxConsecutiveErrors {
                    stopped = ConformanceStop(
                        consecutiveErrors: consecutive, lastCase: testCase.id, reason: why,
                        casesNotRun: cases.count - index - 1)
                    break
                }
            } else {
                consecutive = 0
            }
        }
        let names = Set(results.map(\.name))
        // A listed test that was never run is not "unknown" when the run stopped before it.
        let unknown = stopped == nil ? failureList.names.subtracting(names).sorted() : []
        return ConformanceRun(results: results, unknownListed: unknown, stopped: stopped)
    }
}
