import IMWireCore

/// A connection the checker has read to its end: its report, and what the judge of reconnects
/// needs (ReconnectCheck.swift), which may still add findings to it. The connection's decoding
/// state (`ConnectionState`: transport, session, held messages) is let go by then, so a large
/// capture costs this much per connection until the report is written.
final class EndedConnection {
    let dialect: Dialect?
    let closed: Bool
    /// The capture ended with the connection still open (no FIN or RST, no close line).
    let openAtCaptureEnd: Bool
    let closeCode: Int?
    /// The capture had the connection's transport bytes, so pings were visible.
    let hasTransportBytes: Bool
    /// What the dialect session showed about the client's reconnects (nil: no session).
    let facts: ReconnectFacts?
    /// Its findings unsorted until `Checker.finish` sorts them.
    private(set) var report: ConnectionReport

    var id: String { report.id }
    var client: String? { report.client }
    var firstTime: Int64? { report.firstTime }
    var lastTime: Int64? { report.lastTime }

    /// Ends `conn`: finishes its session, keeps its report and reconnect facts.
    init(_ conn: ConnectionState, options: CheckOptions) {
        facts = conn.finishSession(options: options)
        dialect = conn.dialect
        closed = conn.closed
        openAtCaptureEnd = conn.openAtCaptureEnd
        closeCode = conn.closeCode
        hasTransportBytes = conn.hasTransportBytes
        report = ConnectionReport(
            id: conn.id, dialect: conn.dialect, subprotocol: conn.info.subprotocol, client: conn.info.client,
            server: conn.info.server, messages: conn.messages, account: conn.account, firstTime: conn.firstTime,
            lastTime: conn.lastTime, findings: conn.findings, droppedFindings: conn.droppedFindings,
            timeline: conn.timeline, timelineDropped: conn.timelineDropped)
    }

    /// A connection the capture named but the checker never saw an event of.
    init(id: String) {
        dialect = nil
        closed = false
        openAtCaptureEnd = false
        closeCode = nil
        hasTransportBytes = false
        facts = nil
        report = ConnectionReport(
            id: id, dialect: nil, subprotocol: nil, client: nil, server: nil, messages: 0, account: ByteAccount(), firstTime: nil,
            lastTime: nil, findings: [], droppedFindings: 0, timeline: [], timelineDropped: 0)
    }

    /// A finding about the ended connection: the judge's, or a capture problem that arrived
    /// after the connection's last event. Capped like the connection's own findings.
    func add(_ finding: Finding, options: CheckOptions, line: Int?, frame: Int?) {
        guard let placed = ConnectionState.place(finding, options: options, connection: id, line: line, frame: frame) else { return }
        if report.findings.count < options.limits.maxFindingsPerConnection {
            report.findings.append(placed)
        } else {
            report.droppedFindings += 1
        }
    }

    /// The report, findings in report order, given up: the connection is not used after this.
    func takeReport() -> ConnectionReport {
        var taken = report
        report.findings = []
        report.timeline = []
        taken.findings.sort(by: Finding.reportOrder)
        return taken
    }
}
