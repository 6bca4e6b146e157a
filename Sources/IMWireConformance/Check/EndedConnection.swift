import IMWireCore

/// A connection the checker has read to its end: its report, and what the judge of reconnects
/// needs (ReconnectCheck.swift), which may still add findings to it. The connection's decoding
/// state (`ConnectionState`: transport, session, held messages) is let go by then, and the
/// report may wait in a spool file (`CheckOptions.reportsInMemory`). Changed only by the
/// `Checker` until `finish` returns, read only after: hence the unchecked `Sendable`.
final class EndedConnection: @unchecked Sendable {
    let id: String
    let dialect: Dialect?
    /// The client's address (`ConnectionInfo.client`).
    let client: String?
    let firstTime: Int64?
    let lastTime: Int64?
    let closed: Bool
    /// The capture ended with the connection still open (no FIN or RST, no close line).
    let openAtCaptureEnd: Bool
    let closeCode: Int?
    /// The capture had the connection's transport bytes, so pings were visible.
    let hasTransportBytes: Bool
    /// What the dialect session showed about the client's reconnects (nil: no session).
    let facts: ReconnectFacts?
    private let stored: StoredReport
    /// The stored findings' rules that judge findings defer to (`Checker.judgeFindingsReportedBy`).
    private let deferredRules: Set<RuleID>
    private var storedFindings: Int
    /// Findings added after the report was stored, and how many the cap turned away.
    private var added: [Finding] = []
    private var dropped = 0

    /// Ends `conn`: finishes its session, keeps its reconnect facts and stores its report (in
    /// `spool` when one is given).
    init(_ conn: ConnectionState, options: CheckOptions, spool: ReportSpool?) {
        facts = conn.finishSession(options: options)
        id = conn.id
        dialect = conn.dialect
        client = conn.info.client
        firstTime = conn.firstTime
        lastTime = conn.lastTime
        closed = conn.closed
        openAtCaptureEnd = conn.openAtCaptureEnd
        closeCode = conn.closeCode
        hasTransportBytes = conn.hasTransportBytes
        let report = ConnectionReport(
            id: conn.id, dialect: conn.dialect, subprotocol: conn.info.subprotocol, client: conn.info.client,
            server: conn.info.server, messages: conn.messages, account: conn.account, firstTime: conn.firstTime,
            lastTime: conn.lastTime, findings: conn.findings, droppedFindings: conn.droppedFindings,
            timeline: conn.timeline, timelineDropped: conn.timelineDropped)
        stored = spool?.store(report) ?? .memory(report)
        storedFindings = conn.findings.count
        deferredRules = Set(conn.findings.lazy.map(\.ruleID).filter(Checker.judgeDeferredRules.contains))
    }

    /// A connection the capture named but the checker never saw an event of.
    init(id: String) {
        self.id = id
        dialect = nil
        client = nil
        firstTime = nil
        lastTime = nil
        closed = false
        openAtCaptureEnd = false
        closeCode = nil
        hasTransportBytes = false
        facts = nil
        stored = .memory(ConnectionReport(
            id: id, dialect: nil, subprotocol: nil, client: nil, server: nil, messages: 0, account: ByteAccount(), firstTime: nil,
            lastTime: nil, findings: [], droppedFindings: 0, timeline: [], timelineDropped: 0))
        storedFindings = 0
        deferredRules = []
    }

    /// A finding about the ended connection: the judge's, or a capture problem that arrived
    /// after the connection's last event. Capped like the connection's own findings.
    func add(_ finding: Finding, options: CheckOptions, line: Int?, frame: Int?) {
        guard let placed = ConnectionState.place(finding, options: options, connection: id, line: line, frame: frame) else { return }
        if storedFindings + added.count < options.limits.maxFindingsPerConnection {
            added.append(placed)
        } else {
            dropped += 1
        }
    }

    /// Whether a finding of one of `rules` is among the connection's (of the rules judge
    /// findings defer to, the only ones asked about).
    func hasFinding(of rules: Set<RuleID>) -> Bool {
        !deferredRules.isDisjoint(with: rules) || added.contains { rules.contains($0.ruleID) }
    }

    /// The report, its findings in report order (read back from the spool when it is there).
    var report: ConnectionReport {
        var report = stored.load()
        report.findings += added
        report.findings.sort(by: Finding.reportOrder)
        report.droppedFindings += dropped
        return report
    }
}

/// The connections of a `CheckReport`, in the order the capture opened them. Each report is
/// put together when it is asked for (from the spool, when it waits there), so iterate
/// rather than index the same connection again and again.
public struct ConnectionReports: RandomAccessCollection, Sendable, Equatable {
    private let connections: [EndedConnection]

    init(_ connections: [EndedConnection]) { self.connections = connections }

    public var startIndex: Int { 0 }
    public var endIndex: Int { connections.count }
    public subscript(position: Int) -> ConnectionReport { connections[position].report }

    public static func == (a: ConnectionReports, b: ConnectionReports) -> Bool { a.elementsEqual(b) }
}
