/// A frame opcode (RFC 6455 §5.2, 4 bits). Reserved values are representable so a decoder can
/// report them.
public struct WebSocketOpcode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8
    /// Keeps the low 4 bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x0f }

    public static let continuation = WebSocketOpcode(rawValue: 0x0)
    public static let text = WebSocketOpcode(rawValue: 0x1)
    public static let binary = WebSocketOpcode(rawValue: 0x2)
    public static let close = WebSocketOpcode(rawValue: 0x8)
    public static let ping = WebSocketOpcode(rawValue: 0x9)
    public static let pong = WebSocketOpcode(rawValue: 0xa)

    /// Close, ping, pong and the reserved control opcodes 0xB-0xF.
    public var isControl: Bool { rawValue & 0x8 != 0 }
    /// 0x3-0x7 and 0xB-0xF.
    public var isReserved: Bool { !(rawValue <= 0x2 || (0x8...0xa).contains(rawValue)) }

    public var name: String {
        switch rawValue {
        case 0x0: "continuation"
        case 0x1: "text"
        case 0x2: "binary"
        case 0x8: "close"
        case 0x9: "ping"
        case 0xa: "pong"
        default: "reserved-0x" + String(rawValue, radix: 16)
        }
    }

    public var description: String { name }
}
