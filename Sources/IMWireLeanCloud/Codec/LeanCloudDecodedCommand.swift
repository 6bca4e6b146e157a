import IMWireCore

/// One decoded LeanCloud frame: the typed command when the bytes allowed one, and everything
/// found on the way.
public struct LeanCloudDecodedCommand: WireDecoded {
    /// What the message turned out to be.
    public enum Kind: Sendable, Hashable {
        case command
        /// The literal `{}` keep-alive of the JSON encoding.
        case heartbeat
    }

    public var kind: Kind
    public var findings: [Finding]
    /// Size of the command as protobuf bytes: what the server's 5 KB limit (4109) counts.
    public var wireSize: Int
    /// The fields the session rules read, recorded while the bytes were scanned; nil when no
    /// command could be decoded.
    public var fields: LeanCloudCommandFields?
    /// The command as it was built from JSON, so it is not decoded again from its bytes.
    private var built: LCGenericCommand?

    /// The typed command, nil when no command could be decoded. For protobuf and base64 frames
    /// swift-protobuf decodes it from `fields.bytes` each time it is read: keep the value rather
    /// than reading it twice. The checker reads `fields` only.
    public var command: LCGenericCommand? { built ?? fields?.typedCommand() }

    /// A decoded command given as a value: its fields are taken from its protobuf encoding.
    public init(kind: Kind = .command, command: LCGenericCommand?, findings: [Finding], wireSize: Int) {
        let fields = command.flatMap { LeanCloudBinary.fields(of: LeanCloudBinary.encode($0)) }
        self.init(kind: kind, built: command, fields: fields, findings: findings, wireSize: wireSize)
    }

    /// `built`: the command when it was built as a value (from JSON), with `fields` those of its
    /// protobuf encoding; nil when it was decoded from protobuf bytes, which `fields` holds.
    init(
        kind: Kind = .command, built: LCGenericCommand? = nil, fields: LeanCloudCommandFields?, findings: [Finding],
        wireSize: Int
    ) {
        self.kind = kind
        self.built = built
        self.fields = fields
        self.findings = findings
        self.wireSize = wireSize
    }

    /// `session/open i=1`, `heartbeat {}`, or `undecodable`.
    public var summary: String {
        if kind == .heartbeat { return "heartbeat {}" }
        return fields.map(LeanCloudNames.summary(of:)) ?? "undecodable"
    }
}
