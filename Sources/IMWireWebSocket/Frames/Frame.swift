/// The fixed part of a frame header (RFC 6455 §5.2), as read from the wire.
public struct WebSocketFrameHeader: Sendable, Hashable {
    public var fin: Bool
    public var rsv1: Bool
    public var rsv2: Bool
    public var rsv3: Bool
    public var opcode: WebSocketOpcode
    /// The masking key, big-endian as on the wire, when the MASK bit is set.
    public var maskingKey: UInt32?
    /// Payload length as announced (already checked against the limits when this exists).
    public var payloadLength: Int
    /// Bytes of header: 2, plus 2 or 8 of extended length, plus 4 of masking key.
    public var headerLength: Int

    public init(
        fin: Bool = true, rsv1: Bool = false, rsv2: Bool = false, rsv3: Bool = false, opcode: WebSocketOpcode,
        maskingKey: UInt32? = nil, payloadLength: Int = 0, headerLength: Int = 2
    ) {
        self.fin = fin
        self.rsv1 = rsv1
        self.rsv2 = rsv2
        self.rsv3 = rsv3
        self.opcode = opcode
        self.maskingKey = maskingKey
        self.payloadLength = payloadLength
        self.headerLength = headerLength
    }

    /// The first header byte: FIN, RSV1-3 and the opcode.
    public var firstByte: UInt8 {
        (fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | (rsv2 ? 0x20 : 0) | (rsv3 ? 0x10 : 0) | opcode.rawValue
    }
}

/// One decoded frame: its header and its payload, unmasked (never inflated: permessage-deflate
/// applies to messages, see `WebSocketMessage`).
public struct WebSocketFrame: Sendable, Hashable {
    public var header: WebSocketFrameHeader
    public var payload: [UInt8]
    /// Absolute offset of the frame's first byte in its direction's stream.
    public var offset: Int

    public init(header: WebSocketFrameHeader, payload: [UInt8], offset: Int = 0) {
        self.header = header
        self.payload = payload
        self.offset = offset
    }

    public var fin: Bool { header.fin }
    public var opcode: WebSocketOpcode { header.opcode }
    /// Absolute offset of the first payload byte.
    public var payloadOffset: Int { offset + header.headerLength }
}
