import IMWire
import Testing

/// A testee in-process: a function from request body to response body (nil: it "crashes").
final class FunctionChannel: TesteeChannel {
    let answer: ([UInt8]) -> [UInt8]?
    var restarts = 0

    init(_ answer: @escaping ([UInt8]) -> [UInt8]?) { self.answer = answer }

    func exchange(_ request: [UInt8], timeoutMilliseconds: Int) -> ExchangeResult {
        answer(request).map(ExchangeResult.body) ?? .failure("testee exited")
    }

    func restart() { restarts += 1 }
}

/// The conformance runner: cases from the fixtures, grading, failure lists, IMWire's own testee.
@Suite struct ConformanceRunnerTests {
    enum Failure: Error { case notRejected }

    static let cases: [ConformanceCase] = {
        let (cases, problems) = ConformanceCases.load(directory: repositoryRoot + "/Fixtures")
        precondition(problems.isEmpty, "\(problems)")
        return cases
    }()

    static func request(_ body: [UInt8]) -> JSONObject { (try? JSONParser.parse(body))?.objectValue ?? JSONObject() }

    @Test func everySuiteHasCases() {
        var counts: [ConformanceSuite: Int] = [:]
        for testCase in Self.cases { counts[testCase.suite, default: 0] += 1 }
        for suite in ConformanceSuite.allCases { #expect(counts[suite, default: 0] > 0, "\(suite.rawValue)") }
        // MQTT 3.1.1: 53 fixtures, 19 clean ones also encode and round-trip.
        #expect(counts[.mqtt311] == 91)
        #expect(Self.cases.filter { $0.operation == .encode }.count > 200)
        #expect(
            Self.cases.filter { $0.operation == .both }.count == Self.cases.filter { $0.operation == .encode }.count)
        let names = Self.cases.map(\.requiredName)
        #expect(Set(names).count == names.count)
    }

