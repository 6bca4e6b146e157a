import IMWireCapture
import IMWireCheck
import IMWireCore
import IMWireIO
import IMWireRegistry
import IMWireReport

/// `imwire merge`: the JSON reports of a capture's shards (`CaptureSharder`, each checked with
/// `imwire check --format json`) put back together as the report of checking the whole
/// capture: every connection at its place in the capture (by the packet that opened it), its
/// findings and byte accounting as its shard found them, then the judgement across
/// connections (each client's re-logins and reconnects) run here over all of them, as
/// `Checker.finish` runs it over one capture's. Refuses, naming the file, a report that is not
/// one (truncated, not JSON), of another report or merge version or imwire version, of another
/// capture than the others, checked with other options, or a set with a shard missing or twice.
public enum ReportMerger {
    /// The merged report, with the threshold its shards were checked at and the packets' places
    /// in the original capture for SARIF regions.
    public struct Merged: Sendable {
        public var report: CheckReport
        public var threshold: Severity
        public var packets: SARIFReport.PacketRegions
    }

    /// One shard's report as read, but for its connections (which wait in a `ReportStore`).
    private struct Shard {
        let name: String
        let source: String
        let threshold: Severity
        let firstTime: Int64?
        let data: MergeData
        let captureFindings: [Finding]
        /// Why a connection of the shard (or its capture findings) does not decode: thrown once
        /// the shards are known to belong together, as a merge of every report at once threw it.
        let problem: IMWireError?
    }

    /// One connection of a shard: its place in the capture, where its report and the judge's
    /// input wait, and the judge's keys for it.
    private struct Entry {
        let opened: Int
        let session: Int
        /// The shard's index and the connection's position in it: equal places keep shard order.
        let shard: Int
        let position: Int
        let report: ReportStore.Place
        let storedFindings: Int
        /// Where its `JudgeInput` waits; nil for a connection the judge does not look at.
        let judge: ReportStore.Place?
        /// The input's `clientKey` and `carryKey`: the groups it is judged in.
        let clientKey: String?
        let carryKey: String?
        /// The input's `announcedPolicy`: what it says for its host's login-less clients.
        let announced: (host: String, name: String)?
    }

    /// Merges the reports `inputs` (file name and contents); `tool` is this imwire's version,
    /// which each report's must equal. `needsTimelines`: the merged report is to be drawn
    /// (HTML), so every shard must have been checked with its connections' timelines.
    public static func merge(
        _ inputs: [(name: String, bytes: [UInt8])], tool: String, needsTimelines: Bool = false
    ) throws(IMWireError) -> Merged {
        try merge(names: inputs.map(\.name), tool: tool, needsTimelines: needsTimelines) { inputs[$0].bytes }
    }

