import Dispatch
import IMWireCheck
import IMWireCore
import IMWireIO
import IMWireReport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One run of `imwire serve`: the server playing a scenario, its live check, and, when it ends,
/// each client's grades and the files that show them. The CLI only parses options into this.
public final class ServeRun: @unchecked Sendable {
    public let server: ServeServer
    private let live: LiveCheck
    private let clock: @Sendable () -> Int64

    /// `check`: the checker's options (dialect, lenient mode, rule overrides). `record`: a pcapng
    /// file to write the traffic to. `clock`: milliseconds since the epoch.
    public init(
        configuration: ServeConfiguration, check: CheckOptions, record: String? = nil,
        clock: @escaping @Sendable () -> Int64 = ServeRun.wallClock
    ) throws(IMWireError) {
        var options = check
        options.dialect = options.dialect ?? configuration.scenario.dialect
        live = try LiveCheck(options: options, record: record, now: { clock() * 1000 })
        server = ServeServer(configuration: configuration, live: live, clock: clock)
        self.clock = clock
    }

    /// Called on the check's queue with every finding as it is made.
    public func onFinding(_ body: @escaping @Sendable (Finding, _ firstTime: Int64?) -> Void) {
        live.onFinding(body)
    }

    /// Starts the server; returns the port bound.
    public func start() throws -> Int { try server.start() }

    /// Blocks until the run ends: `idleSeconds` after the last connection closed with none open
    /// (once a client came), after `duration` seconds, or on `server.stop()`. Then stops the server.
    public func wait(idleSeconds: Double, duration: Double?) {
        let started = clock()
        let ticker = DispatchQueue(label: "imwire.serve.idle")
        let timer = DispatchSource.makeTimerSource(queue: ticker)
        timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
        timer.setEventHandler { [server, clock] in
            let now = clock()
            if let duration, Double(now - started) >= duration * 1000 { return server.stop() }
            guard server.openConnections == 0, let last = server.lastEvent else { return }
            if case .closed(_, let time) = last, Double(now - time) >= idleSeconds * 1000 { server.stop() }
        }
        timer.resume()
        server.wait()
        timer.cancel()
    }

    /// Ends the check and grades every client. Call after `wait` (or `server.stop()`).
    public func finish() throws(IMWireError) -> ServeOutcome {
        server.stop()
        let scenario = server.configuration.scenario
        let report = try live.finish(source: "imwire serve --scenario \(scenario.name)")
        let events = server.log
        return ServeOutcome(
            scenario: scenario, report: report, events: events,
            results: ServeGrading.grade(scenario: scenario, report: report, events: events))
    }

    /// Milliseconds since the epoch.
    @Sendable public static func wallClock() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}

/// What a run produced: the checker's report of its traffic, the server's events, the grades.
public struct ServeOutcome: Sendable {
    public var scenario: Scenario
    public var report: CheckReport
    public var events: [ServeEvent]
    public var results: [ServeCaseResult]

    package init(scenario: Scenario, report: CheckReport, events: [ServeEvent], results: [ServeCaseResult]) {
        (self.scenario, self.report, self.events, self.results) = (scenario, report, events, results)
    }

    /// Writes `<scenario>.html` and `<scenario>.json` (the check's report of the run, as
    /// `imwire check` writes them) into `directory`, and adds this scenario's results to its
    /// `index.json` (Autobahn's shape: client → scenario → grades, reasons, report file). The
    /// directory is made when it does not exist (its parent must).
    public func write(to directory: String, threshold: Severity = .warning, specBase: String = "") throws(IMWireError) {
        if !Directory.isDirectory(directory), mkdir(directory, 0o755) != 0 {
            throw IMWireError(.fileWrite, String(cString: strerror(errno)), summary: "cannot make", path: directory)
        }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        try TextFile.write(
            HTMLReport.render(report, threshold: threshold, specBase: specBase), to: base + scenario.name + ".html")
        try TextFile.write(JSONReport.render(report, threshold: threshold), to: base + scenario.name + ".json")
        let indexPath = base + "index.json"
        let existing =
            (try? FileByteSource.readAll(path: indexPath)).flatMap { try? JSONParser.parse($0).objectValue }
            ?? JSONObject()
        let index = ServeGrading.index(results, reportFile: { _ in scenario.name + ".html" }, into: existing)
        try TextFile.write(JSONWriter.pretty(.object(index)) + "\n", to: indexPath)
    }

    /// Whether the run passed: a client came, and each is graded OK or NON-STRICT.
    public var passed: Bool { !results.isEmpty && results.allSatisfy { $0.grade <= .nonStrict } }

    /// One line per client: `alice  OK  (protocol OK, behaviour OK)  1.2 s  connections 1, 2`,
    /// then its reasons indented.
    public var text: String {
        var lines: [String] = []
        for result in results {
            let seconds = Double(result.durationMs) / 1000
            lines.append(
                """
                \(result.scenario) \(result.client): \(result.grade.rawValue) \
                (protocol \(result.protocolGrade.rawValue), behaviour \(result.behaviourGrade.rawValue)), \
                \(String(format1: seconds)) s, \
                connections \(result.connections.map(String.init).joined(separator: ", "))
                """)
            lines += result.reasons.map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// `value` with one decimal.
    fileprivate init(format1 value: Double) {
        let tenths = Int64((value * 10).rounded())
        self = "\(tenths / 10).\(abs(tenths % 10))"
    }
}
