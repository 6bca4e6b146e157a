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
        switch value {
        case .array(let elements) where !elements.isEmpty:
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1, into: &out)
                writePretty(element, into: &out, sortedKeys: sortedKeys, indent: indent + 1)
            }
            newline(indent, into: &out)
            out.append(UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            out.append(UInt8(ascii: "{"))
            for (index, member) in ordered(object, sortedKeys).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1, into: &out)
                writeString(member.key, into: &out)
                out.append(contentsOf: ": ".utf8)
                writePretty(member.value, into: &out, sortedKeys: sortedKeys, indent: indent + 1)
            }
            newline(indent, into: &out)
            out.append(UInt8(ascii: "}"))
        default:
            write(value, into: &out, sortedKeys: sortedKeys)
        }
    }

    /// An object written member by member, byte for byte as `writePretty` writes the same object
    /// at `indent`, without building it first: for documents written often (a report's
    /// connections), where building the tree cost as much as writing it.
    ///
    /// ```swift
    /// var object = JSONWriter.PrettyObject(indent: 1)
    /// object.member("id", "a-1", into: &out)
    /// object.member("messages", 3, into: &out)
    /// object.end(into: &out)  // {\n    "id": "a-1",\n    "messages": 3\n  }
    /// ```
    package struct PrettyObject {
        private let indent: Int
        private var isEmpty = true

        package init(indent: Int) { self.indent = indent }

        /// Writes what comes before a member's value: the brace or a comma, the line, the key.
        /// The key is the caller's literal, which needs no escape: copied as it is (escaping
        /// each key of each connection's object was 1% of a check).
        package mutating func member(_ key: StaticString, into out: inout [UInt8]) {
            start(into: &out)
            key.withUTF8Buffer { key in
                assert(!key.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5c }, "a key that needs escapes")
                out.append(UInt8(ascii: "\""))
                out.append(contentsOf: key)
            }
            JSONWriter.append(Self.keyEnd, Self.keyEnd.utf8CodeUnitCount, to: &out)
        }

        /// As `member(_:into:)` for a key that is data, escaped as any string is.
        package mutating func member(named key: String, into out: inout [UInt8]) {
            start(into: &out)
            writeString(key, into: &out)
            JSONWriter.append(Self.keyEnd, Self.keyEnd.utf8CodeUnitCount, to: &out, from: 1)
        }

        private static let keyEnd: StaticString = "\": "

        private mutating func start(into out: inout [UInt8]) {
            out.append(isEmpty ? UInt8(ascii: "{") : UInt8(ascii: ","))
            isEmpty = false
            JSONWriter.newline(indent + 1, into: &out)
        }

        /// A member whose value is an integer.
        package mutating func member(_ key: StaticString, _ value: Int, into out: inout [UInt8]) {
            member(key, into: &out)
            writeInteger(value, into: &out)
        }

        /// A member whose key is data and whose value is an integer.
        package mutating func member(named key: String, _ value: Int, into out: inout [UInt8]) {
            member(named: key, into: &out)
            writeInteger(value, into: &out)
        }

        /// A member whose value is a string, or null.
        package mutating func member(_ key: StaticString, _ value: String?, into out: inout [UInt8]) {
            member(key, into: &out)
            if let value { writeString(value, into: &out) } else { out.append(contentsOf: "null".utf8) }
        }

        /// A member whose value is any JSON value.
        package mutating func member(_ key: StaticString, _ value: JSONValue, into out: inout [UInt8]) {
            member(key, into: &out)
            writePretty(value, into: &out, indent: indent + 1)
        }

        /// The indentation level of the members' values: a nested object's `indent`.
        package var valueIndent: Int { indent + 1 }

        /// Closes the object (`{}` when it had no member).
        package func end(into out: inout [UInt8]) {
            if isEmpty {
                out.append(contentsOf: "{}".utf8)
            } else {
                JSONWriter.newline(indent, into: &out)
                out.append(UInt8(ascii: "}"))
            }
        }
    }

    /// `value` in decimal, as `String(value)` spells it, written without making that string.
    package static func writeInteger(_ value: Int, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var count = 1
        var probe = magnitude
        while probe >= 10 {
            probe /= 10
            count += 1
        }
        let start = out.count
        append(zeros, count, to: &out)
        out.withUnsafeMutableBufferPointer { buffer in
            var index = start + count - 1
            repeat {
                buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
                index -= 1
            } while magnitude > 0
        }
    }

    private static func newline(_ level: Int, into out: inout [UInt8]) {
        out.append(0x0a)
        var spaces = 2 * level
        while spaces > 0 {
            let run = min(spaces, Self.spaces.utf8CodeUnitCount)
            append(Self.spaces, run, to: &out)
            spaces -= run
        }
    }

    // Runs of spaces and zeros copied from static text: `append(contentsOf: repeatElement(...))`
    // went byte by byte, and a report writes an indentation per member (1% of a check).
    private static let spaces: StaticString = "                                "
    private static let zeros: StaticString = "00000000000000000000"  // UInt64.max has 20 digits

    /// Bytes `from..<count` of `text` (a literal of more than one character: held as a pointer).
    private static func append(_ text: StaticString, _ count: Int, to out: inout [UInt8], from: Int = 0) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start + from, count: count - from))
    }

    private static func ordered(_ object: JSONObject, _ sortedKeys: Bool) -> [JSONObject.Member] {
        sortedKeys ? object.members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } : object.members
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    public static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings of a report need no escape: they are copied a run at a time, not appended
        // byte by byte, and searched eight bytes at a time (the parser's test for a run's end).
        var text = text
        text.withUTF8 { bytes in
            let raw = UnsafeRawBufferPointer(bytes)
            var run = 0
            var index = 0
            while index < bytes.count {
                if bytes.count - index >= 8,
                    !JSONParser.mayEndRun(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                {
                    index += 8
                    continue
                }
                let byte = bytes[index]
                index += 1
                guard byte < 0x20 || byte == 0x22 || byte == 0x5c else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<(index - 1)]))
                run = index
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
