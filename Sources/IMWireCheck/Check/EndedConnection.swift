import Dispatch
import IMWireCore
import IMWireIO
import IMWireTLS
import IMWireTransport

/// A connection the checker has read to its end: where its report waits, and what the judge of
/// reconnects reads of it (`JudgeInput`; nil for a connection the judge does not look at). The
/// connection's decoding state (`ConnectionState`: transport, session, held messages) is let
/// go by then.
struct EndedConnection {
    /// The connection's last time, for the capture's end.
    let lastTime: Int64?
    let report: StoredReport
    let judged: Stored<JudgeInput>?
    /// How many findings the stored report has, for the cap on findings added later.
    let storedFindings: Int
}

/// The connections one `ConnectionChecker` has ended, by their number in the capture. The first
/// `CheckOptions.reportsInMemory` stay in memory. After that, reports and judge inputs wait in
/// a spool file, an index file has a record per number saying where, and the judge's keys go
/// to sorted runs: nothing is kept in memory per connection. So do the findings added to an
/// ended connection (the judge's): a spool of their own, and a record per number.
/// Changed only by its checker's thread until the `Checker` finishes, read only after: hence
/// the unchecked `Sendable`.
final class EndedConnections: @unchecked Sendable {
    private let options: CheckOptions
    /// A `JudgeKey` for each judged connection, in sorted runs of `CheckOptions.recordsInMemory`
    /// (as the other runs here: what waits to be sorted and written is in memory, per store and
    /// lane).
    let judgeKeys: SortedRuns
    /// A `JudgeKey` (of `JudgeInput.carryKey`) for each judged connection with requests to carry.
    let carryKeys: SortedRuns
    /// A `JudgeKey` (of the host of `JudgeInput.announcedPolicy`) for each logged-in connection
    /// that announces its policy: what its host's login-less clients are judged by
    /// (`Checker.HostAnnouncements`). In runs, not a table by host: hosts grow with the capture.
    let announceKeys: SortedRuns
    private var kept: [Int: EndedConnection] = [:]
    /// Reports, judge inputs, and the indexes of where they are (TCP connections by number,
    /// sessions by their number past `ConnectionAssembler.sessionNumberBase`); made when first
    /// needed. Reports are read in about the order they were written, and the index in order:
    /// both are read ahead. Judge inputs are read client by client: a spool of their own keeps
    /// them from breaking up the reports' runs.
    private var spool: ReportSpool?
    private var judgeSpool: ReportSpool?
    private var index: ScratchFile?
    private var sessionIndex: ScratchFile?
    /// Findings added after a connection ended, and how many the cap turned away: in memory
    /// until there is a spool, then each connection's latest list in `addedSpool`, and where in
    /// `addedIndex` (a `ThreeWords` record per number: offset, byte count, 1). The judge adds
    /// them from several threads at once (one client each): `addedLock` guards them and
    /// `tally`; they are read without it only once the judgement is over.
    private var added: [Int: AddedFindings] = [:]
    private var addedSpool: ReportSpool?
    private var addedIndex: ScratchFile?
    private let addedLock = DispatchSemaphore(value: 1)
    /// The latest time of any connection ended here.
    private(set) var lastTime: Int64?
    /// The findings, messages and dialects of the reports ended here, findings added since included.
    private(set) var tally = ReportTally()
    /// TCP connections whose every byte, message and finding went to socket.io sessions: they
    /// have no report of their own.
    private(set) var absorbed = NumberBits()
    /// The sessions ended here, with where their reports go: a `SessionPlace` each, in sorted
    /// runs. Their reports and judge inputs wait in the spool, and the records of where in an
    /// index, as a TCP connection's do: sessions can be half of a capture's reports, too many to
    /// keep in memory.
    let sessions: SortedRuns

    init(options: CheckOptions) {
        self.options = options
        judgeKeys = SortedRuns(recordSize: JudgeKey.size, runLength: options.recordsInMemory)
        carryKeys = SortedRuns(recordSize: JudgeKey.size, runLength: options.recordsInMemory)
        announceKeys = SortedRuns(recordSize: JudgeKey.size, runLength: options.recordsInMemory)
        sessions = SortedRuns(recordSize: SessionPlace.size, runLength: options.recordsInMemory)
    }

    /// TCP connection `number` has nothing of its own left to report.
    func absorb(_ number: Int) { absorbed.insert(number) }