    /// Merges the reports named `names`, `read` giving the contents of the one at an index, as
    /// `merge(_:tool:needsTimelines:)` does. Each report is read when its turn comes and let go
    /// before the next: memory holds one report's bytes and JSON, what the judge needs of every
    /// connection, and where each connection's report waits in a scratch file. The merged
    /// report's connections are put together from there one at a time as it is written.
    public static func merge(
        names: [String], tool: String, needsTimelines: Bool = false, read: (Int) throws(IMWireError) -> [UInt8]
    ) throws(IMWireError) -> Merged {
        guard !names.isEmpty else { throw IMWireError(.mergeNoReports, "no reports to merge") }
        let store = ReportStore()
        var shards: [Shard] = []
        var entries: [Entry] = []
        for (index, name) in names.enumerated() {
            // The report's bytes are let go here, its JSON inside `read`; its connections' reports
            // go to the store below.
            let (header, data) = try Self.read(name, try read(index), tool: tool)
            let (shard, connections) = Self.shard(name, header, data, storing: store)
            shards.append(shard)
            entries += connections
        }
        try checkSameCapture(shards)
        if needsTimelines, let shard = shards.first(where: { !$0.data.timelines }) {
            throw IMWireError(
                .mergeNoTimelines,
                "checked without message timelines, so an HTML report of the merge has no messages to draw",
                path: shard.name)
        }
        shards.sort { ($0.data.shard?.index ?? 0) < ($1.data.shard?.index ?? 0) }
        let first = shards[0]
        var options = CheckOptions(lenient: first.data.lenient, ruleActions: first.data.ruleActions)
        do { options.reconnectPolicies = try PolicySelection(names: first.data.policies) } catch {
            throw error.with(path: first.name)
        }
        if let problem = shards.lazy.compactMap(\.problem).first { throw problem }

        // Every connection at its place in the capture.
        entries.sort { ($0.opened, $0.session, $0.shard, $0.position) < ($1.opened, $1.session, $1.shard, $1.position) }

        // The judgement across connections, each client's connections in report order.
        let connections = MergedConnections(
            store: store, places: entries.map(\.report), storedFindings: entries.map(\.storedFindings), options: options
        )
        // The judged connections grouped by `key` (nil: in no group), in order of first connection.
        typealias Group = [(number: Int, judge: ReportStore.Place)]
        func groups(by key: KeyPath<Entry, String?>) -> [Group] {
            var groups: [String: Group] = [:]
            var order: [String] = []
            for (number, entry) in entries.enumerated() {
                guard let judge = entry.judge, let name = entry[keyPath: key] else { continue }
                if groups[name] == nil { order.append(name) }
                groups[name, default: []].append((number, judge))
            }
            return order.compactMap { groups[$0] }
        }
        let clients = groups(by: \.clientKey)
        let hosts = groups(by: \.carryKey)
        var hostPolicies = Checker.HostPolicies()
        for (number, entry) in entries.enumerated() {
            hostPolicies.learn(entry.announced, order: number)
        }
        entries = []
        // A group's inputs read back from the store as the judge reaches them: a client can have
        // thousands of connections, a capture millions.
        func inputs(_ group: Group) -> Checker.Client {
            Checker.Client(numbers: group.map(\.number)) { store.judgeInput(group[$0].judge) }
        }
        Checker.judgeAll(
            forEachClient: { judge in for client in clients { judge(inputs(client)) } },
            forEachHost: { judge in for host in hosts { judge(inputs(host)) } }, hostPolicies: hostPolicies,
            captureEnd: shards.compactMap(\.data.lastTime).max(), connections: connections, options: options)

        // The capture's first event is the one with the lowest packet number.
        let firstTime =
            shards.filter { $0.data.firstPacket != nil }.min { $0.data.firstPacket! < $1.data.firstPacket! }?.firstTime
            ?? shards.lazy.compactMap(\.firstTime).first
        let report = CheckReport(
            source: first.data.shard?.capture ?? first.source, firstTime: firstTime,
            connections: ConnectionReports(count: connections.count, report: connections.report(number:)),
            captureFindings: shards.flatMap(\.captureFindings))
        var packets: SARIFReport.PacketRegions = [:]
        for shard in shards { packets.merge(shard.data.packets) { a, _ in a } }
        return Merged(report: report, threshold: first.threshold, packets: packets)
    }

    /// Report `name` as read, its connections' reports put in `store`.
    private static func shard(_ name: String, _ header: Header, _ data: MergeData, storing store: ReportStore) -> (
        Shard, [Entry]
    ) {
        var data = data
        let connections = data.connections
        data.connections = []  // their reports go to the store
        var entries: [Entry] = []
        var problem: IMWireError?
        for (index, connection) in connections.enumerated() {
            var reader = ReportReader(connection.report)
            guard let report = reader.report(), reader.isAtEnd else {
                problem = IMWireError(.mergeMalformed, "merge.connections[\(index)].report does not decode", path: name)
                break
            }
            var input: JudgeInput?
            if let bytes = connection.judge {
                var judgeReader = ReportReader(bytes)
                input = JudgeInput.read(from: &judgeReader)
                guard input != nil, judgeReader.isAtEnd else {
                    problem = IMWireError(
                        .mergeMalformed, "merge.connections[\(index)].judge does not decode", path: name)
                    break
                }
            }
            entries.append(
                Entry(
                    opened: connection.opened, session: connection.session, shard: data.shard?.index ?? 0,
                    position: index,
                    report: store.store(connection.report), storedFindings: report.findings.count,
                    judge: connection.judge.map(store.store),
                    clientKey: input?.clientKey, carryKey: input?.carryKey,
                    announced: input?.announcedPolicy))
        }
        var reader = ReportReader(data.captureFindings)
        var findings = reader.list { $0.finding() }
        if !reader.isAtEnd { findings = nil }
        if problem == nil, findings == nil {
            problem = IMWireError(.mergeMalformed, "merge.captureFindings does not decode", path: name)
        }
        let shard = Shard(
            name: name, source: header.source, threshold: header.threshold, firstTime: header.firstTime, data: data,
            captureFindings: findings ?? [], problem: problem)
        return (shard, problem == nil ? entries : [])
    }

    /// What a report says besides its `merge` member.
    private struct Header {
        let source: String
        let threshold: Severity
        let firstTime: Int64?
    }

