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
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            out.append(alphabet[Int(group >> 18 & 0x3f)])
            out.append(alphabet[Int(group >> 12 & 0x3f)])
            out.append(second == nil ? UInt8(ascii: "=") : alphabet[Int(group >> 6 & 0x3f)])
            out.append(third == nil ? UInt8(ascii: "=") : alphabet[Int(group & 0x3f)])
        }
        return String(decoding: out, as: UTF8.self)
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
