import IMWire
import Testing

@testable import IMWireFuzzTargets

/// The TesteeResponses target on both sides of IMWire's own testee answering the fixtures' cases
/// (as `Fuzz/seeds.py` records them), and on streams a broken testee may write.
@Suite struct TesteeResponsesTargetTests {
    /// The responses IMWire's own testee gives every suite's cases make a run where every test
    /// passes (the runner reads the target's stream as it reads a testee's stdout); the same
    /// requests through the testee variant; the invariants hold for both. The first 40 cases of
    /// each suite (a fuzz input holds about as many), the rest of the suite not answered.
    @Test func testeeAnswersPassEverySuite() throws {
        let cases = try #require(TesteeFuzzing.cases)
        #expect(cases.count > 1_100)
        for (index, suite) in ConformanceSuite.allCases.enumerated() {
            let suiteCases = TesteeFuzzing.cases(extra: index)
            #expect(!suiteCases.isEmpty && suiteCases.allSatisfy { $0.suite == suite })
            var requests: [UInt8] = []
            var answers: [UInt8] = []
            for (number, testCase) in suiteCases.prefix(40).enumerated() {
                let request = Array(JSONWriter.string(testCase.request(id: number + 1)).utf8)
                requests += TesteeProtocol.frame(request)
                answers += TesteeProtocol.frame(IMWireTestee.answer(request))
            }
            #expect(FuzzTarget.testeeResponses.run([0, UInt8(index) << 4] + answers).isEmpty, "\(suite)")
            #expect(FuzzTarget.testeeResponses.run([0, 0b0100 | UInt8(index) << 4] + requests).isEmpty, "\(suite)")
            let channel = TesteeFuzzing.StreamChannel(answers, pieces: FuzzInput.chunks(answers))
            let run = ConformanceRunner.run(suiteCases, channel: channel)
            let answered = suiteCases.prefix(40).reduce(0) { $0 + ($1.recommendedName == nil ? 1 : 2) }
            #expect(run.results.prefix(answered).allSatisfy { $0.verdict == .passed }, "\(suite)")
            #expect(run.results.dropFirst(answered).allSatisfy { $0.verdict == .error }, "\(suite)")
            #expect(
                (run.stopped != nil)
                    == (suiteCases.count - min(40, suiteCases.count) >= ConformanceRunner.defaultMaxConsecutiveErrors))
        }
    }

    /// Streams a testee may write: an answer to another id, garbage, a prefix over 64 MiB, one cut
    /// short, a prefix of exactly 64 MiB (waited for), U+FFFF in a message (which the JUnit report must not carry).
    @Test func brokenTesteeStreams() {
        func frame(_ text: String) -> [UInt8] { TesteeProtocol.frame(Array(text.utf8)) }
        let bound = TesteeProtocol.maxMessageSize
        let oversized: [UInt8] = [0x01, 0x00, 0x00, 0x04]
        let streams: [[UInt8]] = [
            frame(#"{"id":2,"result":"ok"}"#) + frame(#"{"id":2,"result":"ok","value":{}}"#),
            frame("garbage") + frame(#"{"id":2,"result":"rejected","rule":"X","offset":3}"#),
            frame(#"{"id":1,"result":"ok","value":1}"#) + oversized + frame(#"{"id":3,"result":"skipped"}"#),
            Array(frame(#"{"id":1,"result":"ok","hex":"00"}"#).dropLast()),
            [0x00, 0x00, 0x00, 0x04, 0x7b],
            frame(#"{"id":1,"result":"error","message":"\uffff"}"#),
        ]
        for stream in streams {
            for flags: UInt8 in [0, 0b0010, 0b0110_0000, 0b0100] {
                #expect(FuzzTarget.testeeResponses.run([0, flags] + stream).isEmpty, "\(stream) \(flags)")
            }
        }
        // Fuzz/FailCases/TesteeResponses/crash-c9372194…: a testee's message with U+FFFF went into the JUnit
        // report as it was.
        let junit = ConformanceReport.junit(
            ConformanceRunner.run(
                Array(TesteeFuzzing.cases(extra: 0).prefix(1)),
                channel: TesteeFuzzing.StreamChannel(streams[5], pieces: [streams[5][...]])))
        #expect(
            junit.contains("testee error: ?") && junit.unicodeScalars.allSatisfy(TesteeFuzzing.isXMLCharacter),
            "\(junit)")
        #expect(TesteeFuzzing.frames([oversized[...]]).end == .oversized(bound + 1))
        #expect(TesteeFuzzing.frames([[0x00, 0x00, 0x00, 0x04, 0x7b]]).end == .pending(5))
        // The checks can fail: a reader that waited for an oversized message, or read a message that is not there.
        #expect(!TesteeFuzzing.bounded(oversized, ([], .pending(4))).isEmpty)
        #expect(!TesteeFuzzing.bounded([2, 0, 0, 0, 0x7b, 0x7d], ([Array("{]".utf8)], .pending(0))).isEmpty)
        #expect(
            !TesteeFuzzing.isXMLCharacter("\u{FFFF}") && !TesteeFuzzing.isXMLCharacter("\u{1}")
                && TesteeFuzzing.isXMLCharacter("\u{10000}"))
    }
}
