import Dispatch
import IMWireCapture
import IMWireCore
import IMWireIO
import IMWireTLS
import IMWireTransport

/// The conformance pipeline: capture items in, a report out. Each connection is checked on its
/// own by a `ConnectionChecker`, on the caller's thread or, with `jobs` > 1, on that many threads;
/// then what spans connections (each client's reconnects) is judged. Connections are numbered from
/// 0 in the order the capture opens them and the report lists them in that order, so it is the
/// same byte for byte whatever `jobs` is. Each new connection goes to the lane with the least work
/// waiting, not to the next lane in turn: when every other connection is the costly one, turns
/// would give all of those to one lane. A connection whose first
/// request is socket.io's (its handshake, a long-poll, its WebSocket) goes where every other such
/// connection of its session is: a socket.io session spans TCP connections, and one lane sees them
/// all in the capture's order. With `spreadsSessions` that lane is chosen by the client's address;
/// otherwise it is lane 0.
///
/// Single owner, not `Sendable` on purpose: one caller feeds it (`consume`, `check(_:named:)`)
/// and finishes it; it runs its lanes on threads of its own and hands back a `Sendable`
/// `CheckReport`. To check from a task or an actor, create it there, or use the one-call
/// `Checker.check(path:…)`, which is safe from any thread.
public final class Checker {
    public let options: CheckOptions
    public let jobs: Int
    private let lanes: [Lane]
    /// The number and lane of each connection not yet at its last event (`CloseInfo.isLast`):
    /// numbers are given in the order the capture opens connections, and an id is let go once
    /// nothing more of its connection can come, so the table holds open connections only.
    private var openConnections: [String: Placement] = [:]
    private struct Placement {
        let number: Int
        let lane: Int
    }
    /// The last event's connection, open: consecutive events of one connection are the rule,
    /// and comparing the id (the same string, usually the same storage) spares hashing it.
    /// (Two properties, not an optional tuple: tuples are copied through generic value witnesses.)
    private var lastID: String?
    private var lastPlacement = Placement(number: 0, lane: 0)
    private var connectionCount = 0
    /// With several lanes: new connections whose lane waits for their client's first bytes, by
    /// id, with their number and the items held meanwhile.
    private var undecided: [String: (number: Int, held: [CaptureItem])] = [:]
    /// Items a connection may hold before its lane is chosen anyway.
    private static let maxHeld = 16
    private var captureFindings: [Finding] = []
    private var firstTime: Int64?
    /// With `CheckOptions.keepsMergeData`: the packet (or line) of the first event, and where
    /// each connection opened, by number.
    private var firstPacket: Int?
    private var openedAt: [Int] = []
    /// The shard being checked, for the merge data.
    var shard: ShardIdentity?
    /// Whether socket.io connections are spread over the lanes by their client's address rather
    /// than all checked in lane 0. A session whose connections come from two addresses (or that
    /// a connection of other requests first carried) then begins in two lanes, which
    /// `sessionsSpanLanes` tells after `finish`: the source must then be checked again with one
    /// lane, so only a source that can be read again is spread (`check(path:)`).
    var spreadsSessions = false {
        didSet { for lane in lanes { lane.checker.recordsSessionKeys = spreadsSessions && lanes.count > 1 } }
    }
    /// After `finish`, with `spreadsSessions`: whether a session began in more than one lane.
    private(set) var sessionsSpanLanes = false
    /// With `spreadsSessions`: the sessions each lane began so far.
    var sessionsBegunByLane: [Int] { lanes.map(\.checker.sessionKeys.count) }
    /// Batches handed to lanes and not yet checked: bounds memory when reading outruns checking,
    /// with room enough (`Lane.batchesInFlight`) that reading and checking do not wait on each other.
    private let inFlight: DispatchSemaphore

    public init(options: CheckOptions = CheckOptions(), jobs: Int = 1) {
        self.options = options
        self.jobs = max(1, jobs)
        lanes = (0..<max(1, jobs)).map { lane in
            Lane(ConnectionChecker(options: options, lane: lane, of: max(1, jobs)), threaded: jobs > 1)
        }
        inFlight = DispatchSemaphore(value: Lane.batchesInFlight(jobs: max(1, jobs)))
    }

    /// Called with each message after its dialect read it, in capture order per connection
    /// (with `jobs` > 1, from each lane's thread). Set `CheckOptions.describesMessages` for
    /// its summary and canonical JSON.
    public var onMessage: ((CheckedMessage) -> Void)? {
        get { lanes[0].checker.onMessage }
        set { for lane in lanes { lane.checker.onMessage = newValue } }
    }

