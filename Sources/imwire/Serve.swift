import ArgumentParser
import IMWire
import IMWireServe

struct Serve: TakesDialectSettings {
    static let configuration = CommandConfiguration(
        abstract: "An offline IM cloud: serve a dialect to real clients, play a scenario, and grade each client.",
        discussion: """
            Listens on --listen and answers as the vendor's cloud does, everything on that one address: \
            \(ServeServer.clouds.map(\.answers).joined(separator: "; ")). Point a client's server option at it \
            (Spec/serve.md §2).

            The scenario (--scenario NAME, from Fixtures/serve/DIALECT/, or --scenario-file) says what the server does \
            and when: drop the connection, close it with a code, kick, refuse reconnects, answer an error, \
            withhold or delay an answer, push a message. Every connection is checked as imwire check checks a \
            capture, and printed live; when the run ends (--idle seconds after the last connection closed, \
            --duration, or SIGINT/SIGTERM), each client is graded, as Autobahn|Testsuite grades: protocol \
            (the checker's findings on its connections) and behaviour (the reconnect judge with the vendor's \
            policy, and what the scenario expects: reconnect or not), each OK, NON-STRICT, FAILED or \
            UNIMPLEMENTED. --out DIR gets index.json (client → scenario → grades) and the run's report.

            --scenarios all|NAME,NAME,… plays one dialect's scenarios one after the other on the same address, each \
            graded as a run of its own; a client's harness asks GET /imwire/case for the case playing and \
            GET /imwire/endCase to end it and start the next (Spec/serve.md §5).

            Exit status: 0 every client OK or NON-STRICT, 1 a client FAILED or UNIMPLEMENTED or no client came \
            (in a case), 2 a file that cannot be read or written or an address that cannot be bound, 64 a usage \
            error.
            """ + "\n\n" + DialectSettingArguments.help)

    @Option(
        help: ArgumentHelp(
            "IPv4 address to accept clients on (port 0: any free port, printed on standard error).",
            valueName: "HOST:PORT"))
    var listen: String = "127.0.0.1:0"

    @Option(
        help: """
            The dialect to serve: \(ServeServer.clouds.map(\.dialect.rawValue).joined(separator: ", ")) \
            (the scenario's by default).
            """)
    var dialect: Dialect?

    @Option(
        help: ArgumentHelp(
            """
            A scenario of Fixtures/serve/ by name (`imwire serve \
            --list`): NAME, or DIALECT/NAME when several dialects ship it.
            """,
            valueName: "NAME"))
    var scenario: String?

    @Option(help: ArgumentHelp("A scenario file (Spec/serve.md §3).", valueName: "FILE"))
    var scenarioFile: String?

    @Option(
        help: ArgumentHelp(
            """
            Play several scenarios of one dialect one after the other: all (every one --dialect ships) or \
            NAME,NAME,… in that order; a case ends at GET /imwire/endCase or as a run ends (Spec/serve.md §5).
            """,
            valueName: "all|NAMES"))
    var scenarios: String?

    @Flag(help: "List the scenarios of Fixtures/serve/ and exit.")
    var list = false

    @Option(
        help: ArgumentHelp("Write index.json and the run's report (HTML, JSON) into this directory.", valueName: "DIR"))
    var out: String?

    @Option(
        help: ArgumentHelp(
            """
            Record the traffic as pcapng (real times, synthesised IP/TCP headers); \
            with --scenarios, a directory that gets NAME.pcapng per case.
            """,
            valueName: "FILE.pcapng|DIR"))
    var record: String?

    @Option(help: "End the run this many seconds after the last connection closed, none open.")
    var idle: Double = 10

    @Option(help: "End the run after this many seconds in any case.")
    var duration: Double?

    @Option(help: "Seed of the ids the server gives out (same client steps, same ids).")
    var seed: UInt64 = 1

    @Flag(help: "Downgrade rules about behaviour real peers exhibit (see `imwire rules`).")
    var lenient = false

    @Flag(
        help: "Keep the passwords, tokens and signatures that logins carry in the messages shown (replaced by default)."
    )
    var showSecrets = false

    @Option(name: .customLong("severity"), help: "Print findings at or above: info, warning, error.")
    var threshold: SeverityThreshold = .warning

    @Option(
        name: .customLong("rule"),
        help: ArgumentHelp("Override a rule: ID=off|info|warn|error (repeatable).", valueName: "ID=ACTION"))
    var ruleOverrides: [String] = []

    func validate() throws {
        try validateDialectSettings()
        let at = try Proxy.endpoint(listen, "listen")
        guard ListenAddress.isIPv4(at.host) else {
            throw ValidationError(
                "--listen \(listen): an IPv4 address (the grading knows connections by their IPv4 addresses)")
        }
        if !list, [scenario, scenarioFile, scenarios].compactMap({ $0 }).count != 1 {
            throw ValidationError(
                "name the scenario: --scenario NAME, --scenario-file FILE or --scenarios all|NAME,NAME,…")
        }
        if scenarios == "all", dialect == nil { throw ValidationError("--scenarios all: name the dialect (--dialect)") }
        if !(idle > 0) { throw ValidationError("--idle: expected a positive number of seconds") }
        if let duration, !(duration > 0) { throw ValidationError("--duration: expected a positive number of seconds") }
    }

