import IMWireCore

/// A connection the checker has read to its end: its report, and what the judge of reconnects
/// reads of it (`JudgeInput`), which may still add findings to it. The connection's decoding
/// state (`ConnectionState`: transport, session, held messages) is let go by then, and past
/// `CheckOptions.reportsInMemory` the report and the judge's input wait in a spool file.
/// Changed only by the `Checker` until `finish` returns, read only after: hence the unchecked
/// `Sendable`.
final class EndedConnection: @unchecked Sendable {
    let id: String
    /// The connection's last time, for the capture's end.
    let lastTime: Int64?
    private let stored: StoredReport
    /// Nil for a connection the judge does not look at.
    private let judged: Stored<JudgeInput>?
    private var storedFindings: Int
    /// Findings added after the report was stored, and how many the cap turned away.
    private var added: [Finding] = []
    private var dropped = 0

    /// Ends `conn`: finishes its session, and stores its report and the judge's input (in
    /// `spool` when one is given).
    init(_ conn: ConnectionState, options: CheckOptions, spool: ReportSpool?) {
        let facts = conn.finishSession(options: options)
        id = conn.id
        lastTime = conn.lastTime
        let report = ConnectionReport(
            id: conn.id, dialect: conn.dialect, subprotocol: conn.info.subprotocol, client: conn.info.client,
            server: conn.info.server, messages: conn.messages, account: conn.account, firstTime: conn.firstTime,
            lastTime: conn.lastTime, findings: conn.findings, droppedFindings: conn.droppedFindings,
            timeline: conn.timeline, timelineDropped: conn.timelineDropped)
        stored = spool?.store(report) ?? .memory(report)
        storedFindings = conn.findings.count
        if let dialect = conn.dialect, let facts, let firstTime = conn.firstTime,
           JudgeInput.clientKey(dialect: dialect, facts: facts, client: conn.info.client) != nil {
            let input = JudgeInput(
                dialect: dialect, client: conn.info.client, firstTime: firstTime, lastTime: conn.lastTime, closed: conn.closed,
                openAtCaptureEnd: conn.openAtCaptureEnd, closeCode: conn.closeCode, hasTransportBytes: conn.hasTransportBytes,
                facts: facts, deferredRules: Set(conn.findings.lazy.map(\.ruleID).filter(Checker.judgeDeferredRules.contains)))
            judged = spool?.store(input) ?? .memory(input)
        } else {
            judged = nil
        }
    }

    /// What the judge reads of the connection (from the spool when it waits there); nil when it
    /// is not judged.
    var judgeInput: JudgeInput? { judged?.load() }

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
    /// findings defer to, the only ones asked about): `input`'s own, or one added since.
    func hasFinding(of rules: Set<RuleID>, input: JudgeInput) -> Bool {
        !input.deferredRules.isDisjoint(with: rules) || added.contains { rules.contains($0.ruleID) }
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
