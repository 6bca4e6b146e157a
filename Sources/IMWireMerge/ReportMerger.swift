import IMWireCapture
import IMWireCheck
import IMWireCore
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

    /// One shard's report as read.
    private struct Shard {
        let name: String
        let source: String
        let threshold: Severity
        let firstTime: Int64?
        let data: MergeData
    }

    /// Merges the reports `inputs` (file name and contents); `tool` is this imwire's version,
    /// which each report's must equal. `needsTimelines`: the merged report is to be drawn
    /// (HTML), so every shard must have been checked with its connections' timelines.
    public static func merge(
        _ inputs: [(name: String, bytes: [UInt8])], tool: String, needsTimelines: Bool = false
    ) throws(MergeError) -> Merged {
        guard !inputs.isEmpty else { throw MergeError("no reports to merge") }
        var shards: [Shard] = []
        for input in inputs { shards.append(try read(input.name, input.bytes, tool: tool)) }
        try checkSameCapture(shards)
        if needsTimelines, let shard = shards.first(where: { !$0.data.timelines }) {
            throw MergeError("\(shard.name): checked without --merge-timelines, so an HTML report of the merge has no messages to draw")
        }
        shards.sort { ($0.data.shard?.index ?? 0) < ($1.data.shard?.index ?? 0) }
        let first = shards[0]
        var options = CheckOptions(lenient: first.data.lenient, ruleActions: first.data.ruleActions)
        do { options.reconnectPolicies = try PolicySelection(names: first.data.policies) } catch {
            throw MergeError("\(first.name): \(error.description)")
        }

        // Every connection at its place in the capture.
        var entries: [(opened: Int, session: Int, report: ConnectionReport, judge: JudgeInput?)] = []
        var captureFindings: [Finding] = []
        for shard in shards {
            for (index, connection) in shard.data.connections.enumerated() {
                var reader = ReportReader(connection.report)
                guard let report = reader.report(), reader.isAtEnd else {
                    throw MergeError("\(shard.name): merge.connections[\(index)].report does not decode")
                }
                var judge: JudgeInput?
                if let bytes = connection.judge {
                    var judgeReader = ReportReader(bytes)
                    guard let input = JudgeInput.read(from: &judgeReader), judgeReader.isAtEnd else {
                        throw MergeError("\(shard.name): merge.connections[\(index)].judge does not decode")
                    }
                    judge = input
                }
                entries.append((connection.opened, connection.session, report, judge))
            }
            var reader = ReportReader(shard.data.captureFindings)
            guard let findings = reader.list({ $0.finding() }), reader.isAtEnd else {
                throw MergeError("\(shard.name): merge.captureFindings does not decode")
            }
            captureFindings += findings
        }
        entries.sort { ($0.opened, $0.session) < ($1.opened, $1.session) }

        // The judgement across connections, each client's connections in report order.
        let connections = MergedConnections(entries.map(\.report), options: options)
        // The judged connections grouped by `key` (nil: in no group), in order of first connection.
        func groups(by key: (JudgeInput) -> String?) -> [Checker.Client] {
            var groups: [String: Checker.Client] = [:]
            var order: [String] = []
            for (number, entry) in entries.enumerated() {
                guard let input = entry.judge, let name = key(input) else { continue }
                if groups[name] == nil { order.append(name) }
                groups[name, default: []].append((number, input))
            }
            return order.compactMap { groups[$0] }
        }
        let clients = groups(by: \.clientKey)
        let hosts = groups(by: \.carryKey)
        Checker.judgeAll(
            forEachClient: { clients.forEach($0) }, forEachHost: { hosts.forEach($0) },
            captureEnd: shards.compactMap(\.data.lastTime).max(), connections: connections, options: options)

        // The capture's first event is the one with the lowest packet number.
        let firstTime =
            shards.filter { $0.data.firstPacket != nil }.min { $0.data.firstPacket! < $1.data.firstPacket! }?.firstTime
            ?? shards.lazy.compactMap(\.firstTime).first
        let report = CheckReport(
            source: first.data.shard?.capture ?? first.source, firstTime: firstTime,
            connections: ConnectionReports(connections.finished()), captureFindings: captureFindings)
        var packets: SARIFReport.PacketRegions = [:]
        for shard in shards { packets.merge(shard.data.packets) { a, _ in a } }
        return Merged(report: report, threshold: first.threshold, packets: packets)
    }

    private static func read(_ name: String, _ bytes: [UInt8], tool: String) throws(MergeError) -> Shard {
        let json: JSONValue
        do { json = try JSONParser.parse(bytes, maxDepth: 64) } catch {
            throw MergeError("\(name): not a whole JSON report (truncated?): \(error)")
        }
        guard json["version"]?.int64Value == Int64(JSONReport.version) else {
            throw MergeError(
                "\(name): report version \(json["version"].map { JSONWriter.string($0) } ?? "none"), this imwire reads \(JSONReport.version)")
        }
        guard let member = json["merge"] else {
            throw MergeError("\(name): no merge member: merge reads `imwire check --format json` reports of shards made by `imwire shard`")
        }
        let data: MergeData
        do { data = try MergeData(json: member) } catch { throw MergeError("\(name): \(error.description)") }
        guard data.tool == tool else { throw MergeError("\(name): written by imwire \(data.tool), this is imwire \(tool)") }
        guard let source = json["source"]?.stringValue, let threshold = json["threshold"]?.stringValue.flatMap(Severity.init(name:)) else {
            throw MergeError("\(name): source or threshold missing")
        }
        return Shard(name: name, source: source, threshold: threshold, firstTime: json["firstTime"]?.int64Value, data: data)
    }

    /// All reports are of one capture's shards, each once, all of them, checked alike.
    private static func checkSameCapture(_ shards: [Shard]) throws(MergeError) {
        let first = shards[0]
        guard let identity = first.data.shard else {
            guard shards.count == 1 else { throw MergeError("\(first.name): not the report of a shard, and other reports were given") }
            return
        }
        var seen: [Int: String] = [:]
        for shard in shards {
            guard let other = shard.data.shard else { throw MergeError("\(shard.name): not the report of a shard") }
            guard other.capture == identity.capture, other.captureBytes == identity.captureBytes, other.count == identity.count else {
                throw MergeError(
                    "\(shard.name): a shard of \(other.capture) (\(other.captureBytes) bytes, \(other.count) shards), "
                        + "but \(first.name) is of \(identity.capture) (\(identity.captureBytes) bytes, \(identity.count) shards)")
            }
            if let earlier = seen[other.index] { throw MergeError("\(shard.name): shard \(other.index) again (also \(earlier))") }
            seen[other.index] = shard.name
            guard shard.threshold == first.threshold, shard.data.lenient == first.data.lenient,
                shard.data.ruleActions == first.data.ruleActions, shard.data.policies == first.data.policies
            else { throw MergeError("\(shard.name): checked with other options (--severity, --lenient, --rule, --policy) than \(first.name)") }
            guard shard.data.settings == first.data.settings else {
                let differing = Set(shard.data.settings).symmetricDifference(first.data.settings).sorted()
                throw MergeError("\(shard.name): checked with other settings than \(first.name): \(differing.joined(separator: "; "))")
            }
        }
        let missing = (0..<identity.count).filter { seen[$0] == nil }
        guard missing.isEmpty else {
            throw MergeError("shard \(missing.map(String.init).joined(separator: ", ")) of \(identity.capture) missing (\(identity.count) shards)")
        }
    }
}

