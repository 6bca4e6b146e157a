/// The outcome of reading a protobuf varint.
public enum VarintRead: Sendable, Hashable {
    /// A value, the number of bytes it took, and whether that was the minimal encoding.
    case value(UInt64, length: Int, minimal: Bool)
    /// The bytes ended before a byte without the continuation bit.
    case truncated
    /// Ten bytes all had the continuation bit: no valid varint is that long.
    case tooLong
    /// The tenth byte carries bits beyond the 64th.
    case overflow
}

/// Protobuf base-128 varints (little-endian groups of 7 bits, high bit = continuation), at most
/// 10 bytes. Decoding reports non-minimal encodings (trailing `0x80`… `0x00` groups) instead of
/// silently accepting them, so a strict scanner can flag them.
public enum Varint {
    public static let maxLength = 10

    @inlinable public static func read(_ bytes: UnsafeRawBufferPointer, at start: Int) -> VarintRead {
        var value: UInt64 = 0
        var index = start
        var shift: UInt64 = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length = index - start + 1
            if length == maxLength {
                if byte & 0x80 != 0 { return .tooLong }
                if byte > 1 { return .overflow }
            }
            value |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 {
                return .value(value, length: length, minimal: length == 1 || byte != 0)
            }
            shift += 7
            index += 1
        }
        return .truncated
    }

    /// Bytes needed for the minimal encoding of `value`.
    package static func encodedLength(_ value: UInt64) -> Int {
        value == 0 ? 1 : (64 - value.leadingZeroBitCount + 6) / 7
    }

    public static func write(_ value: UInt64, into bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    public static func encode(_ value: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        write(value, into: &bytes)
        return bytes
    }

    /// ZigZag, as used by protobuf `sint32`/`sint64`.
    package static func zigZagEncode(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }
    package static func zigZagDecode(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }
}
