import IMWireCore

/// The bytes of a connection by fate: decoded (read by the connection's decoders; what they found
/// wrong in them, a frame that does not inflate say, is a finding, not skipped bytes), skipped
/// (never given to a decoder, with the reason), lost to gaps in the capture. The three add up to
/// the bytes the connection carried.
public struct ByteAccount: Sendable, Hashable {
    public var decoded = 0
    public var skipped: [String: Int] = [:]
    public var lost = 0

    package init() {}

    package mutating func skip(_ count: Int, because reason: String) {
        guard count > 0 else { return }
        skipped[reason, default: 0] += count
    }

    public var skippedTotal: Int { skipped.values.reduce(0, +) }

    /// Whether no part is negative (every byte is decoded, skipped or lost, once).
    public var isConsistent: Bool { decoded >= 0 && lost >= 0 && skipped.values.allSatisfy { $0 >= 0 } }

    /// Adds another account's bytes to this one (a session's TCP connections).
    package mutating func add(_ other: ByteAccount) {
        decoded += other.decoded
        lost += other.lost
        for (reason, count) in other.skipped { skipped[reason, default: 0] += count }
    }

    /// Moves `count` decoded bytes to skipped, `because`: bytes a decoder read but nobody could
    /// make sense of (no dialect for the connection). Never more than were decoded.
    package mutating func unread(_ count: Int, because reason: String) {
        let moved = min(max(0, count), decoded)
        decoded -= moved
        skip(moved, because: reason)
    }
    public var captured: Int { decoded + skippedTotal + lost }

    /// `1234 decoded, 56 skipped (reason: 56), 7 lost to gaps`.
    public var description: String {
        var text = "\(decoded) bytes decoded"
        if !skipped.isEmpty {
            text +=
                ", \(skippedTotal) skipped ("
                + skipped.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ") + ")"
        }
        if lost > 0 { text += ", \(lost) lost to gaps" }
        return text
    }
}