    func run() throws {
        let root = PackageRoot.locate()
        if list {
            guard let root else { throw unreadable("Fixtures/serve/ not found: run inside the IMWire repository") }
            for name in Scenario.shipped(root: root) { print(name) }
            return
        }
        if let scenarios { return try runSuite(scenarios, root: root) }
        let played: Scenario
        do {
            played = try Scenario.resolve(name: scenario, path: scenarioFile, dialect: dialect, root: root)
        } catch { throw refusal(error, option: "--scenario", root: root) }
        let at = try Proxy.endpoint(listen, "listen")
        let check = try checkOptions(played.dialect)
        let run: ServeRun
        do {
            run = try ServeRun(
                configuration: ServeConfiguration(
                    listenHost: at.host, listenPort: at.port, scenario: played, seed: seed), check: check,
                record: record)
        } catch { throw unreadable(error.description) }
        let printer = LivePrinter(format: .text, threshold: threshold.severity, messages: false, emit: printLine)
        run.onFinding { finding, firstTime in printer.finding(finding, firstTime: firstTime) }
        let port: Int
        do { port = try run.start() } catch {
            run.server.stop()
            throw unreadable("cannot listen on \(listen): \(error)")
        }
        print(
            """
            imwire serve: \(played.dialect.rawValue) on \
            \(at.host):\(port), scenario \(played.name): \(played.summary)
            """, to: &standardError)
        if let warning = reachabilityWarning(at.host, command: "serve") { print(warning, to: &standardError) }

        let signals = onTermination { run.server.stop() }
        run.wait(idleSeconds: idle, duration: duration)
        for source in signals { source.cancel() }

        let outcome: ServeOutcome
        do { outcome = try run.finish() } catch { throw unreadable(error.description) }
        try write(outcome, root: root)
        guard !outcome.results.isEmpty else {
            print("imwire serve: no client came", to: &standardError)
            throw ExitCode(1)
        }
        print(outcome.text)
        throw ExitCode(outcome.passed ? 0 : 1)
    }

    /// The checker's options from the command line, for `dialect`'s traffic.
    private func checkOptions(_ dialect: Dialect) throws -> CheckOptions {
        var check = CheckOptions(dialect: dialect, lenient: lenient, ruleActions: try parseRuleOverrides(ruleOverrides))
        check.showSecrets = showSecrets
        try applyDialectSettings(to: &check.dialectOptions)
        return check
    }

    /// `--out`: the outcome's reports and index.
    private func write(_ outcome: ServeOutcome, root: String?) throws {
        guard let out else { return }
        do {
            try outcome.write(to: out, threshold: threshold.severity, specBase: root.map { "file://\($0)/" } ?? "")
        } catch {
            throw unreadable("--out: \(error.description)")
        }
    }

    /// A scenario the library refuses: a usage error that says what to type instead (the library
    /// names no flags), or a file that cannot be read (exit 2). `option`: --scenario or --scenarios.
    func refusal(_ error: IMWireError, option: String, root: String?) -> Error {
        let name = error.field ?? ""
        let subject = option == "--scenarios" ? "--scenarios: \(name)" : "--scenario \(name)"
        switch error.code {
        case .serveNoSuchScenario:
            let shipped = root.map { " (imwire serve --list shows the \(Scenario.shipped(root: $0).count) shipped)" }
            return ValidationError("\(subject): \(error.reason)\(shipped ?? "")")
        case .serveScenarioAmbiguous:
            return ValidationError("\(subject): \(error.reason) (--dialect, or DIALECT/\(name))")
        case .serveScenarioDialect:
            guard let dialect, error.field != nil else { return ValidationError("\(option): \(error.reason)") }
            return ValidationError("--dialect \(dialect.rawValue): scenario \(name) is \(error.reason)")
        case .serveNoFixtures:
            return unreadable("Fixtures/serve/ not found: use --scenario-file, or run inside the IMWire repository")
        default: return unreadable(error.description)
        }
    }

    /// `--scenarios`: the cases one after the other on one port, each graded as a single run is.
    private func runSuite(_ names: String, root: String?) throws {
        guard let root else { throw unreadable("Fixtures/serve/ not found: run inside the IMWire repository") }
        let played: [Scenario]
        do { played = try Scenario.suite(names, dialect: dialect, root: root) } catch {
            throw refusal(error, option: "--scenarios", root: root)
        }
        let served = played[0].dialect
        if let record, !Directory.isDirectory(record) {
            throw unreadable("--record \(record): with --scenarios, a directory that exists")
        }
        let at = try Proxy.endpoint(listen, "listen")
        let suite = ServeSuite(
            scenarios: played, listenHost: at.host, listenPort: at.port, seed: seed, check: try checkOptions(served),
            recordDirectory: record)
        if let warning = reachabilityWarning(at.host, command: "serve") { print(warning, to: &standardError) }
        let printer = LivePrinter(format: .text, threshold: threshold.severity, messages: false, emit: printLine)
        let signals = onTermination { suite.stop() }
        defer { for source in signals { source.cancel() } }
        var passed = true
        do {
            try suite.run(idleSeconds: idle, duration: duration) { run, port in
                run.onFinding { finding, firstTime in printer.finding(finding, firstTime: firstTime) }
                let scenario = run.server.configuration.scenario
                print(
                    """
                    imwire serve: \(served.rawValue) on \(at.host):\(port), case \
                    \(run.server.configuration.caseIndex + 1) of \(played.count), \
                    scenario \(scenario.name): \(scenario.summary)
                    """, to: &standardError)
            } finished: { outcome, _ in
                try write(outcome, root: root)
                if outcome.results.isEmpty {
                    print("imwire serve: \(outcome.scenario.name): no client came", to: &standardError)
                } else {
                    print(outcome.text)
                }
                passed = passed && outcome.passed
            }
        } catch let error as ExitCode {
            throw error
        } catch let error as IMWireError {
            throw unreadable(error.description)
        } catch {
            throw unreadable("cannot listen on \(listen): \(error)")
        }
        throw ExitCode(passed ? 0 : 1)
    }
}