    /// Ends `state`'s connection: finishes its dialect session and stores its report (with
    /// `account`, its bytes as the checker counts them) and the judge's input.
    func end(_ state: ConnectionState, account: ByteAccount) {
        let conn = state.connection
        let isSession = conn.isSession
        if kept.count >= options.reportsInMemory, spool == nil {
            judgeSpool = ReportSpool(name: "judge")
            spool = judgeSpool == nil ? nil : ReportSpool(readAhead: 32 << 10)  // both or neither
            index = ScratchFile(name: "index", readAhead: 4 << 10)
            sessionIndex = ScratchFile(name: "session-index", readAhead: 4 << 10)
            addedSpool = ReportSpool(name: "added")
            addedIndex = ScratchFile(name: "added-index")  // no read-ahead: rewritten as it is read
        }
        var facts = state.finishSession(options: options)
        // The early requests' findings are placed later, across connections, where this
        // connection's lines are no longer known: they get their lines now.
        if let known = facts, !known.earlyRequests.isEmpty {
            facts?.earlyRequests = known.earlyRequests.map { early in
                var lined = early
                lined.ifNew = state.lined(early.ifNew)
                lined.ifCarried = state.lined(early.ifCarried)
                return lined
            }
        }
        let judgeable =
            if let dialect = state.dialect, let facts, conn.firstTime != nil {
                JudgeInput.clientKey(dialect: dialect, facts: facts, client: conn.info.client) != nil
            } else { false }
        if let facts, !judgeable {
            for finding in Checker.earlyRequestsAlone(facts) { state.add(finding, options: options, line: nil) }
        }
        let report = ConnectionReport(
            id: conn.id, dialect: state.dialect, subprotocol: conn.info.subprotocol, extensions: conn.info.extensions,
            client: conn.info.client,
            server: conn.info.server, messages: conn.messages, account: account, firstTime: conn.firstTime,
            lastTime: conn.lastTime, findings: state.findings, droppedFindings: state.droppedFindings,
            timeline: state.timeline, timelineDropped: state.timelineDropped, tcpConnections: conn.tcpConnections,
            tls: conn.tls.map(TLSSummary.init))
        var judged: Stored<JudgeInput>?
        if judgeable, let dialect = state.dialect, let facts, let firstTime = conn.firstTime {
            let input = JudgeInput(
                connection: conn.id, dialect: dialect, client: conn.info.client, firstTime: firstTime,
                lastTime: conn.lastTime,
                closed: conn.closed, openAtCaptureEnd: conn.openAtCaptureEnd, closeCode: conn.closeCode,
                hasTransportBytes: conn.hasTransportBytes, facts: facts,
                loginLine: facts.loginFrame.flatMap(state.line(ofFrame:)),
                deferredRules: Set(
                    state.findings.lazy.map(\.ruleID).filter(options.dialects.judgeDeferredRules.contains)))
            judged = judgeSpool?.store(input) ?? .memory(input)
            judgeKeys.append(
                JudgeKey(hash: input.clientKey.hashValue, order: conn.order.packed, number: conn.number).record)
            if let carry = input.carryKey {
                carryKeys.append(JudgeKey(hash: carry.hashValue, order: conn.order.packed, number: conn.number).record)
            }
            if let (host, _) = input.announcedPolicy {
                announceKeys.append(
                    JudgeKey(hash: host.hashValue, order: conn.order.packed, number: conn.number).record)
            }
        }
        tally.add(report)
        let ended = EndedConnection(
            lastTime: conn.lastTime, report: spool?.store(report) ?? .memory(report),
            judged: judged, storedFindings: state.findings.count)
        if let last = conn.lastTime { lastTime = max(lastTime ?? last, last) }
        if isSession { sessions.append(SessionPlace(order: conn.order, number: conn.number).record) }
        if let (file, offset) = slot(conn.number), let record = Record(ended), file.write(record.bytes, at: offset) {
            return
        }
        kept[conn.number] = ended  // before the spool, or where it could not take the connection
    }

    /// Connection `number`, which has ended.
    subscript(number: Int) -> EndedConnection {
        guard let ended = connection(number) else { preconditionFailure("connection \(number) has not ended") }
        return ended
    }

    /// Whether connection `number` ended here (rather than in another lane).
    func holds(_ number: Int) -> Bool { connection(number) != nil }

