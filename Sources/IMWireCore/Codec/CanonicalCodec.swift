/// A codec between the bytes of one wire unit (a frame, a message, a stream of MQTT packets)
/// and its canonical JSON, the form `imwire decode` prints, `imwire encode` reads and the golden
/// fixtures use. Each dialect (and bare MQTT) has one; Spec/canonical-json.md documents the forms.
public protocol CanonicalCodec: Sendable {
    /// Decodes `bytes`, given as `input` says, into canonical JSON with every finding.
    func decode(_ bytes: [UInt8], as input: CanonicalInput) -> CanonicalDecoding
    /// The bytes of the unit `json` describes; JSON that describes none throws `canonicalJSON`.
    func encode(_ json: JSONValue) throws(IMWireError) -> CanonicalEncoded
}

/// How the bytes given to a canonical codec came.
public struct CanonicalInput: Sendable {
    /// They came as a binary frame (given as hex or raw bytes), not as text.
    public var binary: Bool
    /// Which way the unit went; nil: the codec infers it where it can.
    public var direction: Direction?
    /// They are a payload inside the unit rather than the unit (a yun2win PUBLISH payload).
    public var isPayload: Bool

    public init(binary: Bool, direction: Direction? = nil, isPayload: Bool = false) {
        self.binary = binary
        self.direction = direction
        self.isPayload = isPayload
    }
}

/// What a canonical codec made of some bytes: the decoded parts (one for a frame, one per packet
/// of an MQTT stream), each with its findings, and the envelope `imwire decode --format json`
/// prints.
public struct CanonicalDecoding: Sendable {
    /// One decoded part: its canonical JSON (nil when it could not be decoded), a label for its
    /// findings (`packet at 12`), and its findings.
    public struct Part: Sendable {
        public var decoded: JSONValue?
        public var label: String?
        public var findings: [Finding]

        public init(decoded: JSONValue?, label: String? = nil, findings: [Finding]) {
            self.decoded = decoded
            self.label = label
            self.findings = findings
        }
    }

    public var parts: [Part]
    /// Every part with its summary and findings, as one JSON document.
    public var envelope: JSONValue

    public init(parts: [Part], envelope: JSONValue) {
        self.parts = parts
        self.envelope = envelope
    }

    /// `imwire decode`'s exit status: 2 when bytes were given and nothing decoded, 1 with a
    /// warning or an error, else 0.
    public var status: Int32 {
        if !parts.isEmpty, parts.allSatisfy({ $0.decoded == nil }) { return 2 }
        return parts.contains { $0.findings.contains { $0.severity >= .warning } } ? 1 : 0
    }

    /// A finding as one line of text (`packet at 12: [MQTT.X] error: … (offset 3)`).
    public static func line(_ finding: Finding, label: String?) -> String {
        label.map { "\($0): \(finding)" } ?? finding.description
    }

    /// The decoding of one frame: one part, and `{"decoded", "summary", "findings"}`.
    package static func frame(_ decoded: JSONValue?, summary: String, findings: [Finding]) -> CanonicalDecoding {
        var envelope = JSONObject()
        envelope.append("decoded", decoded ?? .null)
        envelope.append("summary", .string(summary))
        envelope.append("findings", .array(findings.map { $0.json() }))
        return CanonicalDecoding(parts: [.init(decoded: decoded, findings: findings)], envelope: .object(envelope))
    }
}

/// The bytes of one wire unit, and whether it travels in a binary frame (LeanCloud protobuf,
/// MQTT, an engine.io binary packet) or as text.
public struct CanonicalEncoded: Sendable, Equatable {
    public var bytes: [UInt8]
    public var binary: Bool

    public init(bytes: [UInt8], binary: Bool) {
        self.bytes = bytes
        self.binary = binary
    }
}

extension IMWireError.Code {
    /// JSON that describes no unit of a canonical codec's (`CanonicalCodec.encode`).
    public static let canonicalJSON = Self("codec.canonical-json")
}

extension Finding {
    /// A finding as JSON, the members of `Spec/report-json.md`'s finding in their order;
    /// `closeCode` is the WebSocket close code a peer answers it with, when the caller knows one.
    public func json(closeCode: Int? = nil) -> JSONValue {
        var object = JSONObject()
        object.append("rule", .string(ruleID.rawValue))
        object.append("severity", .string(severity.description))
        object.append("layer", .string(layer.rawValue))
        object.append("dialect", dialect.map { .string($0.rawValue) } ?? .null)
        object.append("connection", location.connection.map { .string($0) } ?? .null)
        object.append("frame", location.frameIndex.map { .number(JSONNumber($0)) } ?? .null)
        object.append("line", location.line.map { .number(JSONNumber($0)) } ?? .null)
        object.append("time", location.time.map { .number(JSONNumber($0)) } ?? .null)
        object.append("direction", location.direction.map { .string($0.rawValue) } ?? .null)
        object.append("offset", offset.map { .number(JSONNumber($0)) } ?? .null)
        object.append("subject", subject.map { .string($0) } ?? .null)
        object.append("message", .string(message))
        object.append("specRef", .string(specRef))
        object.append("closeCode", closeCode.map { .number(JSONNumber($0)) } ?? .null)
        return .object(object)
    }
}
