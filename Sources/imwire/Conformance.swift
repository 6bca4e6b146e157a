import ArgumentParser
import Foundation
import IMWire

#if canImport(Glibc)
    import Glibc
#endif

struct Conformance: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run another implementation against the golden fixtures (Spec/conformance.md).",
        subcommands: [Run.self, Testee.self])

    struct Testee: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "IMWire's own testee: answers testee-protocol requests on stdin with its codecs on stdout.")

        func run() throws { try IMWireTestee.serve(input: 0, output: 1) }
    }

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send every fixture case to a testee program and grade its answers.",
            discussion: """
                The testee is COMMAND [ARGS…] after `--`, e.g. \
                `imwire conformance run -- imwire conformance testee`. Exit 1 on an unexpected failure or a stale \
                failure-list entry (a listed test that passes).
                """)

        @Option(
            name: .customLong("suite"),
            help: "Only this suite (repeatable): \(ConformanceSuite.allCases.map(\.rawValue).joined(separator: ", ")).")
        var suites: [String] = []

        @Option(help: "A failure list: test names the testee is known to fail, one a line, # comments.")
        var failureList: String?

        @Option(help: "Report format: text, json, junit.")
        var format: ReportKind = .text

        @Option(name: .shortAndLong, help: "Write the report here (the text summary still goes to standard output).")
        var output: String?

        @Option(help: "How long to wait for each answer before the testee is restarted, in ms (1 to 3600000).")
        var timeoutMs = 5_000

        @Option(
            help: ArgumentHelp(
                "Stop after this many cases in a row the testee fails (crash, hang, garbage); 0: never.", valueName: "N"
            ))
        var maxConsecutiveErrors = ConformanceRunner.defaultMaxConsecutiveErrors

        @Option(help: "The fixtures directory (default: Fixtures/ of the package).")
        var fixtures: String?

        @Flag(help: "List every test in the text report, not only unexpected failures and stale entries.")
        var verbose = false

        @Argument(parsing: .postTerminator, help: "The testee command and its arguments.")
        var command: [String] = []

        enum ReportKind: String, ExpressibleByArgument { case text, json, junit }

        func validate() throws {
            guard (1...3_600_000).contains(timeoutMs) else {
                throw ValidationError("--timeout-ms must be 1 to 3600000")
            }
            guard maxConsecutiveErrors >= 0 else { throw ValidationError("--max-consecutive-errors must be 0 or more") }
        }

        func run() throws {
            guard !command.isEmpty else { throw ValidationError("give the testee command after --") }
            guard let dir = fixtures ?? PackageRoot.locate().map({ $0 + "/Fixtures" }) else {
                throw unreadable("no IMWire package here or above; give --fixtures")
            }
            let (selected, unknown) = ConformanceSuite.named(suites)
            if let unknown { throw ValidationError("unknown suite \(unknown)") }
            let (all, problems) = ConformanceCases.load(directory: dir)
            guard problems.isEmpty else { throw unreadable(problems.joined(separator: "\n")) }
            let cases = selected.isEmpty ? all : all.filter { selected.contains($0.suite) }
            var list = ConformanceFailureList()
            if let failureList {
                guard let text = try? String(contentsOfFile: failureList, encoding: .utf8) else {
                    throw unreadable("cannot read \(failureList)")
                }
                list = ConformanceFailureList(text: text)
            }
            let testee = try ProcessTestee(command: command)
            let run = ConformanceRunner.run(
                cases, channel: testee, failureList: list, timeoutMilliseconds: timeoutMs,
                maxConsecutiveErrors: maxConsecutiveErrors == 0 ? nil : maxConsecutiveErrors)
            testee.stop()
            let report: String
            switch format {
            case .text: report = ConformanceReport.text(run, verbose: verbose)
            case .json: report = JSONWriter.pretty(ConformanceReport.json(run)) + "\n"
            case .junit: report = ConformanceReport.junit(run)
            }
            if let output {
                try TextFile.write(report, to: output)
                if format != .text { print(ConformanceReport.text(run), terminator: "") }
            } else {
                print(report, terminator: "")
            }
            if !run.passed { throw ExitCode(1) }
        }
    }
}

/// A testee child process: framed requests on its stdin, framed responses from its stdout
/// (its stderr is ours), exchanged over `TesteePipes`.
final class ProcessTestee: TesteeChannel {
    let command: [String]
    var process: Process?
    var pipes = TesteePipes()

    init(command: [String]) throws {
        self.command = command
        signal(SIGPIPE, SIG_IGN)
        try start()
    }

    func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        try? stdin.fileHandleForReading.close()
        try? stdout.fileHandleForWriting.close()
        pipes = TesteePipes(
            input: dup(stdin.fileHandleForWriting.fileDescriptor),
            output: dup(stdout.fileHandleForReading.fileDescriptor))
        try? stdin.fileHandleForWriting.close()
        try? stdout.fileHandleForReading.close()
        self.process = process
    }

    func exchange(_ request: [UInt8], timeoutMilliseconds: Int) -> ExchangeResult {
        pipes.exchange(request, timeoutMilliseconds: timeoutMilliseconds, exitStatus: exitStatus)
    }

    func exitStatus() -> String {
        guard let process else { return "" }
        for _ in 0..<100 where process.isRunning { usleep(10_000) }
        if process.isRunning { return " (closed its stdout)" }
        return process.terminationReason == .uncaughtSignal
            ? " (signal \(process.terminationStatus))" : " (status \(process.terminationStatus))"
    }

    func restart() {
        stop(kill: true)
        do { try start() } catch { process = nil }
    }

    /// Closes the testee's stdin, gives it a second to exit, then kills it.
    func stop(kill force: Bool = false) {
        pipes.close()
        guard let process else { return }
        if !force { for _ in 0..<100 where process.isRunning { usleep(10_000) } }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        self.process = nil
    }
}
