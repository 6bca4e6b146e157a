import IMWireCapture
import IMWireCore
import IMWireReconnect
import IMWireRegistry

/// What a check of one shard keeps so that `ReportMerger` can put the shards' reports back
/// together as the report of the whole capture (Spec/report-json.md, `merge`): which shard of
/// which capture it was, the options the judge needs, and for every connection its place in the
/// capture, its report before the judgement across connections and what that judge reads of it.
public struct MergeData: Sendable, Equatable {
    /// The format of the `merge` member; a merge refuses another.
    public static let version = 1

    /// One connection of the shard, in the shard's report order.
    public struct Connection: Sendable, Equatable {
        /// The packet (pcap/pcapng: its number in the original capture) or line where the TCP
        /// connection that carried it opened; the connection's number when neither is known.
        public var opened: Int
        /// 0 for a TCP connection; a socket.io session's number after the connection where it began.
        public var session: Int
        /// The report before the judgement across connections, in the spool's encoding.
        package var report: [UInt8]
        /// What the reconnect judge reads of it (`JudgeInput`, spool encoding); nil when not judged.
        package var judge: [UInt8]?
    }

    /// The imwire version that wrote the report (the CLI sets it); a merge refuses another.
    public var tool = ""
    public var shard: ShardIdentity?
    /// The options of the check that the merge's judgement needs.
    public var lenient: Bool
    public var ruleActions: [RuleID: RuleAction]
    public var policies: [String]
    /// The check's other options that change findings, as text (`--dialect`, limits, the
    /// reconnect judge's, each dialect's timeouts; a secret only as set), those left at their
    /// defaults omitted: a merge refuses shards whose lists differ.
    public var settings: [String]
    /// Whether each connection's report keeps its diagram timeline (`imwire check
    /// --merge-timelines`): what a merged HTML page draws.
    public var timelines: Bool
    /// The packet (or line) of the capture's first event, which gave the report's `firstTime`.
    public var firstPacket: Int?
    /// The latest time of any connection: the capture's end as the judge sees it.
    public var lastTime: Int64?
    public var connections: [Connection]
    /// The report's capture findings at every severity, in the spool's encoding.
    package var captureFindings: [UInt8] = []
    /// Packet number → (byte offset, byte length) in the original capture of every packet a
    /// finding of the shard or a judged login names, for SARIF regions.
    public var packets: [Int: (byteOffset: Int, byteLength: Int)] = [:]

    public static func == (a: MergeData, b: MergeData) -> Bool {
        a.tool == b.tool && a.shard == b.shard && a.lenient == b.lenient && a.ruleActions == b.ruleActions
            && a.policies == b.policies
            && a.settings == b.settings && a.timelines == b.timelines && a.firstPacket == b.firstPacket
            && a.lastTime == b.lastTime
            && a.connections == b.connections && a.captureFindings == b.captureFindings
            && a.packets.mapValues { [$0.byteOffset, $0.byteLength] }
                == b.packets.mapValues { [$0.byteOffset, $0.byteLength] }
    }

    /// The packet numbers whose regions a SARIF report of the merge may need.
    package var framesNamed: Set<Int> {
        var frames: Set<Int> = []
        for connection in connections {
            var reader = ReportReader(connection.report)
            if let report = reader.report() {
                for finding in report.findings where finding.location.line == nil {
                    if let frame = finding.location.frameIndex { frames.insert(frame) }
                }
            }
            if let bytes = connection.judge {
                var judgeReader = ReportReader(bytes)
                if let facts = JudgeInput.read(from: &judgeReader)?.facts {
                    if let frame = facts.loginFrame { frames.insert(frame) }
                    for early in facts.earlyRequests {
                        if let frame = early.ifNew.location.frameIndex { frames.insert(frame) }
                    }
                }
            }
        }
        return frames
    }

    /// The `merge` member of the JSON report.
    public var json: JSONValue {
        var object = JSONObject()
        object.append("version", .number(JSONNumber(Self.version)))
        object.append("imwire", .string(tool))
        object.append("shard", shard?.json ?? .null)
        var options = JSONObject()
        options.append("lenient", .bool(lenient))
        options.append(
            "rules",
            .object(
                JSONObject(
                    ruleActions.sorted { $0.key.rawValue < $1.key.rawValue }.map {
                        .init(key: $0.key.rawValue, value: .string($0.value.rawValue))
                    })))
        options.append("policies", .array(policies.map(JSONValue.string)))
        options.append("settings", .array(settings.map(JSONValue.string)))
        options.append("timelines", .bool(timelines))
        object.append("options", .object(options))
        object.append("firstPacket", firstPacket.map { .number(JSONNumber($0)) } ?? .null)
        object.append("lastTime", lastTime.map { .number(JSONNumber($0)) } ?? .null)
        object.append(
            "connections",
            .array(
                connections.map { connection in
                    var item = JSONObject()
                    item.append("opened", .number(JSONNumber(connection.opened)))
                    item.append("session", .number(JSONNumber(connection.session)))
                    item.append("report", .string(Base64.encode(connection.report)))
                    item.append("judge", connection.judge.map { .string(Base64.encode($0)) } ?? .null)
                    return .object(item)
                }))
        object.append("captureFindings", .string(Base64.encode(captureFindings)))
        object.append(
            "packets",
            .array(
                packets.sorted { $0.key < $1.key }.map {
                    .array([
                        .number(JSONNumber($0.key)), .number(JSONNumber($0.value.byteOffset)),
                        .number(JSONNumber($0.value.byteLength)),
                    ])
                }))
        return .object(object)
    }

