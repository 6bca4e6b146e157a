/// What the trailing version of an `lc.*` subprotocol asks of the server for offline messages
/// (realtime-SDK-dotNET `LeanCloudOfflineMessageStrategy`).
public enum LeanCloudOfflineMessageStrategy: Int, Sendable, Hashable, CaseIterable {
    /// 1: all offline messages are pushed right after login.
    case pushAll = 1
    /// 2: unread notices (deprecated).
    case unreadNotice = 2
    /// 3: per-conversation `unread` notifications; `ack` and `read` are separate.
    case unreadAck = 3

    public var summary: String {
        switch self {
        case .pushAll: "push all offline messages after login"
        case .unreadNotice: "unread notice (deprecated)"
        case .unreadAck: "unread notifications; ack and read separate"
        }
    }
}

/// A LeanCloud WebSocket subprotocol (`Sec-WebSocket-Protocol`): `lc.<format>.<version>`.
public struct LeanCloudSubprotocol: Sendable, Hashable, CustomStringConvertible {
    public let name: String
    public let encoding: LeanCloudEncoding
    public let offlineStrategy: LeanCloudOfflineMessageStrategy?
    /// Used by JS before 2017-05-23 (`protobuf`, `protobase64` formats).
    public let isHistorical: Bool

    public var description: String { name }

    /// Parses `lc.protobuf2.3`, `lc.proto2base64.3`, `lc.json.1`, …; nil for anything else.
    public init?(_ name: String) {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "lc", let version = Int(parts[2]) else { return nil }
        switch parts[1] {
        case "protobuf2":
            encoding = .protobuf
            isHistorical = false
        case "proto2base64":
            encoding = .base64
            isHistorical = false
        case "json":
            encoding = .json
            isHistorical = false
        case "protobuf":
            encoding = .protobuf
            isHistorical = true
        case "protobase64":
            encoding = .base64
            isHistorical = true
        default: return nil
        }
        self.name = name
        offlineStrategy = LeanCloudOfflineMessageStrategy(rawValue: version)
    }

    /// The subprotocols SDKs are known to offer (leancloud.md §2.1).
    public static let known: [String] = [
        "lc.protobuf2.3", "lc.protobuf2.1", "lc.proto2base64.3", "lc.json.1", "lc.json.2", "lc.json.3",
        "lc.protobuf.3", "lc.protobase64.3", "lc.protobuf.1",
    ]
}
