/// RFC 4648 base64 (standard alphabet, `=` padding). Decoding is strict by default: padding
/// required, no whitespace, unused trailing bits zero; every rejection names its offset.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xff, count: 256)
        for (index, char) in alphabet.enumerated() { table[Int(char)] = UInt8(index) }
        return table
    }()

    public static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        // Collections come as arrays and slices: one contiguous loop instead of a generic
        // iterator and an append per character (every timeline payload of a JSON report).
        if let string = bytes.withContiguousStorageIfAvailable(encode(buffer:)) { return string }
        return Array(bytes).withUnsafeBufferPointer(encode(buffer:))
    }

    private static func encode(buffer bytes: UnsafeBufferPointer<UInt8>) -> String {
        let count = (bytes.count + 2) / 3 * 4
        return alphabet.withUnsafeBufferPointer { alphabet in
            String(unsafeUninitializedCapacity: count) { out in
                var (input, output) = (0, 0)
                while input < bytes.count {
                    let left = bytes.count - input
                    let group =
                        UInt32(bytes[input]) << 16 | UInt32(left > 1 ? bytes[input + 1] : 0) << 8
                        | UInt32(left > 2 ? bytes[input + 2] : 0)
                    out[output] = alphabet[Int(group >> 18 & 0x3f)]
                    out[output + 1] = alphabet[Int(group >> 12 & 0x3f)]
                    out[output + 2] = left > 1 ? alphabet[Int(group >> 6 & 0x3f)] : UInt8(ascii: "=")
                    out[output + 3] = left > 2 ? alphabet[Int(group & 0x3f)] : UInt8(ascii: "=")
                    input += 3
                    output += 4
                }
                return count
            }
        }
    }

    /// Decodes `text`. With `lenient`, missing padding and non-zero trailing bits are accepted.
    /// Text that is not base64 throws `base64Syntax` with the offset of the first bad character.
    public static func decode(_ text: String, lenient: Bool = false) throws(IMWireError) -> [UInt8] {
        var utf8 = Array(text.utf8)
        return try decode(bytes: &utf8, lenient: lenient)
    }

    public static func decode(bytes text: inout [UInt8], lenient: Bool = false) throws(IMWireError) -> [UInt8] {
        var end = text.count
        var padding = 0
        while end > 0, text[end - 1] == UInt8(ascii: "="), padding < 2 {
            end -= 1
            padding += 1
        }
        if padding > 0, (end + padding) % 4 != 0 {
            throw IMWireError.base64("padding does not complete a 4-character group", at: end)
        }
        if padding == 0, end % 4 != 0, !lenient {
            throw IMWireError.base64("length \(end) is not a multiple of 4 and padding is missing", at: end)
        }
        if end % 4 == 1 {
            throw IMWireError.base64("a single character cannot encode a byte", at: end - 1)
        }
        var out: [UInt8] = []
        out.reserveCapacity(end / 4 * 3 + 2)
        var accumulator: UInt32 = 0
        var bits = 0
        for index in 0..<end {
            let value = decodeTable[Int(text[index])]
            if value == 0xff {
                let reason =
                    text[index] == UInt8(ascii: "=")
                    ? "padding before the end" : "character outside the base64 alphabet"
                throw IMWireError.base64(reason, at: index)
            }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        if bits > 0, accumulator != 0, !lenient {
            throw IMWireError.base64("unused trailing bits are not zero (non-canonical encoding)", at: end - 1)
        }
        return out
    }
}

extension IMWireError {
    /// Text that is not base64, and where (`offset`: UTF-8 bytes into the text):
    /// `invalid base64 at offset 3: …`.
    package static func base64(_ reason: String, at offset: Int) -> IMWireError {
        IMWireError(.base64Syntax, reason, summary: "invalid base64", offset: offset)
    }
}

extension IMWireError.Code {
    /// Text that is not base64 (`Base64.decode`).
    public static let base64Syntax = Self("base64.syntax")
}
