import IMWireCore

/// One message as the checker read it: where it is, what it decoded to, and the findings its
/// dialect gave it. `Checker.onMessage` hands them out in capture order (`imwire show`).
public struct CheckedMessage: Sendable {
    /// The logical connection: a TCP connection, or a socket.io session spanning several.
    public let connection: String
    public let dialect: Dialect?
    /// The message's number in its connection (transcripts) or its packet (pcap, pcapng).
    public let frame: Int
    public let timeMicros: Int64
    public let direction: Direction
    public let frameType: WireMessage.FrameType
    public let payload: [UInt8]
    /// The TCP connection that carried it, when the connection is a socket.io session.
    public let tcp: String?
    /// The dialect's one-line name for it (`session/open`, `2_3 login`), nil when undecoded.
    public let summary: String?
    /// The dialect's canonical JSON of it, nil when it did not decode.
    public let canonicalJSON: JSONValue?
    /// The findings its dialect reported on it, as the options resolve them (turned-off rules left out).
    public let findings: [Finding]

    /// Whether it was reported under `rule`.
    public func reports(_ rule: RuleID) -> Bool { findings.contains { $0.ruleID == rule } }

    /// The message as `imwire show` prints it: a head line (connection, frame, time, direction,
    /// type and size, dialect, name), its canonical JSON, its hex when asked or undecoded, and
    /// one line per finding.
    public func text(hex: Bool = false) -> String {
        let arrow = direction == .send ? "client → server" : "server → client"
        let seconds = Double(timeMicros) / 1_000_000
        var head = "\(connection) #\(frame)  t=\(seconds)  \(arrow)  \(frameType.rawValue) \(payload.count) B"
        if let dialect { head += "  \(dialect.rawValue)" }
        if let summary { head += "  \(summary)" }
        if let tcp { head += "  (tcp \(tcp))" }
        var lines = [head]
        if let canonicalJSON { lines.append("    " + JSONWriter.string(canonicalJSON)) }
        if hex || canonicalJSON == nil { lines.append("    hex " + Hex.encode(payload)) }
        for finding in findings {
            lines.append(
                "    [\(finding.ruleID)] \(finding.severity): \(finding.message)"
                    + (finding.offset.map { " (offset \($0))" } ?? ""))
        }
        return lines.joined(separator: "\n")
    }

    /// The message as one JSON object (`imwire show --format json`: one per line).
    public var json: JSONValue {
        var object = JSONObject()
        object.append("connection", .string(connection))
        object.append("dialect", dialect.map { .string($0.rawValue) } ?? .null)
        object.append("frame", .number(JSONNumber(frame)))
        object.append("time", .number(JSONNumber(timeMicros)))
        object.append("dir", .string(direction.rawValue))
        object.append("type", .string(frameType == .text ? "text" : "binary"))
        object.append("bytes", .number(JSONNumber(payload.count)))
        object.append("tcp", tcp.map(JSONValue.string) ?? .null)
        object.append("summary", summary.map(JSONValue.string) ?? .null)
        object.append("decoded", canonicalJSON ?? .null)
        object.append("hex", .string(Hex.encode(payload)))
        object.append("findings", .array(findings.map { $0.json(closeCode: nil) }))
        return .object(object)
    }
}
