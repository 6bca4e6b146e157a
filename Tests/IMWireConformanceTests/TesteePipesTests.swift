import IMWire
import Testing

@testable import IMWireConformance

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The runner's side of a testee's pipes, and IMWire's testee on pipes, with this test as the other end.
@Suite struct TesteePipesTests {
    /// A pipe: (read end, write end).
    static func pipePair() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        return (fds[0], fds[1])
    }

    /// Everything left to read on a blocking descriptor, to its end.
    static func readAll(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { return bytes }
            bytes += buffer[0..<count]
        }
    }

    @Test func aResponseAlreadyWrittenIsReadAndTheRequestIsFramed() throws {
        let stdin = try Self.pipePair()
        let stdout = try Self.pipePair()
        defer { close(stdin.read) }
        #expect(TesteePipes.writeAll(stdout.write, TesteeProtocol.frame([1, 2, 3]), deadline: nil))
        var pipes = TesteePipes(input: stdin.write, output: stdout.read)
        let result = pipes.exchange([9, 8], timeoutMilliseconds: 1_000) { "" }
        guard case .body(let body) = result else {
            Issue.record("expected a body, got \(result)")
            return
        }
        #expect(body == [1, 2, 3])
        pipes.close()
        close(stdout.write)
        #expect(Self.readAll(stdin.read) == TesteeProtocol.frame([9, 8]))
    }

    @Test func silenceTimesOutAndAClosedStdoutIsAnExit() throws {
        let stdin = try Self.pipePair()
        let stdout = try Self.pipePair()
        defer { close(stdin.read) }
        var pipes = TesteePipes(input: stdin.write, output: stdout.read)
        guard case .failure(let silent) = pipes.exchange([1], timeoutMilliseconds: 20, exitStatus: { "" }) else {
            Issue.record("expected a failure")
            return
        }
        #expect(silent == "timed out after 20 ms")
        close(stdout.write)
        guard case .failure(let exited) = pipes.exchange([1], timeoutMilliseconds: 1_000, exitStatus: { " (status 3)" })
        else {
            Issue.record("expected a failure")
            return
        }
        #expect(exited == "testee exited (status 3)")
        pipes.close()
        #expect(pipes.input == -1 && pipes.output == -1)
    }

    @Test func garbageIsAFailure() throws {
        let stdin = try Self.pipePair()
        let stdout = try Self.pipePair()
        defer { close(stdin.read) }
        defer { close(stdout.write) }
        // A length prefix past the largest message.
        #expect(TesteePipes.writeAll(stdout.write, [0xff, 0xff, 0xff, 0xff], deadline: nil))
        var pipes = TesteePipes(input: stdin.write, output: stdout.read)
        defer { pipes.close() }
        guard case .failure(let garbage) = pipes.exchange([1], timeoutMilliseconds: 1_000, exitStatus: { "" }) else {
            Issue.record("expected a failure")
            return
        }
        #expect(garbage.hasPrefix("garbage response: "))
    }

    @Test func imwireTesteeAnswersEveryRequestUntilItsInputEnds() throws {
        let requests = try Self.pipePair()
        let responses = try Self.pipePair()
        let bodies: [[UInt8]] = [Array("{}".utf8), Array(#"{"id":7,"protocol":1,"suite":"nope"}"#.utf8)]
        #expect(TesteePipes.writeAll(requests.write, bodies.flatMap { TesteeProtocol.frame($0) }, deadline: nil))
        close(requests.write)
        try IMWireTestee.serve(input: requests.read, output: responses.write)
        close(requests.read)
        close(responses.write)
        let written = Self.readAll(responses.read)
        close(responses.read)
        #expect(written == bodies.flatMap { TesteeProtocol.frame(IMWireTestee.answer($0)) })
        var reader = TesteeFrameReader()
        reader.append(written)
        let second = try #require(try reader.next(), "the first response")
        #expect(!second.isEmpty)
        let answer = String(decoding: try #require(try reader.next()), as: UTF8.self)
        #expect(answer.contains("\"id\":7") && answer.contains("unknown suite"))
    }
}

/// `imwire conformance run --suite NAME`.
@Suite struct SuiteSelectionTests {
    @Test func suitesByNameOrTheFirstUnknown() {
        let all = ConformanceSuite.allCases
        #expect(ConformanceSuite.named(all.map(\.rawValue)).suites == Set(all))
        #expect(ConformanceSuite.named([]).suites.isEmpty && ConformanceSuite.named([]).unknown == nil)
        let one = ConformanceSuite.named([all[0].rawValue, all[0].rawValue])
        #expect(one.suites == [all[0]] && one.unknown == nil)
        #expect(ConformanceSuite.named([all[0].rawValue, "nope", "never"]).unknown == "nope")
    }
}
