import IMWire
@testable import IMWireConformance
import Testing

/// Ended connections' reports wait in a spool file (`CheckOptions.reportsInMemory`); they must
/// come back exactly as they went in.
@Suite struct ReportSpoolTests {
    @Test(arguments: JobsTests.samples) func spooledReportsEqualKeptOnes(_ path: String) throws {
        var options = CheckOptions()
        options.jmessage.secret = "master-secret-1"
        let kept = try check(path, options: options)
        options.reportsInMemory = 0
        for jobs in [1, 2] {
            let spooled = try check(path, options: options, jobs: jobs)
            #expect(spooled == kept, "jobs \(jobs)")
            #expect(TextReport.render(spooled, threshold: .info) == TextReport.render(kept, threshold: .info), "jobs \(jobs)")
        }
    }

    @Test func everyFieldComesBack() throws {
        let rule = Rule("TEST.SPOOL", .warning, lenient: .info, layer: .websocket, dialect: .nim, summary: "s — ü", specRef: "Spec/x.md §1")
        var finding = rule.finding("message ✓", at: 7)
        finding.severity = .error
        finding.location = Location(connection: "c1", frameIndex: 3, line: 9, time: -5, direction: .receive)
        finding.subject = "session/open i=1"
        var account = ByteAccount()
        account.decoded = 100
        account.skip(5, because: "b")
        account.skip(6, because: "a")
        account.lost = 2
        let full = ConnectionReport(
            id: "c1", dialect: .leancloud, subprotocol: "lc.protobuf2.3", client: "[::1]:5", server: "10.0.0.1:443", messages: 4,
            account: account, firstTime: .min, lastTime: .max, findings: [finding, Rule("T.B", .info, layer: .capture, summary: "", specRef: "").finding("")],
            droppedFindings: 1, timeline: [TimelineEntry(frame: 1, time: -2, direction: .send, summary: "x")], timelineDropped: 3)
        let empty = ConnectionReport(
            id: "", dialect: nil, subprotocol: nil, client: nil, server: nil, messages: 0, account: ByteAccount(), firstTime: nil,
            lastTime: nil, findings: [], droppedFindings: 0, timeline: [], timelineDropped: 0)
        let spool = try #require(ReportSpool())
        let first = spool.store(full)
        let second = spool.store(empty)
        guard case .spooled = first, case .spooled = second else {
            Issue.record("kept in memory, not spooled")
            return
        }
        #expect(first.load() == full)
        #expect(second.load() == empty)
        #expect(first.load().findings[0].rule.lenientSeverity == .info)
    }

    @Test func damagedBytesAreNotAReport() {
        var writer = ReportWriter()
        writer.report(ConnectionReport(
            id: "c", dialect: .nim, subprotocol: nil, client: nil, server: nil, messages: 1, account: ByteAccount(), firstTime: 1,
            lastTime: 2, findings: [], droppedFindings: 0, timeline: [], timelineDropped: 0))
        var whole = ReportReader(writer.bytes)
        #expect(whole.report()?.id == "c" && whole.isAtEnd)
        var cut = ReportReader(Array(writer.bytes.dropLast()))
        #expect(cut.report() == nil)
        var badPresence = writer.bytes
        badPresence[2] = 7  // the dialect's presence byte (after the id's length and its one byte)
        var bad = ReportReader(badPresence)
        #expect(bad.report() == nil)
    }
}