    private static func read(_ name: String, _ bytes: [UInt8], tool: String) throws(IMWireError) -> (Header, MergeData)
    {
        // The whole report is checked to be JSON, but only the members read here are built: its
        // `connections`, most of its bytes, are what its `merge` member has in another form.
        let json: JSONValue
        do {
            json = try bytes.withUnsafeBytes { raw in Result { () throws(IMWireError) in try topLevel(of: raw) } }.get()
        } catch {
            throw IMWireError(.mergeMalformed, "not a whole JSON report (truncated?): \(error)", path: name)
        }
        guard json["version"]?.int64Value == Int64(JSONReport.version) else {
            let version = json["version"].map { JSONWriter.string($0) } ?? "none"
            throw IMWireError(
                .mergeOtherVersion, "report version \(version), this imwire reads \(JSONReport.version)", path: name)
        }
        guard let member = json["merge"] else {
            throw IMWireError(.mergeNoMergeMember, "no merge member", path: name)
        }
        let data: MergeData
        do { data = try MergeData(json: member) } catch { throw error.with(path: name) }
        guard data.tool == tool else {
            throw IMWireError(.mergeOtherVersion, "written by imwire \(data.tool), this is imwire \(tool)", path: name)
        }
        guard let source = json["source"]?.stringValue,
            let threshold = json["threshold"]?.stringValue.flatMap(Severity.init(name:))
        else {
            throw IMWireError(.mergeMalformed, "source or threshold missing", path: name)
        }
        return (Header(source: source, threshold: threshold, firstTime: json["firstTime"]?.int64Value), data)
    }

    /// The report's top-level members that a merge reads (null when the report is JSON but not
    /// an object). The rest is validated as `JSONParser.parse` would, not built.
    private static func topLevel(of bytes: UnsafeRawBufferPointer) throws(IMWireError) -> JSONValue {
        guard let members = try JSONParser.members(of: bytes, maxDepth: 64) else { return .null }
        var object = JSONObject()
        for member in members where ["version", "source", "threshold", "firstTime", "merge"].contains(member.key) {
            object.append(
                member.key, try JSONParser.parse(UnsafeRawBufferPointer(rebasing: bytes[member.value]), maxDepth: 64))
        }
        return .object(object)
    }

    /// All reports are of one capture's shards, each once, all of them, checked alike.
    private static func checkSameCapture(_ shards: [Shard]) throws(IMWireError) {
        let first = shards[0]
        guard let identity = first.data.shard else {
            guard shards.count == 1 else {
                throw IMWireError(
                    .mergeNotAShard, "not the report of a shard, and other reports were given", path: first.name)
            }
            return
        }
        var seen: [Int: String] = [:]
        for shard in shards {
            guard let other = shard.data.shard else {
                throw IMWireError(.mergeNotAShard, "not the report of a shard", path: shard.name)
            }
            guard other.capture == identity.capture, other.captureBytes == identity.captureBytes,
                other.count == identity.count
            else {
                throw IMWireError(
                    .mergeOtherCapture,
                    """
                    a shard of \(other.capture) (\(other.captureBytes) bytes, \
                    \(other.count) shards), but \(first.name) is of \(identity.capture) \
                    (\(identity.captureBytes) bytes, \(identity.count) shards)
                    """, path: shard.name)
            }
            if let earlier = seen[other.index] {
                throw IMWireError(.mergeShardAgain, "shard \(other.index) again (also \(earlier))", path: shard.name)
            }
            seen[other.index] = shard.name
            guard shard.threshold == first.threshold, shard.data.lenient == first.data.lenient,
                shard.data.ruleActions == first.data.ruleActions, shard.data.policies == first.data.policies
            else {
                throw IMWireError(
                    .mergeOtherOptions,
                    "checked with another severity threshold, leniency, rule actions or policies than \(first.name)",
                    path: shard.name)
            }
            guard shard.data.settings == first.data.settings else {
                let differing = Set(shard.data.settings).symmetricDifference(first.data.settings).sorted()
                throw IMWireError(
                    .mergeOtherSettings,
                    "checked with other settings than \(first.name): \(differing.joined(separator: "; "))",
                    path: shard.name)
            }
        }
        let missing = (0..<identity.count).filter { seen[$0] == nil }
        guard missing.isEmpty else {
            throw IMWireError(
                .mergeShardMissing,
                """
                shard \(missing.map(String.init).joined(separator: ", ")) \
                of \(identity.capture) missing (\(identity.count) shards)
                """)
        }
    }
}

