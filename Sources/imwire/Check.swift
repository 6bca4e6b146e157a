import ArgumentParser
import IMWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a capture: decode every message of every connection and apply the rules.",
        discussion: """
            Reads the JSONL transcript of Spec/capture-jsonl.md (one WebSocket message per line).
            Exit status: 0 clean, 1 findings at or above --severity, 2 unreadable input.
            """)

    @Argument(help: "The capture (.jsonl); - for standard input.")
    var capture: String

    @Option(help: "Decode every connection as this dialect, whatever the capture says.")
    var dialect: Dialect?

    @Flag(help: "Downgrade rules about behaviour real peers exhibit (see `imwire rules`).")
    var lenient = false

    @Option(help: "Report and fail on findings at or above: info, warning, error.")
    var severity: Severity = .warning

    @Option(name: .customLong("rule"), help: ArgumentHelp("Override a rule: ID=off|info|warn|error (repeatable).", valueName: "ID=ACTION"))
    var ruleOverrides: [String] = []

    @Option(help: "Output: text or json.")
    var format: OutputFormat = .text

    @Option(help: "Seconds a request may wait for its reply (SDK defaults: Java 10, JS 20, Swift/ObjC 30).")
    var timeout: Double = 30

    @Option(help: "Seconds a received message may stay unacknowledged.")
    var ackTimeout: Double = 5

    @Option(help: "LeanCloud app id for signature checks (default: the appId of session/open).")
    var appId: String?

    @Option(help: "LeanCloud master key: verify the signatures of session/open, conv/start|add|remove, blacklist.")
    var masterKey: String?

    @Option(help: ArgumentHelp(
        "The SDK policy reconnects are judged against: \(ReconnectPolicies.names.joined(separator: ", ")) (default: per dialect, see Spec/reconnect.md).",
        valueName: "name"))
    var policy: String?

    @Option(help: "Colour: auto (when stdout is a terminal), always, never.")
    var color: ColorMode = .auto

    enum ColorMode: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    func validate() throws {
        guard let policy else { return }
        guard let named = ReconnectPolicies.named(policy) else {
            throw ValidationError("--policy \(policy): unknown; known: \(ReconnectPolicies.names.joined(separator: ", "))")
        }
        if let dialect, named.dialect != dialect {
            throw ValidationError("--policy \(policy) is a \(named.dialect.rawValue) policy, but --dialect is \(dialect.rawValue)")
        }
    }

    func parsedOverrides() throws -> [RuleID: RuleAction] {
        var actions: [RuleID: RuleAction] = [:]
        for entry in ruleOverrides {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let action = RuleAction(rawValue: parts[1]) else {
                throw ValidationError("--rule \(entry): expected ID=off|info|warn|error")
            }
            guard RuleCatalog.rule(RuleID(parts[0])) != nil else { throw ValidationError("--rule \(entry): unknown rule \(parts[0]) (see imwire rules)") }
            actions[RuleID(parts[0])] = action
        }
        return actions
    }

    func run() throws {
        var options = CheckOptions(dialect: dialect, lenient: lenient, ruleActions: try parsedOverrides(),
                                   reconnectPolicy: policy.flatMap(ReconnectPolicies.named))
        guard timeout > 0, ackTimeout > 0 else { throw ValidationError("timeouts must be positive") }
        options.leancloud.requestTimeout = Int64(timeout * 1_000_000)
        options.leancloud.ackTimeout = Int64(ackTimeout * 1_000_000)
        if let masterKey { options.leancloud.credentials = .init(appID: appId, masterKey: masterKey) }

        let reader: TranscriptReader
        do { reader = try TranscriptReader(path: capture, limits: options.limits) } catch { throw unreadable(error.description) }
        let checker = Checker(options: options)
        var events = 0
        var problems = 0
        while let item = reader.next() {
            if case .event = item { events += 1 } else { problems += 1 }
            checker.consume(item)
        }
        if events == 0, problems > 0 {
            throw unreadable("\(capture): no line is a transcript event (see Spec/capture-jsonl.md)")
        }
        let report = checker.finish(source: capture)
        switch format {
        case .text:
            let useColor = color == .always || (color == .auto && isatty(1) != 0)
            print(TextReport.render(report, threshold: severity, color: useColor), terminator: "")
        case .json:
            print(JSONReport.render(report, threshold: severity), terminator: "")
        }
        throw ExitCode(report.exitCode(threshold: severity))
    }
}
