import IMWireCheck
import IMWireCore

/// `--format sarif`: SARIF 2.1.0 for code-scanning UIs. Each finding is a result on the
/// capture file with a region there: its line in a JSONL transcript, the bytes of its packet in
/// a pcap or pcapng file (`packetRegions`); the connection and frame are its logical location and
/// the byte offset inside the message a property; the rule catalogue is the tool's rule list.
public enum SARIFReport {
    /// Where packet `number` of a pcap or pcapng file lies: its bytes past the record header.
    public typealias PacketRegions = [Int: (byteOffset: Int, byteLength: Int)]

    /// The regions of the packets `numbers` of the capture at `path` (empty when it is not a
    /// pcap or pcapng file).
    public static func packetRegions(path: String, numbers: Set<Int>, limits: Limits = .default) -> PacketRegions {
        CapturePackets.regions(path: path, numbers: numbers, limits: limits)
    }

    /// `packets`: the regions of the packets the findings name (`packetRegions`), for a pcap or
    /// pcapng capture, whose findings' frames are packet numbers.
    package static func render(
        _ report: CheckReport, threshold: Severity, version: String, packets: PacketRegions = [:]
    ) -> String {
        var text: [UInt8] = []
        write(report, threshold: threshold, version: version, packets: packets) { text += $0 }
        return String(decoding: text, as: UTF8.self)
    }

    /// The report in pieces, one connection's results at a time, so only one connection's
    /// findings are in memory however many the capture has. The rules come before the results,
    /// so the connections are gone through twice: once for the rules the findings use, once to
    /// write the results.
    package static func write(
        _ report: CheckReport, threshold: Severity, version: String, packets: PacketRegions = [:],
        to emit: ([UInt8]) -> Void
    ) {
        var usedRules: [RuleID: Rule] = [:]
        for finding in report.captureFindings where finding.severity >= threshold {
            usedRules[finding.ruleID] = finding.rule
        }
        for connection in report.connections {
            for finding in connection.findings where finding.severity >= threshold {
                usedRules[finding.ruleID] = finding.rule
            }
        }
        // In catalogue order; then the rules of dialects a program added (`CheckOptions.dialects`).
        let catalogued = RuleCatalog.all.filter { usedRules[$0.id] != nil }
        let added = usedRules.values.filter { RuleCatalog.rule($0.id) == nil }.sorted { $0.id < $1.id }
        let rules: [JSONValue] = (catalogued + added).map { rule in
            [
                "id": .string(rule.id.rawValue), "shortDescription": ["text": .string(rule.summary)],
                "defaultConfiguration": ["level": .string(level(rule.severity))],
                "properties": ["layer": .string(rule.layer.rawValue), "specRef": .string(rule.specRef)],
            ]
        }
        let run: JSONValue = [
            "tool": [
                "driver": [
                    "name": "imwire", "version": .string(version), "informationUri": "https://github.com/imwire/imwire",
                    "rules": .array(rules),
                ]
            ],
            "artifacts": [["location": ["uri": .string(report.source)]]],
            "results": [],
        ]
        let root: JSONValue = [
            "$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
            "version": "2.1.0",
            "runs": [run],
        ]
        // The document with no results ends `"results": []` and the closing of the run, the
        // runs and the root: the results go in between, as `JSONWriter.writePretty` puts the
        // elements of an array three levels deep.
        let closing = Array("\n    }\n  ]\n}\n".utf8)
        var out: [UInt8] = []
        JSONWriter.writePretty(root, into: &out, indent: 0)
        out.removeLast(closing.count - 1 + 2)  // the closing (but its last newline) and `[]`
        out.append(UInt8(ascii: "["))
        var written = 0
        func add(_ findings: some Sequence<Finding>) {
            for finding in findings where finding.severity >= threshold {
                out.append(contentsOf: (written == 0 ? "\n        " : ",\n        ").utf8)
                JSONWriter.writePretty(result(finding, source: report.source, packets: packets), into: &out, indent: 4)
                written += 1
            }
            emit(out)
            out.removeAll(keepingCapacity: true)
        }
        add(report.captureFindings)
        for connection in report.connections { add(connection.findings) }
        if written > 0 { out.append(contentsOf: "\n      ".utf8) }
        out.append(UInt8(ascii: "]"))
        out += closing
        emit(out)
    }

    /// One finding as a SARIF result.
    private static func result(_ finding: Finding, source: String, packets: PacketRegions) -> JSONValue {
        var result = JSONObject()
        result.append("ruleId", .string(finding.ruleID.rawValue))
        result.append("level", .string(level(finding.severity)))
        result.append("message", ["text": .string(finding.message)])
        var location = JSONObject()
        var physical = JSONObject()
        physical.append("artifactLocation", ["uri": .string(source), "index": 0])
        if let line = finding.location.line {
            physical.append("region", ["startLine": .number(JSONNumber(line))])
        } else if let frame = finding.location.frameIndex, let packet = packets[frame] {
            physical.append(
                "region",
                [
                    "byteOffset": .number(JSONNumber(packet.byteOffset)),
                    "byteLength": .number(JSONNumber(packet.byteLength)),
                ])
        }
        location.append("physicalLocation", .object(physical))
        var name = finding.location.connection ?? "capture"
        if let frame = finding.location.frameIndex { name += "/frame \(frame)" }
        location.append("logicalLocations", [["fullyQualifiedName": .string(name), "kind": "object"]])
        result.append("locations", [.object(location)])
        var properties = JSONObject()
        if let offset = finding.offset { properties.append("byteOffset", .number(JSONNumber(offset))) }
        if let line = finding.location.line { properties.append("line", .number(JSONNumber(line))) }
        if let time = finding.location.time { properties.append("timeMicroseconds", .number(JSONNumber(time))) }
        if let direction = finding.location.direction { properties.append("direction", .string(direction.rawValue)) }
        if let subject = finding.subject { properties.append("subject", .string(subject)) }
        properties.append("specRef", .string(finding.specRef))
        result.append("properties", .object(properties))
        return .object(result)
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }
}