/// The shards' connection reports and judge inputs, in the checker's spool encoding, while a
/// merge runs: in a scratch file, so that memory keeps only where each one is, not every
/// shard's at once.
private final class ReportStore: @unchecked Sendable {
    /// Where one report is: in the file, or in memory when the file could not take it (no
    /// scratch file could be made, a full disk).
    enum Place {
        case file(offset: Int, count: Int)
        case memory([UInt8])
    }

    private let file = ScratchFile(name: "merge")
    private var size = 0

    func store(_ bytes: [UInt8]) -> Place {
        guard let file, file.write(bytes, at: size) else { return .memory(bytes) }
        defer { size += bytes.count }
        return .file(offset: size, count: bytes.count)
    }

    func bytes(_ place: Place) -> [UInt8] {
        switch place {
        case .file(let offset, let count): file?.bytes(at: offset, count: count) ?? []
        case .memory(let bytes): bytes
        }
    }

    func judgeInput(_ place: Place) -> JudgeInput {
        var reader = ReportReader(bytes(place))
        // Read once already, when its shard's report was: only a damaged scratch file fails here.
        guard let input = JudgeInput.read(from: &reader) else {
            fatalError("imwire: the merge's scratch file is damaged")
        }
        return input
    }
}

/// The merged connections as the judge adds to them: findings capped as `EndedConnections.add`
/// caps them. Once judged, each report is read back from the store, given the judge's findings
/// and put in report order only when the merged report asks for it. Changed only by the judge,
/// read only after: hence the unchecked `Sendable`.
private final class MergedConnections: JudgedConnections, @unchecked Sendable {
    private let store: ReportStore
    private let places: [ReportStore.Place]
    private let stored: [Int]
    private var added: [Int: (findings: [Finding], dropped: Int)] = [:]
    private let options: CheckOptions

    /// `places`: where each connection's report is; `storedFindings`: how many findings it has.
    init(store: ReportStore, places: [ReportStore.Place], storedFindings: [Int], options: CheckOptions) {
        self.store = store
        self.places = places
        stored = storedFindings
        self.options = options
    }

    var count: Int { places.count }

    func add(_ finding: Finding, to number: Int, id: String, line: Int?, frame: Int?) {
        guard let placed = ConnectionState.place(finding, options: options, connection: id, line: line, frame: frame)
        else { return }
        var late = added[number] ?? ([], 0)
        if stored[number] + late.findings.count < options.limits.maxFindingsPerConnection {
            late.findings.append(placed)
        } else {
            late.dropped += 1
        }
        added[number] = late
    }

    func hasFinding(of rules: Set<RuleID>, number: Int, input: JudgeInput) -> Bool {
        !input.deferredRules.isDisjoint(with: rules)
            || (added[number]?.findings.contains { rules.contains($0.ruleID) } ?? false)
    }

    /// Connection `number`'s report with the judge's findings, its findings in report order.
    func report(number: Int) -> ConnectionReport {
        var reader = ReportReader(store.bytes(places[number]))
        // Read once already, when its shard's report was: only a damaged scratch file fails here.
        guard var report = reader.report() else { fatalError("imwire: the merge's scratch file is damaged") }
        if let late = added[number] {
            report.findings += late.findings
            report.droppedFindings += late.dropped
        }
        report.findings.sort(by: Finding.reportOrder)
        return report
    }
}

extension IMWireError.Code {
    /// A merge given no report.
    public static let mergeNoReports = Self("merge.no-reports")
    /// A report without a `merge` member: not the JSON report of a shard's check (`path`).
    public static let mergeNoMergeMember = Self("merge.no-merge-member")
    /// A report of another report version, or written by another version of IMWire (`path`).
    public static let mergeOtherVersion = Self("merge.other-version")
    /// A report that is not of a shard, with other reports (`path`).
    public static let mergeNotAShard = Self("merge.not-a-shard")
    /// A shard of another capture than the first report's (`path`).
    public static let mergeOtherCapture = Self("merge.other-capture")
    /// A shard given twice (`path`: the second).
    public static let mergeShardAgain = Self("merge.shard-again")
    /// A capture's shards with some missing.
    public static let mergeShardMissing = Self("merge.shard-missing")
    /// A shard checked with another severity threshold, leniency, rule actions or policies
    /// than the first (`path`).
    public static let mergeOtherOptions = Self("merge.other-options")
    /// A shard checked with other dialect settings or limits than the first (`path`).
    public static let mergeOtherSettings = Self("merge.other-settings")
    /// A merge for an HTML report of shards checked without their messages' timelines (`path`).
    public static let mergeNoTimelines = Self("merge.no-timelines")
}
