import ArgumentParser
import IMWire
import IMWireProxy

struct Proxy: TakesDialectSettings {
    static let configuration = CommandConfiguration(
        abstract:
            "Check live traffic: a TCP proxy that forwards every byte unchanged and reports violations as they happen.",
        discussion: """
            Accepts connections on --listen and joins each to a new connection to --upstream, or, with \
            --explicit, to the server the client asks for (an HTTP CONNECT request, a plain-HTTP request \
            for http://host/path, which reaches the server as /path, or a SOCKS5 CONNECT, as a client or \
            phone set to use a proxy sends), forwarding both directions byte for byte. Both \
            directions of every connection go through the transport layer and dialects of imwire check \
            (detected as check does; --dialect overrides), and each finding is printed as it happens: text, \
            the lines of check's report under a `connection` line; jsonl, one JSON object per line \
            (Spec/proxy.md). --record writes the traffic as pcapng so that `imwire check` of it reports the \
            same findings.

            With --tls the proxy terminates each client's TLS with a certificate for the name it asks for \
            (its SNI), signed on the fly by the CA in --ca (make one with `imwire ca create`, and make the \
            client trust it), and opens TLS to the server with the same name, verified against the system \
            trust store, --upstream-ca, or not at all with --upstream-insecure. The check and --record see \
            the plaintext; --tls-keylog-out writes both legs' secrets, so that a recording of the wire \
            (dumpcap) decrypts in tshark and `imwire check --tls-keylog`. A client whose first bytes are not \
            TLS passes through as it is.

            Stops on SIGINT or SIGTERM, after --max-connections connections have closed, or after \
            --duration seconds; then writes --report and exits as check does: 0 clean, 1 findings at or \
            above --severity, 2 a file that cannot be written or read (the CA, --upstream-ca) or an address \
            that cannot be bound, 64 a usage error.
            """ + "\n\n" + DialectSettingArguments.help)

    @Option(
        help: ArgumentHelp(
            "Address to accept clients on (port 0: any free port, printed on standard error).", valueName: "HOST:PORT"))
    var listen: String

    @Option(help: ArgumentHelp("The server to forward to (or --explicit).", valueName: "HOST:PORT"))
    var upstream: String?

    @Flag(
        help: """
            Forward each connection to the server its client asks for: \
            HTTP CONNECT, http:// requests or SOCKS5 (no authentication).
            """)
    var explicit = false

    @Flag(help: "Terminate TLS: show each client a certificate signed by --ca, open TLS to the server.")
    var tls = false

    @Option(help: ArgumentHelp("With --tls: the CA directory `imwire ca create --out DIR` made.", valueName: "DIR"))
    var ca: String?

    @Option(
        help: ArgumentHelp(
            "With --tls: verify the servers' certificates against these CA certificates (PEM) instead of the system's.",
            valueName: "FILE"))
    var upstreamCA: String?

    @Flag(help: "With --tls: do not verify the servers' certificates (test servers only).")
    var upstreamInsecure = false

    @Option(
        help: ArgumentHelp(
            "With --tls: write both legs' TLS secrets to FILE (NSS key log format) as they are made.", valueName: "FILE"
        ))
    var tlsKeylogOut: String?

    @Option(help: "Decode every connection as this dialect, whatever the traffic says.")
    var dialect: Dialect?

    @Option(help: "How findings are printed as they happen: text (check's lines) or jsonl (Spec/proxy.md).")
    var format: LiveFormat = .text

    @Flag(help: "Also print every decoded message (as imwire show does).")
    var messages = false

    @Flag(help: "Downgrade rules about behaviour real peers exhibit (see `imwire rules`).")
    var lenient = false

    @Flag(
        help: "Keep the passwords, tokens and signatures that logins carry in the messages shown (replaced by default)."
    )
    var showSecrets = false

    @Option(name: .customLong("severity"), help: "Print and fail on findings at or above: info, warning, error.")
    var threshold: SeverityThreshold = .warning

    @Option(
        name: .customLong("rule"),
        help: ArgumentHelp("Override a rule: ID=off|info|warn|error (repeatable).", valueName: "ID=ACTION"))
    var ruleOverrides: [String] = []

    @Option(
        help: ArgumentHelp(
            "Record the proxied traffic as pcapng (real times, synthesised IP/TCP headers).", valueName: "FILE.pcapng"))
    var record: String?

    @Option(help: ArgumentHelp("Write the final report to this file on exit.", valueName: "FILE"))
    var report: String?

    @Option(help: "Format of --report: text, json (Spec/report-json.md), junit, sarif, html.")
    var reportFormat: ReportFormat = .json

    @Option(help: "Stop after this many proxied connections have closed.")
    var maxConnections: Int?

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    static func endpoint(_ text: String, _ option: String) throws -> (host: String, port: Int) {
        guard let at = ListenAddress.parse(text) else {
            throw ValidationError("--\(option) \(text): expected HOST:PORT")
        }
        return at
    }