    /// Called with every finding the report will hold, as the checker makes it (placed on its
    /// connection, resolved by the options): during `consume` for what a message or a close
    /// shows, during `finish` for what only the end shows (requests never answered, reconnects).
    /// `imwire proxy` prints them live. (With `jobs` > 1, from each lane's thread, and the
    /// judge's from as many threads, one at a time.)
    public var onFinding: ((Finding) -> Void)? {
        get { captureFindingHook }
        set {
            captureFindingHook = newValue
            for lane in lanes { lane.checker.onFinding = newValue }
        }
    }
    private var captureFindingHook: ((Finding) -> Void)?

    /// Called when a connection closes (not when the capture merely ends), with its WebSocket close code.
    public var onClose: ((_ connection: String, _ time: Int64, _ code: Int?) -> Void)? {
        get { lanes[0].checker.onClose }
        set { for lane in lanes { lane.checker.onClose = newValue } }
    }

    public func consume(_ item: CaptureItem) {
        switch item {
        case .secrets(let secrets):
            // Every lane decrypts with the secrets read so far, in file order.
            for lane in lanes { lane.submit(item, number: -1, inFlight: inFlight) }
            if secrets.type == DecryptionSecrets.tlsKeyLog {
                do { _ = try TLSKeyLog(parsing: secrets.data) } catch {
                    var finding = TLSRules.keyLogMalformed.finding(
                        "Decryption Secrets Block: \(error.description)", at: secrets.fileOffset)
                    finding.location.frameIndex = nil
                    if let resolved = options.resolve(finding) {
                        captureFindings.append(resolved)
                        captureFindingHook?(resolved)
                    }
                }
            }
        case .problem(let finding):
            if let id = finding.location.connection, undecided[id] != nil {
                hold(item, of: id)
            } else if let id = finding.location.connection, let open = openConnections[id] {
                lanes[open.lane].submit(item, number: open.number, inFlight: inFlight)
            } else if let resolved = options.resolve(finding) {
                captureFindings.append(resolved)
                captureFindingHook?(resolved)
            }
        case .event(let event):
            if let time = event.time, firstTime == nil {
                firstTime = time
                firstPacket = event.packet ?? event.line
            }
            let id = event.connection
            let isLast = if case .close(let info) = event.kind { info.isLast } else { false }
            let placement: Placement
            if !isLast, id == lastID {
                placement = lastPlacement  // the usual case: the connection of the event before
            } else {
                if !undecided.isEmpty, undecided[id] != nil { return hold(item, of: id) }
                if let known = isLast ? openConnections.removeValue(forKey: id) : openConnections[id] {
                    placement = known
                } else if lanes.count > 1 {
                    if options.keepsMergeData { openedAt.append(event.packet ?? event.line ?? connectionCount) }
                    undecided[id] = (connectionCount, [])
                    connectionCount += 1
                    return hold(item, of: id)
                } else {
                    placement = Placement(number: connectionCount, lane: 0)
                    if options.keepsMergeData { openedAt.append(event.packet ?? event.line ?? connectionCount) }
                    connectionCount += 1
                    if !isLast { openConnections[id] = placement }
                }
                lastID = isLast ? nil : id
                lastPlacement = placement
            }
            lanes[placement.lane].submit(item, number: placement.number, inFlight: inFlight)
        }
    }

    public func consume(_ event: ConnectionInput) { consume(.event(event)) }

    /// Holds an item of a connection whose lane is not chosen yet; the client's first bytes (or
    /// anything else that is not the open) choose it, and the items held go there in order.
    private func hold(_ item: CaptureItem, of id: String) {
        guard var entry = undecided[id] else { return }
        entry.held.append(item)
        var decides = entry.held.count >= Self.maxHeld
        var socketIO = false
        if case .event(let event) = item {
            switch event.kind {
            case .open(let info):
                // A transcript's or HAR's WebSocket of a socket.io session goes where its long-polls are.
                if ConnectionAssembler.maySpanConnections(info) {
                    decides = true
                    socketIO = true
                }
            case .stream(let direction, let bytes):
                decides = true
                socketIO = direction == .send && ConnectionAssembler.maySpanConnections(clientFirstBytes: bytes)
            default: decides = true
            }
        }
        guard decides else {
            undecided[id] = entry
            return
        }
        undecided[id] = nil
        let placement = Placement(number: entry.number, lane: socketIO ? sessionLane(entry.held) : leastBusyLane())
        var isLast = false
        for held in entry.held {
            if case .event(let event) = held, case .close(let info) = event.kind, info.isLast { isLast = true }
            lanes[placement.lane].submit(held, number: placement.number, inFlight: inFlight)
        }
        if !isLast {
            openConnections[id] = placement
            lastID = id
            lastPlacement = placement
        }
    }

