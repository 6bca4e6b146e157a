import ArgumentParser
import IMWire

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print every message of a capture, decoded, with its findings.",
        discussion: """
            One entry per message, in capture order per connection: connection, frame (its packet in a \
            pcap), time, direction, frame type and size, the TCP connection that carried it when the \
            connection is a socket.io session, the dialect's name for it, its canonical JSON \
            (Spec/<dialect>.md) and the findings its dialect gave it. The filters combine (all must hold). \
            --format json writes one JSON object per line, with the payload as hex. Exit 0 once the \
            capture is read (imwire check judges it), 2 when it cannot be read.
            """)

    @Argument(help: "A capture: pcap, pcapng, HAR or a JSONL transcript (- for standard input).")
    var capture: String

    @Option(help: "Only this connection (repeatable): its id as the report names it.")
    var connection: [String] = []

    @Option(help: "Only connections of this dialect: \(Dialect.allValueStrings.joined(separator: ", ")).")
    var dialect: Dialect?

    @Option(help: "Only messages whose name (summary) contains this text, e.g. session/open, 2_3, login.")
    var command: String?

    @Option(help: "Only messages with a finding of this rule, e.g. LC.DUPLICATE-I.")
    var rule: String?

    @Flag(help: "Also print each payload as hex.")
    var hex = false

    @Option(help: "text or json (one object per line).")
    var format: OutputFormat = .text

    @Flag(help: "Lenient severities, as imwire check --lenient.")
    var lenient = false

    @Flag(
        help: "Keep the passwords, tokens and signatures that logins carry in the messages shown (replaced by default)."
    )
    var showSecrets = false

    @OptionGroup var tls: TLSKeyLogOption

    func validate() throws {
        if let rule, RuleCatalog.rule(named: rule) == nil {
            throw ValidationError("--rule: \(RuleCatalog.unknown(rule))")
        }
    }

    func run() throws {
        var options = CheckOptions(lenient: lenient)
        options.showSecrets = showSecrets
        options.describesMessages = true
        options.tlsKeyLog = try tls.keyLog()
        let checker = Checker(options: options)
        let ruleID = rule.flatMap(RuleCatalog.rule(named:))?.id
        checker.onMessage = { message in
            guard connection.isEmpty || connection.contains(message.connection),
                dialect == nil || message.dialect == dialect,
                command.map({ message.summary?.contains($0) == true }) ?? true,
                ruleID.map(message.reports) ?? true
            else { return }
            print(format == .json ? JSONWriter.string(message.json) : message.text(hex: hex))
        }
        let source: any CaptureSource
        do { source = try CaptureFile.open(capture, limits: options.limits) } catch {
            throw unreadable(error.description)
        }
        do { _ = try checker.check(source, named: capture) } catch { throw unreadable(error.description) }
    }
}
