import IMWireConformance
import IMWireCore

enum TesteeFuzzing {
    /// The longest request body of a case the runner sends here (with id 0).
    static let maxRequest = 16_384

    /// The conformance cases of the fixtures (`Fixtures/` of the package these sources are in,
    /// as `imwire conformance run` loads them), read once, but those whose request is over
    /// `maxRequest` bytes (the Autobahn fixtures' frames of up to 256 KB, whose requests would
    /// take most of an execution to write); nil when they cannot be read.
    static let cases: [ConformanceCase]? = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        let (cases, problems) = ConformanceCases.load(directory: parts.joined(separator: "/") + "/Fixtures")
        guard problems.isEmpty, !cases.isEmpty else { return nil }
        return cases.filter { !hexOverBound($0.input) && JSONWriter.string($0.request(id: 0)).utf8.count <= maxRequest }
    }()

    /// Whether the input's hex alone is over `maxRequest`. Such cases are dropped before their
    /// requests are written: in CI's debug ASan build, writing every Autobahn request took
    /// about 3 s of the 6.7 s that loading the cases took.
    private static func hexOverBound(_ input: ConformanceCase.Input) -> Bool {
        if case .hex(let bytes) = input { return bytes.count * 2 > maxRequest }
        return false
    }

    /// The cases a run sends for extra bits 0-3: one suite (`ConformanceSuite.allCases` order), or
    /// every case from 12 on.
    static func cases(extra: Int) -> [ConformanceCase] {
        guard let cases else { return [] }
        let suites = ConformanceSuite.allCases
        return extra < suites.count ? cases.filter { $0.suite == suites[extra] } : cases
    }

    /// How a framed stream ends: at a length prefix over the bound, or with bytes of an
    /// incomplete message waiting.
    enum End: Equatable {
        case oversized(Int)
        case pending(Int)
    }

    /// The framed messages of `pieces` read with `TesteeFrameReader`, every message taken as
    /// soon as its bytes are in (as `imwire conformance run` reads a testee's stdout), up to the
    /// first length prefix over the bound.
    static func frames(_ pieces: [ArraySlice<UInt8>]) -> (bodies: [[UInt8]], end: End) {
        var reader = TesteeFrameReader()
        var bodies: [[UInt8]] = []
        for piece in pieces {
            reader.append(piece)
            do {
                while let body = try reader.next() { bodies.append(body) }
            } catch {
                return (bodies, .oversized(error.announcedLength ?? -1))
            }
        }
        return (bodies, .pending(reader.pending))
    }

    /// A testee's stdout as `imwire conformance run` reads it (`Spec/conformance.md` §1: each
    /// message a 4-byte little-endian length and that many bytes of JSON, at most 64 MiB).
    /// Variant bit 0 clear: the stream is a testee's responses to the cases of one suite (extra
    /// bits 0-3 in `ConformanceSuite.allCases` order, 12-15 every case), graded by
    /// `ConformanceRunner.run` (tight limits: a run stops after 3 failed cases in a row instead of
    /// 20). Variant bit 0 set: the stream is the requests IMWire's own testee
    /// (`imwire conformance testee`) reads on its stdin.
    ///
    /// Invariants: never traps; the stream read whole and read in 1-17-byte pieces gives the same
    /// messages and the same end; a length prefix over `TesteeProtocol.maxMessageSize` is refused
    /// as soon as its four bytes are in (nothing waits for its body), one within the bound is
    /// waited for; a response parses the same twice and, written back out (hex, and text when its
    /// bytes are UTF-8), parses to the same response. Runner: two runs on the same stream (fed
    /// whole and in pieces) grade alike; each case run has its Required test and, when it has
    /// one, its Recommended test, in case order; a test passes only on an answer with its own
    /// request's id; a run stops exactly after the allowed number of failed cases in a row; the
    /// text, JSON and JUnit reports render (the JSON parses, the XML holds only characters XML
    /// 1.0 allows). Testee: each answer is deterministic and a response the runner reads, with the
    /// request's id (0 for a request without one).
    static func responses(_ input: FuzzInput) -> [String] {
        let payload = input.payload
        let whole = frames([payload[...]])
        let pieces = frames(input.chunks)
        var violations: [String] = []
        if whole.bodies != pieces.bodies || whole.end != pieces.end {
            violations.append(
                """
                read in pieces: \(pieces.bodies.count) messages, \
                \(pieces.end); whole: \(whole.bodies.count), \(whole.end)
                """)
        }
        violations += bounded(payload, whole)
        if input.variant & 1 == 0 {
            for body in whole.bodies { violations += responseRoundTrip(body) }
            violations += runner(input)
        } else {
            for body in whole.bodies { violations += testeeAnswer(body) }
        }
        return violations
    }

    /// The framing read against the specification: the messages lie back to back from the
    /// start, each within the bound; after them either a prefix over the bound (refused) or an
    /// incomplete message within it (waited for).
    static func bounded(_ payload: [UInt8], _ read: (bodies: [[UInt8]], end: End)) -> [String] {
        var violations: [String] = []
        var position = 0
        for (index, body) in read.bodies.enumerated() {
            guard body.count <= TesteeProtocol.maxMessageSize, position + 4 + body.count <= payload.count,
                TesteeProtocol.frame(body)[...] == payload[position..<position + 4 + body.count]
            else { return ["message \(index) is not the frame at \(position)"] }
            position += 4 + body.count
        }
        let rest = payload.count - position
        let announced = rest >= 4 ? payload[position..<position + 4].reversed().reduce(0) { $0 << 8 | Int($1) } : nil
        switch read.end {
        case .oversized(let length):
            if length != announced || length <= TesteeProtocol.maxMessageSize {
                violations.append(
                    """
                    refused a length prefix of \(length) at \(position) \
                    (the bytes say \(announced.map(String.init) ?? "none"))
                    """)
            }
        case .pending(let count):
            if count != rest { violations.append("\(count) bytes pending, \(rest) left after the messages") }
            if let announced, announced > TesteeProtocol.maxMessageSize || rest >= 4 + announced {
                violations.append("waits with \(rest) bytes for a message of \(announced)")
            }
        }
        return violations
    }

    /// A response parses the same twice and survives its own JSON.
    static func responseRoundTrip(_ body: [UInt8]) -> [String] {
        let first = Result { () throws(IMWireError) in try TesteeResponse.parse(body) }
        let second = Result { () throws(IMWireError) in try TesteeResponse.parse(body) }
        switch (first, second) {
        case (.failure(let a), .failure(let b)) where a.description == b.description: return []
        case (.success(let a), .success(let b)) where a == b:
            var violations: [String] = []
            let forms = [false] + (a.bytes.map { String(validating: $0, as: UTF8.self) != nil } == true ? [true] : [])
            for text in forms {
                let written = Array(JSONWriter.string(a.json(text: text)).utf8)
                switch Result(catching: { () throws(IMWireError) in try TesteeResponse.parse(written) }) {
                case .success(let again) where again == a: break
                case .success:
                    violations.append("a response written back out\(text ? " as text" : "") parses to another")
                case .failure(let error):
                    violations.append("a response written back out\(text ? " as text" : "") does not parse: \(error)")
                }
            }
            return violations
        default: return ["a response parses differently twice"]
        }
    }

    /// IMWire's testee answers a request alike twice, with a response the runner reads and the
    /// request's id.
    static func testeeAnswer(_ body: [UInt8]) -> [String] {
        let answer = IMWireTestee.answer(body)
        guard answer == IMWireTestee.answer(body) else { return ["the testee answers a request differently twice"] }
        guard answer.count <= TesteeProtocol.maxMessageSize else { return ["an answer of \(answer.count) bytes"] }
        let id = (try? JSONParser.parse(body))?.objectValue?["id"]?.int64Value.flatMap { Int(exactly: $0) } ?? 0
        do {
            let response = try TesteeResponse.parse(answer)
            return response.id == id ? [] : ["the testee answered request \(id) with id \(response.id)"]
        } catch {
            return ["the testee's answer is no response: \(error)"]
        }
    }

    /// A testee that writes the fuzz input to its stdout: each exchange hands out the next
    /// message the reader completes from the bytes, fed whole or in pieces as they are needed; a
    /// prefix over the bound is garbage, the end of the bytes an exit. The runner restarts the
    /// testee after a failure: the rest of the bytes are the next process's stdout (a fresh
    /// reader, given what the old one held but had not handed out, less a refused prefix), so the
    /// same bytes give the same exchanges however they are cut.
    final class StreamChannel: TesteeChannel {
        private let payload: [UInt8]
        private let pieces: [ArraySlice<UInt8>]
        private var next = 0
        private var fed = 0
        private var reader = TesteeFrameReader()
        private var refused = false
        /// Each exchange: the request's id and the body handed out (nil: a failure).
        private(set) var exchanges: [(id: Int, body: [UInt8]?)] = []

        init(_ payload: [UInt8], pieces: [ArraySlice<UInt8>]) {
            self.payload = payload
            self.pieces = pieces
        }

        func exchange(_ request: [UInt8], timeoutMilliseconds: Int) -> ExchangeResult {
            let id = Self.id(of: request)
            while true {
                do {
                    if let body = try reader.next() {
                        exchanges.append((id, body))
                        return .body(body)
                    }
                } catch {
                    refused = true
                    exchanges.append((id, nil))
                    return .failure("garbage response: \(error)")
                }
                guard next < pieces.count else {
                    exchanges.append((id, nil))
                    return .failure("testee exited")
                }
                reader.append(pieces[next])
                fed += pieces[next].count
                next += 1
            }
        }

        /// The id of a request the runner wrote (`{"protocol":1,"id":N,…`), read without parsing
        /// the rest: a request carries its case's input, up to half a megabyte of hex.
        static func id(of request: [UInt8]) -> Int {
            let prefix = Array(#"{"protocol":\#(TesteeProtocol.version),"id":"#.utf8)
            guard request.starts(with: prefix) else { return -1 }
            let digits = request.dropFirst(prefix.count).prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            return Int(String(decoding: digits, as: UTF8.self)) ?? -1
        }

        func restart() {
            let start = fed - reader.pending + (refused ? 4 : 0)
            reader = TesteeFrameReader()
            refused = false
            if start < fed { reader.append(payload[start..<fed]) }
        }
    }

    /// One test's result as the runner's reports show it.
    struct Graded: Equatable {
        var name: String
        var caseID: String
        var required: Bool
        var verdict: ConformanceVerdict
        var detail: String
    }

    static func runner(_ input: FuzzInput) -> [String] {
        guard cases != nil else { return ["the conformance cases of Fixtures/ do not load"] }
        let cases = cases(extra: input.extra)
        let limit = input.flags & 2 != 0 ? 3 : ConformanceRunner.defaultMaxConsecutiveErrors
        func run(_ pieces: [ArraySlice<UInt8>]) -> (ConformanceRun, StreamChannel) {
            let channel = StreamChannel(input.payload, pieces: pieces)
            return (ConformanceRunner.run(cases, channel: channel, maxConsecutiveErrors: limit), channel)
        }
        let (first, channel) = run([input.payload[...]])
        let (second, _) = run(input.chunks)
        func graded(_ run: ConformanceRun) -> [Graded] {
            run.results.map {
                Graded(name: $0.name, caseID: $0.caseID, required: $0.required, verdict: $0.verdict, detail: $0.detail)
            }
        }
        var violations: [String] = []
        if graded(first) != graded(second) || first.stopped != second.stopped {
            violations.append("the stream fed in pieces is graded otherwise")
        }

        // Each case run: its Required test, then its Recommended one when it has one; an error
        // when the answer is missing, garbage, of another id or `error`; a pass only on an answer
        // with its own id; a stop after `limit` failed cases in a row.
        var index = 0
        var consecutive = 0
        var casesRun = 0
        for (number, testCase) in cases.enumerated() {
            guard index < first.results.count, consecutive < limit else { break }
            casesRun += 1
            let exchange = number < channel.exchanges.count ? channel.exchanges[number] : nil
            if exchange?.id != number + 1 {
                violations.append("case \(number + 1) was sent as request \(exchange?.id ?? -1)")
            }
            let expected = [testCase.requiredName] + (testCase.recommendedName.map { [$0] } ?? [])
            let results = first.results[index..<min(first.results.count, index + expected.count)]
            index += expected.count
            if results.map(\.name) != expected {
                violations.append("case \(testCase.id): tests \(results.map(\.name)), expected \(expected)")
            }
            let answered = exchange?.body.flatMap { try? TesteeResponse.parse($0) }
            let failed = answered?.id != number + 1
            if failed, results.contains(where: { $0.verdict == .passed }) {
                violations.append(
                    "case \(testCase.id) passed on an answer to request \(answered.map { String($0.id) } ?? "none")")
            }
            if (results.first?.verdict == .error) != (failed || answered?.result == .error) {
                violations.append(
                    """
                    case \(testCase.id): verdict \(results.first.map { "\($0.verdict)" } ?? "none") \
                    for \(answered.map { "\($0)" } ?? "no response")
                    """
                )
            }
            consecutive = failed ? consecutive + 1 : 0
        }
        if index != first.results.count { violations.append("\(first.results.count) results for \(casesRun) cases") }
        let expectedStop = consecutive >= limit ? cases.count - casesRun : nil
        if first.stopped?.casesNotRun != expectedStop || (first.stopped.map { $0.consecutiveErrors != limit } ?? false)
        {
            violations.append(
                """
                stopped: \(first.stopped.map { "\($0)" } ?? "no") \
                after \(casesRun) cases, \(consecutive) failed in a row
                """)
        }
        violations += reports(first)
        return violations
    }

    /// The run's reports render: the JSON parses, the JUnit XML holds only XML 1.0 characters.
    static func reports(_ run: ConformanceRun) -> [String] {
        var violations: [String] = []
        _ = ConformanceReport.text(run, verbose: true)
        if (try? JSONParser.parse(JSONWriter.string(ConformanceReport.json(run)), maxDepth: 8)) == nil {
            violations.append("the JSON report does not parse")
        }
        let junit = ConformanceReport.junit(run)
        if let bad = junit.unicodeScalars.first(where: { !isXMLCharacter($0) }) {
            violations.append(
                "the JUnit report holds U+\(String(bad.value, radix: 16, uppercase: true)), which XML does not allow")
        }
        return violations
    }

    /// XML 1.0 `Char`: tab, LF, CR, U+0020-U+D7FF, U+E000-U+FFFD, U+10000 and above.
    static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...: true
        default: false
        }
    }
}
