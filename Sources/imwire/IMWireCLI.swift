import ArgumentParser
import Dispatch
import IMWire

@main
struct IMWireCLI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imwire",
        // The protocols as the registration table titles them.
        abstract: "Wire codecs and a conformance checker for IM cloud protocols: "
            + "\(Dialects.standard.all.map(\.title).joined(separator: ", ")).",
        discussion: """
            Exit status: 0 clean, 1 findings at or above the chosen severity, 2 unreadable input, 64 a usage \
            error (see each command's help for its own meaning of 1).
            Rules: `imwire rules`; formats and flows: Spec/ in the repository.
            """,
        version: "0.1.0",
        subcommands: [
            CA.self, Check.self, Conformance.self, Convert.self, Codes.self, Decode.self, Encode.self, Explain.self,
            Fixtures.self, Merge.self,
            Proxy.self, Reconnect.self, Rules.self, Serve.self, Shard.self, Show.self, SpecCommand.self,
        ]
    )

    /// The dialects' settings and the codecs' options are taken out of the command line first
    /// (ArgumentParser does not know them: `DialectSettingArguments`, `CodecOptionArguments`),
    /// then it parses the rest as usual.
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        do {
            DialectSettingArguments.given = DialectSettingArguments.extract(
                from: &arguments, commands: [Check.self, Proxy.self, Serve.self])
            CodecOptionArguments.extract(from: &arguments, decode: Decode.self, encode: Encode.self)
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}

/// A dialect is named as the registration table names it; the table lists the names `--help` shows.
extension Dialect: ExpressibleByArgument {
    public init?(argument: String) {
        guard let dialect = Dialects.standard.named(argument) else { return nil }
        self = dialect
    }

    public static var allValueStrings: [String] { Dialects.standard.all.map(\.dialect.rawValue) }
}
extension Direction: ExpressibleByArgument {}
extension RuleAction: ExpressibleByArgument {}
extension ReportFormat: ExpressibleByArgument {}
extension LiveFormat: ExpressibleByArgument {}

/// `--severity`: String-backed, because for an Int-backed enum like `Severity` ArgumentParser's
/// `--help` shows the raw value (`default: 1`) whatever `defaultValueDescription` says.
enum SeverityThreshold: String, ExpressibleByArgument, CaseIterable {
    case info, warning, error

    init?(argument: String) { self.init(rawValue: argument == "warn" ? "warning" : argument) }

    var severity: Severity {
        switch self {
        case .info: .info
        case .warning: .warning
        case .error: .error
        }
    }
}

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}

/// Writes to standard error.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var text = string
        text.withUTF8 { buffer in writeAll(2, UnsafeRawBufferPointer(buffer)) }
    }
}

nonisolated(unsafe) var standardError = StandardError()

/// Calls `stop` on SIGINT or SIGTERM (instead of dying of them) until the returned sources are
/// cancelled: what `proxy` and `serve` do to end a run with their report written.
func onTermination(_ stop: @escaping @Sendable () -> Void) -> [DispatchSourceSignal] {
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    return [SIGINT, SIGTERM].map { number in
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler(handler: stop)
        source.resume()
        return source
    }
}

/// Writes a line to standard output at once (a live check's lines, from any thread).
@Sendable func printLine(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { writeAll(1, UnsafeRawBufferPointer($0)) }
}

/// Writes all of `bytes` to a file descriptor (1 stdout, 2 stderr), after flushing stdio buffers
/// so the output keeps its order with `print`.
func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) {
    fflush(nil)
    var offset = 0
    while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written <= 0 { return }
        offset += written
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
