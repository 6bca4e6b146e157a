import IMWireCore

/// One decoded LeanCloud frame: the typed command when the bytes allowed one, and everything
/// found on the way.
public struct DecodedCommand: Sendable {
    public enum Kind: Sendable, Hashable {
        case command
        /// The literal `{}` keep-alive of the JSON encoding.
        case heartbeat
    }

    public var kind: Kind
    public var command: LCGenericCommand?
    public var findings: [Finding]
    /// Size of the command as protobuf bytes: what the server's 5 KB limit (4109) counts.
    public var wireSize: Int

    public init(kind: Kind = .command, command: LCGenericCommand?, findings: [Finding], wireSize: Int) {
        self.kind = kind
        self.command = command
        self.findings = findings
        self.wireSize = wireSize
    }

    /// `session/open i=1`, `heartbeat {}`, or `undecodable`.
    public var summary: String {
        if kind == .heartbeat { return "heartbeat {}" }
        return command.map(LeanCloudNames.summary(of:)) ?? "undecodable"
    }
}