    /// The lane of a connection that may carry part of a socket.io session: chosen by its client's
    /// address, since a session's TCP connections all come from one client.
    private func sessionLane(_ held: [CaptureItem]) -> Int {
        guard spreadsSessions else { return 0 }
        for item in held {
            guard case .event(let event) = item, case .open(let info) = event.kind, let client = info.client else {
                continue
            }
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: the same lane on every run
            for byte in Self.host(client).utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return Int(hash % UInt64(lanes.count))
        }
        return 0
    }

    /// The lane with the fewest items submitted and not yet checked (the first of equals).
    private func leastBusyLane() -> Int {
        guard lanes.count > 1 else { return 0 }
        return lanes.indices.min { lanes[$0].backlog < lanes[$1].backlog } ?? 0
    }

    /// Ends every connection, judges each client's reconnects, and returns the report.
    public func finish(source: String) -> CheckReport {
        // Connections whose lane was never chosen go to the least busy, in the order they opened.
        for (id, _) in undecided.sorted(by: { $0.value.number < $1.value.number }) {
            guard let entry = undecided.removeValue(forKey: id) else { continue }
            let lane = leastBusyLane()
            for held in entry.held { lanes[lane].submit(held, number: entry.number, inFlight: inFlight) }
        }
        let group = DispatchGroup()
        for lane in lanes { lane.finish(group: group, inFlight: inFlight) }
        group.wait()
        #if canImport(Glibc)
            // The lanes' threads freed their batches into their own malloc arenas, where the
            // judge's threads would not reuse them: give those pages back before it begins.
            _ = mallocTrim(0)
        #endif
        if spreadsSessions, lanes.count > 1 {
            // The lanes' keys merged in order: one key's records are together, by lane.
            var previous: SessionKeyRecord?
            for record in SortedRuns.merged(lanes.map(\.checker.sessionKeys)).lazy.map(SessionKeyRecord.init) {
                if let previous, previous.hash == record.hash, previous.lane != record.lane {
                    sessionsSpanLanes = true
                    break
                }
                previous = record
            }
        }
        let ended = AllEndedConnections(
            lanes: lanes.map(\.checker.ended), count: connectionCount, inMemory: options.recordsInMemory)
        let merge = options.keepsMergeData ? mergeData(ended) : nil
        judgeAcrossConnections(ended)
        var report = CheckReport(
            source: source, firstTime: firstTime, connections: ConnectionReports(ended),
            captureFindings: captureFindings)
        report.merge = merge
        return report
    }

    /// Every connection's report as it is before the judgement across connections, with its
    /// place in the capture and the judge's input.
    private func mergeData(_ ended: AllEndedConnections) -> MergeData {
        let sessions = ended.orders()
        var connections: [MergeData.Connection] = []
        for position in 0..<ended.reportCount {
            let number = ended.number(at: position)
            let order = sessions[number] ?? ConnectionOrder(number: number)
            let (lane, local) = ended.lane(of: number)
            let connection = lane[local]
            var writer = ReportWriter()
            writer.report(connection.report.load())
            var judge: [UInt8]?
            if let input = connection.judged?.load() {
                var judgeWriter = ReportWriter()
                input.write(to: &judgeWriter)
                judge = judgeWriter.bytes
            }
            let opened = order.number < openedAt.count ? openedAt[order.number] : order.number
            connections.append(
                MergeData.Connection(opened: opened, session: order.session, report: writer.bytes, judge: judge))
        }
        return MergeData(
            shard: shard, options: options, firstPacket: firstPacket, lastTime: ended.lastTime,
            connections: connections,
            captureFindings: captureFindings)
    }
}

