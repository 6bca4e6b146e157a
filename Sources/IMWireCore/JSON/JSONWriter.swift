/// Compact, deterministic JSON output: no whitespace, members in their stored order (or sorted),
/// non-ASCII kept as UTF-8, control characters escaped. The same value always gives the same bytes.
public enum JSONWriter {
    public static func string(_ value: JSONValue, sortedKeys: Bool = false) -> String {
        var out: [UInt8] = []
        write(value, into: &out, sortedKeys: sortedKeys)
        return String(decoding: out, as: UTF8.self)
    }

    /// Indented output for people (two spaces, one member per line).
    public static func pretty(_ value: JSONValue, sortedKeys: Bool = false) -> String {
        var out: [UInt8] = []
        writePretty(value, into: &out, sortedKeys: sortedKeys, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    public static func write(_ value: JSONValue, into out: inout [UInt8], sortedKeys: Bool = false) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): out.append(contentsOf: number.literal.utf8)
        case .string(let text): writeString(text, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, into: &out, sortedKeys: sortedKeys)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, member) in ordered(object, sortedKeys).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(member.value, into: &out, sortedKeys: sortedKeys)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Indented output appended to `out`, as if the value sat `indent` levels deep (its first
    /// line is not indented): lets a large document be written one part at a time.
    public static func writePretty(_ value: JSONValue, into out: inout [UInt8], sortedKeys: Bool = false, indent: Int) {
        func newline(_ level: Int) {
            out.append(0x0a)
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
        }
        switch value {
        case .array(let elements) where !elements.isEmpty:
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                writePretty(element, into: &out, sortedKeys: sortedKeys, indent: indent + 1)
            }
            newline(indent)
            out.append(UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            out.append(UInt8(ascii: "{"))
            for (index, member) in ordered(object, sortedKeys).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                writeString(member.key, into: &out)
                out.append(contentsOf: ": ".utf8)
                writePretty(member.value, into: &out, sortedKeys: sortedKeys, indent: indent + 1)
            }
            newline(indent)
            out.append(UInt8(ascii: "}"))
        default:
            write(value, into: &out, sortedKeys: sortedKeys)
        }
    }

    private static func ordered(_ object: JSONObject, _ sortedKeys: Bool) -> [JSONObject.Member] {
        sortedKeys ? object.members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } : object.members
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    public static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings of a report need no escape: they are copied a run at a time, not appended
        // byte by byte.
        var text = text
        text.withUTF8 { bytes in
            var run = 0
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5c {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                run = index + 1
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: [0x5c, 0x22])
                case UInt8(ascii: "\\"): out.append(contentsOf: [0x5c, 0x5c])
                case 0x0a: out.append(contentsOf: [0x5c, UInt8(ascii: "n")])
                case 0x0d: out.append(contentsOf: [0x5c, UInt8(ascii: "r")])
                case 0x09: out.append(contentsOf: [0x5c, UInt8(ascii: "t")])
                case 0x08: out.append(contentsOf: [0x5c, UInt8(ascii: "b")])
                case 0x0c: out.append(contentsOf: [0x5c, UInt8(ascii: "f")])
                default:
                    out.append(contentsOf: [0x5c, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0x0f)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
        }
        out.append(UInt8(ascii: "\""))
    }
}