    /// Connection `number`; nil when it has not ended here. The index file has a record at
    /// every number of the capture, zeros (no record) where another lane has the connection.
    private func connection(_ number: Int) -> EndedConnection? {
        if let ended = kept[number] { return ended }
        guard let spool, let judgeSpool, let (file, offset) = slot(number) else { return nil }
        return Record(file.bytes(at: offset, count: Record.size))?.connection(reports: spool, judged: judgeSpool)
    }

    /// The index file and offset of connection `number`'s record, once there is a spool.
    private func slot(_ number: Int) -> (ScratchFile, Int)? {
        let base = ConnectionAssembler.sessionNumberBase
        guard let file = number >= base ? sessionIndex : index else { return nil }
        return (file, (number >= base ? number - base : number) * Record.size)
    }

    /// Told every finding kept, as it is added (`Checker.onFinding`).
    var onFinding: ((Finding) -> Void)?

    /// A finding about ended connection `number` (named `id`): the judge's, or a capture
    /// problem that arrived after the connection's last event. Capped like the connection's
    /// own findings.
    func add(_ finding: Finding, to number: Int, id: String, line: Int?, frame: Int?) {
        guard let ended = connection(number),
            let placed = ConnectionState.place(finding, options: options, connection: id, line: line, frame: frame)
        else { return }
        addedLock.wait()
        defer { addedLock.signal() }
        var late = addedFindings(number)
        if ended.storedFindings + late.findings.count < options.limits.maxFindingsPerConnection {
            late.findings.append(placed)
            tally.add(placed)
            onFinding?(placed)
        } else {
            late.dropped += 1
        }
        if let addedSpool, let addedIndex, case .spooled(_, let offset, let count) = addedSpool.store(late),
            addedIndex.write(ThreeWords.record(offset, count, 1), at: ThreeWords.size * Self.addedSlot(number))
        {
            added[number] = nil  // added before there was a spool
        } else {
            added[number] = late
        }
    }

    /// The findings added to connection `number` so far.
    private func addedFindings(_ number: Int) -> AddedFindings {
        if let late = added[number] { return late }
        guard let addedSpool, let addedIndex else { return AddedFindings() }
        let (offset, count, present) = ThreeWords.words(
            addedIndex.bytes(at: ThreeWords.size * Self.addedSlot(number), count: ThreeWords.size))
        return present == 1 ? addedSpool.read(offset: offset, count: count) : AddedFindings()
    }

    /// Connection `number`'s record in `addedIndex`: TCP connections at even places, sessions
    /// (by their number past `ConnectionAssembler.sessionNumberBase`) at odd ones.
    private static func addedSlot(_ number: Int) -> Int {
        let base = ConnectionAssembler.sessionNumberBase
        return number >= base ? 2 * (number - base) + 1 : 2 * number
    }

    /// Whether a finding of one of `rules` is among connection `number`'s (of the rules judge
    /// findings defer to, the only ones asked about): `input`'s own, or one added since.
    func hasFinding(of rules: Set<RuleID>, number: Int, input: JudgeInput) -> Bool {
        guard input.deferredRules.isDisjoint(with: rules) else { return true }
        addedLock.wait()
        defer { addedLock.signal() }
        return addedFindings(number).findings.contains { rules.contains($0.ruleID) }
    }

    /// Connection `number`'s report, its findings in report order.
    func report(number: Int) -> ConnectionReport {
        var report = self[number].report.load()
        let late = addedFindings(number)
        report.findings += late.findings
        report.droppedFindings += late.dropped
        report.findings.sort(by: Finding.reportOrder)
        return report
    }

    /// Where an ended connection waits in the spools: six little-endian 64-bit words.
    private struct Record {
        static let size = 48
        let reportOffset, reportCount, judgeOffset, judgeCount: Int
        let lastTime: Int64?
        let storedFindings: Int

        /// Nil unless both the report and the judge's input wait in a spool.
        init?(_ ended: EndedConnection) {
            guard case .spooled(_, let offset, let count) = ended.report else { return nil }
            switch ended.judged {
            case nil: (judgeOffset, judgeCount) = (0, 0)
            case .spooled(_, let offset, let count)?: (judgeOffset, judgeCount) = (offset, count)
            case .memory?: return nil
            }
            (reportOffset, reportCount) = (offset, count)
            lastTime = ended.lastTime
            storedFindings = ended.storedFindings
        }

