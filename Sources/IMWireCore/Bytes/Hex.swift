/// Hexadecimal text for bytes: lowercase out, case-insensitive in, whitespace and `:` ignored.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    public static func encode<S: Sequence>(_ bytes: S, separator: String = "") -> String where S.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * (2 + separator.utf8.count))
        var first = true
        for byte in bytes {
            if !first { out.append(contentsOf: separator.utf8) }
            first = false
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `text` spells; text that is not hex throws `hexSyntax` with the offset of the
    /// first bad character (UTF-8 bytes into the text).
    public static func decode(_ text: String) throws(IMWireError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count / 2)
        var high: UInt8? = nil
        var highOffset = 0
        for (offset, char) in text.utf8.enumerated() {
            let nibble: UInt8
            switch char {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = char - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = char - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = char - UInt8(ascii: "A") + 10
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: ":"):
                if high != nil { throw IMWireError.hex("separator inside a byte", at: offset) }
                continue
            default:
                throw IMWireError.hex("not a hex digit", at: offset)
            }
            if let pending = high {
                out.append(pending << 4 | nibble)
                high = nil
            } else {
                high = nibble
                highOffset = offset
            }
        }
        if high != nil { throw IMWireError.hex("odd number of hex digits", at: highOffset) }
        return out
    }
}

extension IMWireError {
    /// Text that is not hex, and where (`offset`: UTF-8 bytes into the text):
    /// `invalid hex at offset 3: …`.
    package static func hex(_ reason: String, at offset: Int) -> IMWireError {
        IMWireError(.hexSyntax, reason, summary: "invalid hex", offset: offset)
    }
}

extension IMWireError.Code {
    /// Text that is not hexadecimal (`Hex.decode`).
    public static let hexSyntax = Self("hex.syntax")
}