    @Test func aRequestSpellsTheCase() throws {
        let testCase = try #require(Self.cases.first { $0.id == "mqtt/packet/bad-connack-return-code-9" })
        #expect(testCase.requiredName == "Required.mqtt.3.1.1.Decode.mqtt/packet/bad-connack-return-code-9")
        #expect(
            testCase.recommendedName == "Recommended.mqtt.3.1.1.Decode.mqtt/packet/bad-connack-return-code-9.Offset")
        #expect(
            JSONWriter.string(testCase.request(id: 7))
                == #"""
                {"protocol":1,"id":7,"suite":"mqtt.3.1.1","case":"mqtt/packet/bad-connack-return-code-9",\#
                "operation":"decode","input":{"hex":"20020009"},"options":{"strict":true,"version":"3.1.1"}}
                """#
        )
        guard case .rejected(let findings) = testCase.expectation else { throw Failure.notRejected }
        #expect(findings.map(\.description) == ["MQTT.CONNACK-RETURN-CODE-RESERVED@3"])
    }

    @Test func imwireOwnTesteePassesEveryTest() {
        let run = ConformanceRunner.run(Self.cases, channel: FunctionChannel(IMWireTestee.answer))
        for result in run.results where result.verdict != .passed {
            Issue.record("\(result.name): \(result.verdict) \(result.detail)")
        }
        #expect(run.passed)
        #expect(run.results.count > 1_100)
    }

    @Test func wrongAnswersFailAndTheFailureListExpectsThem() throws {
        let mqtt = Self.cases.filter { $0.suite == .mqtt311 }
        // Accepts everything with an empty value and encodes nothing.
        let sloppy = FunctionChannel { body in
            let id = Self.request(body)["id"]?.int64Value ?? 0
            return Array(#"{"id":\#(id),"result":"ok","value":{},"hex":""}"#.utf8)
        }
        let run = ConformanceRunner.run(mqtt, channel: sloppy)
        #expect(!run.passed)
        #expect(run.count(required: true, .passed) == 0)
        #expect(run.count(required: true, .failed) == mqtt.count)
        let rejectedCase = try #require(run.results.first { $0.name.hasSuffix("bad-connack-return-code-9") })
        #expect(rejectedCase.detail == "accepted input that must be rejected")

        // Listing every failure makes the run pass; listing a passing test makes it stale.
        let list = ConformanceFailureList(
            text: "# known\n" + run.unexpectedFailures.map { $0.name + "  # sloppy" }.joined(separator: "\n"))
        #expect(ConformanceRunner.run(mqtt, channel: sloppy, failureList: list).passed)
        let good = ConformanceRunner.run(mqtt, channel: FunctionChannel(IMWireTestee.answer), failureList: list)
        #expect(!good.passed)
        #expect(good.stale.count == run.results.count)
        #expect(
            ConformanceReport.text(good).contains(
                "STALE Required.mqtt.3.1.1.Decode.mqtt/packet/bad-connack-return-code-9"))
    }

    @Test func aRejectionAtTheWrongOffsetFailsOnlyRecommended() throws {
        let testCase = try #require(Self.cases.first { $0.id == "mqtt/packet/bad-connack-return-code-9" })
        let atWrongOffset = ConformanceGrader.grade(
            testCase, .response(TesteeResponse(id: 1, result: .rejected, offset: 2)))
        #expect(atWrongOffset.map(\.verdict) == [.passed, .failed])
        #expect(atWrongOffset[1].detail == "rejected at offset 2, expected MQTT.CONNACK-RETURN-CODE-RESERVED@3")
        let otherRule = ConformanceGrader.grade(
            testCase, .response(TesteeResponse(id: 1, result: .rejected, rule: "MQTT.OTHER", offset: 3)))
        #expect(otherRule.map(\.verdict) == [.passed, .failed])
        let ownWords = ConformanceGrader.grade(
            testCase, .response(TesteeResponse(id: 1, result: .rejected, rule: "bad return code", offset: 3)))
        #expect(ownWords.map(\.verdict) == [.passed, .passed])
        let skipped = ConformanceGrader.grade(testCase, .response(TesteeResponse(id: 1, result: .unsupported)))
        #expect(skipped.map(\.verdict) == [.skipped, .skipped])
    }

    /// A round trip passes only with the fixture's value and, encoded back, the input's bytes.
    @Test func aRoundTripNeedsTheValueAndTheSameBytes() throws {
        let testCase = try #require(Self.cases.first { $0.id == "mqtt/packet/v311-pingreq" && $0.operation == .both })
        #expect(testCase.requiredName == "Required.mqtt.3.1.1.Both.mqtt/packet/v311-pingreq")
        let value: JSONValue = ["type": "PINGREQ"]
        func grade(_ response: TesteeResponse) -> [ConformanceVerdict] {
            ConformanceGrader.grade(testCase, .response(response)).map(\.verdict)
        }
        #expect(grade(TesteeResponse(id: 1, result: .ok, value: value, bytes: [0xc0, 0x00])) == [.passed])
        #expect(grade(TesteeResponse(id: 1, result: .ok, value: value, bytes: [0xc0, 0x01])) == [.failed])
        #expect(grade(TesteeResponse(id: 1, result: .ok, value: value)) == [.failed])
        #expect(
            grade(TesteeResponse(id: 1, result: .ok, value: ["type": "PINGRESP"], bytes: [0xc0, 0x00])) == [.failed])
        #expect(grade(TesteeResponse(id: 1, result: .rejected)) == [.failed])
        let own = try JSONParser.parse(IMWireTestee.answer(Array(JSONWriter.string(testCase.request(id: 5)).utf8)))
        #expect(own["result"] == "ok" && own["value"] == value && own["hex"] == "c000" && own["id"]?.int64Value == 5)
    }

    @Test func crashesGarbageAndWrongIDsAreErrorsAndRestart() {
        let cases = Array(Self.cases.filter { $0.suite == .socketIO09 }.prefix(4))
        var calls = 0
        let broken = FunctionChannel { body in
            calls += 1
            let id = Self.request(body)["id"]?.int64Value ?? 0
            switch calls {
            case 1: return nil
            case 2: return Array("garbage".utf8)
            case 3: return Array(#"{"id":\#(id + 1),"result":"ok","value":null}"#.utf8)
            default: return IMWireTestee.answer(body)
            }
        }
        let run = ConformanceRunner.run(cases, channel: broken)
        #expect(run.results.filter(\.required).map(\.verdict) == [.error, .error, .error, .passed])
        #expect(broken.restarts == 3)
        #expect(run.results[0].detail == "testee exited")
        #expect(run.results[1].detail.hasPrefix("garbage response: not JSON"))
        #expect(run.results[2].detail == "answered id 4 to request 3")
        #expect(!run.passed)
        let junit = ConformanceReport.junit(run)
        #expect(junit.contains("<error message=\"testee exited\"/>"))
    }

    /// A testee broken on every case: the run stops after the default 20 in a row, says so, and
    /// does not pass; a success in between starts the count again; 0 (nil) never stops.
    @Test func aTesteeBrokenOnEveryCaseStopsTheRunAfterTwentyInARow() {
        let cases = Array(Self.cases.filter { $0.suite == .mqtt311 }.prefix(40))
        let broken = FunctionChannel { _ in Array("garbage".utf8) }
        let run = ConformanceRunner.run(cases, channel: broken)
        #expect(run.results.filter(\.required).count == 20)
        #expect(run.stopped?.consecutiveErrors == 20 && run.stopped?.casesNotRun == 20)
        #expect(run.stopped?.lastCase == cases[19].id)
        #expect(!run.passed)
        #expect(ConformanceReport.text(run).contains("STOPPED after 20 cases in a row the testee failed"))
        #expect(ConformanceReport.json(run)["summary"]?["stopped"]?["cases_not_run"]?.int64Value == 20)

        var calls = 0
        let flaky = FunctionChannel { body in
            calls += 1
            return calls % 10 == 0 ? IMWireTestee.answer(body) : nil
        }
        let interrupted = ConformanceRunner.run(cases, channel: flaky)
        #expect(interrupted.stopped == nil && interrupted.results.filter(\.required).count == 40)
        let patient = ConformanceRunner.run(cases, channel: broken, maxConsecutiveErrors: nil)
        #expect(patient.stopped == nil && patient.results.filter(\.required).count == 40)
    }

    @Test func theOwnTesteeAnswersWhatItDoesNotKnowUnsupported() {
        func answer(_ text: String) -> String { String(decoding: IMWireTestee.answer(Array(text.utf8)), as: UTF8.self) }
        #expect(
            answer(#"{"protocol":2,"id":5,"suite":"nim","operation":"decode","input":{"text":"2::"}}"#)
                == #"{"id":5,"result":"unsupported","message":"protocol version 1 only"}"#)
        #expect(
            answer(#"{"protocol":1,"id":6,"suite":"xmpp","operation":"decode","input":{"text":""}}"#)
                == #"{"id":6,"result":"unsupported","message":"unknown suite"}"#)
        #expect(
            answer(#"{"protocol":1,"id":7,"suite":"jmessage","operation":"encode","input":{"value":{}}}"#)
                == #"{"id":7,"result":"unsupported","message":"no encoder"}"#)
        #expect(answer("[]") == #"{"id":0,"result":"error","message":"not a request"}"#)
    }

    @Test func framing() throws {
        let framed = TesteeProtocol.frame(["id": 1])
        #expect(framed == [8, 0, 0, 0] + Array(#"{"id":1}"#.utf8))
        var reader = TesteeFrameReader()
        reader.append(framed.prefix(3))
        #expect(try reader.next() == nil)
        reader.append(framed.dropFirst(3) + framed)
        #expect(try reader.next() == Array(#"{"id":1}"#.utf8))
        #expect(try reader.next() == Array(#"{"id":1}"#.utf8))
        #expect(try reader.next() == nil)
        reader.append([0xff, 0xff, 0xff, 0x7f])
        let oversized = #expect(throws: IMWireError.self) { try reader.next() }
        #expect(oversized?.code == .testeeOversized && oversized?.announcedLength == 2_147_483_647)
        #expect(oversized?.description == "length prefix 2147483647 exceeds \(TesteeProtocol.maxMessageSize)")
    }

    @Test func vectorFilesCountAndGradeEveryCase() throws {
        let files = ConformanceVectors.files(Self.cases)
        #expect(files.map(\.name) == ConformanceSuite.allCases.map { $0.rawValue + ".json" })
        // The round-trip cases are left out: their decode and encode tests are there.
        #expect(
            files.compactMap { $0.json["numberOfTests"]?.int64Value }.reduce(0, +)
                == Int64(Self.cases.filter { $0.operation != .both }.count))
        let mqtt = try #require(files.first { $0.name == "mqtt.3.1.1.json" }?.json)
        let tests = (mqtt["testGroups"]?.arrayValue ?? []).flatMap { $0["tests"]?.arrayValue ?? [] }
        let reserved = try #require(tests.first { $0["caseId"] == "mqtt/packet/bad-connack-return-code-9" })
        // A reserved return code is a warning in lenient mode: strict implementations reject it.
        #expect(reserved["result"] == "acceptable")
        #expect(reserved["expected"]?["firstOffset"]?.int64Value == 3)
        #expect(reserved["flags"] == ["StrictOnly", "MQTT.CONNACK-RETURN-CODE-RESERVED"])
        #expect(mqtt["notes"]?["StrictOnly"] != nil)
        #expect(Set(tests.compactMap { $0["result"]?.stringValue }) == ["valid", "invalid", "acceptable"])
    }
}
