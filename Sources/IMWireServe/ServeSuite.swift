import Dispatch
import IMWireCheck
import IMWireCore

/// `imwire serve --scenarios`: a dialect's scenarios played one after the other on one address,
/// for a client that reconnects between cases (Autobahn|Testsuite's fuzzingserver runs its cases
/// so). Each case is a `ServeRun` of its own: a fresh cloud, check, log and grades. A case ends as
/// a run does (idle, duration), or when the client's harness asks `GET /imwire/endCase`
/// (`Spec/serve.md` §5); the next case then listens on the same port.
public final class ServeSuite: @unchecked Sendable {
    public let scenarios: [Scenario]
    private let listen: (host: String, port: Int)
    private let seed: UInt64
    private let limits: ServeLimits
    private let check: CheckOptions
    private let recordDirectory: String?
    private let clock: @Sendable () -> Int64
    private let lock = DispatchSemaphore(value: 1)
    private var current: ServeRun?
    private var stopping = false

    /// `scenarios`: one dialect's, in the order they run. `recordDirectory`: each case's traffic
    /// goes to `NAME.pcapng` in it (it must exist).
    public init(
        scenarios: [Scenario], listenHost: String = "127.0.0.1", listenPort: Int, seed: UInt64 = 1,
        limits: ServeLimits = ServeLimits(),
        check: CheckOptions, recordDirectory: String? = nil, clock: @escaping @Sendable () -> Int64 = ServeRun.wallClock
    ) {
        precondition(
            !scenarios.isEmpty && Set(scenarios.map(\.dialect)).count == 1, "a suite is one dialect's scenarios")
        self.scenarios = scenarios
        self.listen = (listenHost, listenPort)
        self.seed = seed
        self.limits = limits
        self.check = check
        self.recordDirectory = recordDirectory
        self.clock = clock
    }

    /// What ended a case.
    public enum Ending: Sendable {
        /// A client asked `GET /imwire/endCase`.
        case request
        /// `idleSeconds` passed with no connection open, or `duration`.
        case time
        /// `stop()`: the suite ends with this case.
        case stopped
    }

    /// Plays every case in order: `started(run, port)` once a case listens (a caller adds its
    /// finding printer there), `finished(outcome, ending)` once it is graded. A case's `wait`
    /// is `ServeRun.wait(idleSeconds:duration:)`'s. Throws what `ServeRun.init` and `start` throw:
    /// a record file that cannot be written, an address that cannot be bound.
    public func run(
        idleSeconds: Double, duration: Double?, started: (ServeRun, _ port: Int) -> Void,
        finished: (ServeOutcome, Ending) throws -> Void
    ) throws {
        let names = scenarios.map { $0.dialect.rawValue + "/" + $0.name }
        var port = listen.port
        for (index, scenario) in scenarios.enumerated() {
            let configuration = ServeConfiguration(
                listenHost: listen.host, listenPort: port, scenario: scenario, seed: seed, limits: limits, cases: names,
                caseIndex: index)
            let record = recordDirectory.map { ($0.hasSuffix("/") ? $0 : $0 + "/") + scenario.name + ".pcapng" }
            let run = try ServeRun(configuration: configuration, check: check, record: record, clock: clock)
            lock.wait()
            let stopped = stopping
            if !stopped { current = run }
            lock.signal()
            if stopped { return }
            do { port = try run.start() } catch {
                run.server.stop()
                throw error
            }
            started(run, port)
            run.wait(idleSeconds: idleSeconds, duration: duration)
            lock.wait()
            current = nil
            let ending: Ending = stopping ? .stopped : run.server.endedByRequest ? .request : .time
            lock.signal()
            try finished(try run.finish(), ending)
            if ending == .stopped { return }
        }
    }

    /// Ends the case playing now, and the suite with it. From any thread.
    public func stop() {
        lock.wait()
        stopping = true
        let run = current
        lock.signal()
        run?.server.stop()
    }
}