/// The merged connections as the judge adds to them: findings capped as `EndedConnections.add` caps them.
private final class MergedConnections: JudgedConnections {
    private var reports: [ConnectionReport]
    private let stored: [Int]
    private var added: [Int: (findings: [Finding], dropped: Int)] = [:]
    private let options: CheckOptions

    init(_ reports: [ConnectionReport], options: CheckOptions) {
        self.reports = reports
        stored = reports.map(\.findings.count)
        self.options = options
    }

    func add(_ finding: Finding, to number: Int, id: String, frame: Int?) {
        guard let placed = ConnectionState.place(finding, options: options, connection: id, line: nil, frame: frame) else { return }
        var late = added[number] ?? ([], 0)
        if stored[number] + late.findings.count < options.limits.maxFindingsPerConnection {
            late.findings.append(placed)
        } else {
            late.dropped += 1
        }
        added[number] = late
    }

    func hasFinding(of rules: Set<RuleID>, number: Int, input: JudgeInput) -> Bool {
        !input.deferredRules.isDisjoint(with: rules) || (added[number]?.findings.contains { rules.contains($0.ruleID) } ?? false)
    }

    /// The reports with the judge's findings, each's findings in report order.
    func finished() -> [ConnectionReport] {
        for (number, late) in added {
            reports[number].findings += late.findings
            reports[number].droppedFindings += late.dropped
        }
        for index in reports.indices { reports[index].findings.sort(by: Finding.reportOrder) }
        return reports
    }
}