        /// Nil for the zeros of a number never written.
        init?(_ bytes: [UInt8]) {
            let words = bytes.withReader { reader in (0..<6).map { _ in reader.readUInt64(.little) ?? 0 } }
            let flags = words[5] >> 62
            guard flags & 1 != 0 else { return nil }
            (reportOffset, reportCount) = (Int(words[0]), Int(words[1]))
            (judgeOffset, judgeCount) = (Int(words[2]), Int(words[3]))
            lastTime = flags & 2 != 0 ? Int64(bitPattern: words[4]) : nil
            storedFindings = Int(words[5] & (1 << 62 - 1))
        }

        var bytes: [UInt8] {
            let flags: UInt64 = 1 | (lastTime == nil ? 0 : 2)
            var writer = ByteWriter(capacity: Self.size)  // one allocation: a record per connection
            writer.append(UInt64(reportOffset), .little)
            writer.append(UInt64(reportCount), .little)
            writer.append(UInt64(judgeOffset), .little)
            writer.append(UInt64(judgeCount), .little)
            writer.append(UInt64(bitPattern: lastTime ?? 0), .little)
            writer.append(UInt64(storedFindings) | flags << 62, .little)
            return writer.bytes
        }

        func connection(reports: ReportSpool, judged: ReportSpool) -> EndedConnection {
            EndedConnection(
                lastTime: lastTime, report: .spooled(reports, offset: reportOffset, count: reportCount),
                judged: judgeCount == 0 ? nil : .spooled(judged, offset: judgeOffset, count: judgeCount),
                storedFindings: storedFindings)
        }
    }
}

/// Every ended connection of a check, by its number in the order the capture opened them,
/// in whichever lane checked it (see `Checker`).
struct AllEndedConnections: Sendable {
    let lanes: [EndedConnections]
    /// TCP connections (or transcript connections) the capture opened.
    let count: Int
    /// The numbers of the reports in order, when socket.io sessions took some connections' place
    /// or came between them; nil when the reports are simply connections 0..<count. As long as
    /// the capture, so the first `inMemory` only are kept in memory.
    let order: IntegerList?

    init(lanes: [EndedConnections], count: Int, inMemory: Int) {
        self.lanes = lanes
        self.count = count
        let absorbed = lanes.reduce(into: NumberBits()) { $0.formUnion($1.absorbed) }
        guard !absorbed.isEmpty || lanes.contains(where: { $0.sessions.count > 0 }) else {
            order = nil
            return
        }
        let numbers = IntegerList(inMemory: inMemory)
        var sessions = Self.sessions(of: lanes)
        var next = sessions.next()
        for number in 0..<count {
            if !absorbed.contains(number) { numbers.append(number) }
            while let session = next, session.order.number == number {
                numbers.append(session.number)
                next = sessions.next()
            }
        }
        while let session = next {
            numbers.append(session.number)
            next = sessions.next()
        }
        order = numbers
    }

    /// The sessions of `lanes` in report order, read from their runs.
    private static func sessions(of lanes: [EndedConnections]) -> some IteratorProtocol<SessionPlace> {
        SortedRuns.merged(lanes.map(\.sessions)).lazy.map(SessionPlace.init).makeIterator()
    }

    /// Where connection `number` stands in the report order: a TCP connection at its own
    /// number, a socket.io session after the connection where it began.
    func orders() -> [Int: ConnectionOrder] {
        var table: [Int: ConnectionOrder] = [:]
        var sessions = Self.sessions(of: lanes)
        while let session = sessions.next() { table[session.number] = session.order }
        return table
    }

    /// How many reports the check has.
    var reportCount: Int { order?.count ?? count }

    /// The number of the report at `position`.
    func number(at position: Int) -> Int { order?[position] ?? position }

    func lane(of number: Int) -> (connections: EndedConnections, number: Int) {
        (lanes.count == 1 ? lanes[0] : lanes.first { $0.holds(number) } ?? lanes[0], number)
    }

    /// The capture's end: the latest time of any connection.
    var lastTime: Int64? { lanes.compactMap(\.lastTime).max() }

    /// The findings, messages and dialects of every lane's reports, as they are now.
    var tally: ReportTally { lanes.reduce(into: ReportTally()) { $0.add($1.tally) } }
}

/// The rendered reports of a batch, each written by one thread at its own index: raw memory,
/// since an array in a class would be one variable that several threads modify at once.
private final class RenderedBatch: @unchecked Sendable {
    let bytes: UnsafeMutableBufferPointer<[UInt8]>
    init(count: Int) {
        bytes = .allocate(capacity: count)
        bytes.initialize(repeating: [])
    }
    deinit {
        _ = bytes.deinitialize()
        bytes.deallocate()
    }
    func put(_ rendered: [UInt8], at index: Int) { bytes[index] = rendered }
}

