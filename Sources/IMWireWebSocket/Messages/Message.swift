import IMWireCore

/// A complete data message: its fragments joined and, under permessage-deflate, inflated.
public struct WebSocketMessage: Sendable, Hashable {
    /// Text (opcode 1) or binary (opcode 2).
    public enum Kind: String, Sendable, Hashable {
        case text
        case binary
    }

    public var kind: Kind
    /// The application payload (unmasked, joined, inflated).
    public var payload: [UInt8]
    /// Whether the first frame had RSV1 under permessage-deflate.
    public var wasCompressed: Bool
    /// Absolute offset of the message's first frame.
    public var offset: Int
    public var frameCount: Int

    public init(kind: Kind, payload: [UInt8], wasCompressed: Bool = false, offset: Int = 0, frameCount: Int = 1) {
        self.kind = kind
        self.payload = payload
        self.wasCompressed = wasCompressed
        self.offset = offset
        self.frameCount = frameCount
    }

    /// The payload as text (lossy only if it was reported as invalid UTF-8).
    public var text: String { String(decoding: payload, as: UTF8.self) }
}

/// A close frame's body (RFC 6455 §5.5.1).
public struct WebSocketClose: Sendable, Hashable {
    /// Absent when the body is empty (an endpoint then reports 1005, no status received).
    public var code: CloseCode?
    public var reason: [UInt8]
    public var offset: Int

    public init(code: CloseCode?, reason: [UInt8] = [], offset: Int = 0) {
        self.code = code
        self.reason = reason
        self.offset = offset
    }

    /// The body as sent: two bytes of code, then the reason.
    public var payload: [UInt8] {
        guard let code else { return [] }
        return [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xff)] + reason
    }
}

/// What a direction's stream decoder produces, in stream order.
public enum WebSocketEvent: Sendable, Hashable {
    /// Every frame as decoded (unmasked, not inflated).
    case frame(WebSocketFrame)
    /// A complete text or binary message.
    case message(WebSocketMessage)
    /// A close frame's parsed body (ping and pong are visible as `.frame`).
    case close(WebSocketClose)
    /// A violation, with its absolute offset; WebSocket rules name the peer's close code.
    case finding(Finding)
}
