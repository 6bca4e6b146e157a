import ArgumentParser
import IMWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

struct Check: TakesDialectSettings {
    static let configuration = CommandConfiguration(
        abstract: "Check a capture: decode every message of every connection and apply the rules.",
        discussion: """
            Reads pcap and pcapng (TCP reassembled, WebSocket handshakes and frames decoded), \
            Chrome DevTools HAR exports (_webSocketMessages), and the JSONL transcript of \
            Spec/capture-jsonl.md; the format is found from the file's magic number, else its \
            extension (.har, .jsonl, .ndjson), else its first line.

            Exit status: 0 clean, 1 findings at or above --severity, 2 unreadable input, 64 a usage error \
            (an unknown option, rule or value).
            """ + "\n\n" + DialectSettingArguments.help)

    @Argument(help: "The capture: .pcap, .pcapng, .har or .jsonl (- for a transcript on standard input).")
    var capture: String

    @Option(help: "Decode every connection as this dialect, whatever the capture says.")
    var dialect: Dialect?

    @Flag(help: "Downgrade rules about behaviour real peers exhibit (see `imwire rules`).")
    var lenient = false

    @Flag(
        help: "Keep the passwords, tokens and signatures that logins carry in the messages shown (replaced by default)."
    )
    var showSecrets = false

    @Option(name: .customLong("severity"), help: "Report and fail on findings at or above: info, warning, error.")
    var threshold: SeverityThreshold = .warning
    var severity: Severity { threshold.severity }

    @Option(
        name: .customLong("rule"),
        help: ArgumentHelp("Override a rule: ID=off|info|warn|error (repeatable).", valueName: "ID=ACTION"))
    var ruleOverrides: [String] = []

    @Option(
        help: """
            Report format: text, json (Spec/report-json.md), junit, sarif, html \
            (one self-contained page: diagrams, messages to expand, filters).
            """)
    var format: ReportFormat = .text

    @Option(name: .shortAndLong, help: "Write the report to a file instead of standard output (`-`: standard output).")
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Also write the capture as pcapng with every finding as a packet comment (Wireshark shows them).",
            valueName: "OUT.pcapng")
    )
    var annotate: String?

    @Option(
        help: ArgumentHelp(
            """
            The SDK policy reconnects are judged against: \(ReconnectPolicies.names.joined(separator: ", ")). \
            Repeatable, once per vendor; each applies to its own vendor's connections only. Without it a yun2win \
            client gets the policy its client id's platform digit names, and every other client its vendor's default \
            (Spec/reconnect.md §3 and §6); with --policy, a vendor in the capture that no --policy names gets that \
            choice and a warning on standard error, and a --policy whose vendor has no connection gets a warning.
            """,
            valueName: "name"))
    var policy: [String] = []

    @Flag(help: "With --format json: add what `imwire merge` needs (automatic for a shard made by `imwire shard`).")
    var mergeData = false

    @Flag(
        help: """
            With merge data: keep each connection's diagram timeline too, which `imwire merge --format html` \
            needs to draw messages (the report grows by up to 400 messages' summaries per connection).
            """)
    var mergeTimelines = false

    @Option(help: "Colour: auto (when stdout is a terminal), always, never.")
    var color: ColorMode = .auto

    @Option(help: "Threads that check connections (the report is the same for any value).")
    var jobs: Int = 1

    @Option(
        help: ArgumentHelp(
            """
            Seconds of capture time a TCP connection may go without a packet; \
            then it ends as at the capture's end (CAPTURE.TCP-IDLE; 0: never).
            """,
            valueName: "seconds"))
    var tcpIdle: Int = Limits.default.tcpIdleSeconds

    @OptionGroup var tls: TLSKeyLogOption

    enum ColorMode: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    func validate() throws {
        try validateDialectSettings()
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs \(jobs): expected 1...256") }
        guard tcpIdle >= 0 else { throw ValidationError("--tcp-idle \(tcpIdle): expected 0 or more seconds") }
        let selection = try policySelection()
        if let dialect, let other = selection.policies.first(where: { $0.dialect != dialect }) {
            throw ValidationError(
                "--policy \(other.name) is a \(other.dialect.rawValue) policy, but --dialect is \(dialect.rawValue)")
        }
    }

    func policySelection() throws -> PolicySelection {
        do { return try PolicySelection(names: policy) } catch {
            throw ValidationError("--policy: \(error.description)")
        }
    }

    func parsedOverrides() throws -> [RuleID: RuleAction] { try parseRuleOverrides(ruleOverrides) }
}

/// `--rule ID=ACTION` values (check, proxy) as actions by rule.
func parseRuleOverrides(_ ruleOverrides: [String]) throws -> [RuleID: RuleAction] {
    let parsed = RuleCatalog.ruleActions(ruleOverrides)
    if let problem = parsed.problem { throw ValidationError("--rule " + problem) }
    return parsed.actions
}

extension Check {

    func run() throws {
        let selection = try policySelection()
        var options = CheckOptions(dialect: dialect, lenient: lenient, ruleActions: try parsedOverrides())
        options.showSecrets = showSecrets
        options.limits.tcpIdleSeconds = tcpIdle
        options.reconnectPolicies = selection
        options.tlsKeyLog = try tls.keyLog()
        try applyDialectSettings(to: &options.dialectOptions)

        if format == .html {
            options.timelineLimit = HTMLReport.timelineLimit
            options.timelineDetails = true
        } else if mergeTimelines {
            options.timelineLimit = HTMLReport.timelineLimit
        }
        let progress = ProgressLine(path: capture, showing: isatty(2) != 0) {
            print($0, terminator: "", to: &standardError)
        }
        options.keepsMergeData = mergeData
        var report: CheckReport
        do { report = try Checker.check(path: capture, options: options, jobs: jobs, progress: progress.update) } catch
        {
            progress.finish()
            throw unreadable(error.description)
        }
        report.merge?.tool = IMWireCLI.configuration.version
        progress.finish()
        // A --policy of another vendor than a connection's would otherwise go unnoticed.
        for warning in selection.warnings(dialects: report.connections.dialects) {
            print("imwire: warning: --policy: \(warning)", to: &standardError)
        }
        if let annotate { try writeAnnotated(report, to: annotate) }
        let file: OutputFile
        do { file = try OutputFile(path: output) } catch { throw unreadable(error.description) }
        var formatOptions = ReportFormat.Options(threshold: severity, toolVersion: IMWireCLI.configuration.version)
        formatOptions.color = (output ?? "-") == "-" && (color == .always || (color == .auto && isatty(1) != 0))
        formatOptions.capture = capture
        formatOptions.limits = options.limits
        formatOptions.jobs = jobs
        format.write(report, options: formatOptions, to: file.write)
        do { try file.close() } catch { throw unreadable(error.description) }
        throw ExitCode(report.exitCode(threshold: severity))
    }

    /// The capture again, as pcapng, with each finding on the packet it is about.
    private func writeAnnotated(_ report: CheckReport, to path: String) throws {
        do { try TextFile.write(try CaptureConverter.annotated(report, capture: capture), to: path) } catch {
            throw unreadable("--annotate: \(error)")
        }
    }
}
