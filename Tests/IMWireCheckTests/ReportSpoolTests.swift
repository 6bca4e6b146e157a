import IMWire
import IMWireReconnect
import Testing

@testable import IMWireCheck

/// Ended connections' reports wait in a spool file (`CheckOptions.reportsInMemory`); they must
/// come back exactly as they went in.
@Suite struct ReportSpoolTests {
    @Test(arguments: JobsTests.samples) func spooledReportsEqualKeptOnes(_ path: String) throws {
        var options = CheckOptions()
        options.dialectOptions[JMessageSessionOptions.self].secret = "master-secret-1"
        let kept = try check(path, options: options)
        options.reportsInMemory = 0
        for jobs in [1, 2] {
            let spooled = try check(path, options: options, jobs: jobs)
            #expect(spooled == kept, "jobs \(jobs)")
            #expect(
                TextReport.render(spooled, threshold: .info) == TextReport.render(kept, threshold: .info),
                "jobs \(jobs)")
        }
    }

    @Test func everyFieldComesBack() throws {
        let rule = Rule(
            "TEST.SPOOL", .warning, lenient: .info, layer: .websocket, dialect: .nim, summary: "s — ü",
            specRef: "Spec/x.md §1")
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
            id: "c1", dialect: .leancloud, subprotocol: "lc.protobuf2.3", extensions: "permessage-deflate",
            client: "[::1]:5",
            server: "10.0.0.1:443", messages: 4, account: account, firstTime: .min, lastTime: .max,
            findings: [finding, Rule("T.B", .info, layer: .capture, summary: "", specRef: "").finding("")],
            droppedFindings: 1,
            timeline: [
                TimelineEntry(frame: 1, time: -2, direction: .send, summary: "x"),
                TimelineEntry(
                    frame: 2, time: 7, direction: .receive, summary: "y", tcp: "t", json: "{}", payload: [0, 255],
                    payloadLength: 900),
            ], timelineDropped: 3)
        let empty = ConnectionReport(
            id: "", dialect: nil, subprotocol: nil, client: nil, server: nil, messages: 0, account: ByteAccount(),
            firstTime: nil,
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

    /// Values written a batch at a time come back from the file, from a batch not yet written,
    /// and across batches, in any order and with a read-ahead.
    @Test(arguments: [1, 700, 256 << 10]) func storesComeBackFromTheFileAndTheBatch(writeSize: Int) throws {
        let spool = try #require(ReportSpool(name: "test", readAhead: 512, writeSize: writeSize))
        let reports = (0..<60).map { index in
            ConnectionReport(
                id: "c\(index)", dialect: index % 2 == 0 ? .nim : nil, subprotocol: nil,
                client: String(repeating: "x", count: index * 7), server: nil, messages: index,
                account: ByteAccount(), firstTime: Int64(index), lastTime: nil, findings: [], droppedFindings: 0,
                timeline: [], timelineDropped: 0)
        }
        let stored = reports.map { spool.store($0) }
        for index in [59, 0, 30, 31, 29, 1, 58, 2, 3, 4, 40] { #expect(stored[index].load() == reports[index]) }
        #expect(stored.map { $0.load() } == reports)
    }

    /// What the reconnect judge reads of a connection, with every kind of ending and with
    /// every optional field present and absent.
    @Test(arguments: [
        ConnectionEnd.open, .clientLogout, .closed(code: 1006), .closed(code: nil), .lost, .kicked(code: -4111),
        .loginRejected(code: 416, waitMicros: 3_000_000), .loginRejected(code: 302, waitMicros: nil), .goaway,
    ]) func judgeInputsComeBack(_ end: ConnectionEnd) throws {
        var facts = SessionFacts(keepAliveInMessages: false)
        facts.loginSent(atMicros: -7, frame: 2, reconnectFlag: true, client: "app peer ✓")
        facts.loginAccepted(atMicros: 9)
        facts.keepAlive = KeepAliveLog([10, 40, 45])
        facts.ended(end, atMicros: .max)
        facts.policyName = "yun2win-ios"
        let full = JudgeInput(
            connection: "c#2", dialect: .yun2win, client: "[::1]:5", firstTime: .min, lastTime: 50, closed: true,
            openAtCaptureEnd: true,
            closeCode: 4000, hasTransportBytes: true, facts: facts, loginLine: 12,
            deferredRules: [NIMRules.autoRelogin.id, Yun2winRules.keepAliveExceeded.id])
        var unflagged = SessionFacts()
        unflagged.loginSent(atMicros: 1, frame: 1, reconnectFlag: nil, client: nil)
        let sparse = JudgeInput(
            connection: "", dialect: .nim, client: nil, firstTime: 0, lastTime: nil, closed: false,
            openAtCaptureEnd: false, closeCode: nil,
            hasTransportBytes: false, facts: unflagged, loginLine: nil, deferredRules: [])
        let spool = try #require(ReportSpool())
        for input in [
            full, sparse,
            JudgeInput(
                connection: "x", dialect: .leancloud, client: "h:1", firstTime: 1, lastTime: 1, closed: false,
                openAtCaptureEnd: false, closeCode: nil, hasTransportBytes: false,
                facts: SessionFacts(), loginLine: 3, deferredRules: []),
        ] {
            let stored = spool.store(input)
            guard case .spooled = stored else {
                Issue.record("kept in memory, not spooled")
                return
            }
            #expect(stored.load() == input)
            #expect(
                stored.load().facts.keepAlive.longestSilence(from: 0, to: 100)
                    == input.facts.keepAlive.longestSilence(from: 0, to: 100))
        }
        var writer = ReportWriter()
        full.write(to: &writer)
        var cut = ReportReader(Array(writer.bytes.dropLast()))
        #expect(JudgeInput.read(from: &cut) == nil)
    }

    @Test func damagedBytesAreNotAReport() {
        var writer = ReportWriter()
        writer.report(
            ConnectionReport(
                id: "c", dialect: .nim, subprotocol: nil, client: nil, server: nil, messages: 1, account: ByteAccount(),
                firstTime: 1,
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