/// The connections of a `CheckReport`, in the order the capture opened them. Each report is
/// put together when it is asked for (from the spool, when it waits there), so iterate
/// rather than index the same connection again and again.
public struct ConnectionReports: RandomAccessCollection, Sendable, Equatable {
    private enum Storage {
        case ended(AllEndedConnections)
        /// Reports that `report` puts together when asked for: a merge of shard reports
        /// (`ReportMerger`), whose connections wait in a scratch file as a check's do in the spool.
        case loaded(count: Int, report: @Sendable (Int) -> ConnectionReport)
    }
    private let storage: Storage

    init(_ connections: AllEndedConnections) { storage = .ended(connections) }
    /// `count` reports, the one at each position put together by `report` each time it is asked for.
    package init(count: Int, report: @escaping @Sendable (Int) -> ConnectionReport) {
        storage = .loaded(count: count, report: report)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int {
        switch storage {
        case .ended(let connections): connections.reportCount
        case .loaded(let count, _): count
        }
    }
    public subscript(position: Int) -> ConnectionReport {
        switch storage {
        case .ended(let connections):
            let (lane, number) = connections.lane(of: connections.number(at: position))
            return lane.report(number: number)
        case .loaded(_, let report): return report(position)
        }
    }

    public static func == (a: ConnectionReports, b: ConnectionReports) -> Bool { a.elementsEqual(b) }

    /// How many findings of `severity` the reports hold.
    package func count(_ severity: Severity) -> Int {
        switch storage {
        case .ended(let connections): connections.tally.count(severity)
        case .loaded: reduce(0) { total, report in total + report.findings.count { $0.severity == severity } }
        }
    }

    /// The dialects the reports name.
    package var dialects: Set<Dialect> {
        switch storage {
        case .ended(let connections): connections.tally.dialects
        case .loaded: Set(compactMap(\.dialect))
        }
    }

    /// The messages of all the reports.
    package var messages: Int {
        switch storage {
        case .ended(let connections): connections.tally.messages
        case .loaded: reduce(0) { $0 + $1.messages }
        }
    }

    /// Each report made into bytes by `render`, handed to `emit` in order. With `jobs` > 1, a
    /// check's reports are read and rendered a batch at a time on that many threads (reading
    /// them, from memory or the spool, changes nothing): memory holds one batch, and a report
    /// format's time no longer follows the lanes on one thread.
    package func render(
        jobs: Int, _ render: @escaping @Sendable (ConnectionReport) -> [UInt8], to emit: ([UInt8]) -> Void
    ) {
        guard jobs > 1, case .ended = storage else {
            for report in self { emit(render(report)) }
            return
        }
        let batch = 64 * jobs
        for start in stride(from: 0, to: count, by: batch) {
            let end = Swift.min(start + batch, count)
            let rendered = RenderedBatch(count: end - start)
            DispatchQueue.concurrentPerform(iterations: jobs) { worker in
                for position in Swift.stride(from: start + worker, to: end, by: jobs) {
                    rendered.put(render(self[position]), at: position - start)
                }
            }
            for bytes in rendered.bytes { emit(bytes) }
        }
    }
}

/// A session's place in the report order, as `EndedConnections` keeps it: its order (the
/// connection it began on, then its place among that connection's sessions), then its number;
/// 24 bytes big-endian, so that they sort as bytes.
private struct SessionPlace {
    static let size = ThreeWords.size
    let order: ConnectionOrder
    let number: Int

    init(order: ConnectionOrder, number: Int) {
        self.order = order
        self.number = number
    }

    init(_ record: [UInt8]) {
        let (connection, session, number) = ThreeWords.words(record)
        order = ConnectionOrder(number: connection, session: session)
        self.number = number
    }

    var record: [UInt8] { ThreeWords.record(order.number, order.session, number) }
}

/// The findings added to an ended connection (the judge's), and how many the cap turned away.
private struct AddedFindings: Spoolable {
    var findings: [Finding] = []
    var dropped = 0

    func write(to writer: inout ReportWriter) {
        writer.list(findings) { $0.finding($1) }
        writer.int(dropped)
    }

    static func read(from reader: inout ReportReader) -> AddedFindings? {
        guard let findings = reader.list({ $0.finding() }), let dropped = reader.int() else { return nil }
        return AddedFindings(findings: findings, dropped: dropped)
    }
}