    func validate() throws {
        try validateDialectSettings()
        _ = try Self.endpoint(listen, "listen")
        switch (upstream, explicit) {
        case (nil, false):
            throw ValidationError("name the server with --upstream HOST:PORT, or let clients name it with --explicit")
        case (.some, true): throw ValidationError("--upstream and --explicit exclude each other")
        case (let upstream?, false):
            let up = try Self.endpoint(upstream, "upstream")
            guard up.port > 0 else { throw ValidationError("--upstream \(upstream): the port may not be 0") }
        case (nil, true): break
        }
        if tls, ca == nil { throw ValidationError("--tls needs --ca DIR (make one with `imwire ca create --out DIR`)") }
        if !tls, ca != nil || upstreamCA != nil || upstreamInsecure || tlsKeylogOut != nil {
            throw ValidationError("--ca, --upstream-ca, --upstream-insecure and --tls-keylog-out go with --tls")
        }
        if upstreamCA != nil, upstreamInsecure {
            throw ValidationError("--upstream-ca and --upstream-insecure exclude each other")
        }
        if let maxConnections, maxConnections < 1 { throw ValidationError("--max-connections: expected at least 1") }
        if let duration, !(duration > 0) { throw ValidationError("--duration: expected a positive number of seconds") }
    }

    func run() throws {
        let listenAt = try Self.endpoint(listen, "listen")
        let target: ProxyConfiguration.Upstream
        if let upstream {
            let at = try Self.endpoint(upstream, "upstream")
            target = .fixed(host: at.host, port: at.port)
        } else {
            target = .askedByClient
        }
        var interception: ProxyTLSConfiguration?
        if tls, let ca {
            let authority: CertificateAuthority
            do { authority = try CertificateAuthority.load(from: ca) } catch {
                let advice = error.code == .proxyCAMissing ? " (create a CA with `imwire ca create --out \(ca)`)" : ""
                throw unreadable("--ca: \(error.description)\(advice)")
            }
            let trust: ProxyTLSConfiguration.UpstreamTrust =
                upstreamInsecure ? .insecure : upstreamCA.map { .file($0) } ?? .system
            interception = ProxyTLSConfiguration(authority: authority, upstreamTrust: trust, keyLogOut: tlsKeylogOut)
        }
        var options = CheckOptions(
            dialect: dialect, lenient: lenient, ruleActions: try parseRuleOverrides(ruleOverrides))
        options.showSecrets = showSecrets
        options.describesMessages = messages
        try applyDialectSettings(to: &options.dialectOptions)
        if report != nil, reportFormat == .html {
            // The page draws each connection's messages, as `check --format html` does.
            options.timelineLimit = HTMLReport.timelineLimit
            options.timelineDetails = true
        }
        let live: LiveCheck
        do { live = try LiveCheck(options: options, record: record, now: LiveCheck.wallClock) } catch {
            throw unreadable(error.description)
        }
        let severity = threshold.severity
        let printer = LivePrinter(format: format, threshold: severity, messages: messages, emit: printLine)
        live.onFinding { finding, firstTime in printer.finding(finding, firstTime: firstTime) }
        if messages { live.onMessage { message in printer.message(message) } }

        let proxy = ProxyServer(
            configuration: ProxyConfiguration(
                listenHost: listenAt.host, listenPort: listenAt.port, upstream: target, tls: interception,
                maxConnections: maxConnections),
            live: live)
        let port: Int
        do { port = try proxy.start() } catch let error as IMWireError {
            proxy.stop()
            throw unreadable(error.description)
        } catch {
            proxy.stop()
            throw unreadable("cannot listen on \(listen): \(error)")
        }
        let destination =
            upstream.map { "forwarding to \($0)" }
            ?? "forwarding where each client asks (HTTP CONNECT, http:// requests, SOCKS5)"
        print(
            "imwire proxy: listening on \(listenAt.host):\(port), \(destination)\(tls ? ", terminating TLS" : "")",
            to: &standardError)
        if let warning = reachabilityWarning(listenAt.host, command: "proxy") { print(warning, to: &standardError) }

        let signals = onTermination { proxy.stop() }
        proxy.wait(duration: duration)
        for source in signals { source.cancel() }

        let final: CheckReport
        do { final = try live.finish(source: "proxy \(listenAt.host):\(port) → \(upstream ?? "explicit")") } catch {
            throw unreadable(error.description)
        }
        printer.summary(final)
        if let report { try write(final, to: report, threshold: severity, limits: options.limits) }
        throw ExitCode(final.exitCode(threshold: severity))
    }

    private func write(_ final: CheckReport, to path: String, threshold: Severity, limits: Limits) throws {
        var options = ReportFormat.Options(threshold: threshold, toolVersion: IMWireCLI.configuration.version)
        options.capture = record  // SARIF regions are packets of the recording
        options.limits = limits
        do { try TextFile.write(reportFormat.render(final, options: options), to: path) } catch {
            throw unreadable("--report: \(error.description)")
        }
    }
}

/// The one-line warning of `proxy` and `serve` when `--listen` names an address other hosts
/// reach (what crosses carries logins' credentials); nil for a loopback address.
func reachabilityWarning(_ host: String, command: String) -> String? {
    guard !ListenAddress.isLoopback(host) else { return nil }
    return """
        imwire \(command): warning: --listen \(host): the server is \
        reachable from other hosts (127.0.0.1 keeps it to this one)
        """
}