/// One `ConnectionChecker` and, when threaded, the serial queue it runs on: items are batched so
/// a queue hop costs little per item. The checker is touched only on that queue until `finish`
/// has waited for it, which is what makes the unchecked `Sendable` sound.
private final class Lane: @unchecked Sendable {
    let checker: ConnectionChecker
    private let queue: DispatchQueue?
    /// An item with its connection's number. A struct, not a tuple: arrays
    /// of tuples copy through the runtime's generic tuple witnesses.
    private struct Submitted {
        let item: CaptureItem
        let number: Int
        /// Where a stream event's bytes are in the batch's `payloads`: the item holds none.
        let payload: Range<Int>?
    }
    // @exclusivity(unchecked) here and on `payloads` and `submitted`: only the submitting
    // thread touches them, and the runtime's access checks were 1% of a `--jobs 2` check.
    @exclusivity(unchecked) private var pending: [Submitted] = []
    /// The stream bytes of `pending`, one after another: a batch crosses to the lane's thread
    /// as two arrays, not as an array per packet made on this thread and freed on that one
    /// (glibc's allocator frees a block into the arena of the thread that made it, under that
    /// arena's lock). A batch is sent at `batchItems` items or `batchBytes` bytes, so the bytes
    /// in flight stay under `batchesInFlight` × (`batchBytes` + one packet) however large the
    /// packets are.
    @exclusivity(unchecked) private var payloads: [UInt8] = []
    private static let batchItems = 1024
    private static let batchBytes = 256 * 1024

    static func batchesInFlight(jobs: Int) -> Int { max(32, 4 * jobs) }

    /// Items submitted (counted on the submitting thread) and items checked (on the lane's,
    /// under `checkedLock`): their difference is the work waiting, which places new connections.
    @exclusivity(unchecked) private var submitted = 0
    private var checked = 0
    private let checkedLock = DispatchSemaphore(value: 1)

    var backlog: Int {
        checkedLock.wait()
        defer { checkedLock.signal() }
        return submitted - checked
    }

    init(_ checker: ConnectionChecker, threaded: Bool) {
        self.checker = checker
        queue = threaded ? DispatchQueue(label: "imwire.check.lane") : nil
    }

    func submit(_ item: CaptureItem, number: Int, inFlight: DispatchSemaphore) {
        guard queue != nil else { return run(item, number: number) }
        if case .event(var event) = item, case .stream(let direction, let bytes) = event.kind {
            if payloads.isEmpty { payloads.reserveCapacity(Self.batchBytes) }
            let start = payloads.count
            payloads += bytes
            event.kind = .stream(direction, [])
            pending.append(Submitted(item: .event(event), number: number, payload: start..<payloads.count))
        } else {
            pending.append(Submitted(item: item, number: number, payload: nil))
        }
        submitted += 1
        if pending.count >= Self.batchItems || payloads.count >= Self.batchBytes { flush(inFlight: inFlight) }
    }

    func finish(group: DispatchGroup, inFlight: DispatchSemaphore) {
        guard let queue else { return checker.finishConnections() }
        flush(inFlight: inFlight)
        queue.async(group: group) { self.checker.finishConnections() }
    }

    private func flush(inFlight: DispatchSemaphore) {
        guard let queue, !pending.isEmpty else { return }
        let batch = pending
        let bytes = payloads
        pending.removeAll(keepingCapacity: true)
        payloads = []
        inFlight.wait()
        queue.async {
            for submitted in batch {
                if let range = submitted.payload, case .event(var event) = submitted.item,
                    case .stream(let direction, _) = event.kind
                {
                    event.kind = .stream(direction, Array(bytes[range]))
                    self.run(.event(event), number: submitted.number)
                } else {
                    self.run(submitted.item, number: submitted.number)
                }
            }
            self.checkedLock.wait()
            self.checked += batch.count
            self.checkedLock.signal()
            inFlight.signal()
        }
    }

    private func run(_ item: CaptureItem, number: Int) {
        switch item {
        case .event(let event): checker.consume(event, number: number)
        case .secrets(let secrets): checker.consume(secrets: secrets)
        case .problem(let finding): checker.consume(problem: finding, number: number)
        }
    }
}

extension CaptureItem {
    /// The connection the item is about, if any.
    var connection: String? {
        switch self {
        case .event(let event): event.connection
        case .secrets: nil
        case .problem(let finding): finding.location.connection
        }
    }
}

extension Finding {
    /// Report order: by frame, then by time, then the most severe first, then by rule, offset and
    /// message, so output is stable byte for byte.
    package static func reportOrder(_ a: Finding, _ b: Finding) -> Bool {
        let left = (
            a.location.frameIndex ?? Int.max, a.location.time ?? Int64.max, b.severity, a.ruleID.rawValue,
            a.offset ?? -1, a.message
        )
        let right = (
            b.location.frameIndex ?? Int.max, b.location.time ?? Int64.max, a.severity, b.ruleID.rawValue,
            b.offset ?? -1, b.message
        )
        if left.0 != right.0 { return left.0 < right.0 }
        if left.1 != right.1 { return left.1 < right.1 }
        if left.2 != right.2 { return left.2 < right.2 }
        if left.3 != right.3 { return left.3 < right.3 }
        if left.4 != right.4 { return left.4 < right.4 }
        return left.5 < right.5
    }
}

