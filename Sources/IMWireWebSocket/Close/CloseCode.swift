/// A WebSocket close status code (RFC 6455 §7.4) with the registry's names for the defined ones.
public struct CloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let normalClosure = CloseCode(1000)
    public static let goingAway = CloseCode(1001)
    public static let protocolError = CloseCode(1002)
    public static let unsupportedData = CloseCode(1003)
    /// Reserved: never on the wire.
    public static let noStatusReceived = CloseCode(1005)
    /// Reserved: never on the wire; what an endpoint reports when the connection just dropped.
    public static let abnormalClosure = CloseCode(1006)
    public static let invalidPayloadData = CloseCode(1007)
    public static let policyViolation = CloseCode(1008)
    public static let messageTooBig = CloseCode(1009)
    public static let mandatoryExtension = CloseCode(1010)
    public static let internalError = CloseCode(1011)

    /// Whether an endpoint may put this code in a close frame: 1000-1003, 1007-1014 (IANA
    /// registered or open for registration, which Autobahn 7.7 accepts for 1000-1003 and
    /// 1007-1011), and 3000-4999 (libraries, applications). Autobahn 7.9 lists
    /// 0, 999, 1004, 1005, 1006, 1016, 1100, 2000, 2999 as invalid.
    public var isValidOnWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    public var name: String? {
        switch rawValue {
        case 1000: "normal closure"
        case 1001: "going away"
        case 1002: "protocol error"
        case 1003: "unsupported data"
        case 1005: "no status received"
        case 1006: "abnormal closure"
        case 1007: "invalid frame payload data"
        case 1008: "policy violation"
        case 1009: "message too big"
        case 1010: "mandatory extension"
        case 1011: "internal error"
        case 1012: "service restart"
        case 1013: "try again later"
        case 1014: "bad gateway"
        case 1015: "TLS handshake"
        default: nil
        }
    }

    public var description: String { name.map { "\(rawValue) (\($0))" } ?? String(rawValue) }
}