    /// Reads the `merge` member; throws with what is wrong.
    package init(json: JSONValue) throws(IMWireError) {
        guard case .object = json else { throw IMWireError(.mergeMalformed, "its merge member is not an object") }
        guard json["version"]?.int64Value == Int64(Self.version) else {
            throw IMWireError(
                .mergeMalformed,
                """
                its merge member has version \(json["version"].map { JSONWriter.string($0) } ?? "none"), \
                this imwire reads \(Self.version)
                """)
        }
        tool = json["imwire"]?.stringValue ?? ""
        if let shard = json["shard"], !shard.isNull {
            guard let identity = ShardIdentity(json: shard) else {
                throw IMWireError(.mergeMalformed, "its merge.shard is malformed")
            }
            self.shard = identity
        }
        guard let options = json["options"], let lenient = options["lenient"]?.boolValue,
            let rules = options["rules"]?.objectValue,
            let policies = options["policies"]?.arrayValue, let settings = options["settings"]?.arrayValue,
            let timelines = options["timelines"]?.boolValue
        else { throw IMWireError(.mergeMalformed, "its merge.options is malformed") }
        self.settings = settings.compactMap(\.stringValue)
        self.timelines = timelines
        self.lenient = lenient
        var actions: [RuleID: RuleAction] = [:]
        for member in rules {
            guard let action = member.value.stringValue.flatMap(RuleAction.init(rawValue:)) else {
                throw IMWireError(.mergeMalformed, "rule action of \(member.key)")
            }
            actions[RuleID(member.key)] = action
        }
        ruleActions = actions
        self.policies = policies.compactMap(\.stringValue)
        firstPacket = json["firstPacket"]?.int64Value.flatMap { Int(exactly: $0) }
        lastTime = json["lastTime"]?.int64Value
        guard let list = json["connections"]?.arrayValue else {
            throw IMWireError(.mergeMalformed, "its merge.connections is missing")
        }
        connections = []
        for (index, item) in list.enumerated() {
            guard let opened = item["opened"]?.int64Value.flatMap({ Int(exactly: $0) }),
                let session = item["session"]?.int64Value.flatMap({ Int(exactly: $0) }),
                let report = item["report"]?.stringValue.flatMap({ try? Base64.decode($0) })
            else { throw IMWireError(.mergeMalformed, "merge.connections[\(index)] is malformed") }
            var judge: [UInt8]?
            if let text = item["judge"]?.stringValue {
                guard let bytes = try? Base64.decode(text) else {
                    throw IMWireError(.mergeMalformed, "merge.connections[\(index)].judge is not base64")
                }
                judge = bytes
            }
            connections.append(Connection(opened: opened, session: session, report: report, judge: judge))
        }
        guard let findings = json["captureFindings"]?.stringValue.flatMap({ try? Base64.decode($0) }) else {
            throw IMWireError(.mergeMalformed, "its merge.captureFindings is missing or not base64")
        }
        captureFindings = findings
        for (index, entry) in (json["packets"]?.arrayValue ?? []).enumerated() {
            guard let values = entry.arrayValue?.compactMap({ $0.int64Value.flatMap { Int(exactly: $0) } }),
                values.count == 3
            else {
                throw IMWireError(.mergeMalformed, "merge.packets[\(index)] is malformed")
            }
            packets[values[0]] = (values[1], values[2])
        }
    }

    init(
        shard: ShardIdentity?, options: CheckOptions, firstPacket: Int?, lastTime: Int64?, connections: [Connection],
        captureFindings: [Finding]
    ) {
        var writer = ReportWriter()
        writer.list(captureFindings) { $0.finding($1) }
        self.captureFindings = writer.bytes
        self.shard = shard
        lenient = options.lenient
        ruleActions = options.ruleActions
        policies = options.reconnectPolicies.policies.map(\.name)
        var settings: [String] = []
        if let dialect = options.dialect { settings.append("dialect: \(dialect.rawValue)") }
        if options.limits != .default { settings.append(String(describing: options.limits)) }
        if options.reconnect != JudgeOptions() { settings.append(String(describing: options.reconnect)) }
        self.settings = settings + options.dialectOptions.settingsDescriptions
        timelines = options.timelineLimit > 0
        self.firstPacket = firstPacket
        self.lastTime = lastTime
        self.connections = connections
    }
}

extension IMWireError.Code {
    /// A report's `merge` member that cannot be read, or a report whose parts do not decode.
    public static let mergeMalformed = Self("merge.malformed")
}
