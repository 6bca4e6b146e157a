/// Writes frames (RFC 6455 §5.2) with the minimal length encoding. `encode` and `frame` mask
/// with the key in the header they are given (none: unmasked, as a server sends);
/// `clientFrame` masks with a fresh random key unless given one.
public enum WebSocketFrameEncoder {
    /// Appends one frame: `header`'s FIN, RSV bits and opcode, the length of `payload`, the
    /// masking key when `header.maskingKey` is set (the payload is then masked with it).
    /// `header.payloadLength` and `headerLength` are ignored.
    public static func encode(_ header: WebSocketFrameHeader, payload: UnsafeRawBufferPointer, into out: inout [UInt8])
    {
        let length = payload.count
        out.reserveCapacity(out.count + length + 14)
        out.append(header.firstByte)
        let maskBit: UInt8 = header.maskingKey == nil ? 0 : 0x80
        if length < 126 {
            out.append(maskBit | UInt8(length))
        } else if length <= 0xffff {
            out.append(maskBit | 126)
            out.append(UInt8(length >> 8))
            out.append(UInt8(length & 0xff))
        } else {
            out.append(maskBit | 127)
            let wide = UInt64(length)
            for shift in stride(from: 56, through: 0, by: -8) {
                out.append(UInt8(truncatingIfNeeded: wide >> UInt64(shift)))
            }
        }
        guard let key = header.maskingKey else {
            out.append(contentsOf: payload)
            return
        }
        for shift in [24, 16, 8, 0] { out.append(UInt8(truncatingIfNeeded: key >> UInt32(shift))) }
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: length))
        out.withUnsafeMutableBytes { raw in
            guard let destination = raw.baseAddress, let source = payload.baseAddress else { return }
            WebSocketMasking.apply(key: key, phase: 0, from: source, to: destination + start, count: length)
        }
    }

    /// Appends one frame (see the `UnsafeRawBufferPointer` form): masked exactly when
    /// `header.maskingKey` is set.
    public static func encode(_ header: WebSocketFrameHeader, payload: [UInt8], into out: inout [UInt8]) {
        payload.withUnsafeBytes { encode(header, payload: $0, into: &out) }
    }

    /// One frame as bytes.
    public static func frame(_ header: WebSocketFrameHeader, payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        encode(header, payload: payload, into: &out)
        return out
    }

    /// One client frame, always masked (RFC 6455 §5.3). The key is drawn afresh for every call
    /// from the system's cryptographically strong generator unless `maskingKey` is given (tests
    /// and fixtures pass a fixed one to get the same bytes every time).
    public static func clientFrame(
        _ opcode: WebSocketOpcode, payload: [UInt8], fin: Bool = true, rsv1: Bool = false,
        maskingKey: UInt32 = WebSocketMasking.randomKey()
    ) -> [UInt8] {
        frame(WebSocketFrameHeader(fin: fin, rsv1: rsv1, opcode: opcode, maskingKey: maskingKey), payload: payload)
    }
}
