import IMWireCore

/// What one connection looked like and what was found on it.
public struct ConnectionReport: Sendable, Equatable {
    public var id: String
    public var dialect: Dialect?
    public var subprotocol: String?
    public var client: String?
    public var server: String?
    public var messages: Int
    /// Where every captured byte went.
    public var account: ByteAccount
    public var firstTime: Int64?
    public var lastTime: Int64?
    public var findings: [Finding]
    /// Findings beyond `Limits.maxFindingsPerConnection`, counted only.
    public var droppedFindings: Int
    /// The messages in order (up to `CheckOptions.timelineLimit`), for diagrams.
    public var timeline: [TimelineEntry]
    public var timelineDropped: Int

    public var bytes: Int { account.captured }
}

/// The bytes of a connection by fate: decoded (read by the connection's decoders; what they found
/// wrong in them, a frame that does not inflate say, is a finding, not skipped bytes), skipped
/// (never given to a decoder, with the reason), lost to gaps in the capture. The three add up to
/// the bytes the connection carried.
public struct ByteAccount: Sendable, Hashable {
    public var decoded = 0
    public var skipped: [String: Int] = [:]
    public var lost = 0

    public init() {}

    public mutating func skip(_ count: Int, because reason: String) {
        guard count > 0 else { return }
        skipped[reason, default: 0] += count
    }

    public var skippedTotal: Int { skipped.values.reduce(0, +) }
    public var captured: Int { decoded + skippedTotal + lost }

    /// `1234 decoded, 56 skipped (reason: 56), 7 lost to gaps`.
    public var description: String {
        var text = "\(decoded) bytes decoded"
        if !skipped.isEmpty {
            text += ", \(skippedTotal) skipped (" + skipped.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ") + ")"
        }
        if lost > 0 { text += ", \(lost) lost to gaps" }
        return text
    }
}

/// One message of a connection as the checker decoded it.
public struct TimelineEntry: Sendable, Hashable {
    public var frame: Int
    public var time: Int64
    public var direction: Direction
    public var summary: String
}

/// The result of checking one capture.
public struct CheckReport: Sendable, Equatable {
    public var source: String
    /// Earliest time in the capture (µs); report times are shown relative to it.
    public var firstTime: Int64?
    public var connections: ConnectionReports
    /// Problems with the capture itself (unreadable lines), not tied to a connection.
    public var captureFindings: [Finding]

    public var allFindings: [Finding] { captureFindings + connections.flatMap(\.findings) }

    /// Counted where the findings are, not in a copy of them all (a report can be large).
    public func count(_ severity: Severity) -> Int {
        captureFindings.count { $0.severity == severity } + connections.reduce(0) { total, connection in
            total + connection.findings.count { $0.severity == severity }
        }
    }

    /// 0 when nothing at or above `threshold` was found, 1 otherwise.
    public func exitCode(threshold: Severity) -> Int32 {
        let found = captureFindings.contains { $0.severity >= threshold }
            || connections.contains { $0.findings.contains { $0.severity >= threshold } }
        return found ? 1 : 0
    }
}
