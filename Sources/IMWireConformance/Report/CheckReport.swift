import IMWireCore

/// What one connection looked like and what was found on it.
public struct ConnectionReport: Sendable {
    public var id: String
    public var dialect: Dialect?
    public var subprotocol: String?
    public var messages: Int
    public var bytes: Int
    public var firstTime: Int64?
    public var lastTime: Int64?
    public var findings: [Finding]
    /// Findings beyond `Limits.maxFindingsPerConnection`, counted only.
    public var droppedFindings: Int
}

/// The result of checking one capture.
public struct CheckReport: Sendable {
    public var source: String
    /// Earliest time in the capture (µs); report times are shown relative to it.
    public var firstTime: Int64?
    public var connections: [ConnectionReport]
    /// Problems with the capture itself (unreadable lines), not tied to a connection.
    public var captureFindings: [Finding]

    public var allFindings: [Finding] { captureFindings + connections.flatMap(\.findings) }

    public func count(_ severity: Severity) -> Int { allFindings.filter { $0.severity == severity }.count }

    /// 0 when nothing at or above `threshold` was found, 1 otherwise.
    public func exitCode(threshold: Severity) -> Int32 {
        allFindings.contains { $0.severity >= threshold } ? 1 : 0
    }
}
