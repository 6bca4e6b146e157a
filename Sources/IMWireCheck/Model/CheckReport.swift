import IMWireCore
import IMWireTLS
import IMWireTransport

/// What one connection looked like and what was found on it.
public struct ConnectionReport: Sendable, Equatable {
    public var id: String
    public var dialect: Dialect?
    public var subprotocol: String?
    /// The negotiated WebSocket extensions (`ConnectionInfo.extensions`).
    public var extensions: String? = nil
    public var client: String?
    public var server: String?
    public var messages: Int
    /// Where every captured byte went.
    public var account: ByteAccount
    public var firstTime: Int64?
    public var lastTime: Int64?
    public var findings: [Finding]
    /// Findings beyond `Limits.maxFindingsPerConnection`, counted only.
    public var droppedFindings: Int
    /// The messages in order (up to `CheckOptions.timelineLimit`), for diagrams.
    public var timeline: [TimelineEntry]
    public var timelineDropped: Int
    /// A socket.io session gathered across TCP connections: the connections that carried it
    /// (its polling requests, its WebSocket), in the order they joined. Empty for a connection
    /// that is a TCP connection of its own.
    public var tcpConnections: [String] = []
    /// What the connection's TLS handshake showed, and whether it was decrypted; nil in the clear.
    public var tls: TLSSummary? = nil

    public var bytes: Int { account.captured }
}

/// A TLS connection in a report: the negotiated version and suite, the server name and protocol
/// the client asked for, and whether its records were decrypted (or why not).
public struct TLSSummary: Sendable, Hashable {
    /// `TLS 1.3`, `TLS 1.2`; nil before a ServerHello.
    public var version: String?
    /// The IANA name of the chosen suite.
    public var suite: String?
    /// The ClientHello's server_name.
    public var serverName: String?
    /// The protocol ALPN settled on (EncryptedExtensions in 1.3: known only when decrypted).
    public var alpn: String?
    public var decrypted: Bool
    /// Why the records were not decrypted, when they were not.
    public var reason: String?

    public init(version: String?, suite: String?, serverName: String?, alpn: String?, decrypted: Bool, reason: String?)
    {
        self.version = version
        self.suite = suite
        self.serverName = serverName
        self.alpn = alpn
        self.decrypted = decrypted
        self.reason = reason
    }

    public init(_ facts: TLSFacts) {
        let reason: String? =
            switch facts.decryption {
            case .decrypted: nil
            case .pending: "no encrypted record seen"
            case .notDecrypted(let why): why.description
            }
        self.init(
            version: facts.version?.description, suite: facts.cipherSuite?.name, serverName: facts.serverName,
            alpn: facts.alpn,
            decrypted: facts.decryption == .decrypted, reason: reason)
    }

    /// `TLS 1.3 TLS_AES_128_GCM_SHA256, sni localhost` (and why not decrypted), for the text report.
    public var description: String {
        var text = [version ?? "TLS", suite].compactMap { $0 }.joined(separator: " ")
        if let serverName { text += ", sni \(serverName)" }
        if let alpn { text += ", alpn \(alpn)" }
        if let reason { text += decrypted ? "" : ", not decrypted: \(reason)" }
        return text
    }
}

/// One message of a connection as the checker decoded it.
public struct TimelineEntry: Sendable, Hashable {
    public var frame: Int
    public var time: Int64
    public var direction: Direction
    public var summary: String
    /// The TCP connection that carried the message, in a session that spans several.
    public var tcp: String? = nil
    /// The message's canonical JSON (pretty-printed), when the report was asked for it
    /// (`CheckOptions.timelineDetails`).
    public var json: String? = nil
    /// The message's bytes, the first `TimelineEntry.payloadLimit` of them, when the report was
    /// asked for them; `payloadLength` counts them all.
    public var payload: [UInt8]? = nil
    /// The message's length in bytes (0 when its details were not kept).
    public var payloadLength: Int = 0

    /// Bytes of a message kept for the report's hex view.
    public static let payloadLimit = 512
}

/// The result of checking one capture.
public struct CheckReport: Sendable, Equatable {
    public var source: String
    /// Earliest time in the capture (µs); report times are shown relative to it.
    public var firstTime: Int64?
    public var connections: ConnectionReports
    /// Problems with the capture itself (unreadable lines), not tied to a connection.
    public var captureFindings: [Finding]
    /// What a merge of shard reports needs (`CheckOptions.keepsMergeData`); nil otherwise.
    public var merge: MergeData?

    package init(
        source: String, firstTime: Int64?, connections: ConnectionReports, captureFindings: [Finding],
        merge: MergeData? = nil
    ) {
        self.source = source
        self.firstTime = firstTime
        self.connections = connections
        self.captureFindings = captureFindings
        self.merge = merge
    }

    public var allFindings: [Finding] { captureFindings + connections.flatMap(\.findings) }

    /// Counted where the findings are, not in a copy of them all (a report can be large): a
    /// check's connections keep the count as they end (`ReportTally`).
    public func count(_ severity: Severity) -> Int {
        captureFindings.count { $0.severity == severity } + connections.count(severity)
    }

    /// 0 when nothing at or above `threshold` was found, 1 otherwise.
    public func exitCode(threshold: Severity) -> Int32 {
        Severity.allCases.contains { $0 >= threshold && count($0) > 0 } ? 1 : 0
    }
}

/// How many findings of each severity a check's connection reports hold, their messages and the
/// dialects they name: kept as connections end, so the summary, the exit code and the policy
/// warnings do not each read every report again (from the spool, for a large capture).
struct ReportTally: Sendable {
    private var counts = [Int](repeating: 0, count: Severity.allCases.count)
    private(set) var messages = 0
    private(set) var dialects: Set<Dialect> = []

    mutating func add(_ report: ConnectionReport) {
        for finding in report.findings { add(finding) }
        messages += report.messages
        if let dialect = report.dialect { dialects.insert(dialect) }
    }

    mutating func add(_ finding: Finding) { counts[finding.severity.rawValue] += 1 }

    mutating func add(_ other: ReportTally) {
        for index in counts.indices { counts[index] += other.counts[index] }
        messages += other.messages
        dialects.formUnion(other.dialects)
    }

    func count(_ severity: Severity) -> Int { counts[severity.rawValue] }
}
