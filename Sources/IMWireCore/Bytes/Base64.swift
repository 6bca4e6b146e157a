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

    /// Text that is not base64, with the offset of the first bad character.
    public struct DecodeError: Error, Sendable, Hashable, CustomStringConvertible {
        public let offset: Int
        public let reason: String
        public var description: String { "invalid base64 at offset \(offset): \(reason)" }
    }

    /// Decodes `text`. With `lenient`, missing padding and non-zero trailing bits are accepted.
    public static func decode(_ text: String, lenient: Bool = false) throws(DecodeError) -> [UInt8] {
        var utf8 = Array(text.utf8)
        return try decode(bytes: &utf8, lenient: lenient)
    }

    public static func decode(bytes text: inout [UInt8], lenient: Bool = false) throws(DecodeError) -> [UInt8] {
        var end = text.count
        var padding = 0
        while end > 0, text[end - 1] == UInt8(ascii: "="), padding < 2 {
            end -= 1
            padding += 1
        }
        if padding > 0, (end + padding) % 4 != 0 {
            throw DecodeError(offset: end, reason: "padding does not complete a 4-character group")
        }
        if padding == 0, end % 4 != 0, !lenient {
            throw DecodeError(offset: end, reason: "length \(end) is not a multiple of 4 and padding is missing")
        }
        if end % 4 == 1 {
            throw DecodeError(offset: end - 1, reason: "a single character cannot encode a byte")
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
                throw DecodeError(offset: index, reason: reason)
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
            throw DecodeError(offset: end - 1, reason: "unused trailing bits are not zero (non-canonical encoding)")
        }
        return out
    }
}