extension IMWireError.Code {
    /// A capture in which nothing could be read as a capture event: `path` names it, `findings`
    /// are the reader's reasons (the first ten).
    public static let checkUnreadable = Self("check.unreadable")
    /// A live check's recording that cannot be written.
    public static let checkRecord = Self("check.record")
}

extension Checker {
    /// Checks the capture at `path` (pcap, pcapng, HAR or JSONL, its format found from its first
    /// bytes; `-` for a transcript on standard input): the library's whole `imwire check`. Throws
    /// when the file cannot be opened, or when nothing in it reads as a capture event (with the
    /// reader's reasons). `progress` is told the bytes read as it goes (from 0 again in the rare
    /// case that, with `jobs` > 1, the file must be read twice: a socket.io session whose
    /// connections came from two client addresses).
    public static func check(
        path: String, options: CheckOptions = CheckOptions(), jobs: Int = 1,
        progress: ((_ bytesRead: Int) -> Void)? = nil
    ) throws(IMWireError) -> CheckReport {
        // A shard's report carries what a merge needs.
        let shard = ShardIdentity.of(path: path, limits: options.limits)
        var options = options
        if shard != nil { options.keepsMergeData = true }
        func check(jobs: Int) throws(IMWireError) -> (checker: Checker, report: CheckReport) {
            let source = try CaptureFile.open(path, limits: options.limits)
            let checker = Checker(options: options, jobs: jobs)
            checker.shard = shard
            checker.spreadsSessions = path != "-"  // a file can be read again, standard input cannot
            // A shard of bad lines only is still a shard: its report lists them.
            return (checker, try checker.check(source, named: path, unreadableThrows: shard == nil, progress: progress))
        }
        let spread = try check(jobs: jobs)
        // Rare: a session came from two client addresses. One lane sees every session whole.
        var report = spread.checker.sessionsSpanLanes ? try check(jobs: 1).report : spread.report
        if var merge = report.merge {
            merge.packets = CapturePackets.regions(path: path, numbers: merge.framesNamed, limits: options.limits)
            report.merge = merge
        }
        return report
    }

    /// Checks every item of `source` (named `name` in the report). `unreadableThrows`: a source
    /// with problems and no event throws (else its report lists the problems).
    public static func check(
        _ source: any CaptureSource, named name: String, options: CheckOptions = CheckOptions(), jobs: Int = 1,
        unreadableThrows: Bool = true, progress: ((_ bytesRead: Int) -> Void)? = nil
    ) throws(IMWireError) -> CheckReport {
        try Checker(options: options, jobs: jobs).check(
            source, named: name, unreadableThrows: unreadableThrows, progress: progress)
    }

    /// Checks every item of `source` with this checker (its `onMessage` and `onClose` set), as
    /// the static `check` does; a checker checks one source.
    public func check(
        _ source: any CaptureSource, named name: String, unreadableThrows: Bool = true,
        progress: ((_ bytesRead: Int) -> Void)? = nil
    ) throws(IMWireError) -> CheckReport {
        let checker = self
        var events = 0
        var problems: [Finding] = []
        func read(_ source: some CaptureSource) {
            source.forEachItem(progress: progress) { item in
                switch item {
                case .event: events += 1
                case .secrets: break
                case .problem(let finding): if problems.count < 10 { problems.append(finding) }
                }
                checker.consume(item)
            }
        }
        // The packet reader by its type: its loop specialized, not through the protocol's witnesses.
        if let packets = source as? PacketCaptureReader { read(packets) } else { read(source) }
        if unreadableThrows, events == 0, !problems.isEmpty {
            // Say why: the reader's own findings (truncated file, record too large, no WebSocket messages...).
            let reasons = problems.map {
                "\n  [\($0.ruleID)] \($0.message)" + ($0.offset.map { " (offset \($0))" } ?? "")
            }
            throw IMWireError(
                .checkUnreadable, "nothing in it could be read as a capture event:" + reasons.joined(), path: name,
                findings: problems)
        }
        return checker.finish(source: name)
    }
}

#if canImport(Glibc)
    /// glibc's `malloc_trim` (in `malloc.h`, which the Glibc module does not bring in).
    @_silgen_name("malloc_trim") private func mallocTrim(_ pad: Int) -> Int32
#endif
