extension IMWireError.Code {
    /// Text that is not JSON (RFC 8259), or JSON nested deeper than its limit.
    public static let jsonSyntax = Self("json.syntax")
}

extension IMWireError {
    /// Why a JSON text was rejected, and where (`offset`: bytes from the start of the text):
    /// `invalid JSON at offset 3: unexpected data after the JSON value`.
    package static func json(_ reason: String, at offset: Int) -> IMWireError {
        IMWireError(.jsonSyntax, reason, summary: "invalid JSON", offset: offset)
    }
}

/// A strict RFC 8259 parser over UTF-8 bytes: no comments, no trailing commas, no NaN, no lone
/// surrogates, no raw control characters in strings, nesting capped by `Limits.maxJSONDepth`.
public struct JSONParser {
    public static func parse(_ text: String, maxDepth: Int = Limits.default.maxJSONDepth) throws(IMWireError)
        -> JSONValue
    {
        var utf8 = text
        return try utf8.withUTF8 { buffer in
            Result { () throws(IMWireError) in try parse(UnsafeRawBufferPointer(buffer), maxDepth: maxDepth) }
        }.get()
    }

    public static func parse(_ bytes: [UInt8], maxDepth: Int = Limits.default.maxJSONDepth) throws(IMWireError)
        -> JSONValue
    {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(IMWireError) in try parse(raw, maxDepth: maxDepth) }
        }.get()
    }

    public static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = Limits.default.maxJSONDepth)
        throws(IMWireError) -> JSONValue
    {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw IMWireError.json("unexpected data after the JSON value", at: parser.index)
        }
        return value
    }

    /// Validates `bytes` as `parse` does and, when the value is an object, returns its members
    /// with each value's place and type instead of the value: for a check that reads a few keys
    /// of a large object (a rich message's `_lctype` beside its text). Only the top-level keys
    /// are built. Nil when the text is valid JSON but not an object.
    package static func members(of bytes: UnsafeRawBufferPointer, maxDepth: Int = Limits.default.maxJSONDepth)
        throws(IMWireError) -> [JSONMemberSpan]?
    {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        var members: [JSONMemberSpan]? = nil
        parser.skipWhitespace()
        if parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "{") {
            var found: [JSONMemberSpan] = []
            found.reserveCapacity(4)  // a rich message's few keys at once, not grown 1, 2, 4
            try parser.parseMembers(depth: 1) { parser, key, keyOffset throws(IMWireError) in
                let start = parser.index
                parser.building = false
                _ = try parser.parseValue(depth: 1)
                parser.building = true
                found.append(
                    JSONMemberSpan(
                        key: key, keyOffset: keyOffset, value: start..<parser.index,
                        typeName: JSONMemberSpan.typeName(startingWith: bytes[start])))
            }
            members = found
        } else {
            parser.building = false
            _ = try parser.parseValue(depth: 0)
        }
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw IMWireError.json("unexpected data after the JSON value", at: parser.index)
        }
        return members
    }

    private let bytes: UnsafeRawBufferPointer
    private let maxDepth: Int
    private var index = 0
    /// False while a value is only validated (`members(of:)`): nothing is built, nothing allocated.
    private var building = true

    private init(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0a, 0x0d: index += 1
            default: return
            }
        }
    }

    private func fail(_ reason: String, at offset: Int? = nil) -> IMWireError {
        IMWireError.json(reason, at: offset ?? index)
    }

    private mutating func parseValue(depth: Int) throws(IMWireError) -> JSONValue {
        guard index < bytes.count else { throw fail("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("unexpected character, expected a value")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(IMWireError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw fail("unexpected end of input in a literal", at: start) }
        let matches = literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[start + $0] == expected[$0] }
        }
        guard matches else { throw fail("invalid literal", at: start) }
        index += count
    }

    private mutating func parseObject(depth: Int) throws(IMWireError) -> JSONValue {
        var object = JSONObject()
        // A protocol object's few members in one allocation, not grown 1, 2, 4, 8 (2% of a
        // check of JSON traffic went to that growth).
        if building { object.members.reserveCapacity(8) }
        try parseMembers(depth: depth) { parser, key, keyOffset throws(IMWireError) in
            let value = try parser.parseValue(depth: depth)
            if parser.building { object.append(key, value, offset: keyOffset) }
        }
        return building ? .object(object) : .null
    }

    /// The object grammar, from its `{` to past its `}`; `member` reads each value, with the
    /// parser at the value's first byte, given the key and the key's offset.
    private mutating func parseMembers(
        depth: Int, _ member: (inout JSONParser, String, Int) throws(IMWireError) -> Void
    ) throws(IMWireError) {
        guard depth <= maxDepth else { throw fail("nesting deeper than \(maxDepth)") }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of input in an object") }
            guard bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':' after a key") }
            index += 1
            skipWhitespace()
            try member(&self, key, keyOffset)
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of input in an object") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return
            default: throw fail("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(IMWireError) -> JSONValue {
        guard depth <= maxDepth else { throw fail("nesting deeper than \(maxDepth)") }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            let element = try parseValue(depth: depth)
            if building { elements.append(element) }
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of input in an array") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return building ? .array(elements) : .null
            default: throw fail("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func parseNumber() throws(IMWireError) -> JSONNumber {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail("expected a digit", at: index) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw fail("leading zero in a number") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("expected a digit in an exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        guard building else { return JSONNumber(literal: "0") }
        let literal = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        return JSONNumber(literal: literal)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func parseString() throws(IMWireError) -> String {
        let start = index
        index += 1
        // Fast path: no escapes, ASCII or valid UTF-8 verified in one pass.
        var runStart = index
        var scratch: [UInt8]? = nil
        var validator = UTF8Validator()
        // The bits of every byte of the run so far, ORed: a run without a high bit is ASCII and
        // needs no UTF-8 validation (most protocol text), so it is read once, not twice.
        var seen: UInt64 = 0
        while true {
            while bytes.count - index >= 8 {
                let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if Self.mayEndRun(word) { break }
                seen |= word
                index += 8
            }
            guard index < bytes.count else { throw fail("unterminated string", at: start) }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let run = UnsafeRawBufferPointer(rebasing: bytes[runStart..<index])
                if seen & 0x8080_8080_8080_8080 != 0 {
                    if let bad = validator.feed(run) { throw fail("invalid UTF-8 in a string", at: runStart + bad) }
                    guard validator.isComplete else { throw fail("truncated UTF-8 sequence in a string", at: index) }
                }
                index += 1
                guard building else { return "" }
                if var collected = scratch {
                    collected.append(contentsOf: run)
                    return String(decoding: collected, as: UTF8.self)
                }
                return String(decoding: run, as: UTF8.self)
            }
            if byte < 0x20 { throw fail("raw control character in a string") }
            if byte == UInt8(ascii: "\\") {
                let run = UnsafeRawBufferPointer(rebasing: bytes[runStart..<index])
                if seen & 0x8080_8080_8080_8080 != 0 {
                    if let bad = validator.feed(run) { throw fail("invalid UTF-8 in a string", at: runStart + bad) }
                    guard validator.isComplete else { throw fail("truncated UTF-8 sequence in a string", at: index) }
                }
                var collected = scratch ?? []
                collected.append(contentsOf: run)
                try parseEscape(into: &collected)
                scratch = collected
                runStart = index
                seen = 0
                continue
            }
            seen |= UInt64(byte)
            index += 1
        }
    }

    /// Whether eight string bytes may hold a quote, a backslash or a control character (the
    /// bytes that end a run of plain string bytes, and that `JSONWriter` escapes): the exact
    /// zero-byte test of "Bit Twiddling Hacks", which can only err towards true, so the byte loop
    /// then decides.
    @inline(__always) static func mayEndRun(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5c)
        let zeroQuote = (quote &- ones) & ~quote
        let zeroBackslash = (backslash &- ones) & ~backslash
        let belowSpace = (word &- ones &* 0x20) & ~word
        return (zeroQuote | zeroBackslash | belowSpace) & (ones &* 0x80) != 0
    }

    private mutating func parseEscape(into out: inout [UInt8]) throws(IMWireError) {
        let escapeStart = index
        index += 1
        guard index < bytes.count else { throw fail("unterminated escape", at: escapeStart) }
        let char = bytes[index]
        index += 1
        switch char {
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5c)
        case UInt8(ascii: "/"): out.append(0x2f)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0c)
        case UInt8(ascii: "n"): out.append(0x0a)
        case UInt8(ascii: "r"): out.append(0x0d)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try parseHex4())
            if (0xd800...0xdbff).contains(scalar) {
                guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                else {
                    throw fail("high surrogate without a low surrogate", at: escapeStart)
                }
                index += 2
                let low = UInt32(try parseHex4())
                guard (0xdc00...0xdfff).contains(low) else {
                    throw fail("high surrogate without a low surrogate", at: escapeStart)
                }
                scalar = 0x10000 + ((scalar - 0xd800) << 10) + (low - 0xdc00)
            } else if (0xdc00...0xdfff).contains(scalar) {
                throw fail("lone low surrogate", at: escapeStart)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw fail("invalid code point", at: escapeStart) }
            out.append(contentsOf: String(Character(unicode)).utf8)
        default:
            throw fail("invalid escape", at: escapeStart)
        }
    }

    private mutating func parseHex4() throws(IMWireError) -> UInt16 {
        guard bytes.count - index >= 4 else { throw fail("truncated \\u escape") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let char = bytes[index]
            let nibble: UInt8
            switch char {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = char - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = char - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = char - UInt8(ascii: "A") + 10
            default: throw fail("invalid hex digit in a \\u escape")
            }
            value = value << 4 | UInt16(nibble)
            index += 1
        }
        return value
    }
}

/// One member of a JSON object as `JSONParser.members(of:)` reads it: the key, where the key
/// starts, and where its value's bytes are (one complete JSON value), with the value's type.
package struct JSONMemberSpan: Sendable, Hashable {
    package let key: String
    package let keyOffset: Int
    package let value: Range<Int>
    /// As `JSONValue.typeName` spells it.
    package let typeName: String

    static func typeName(startingWith byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "{"): "object"
        case UInt8(ascii: "["): "array"
        case UInt8(ascii: "\""): "string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "boolean"
        case UInt8(ascii: "n"): "null"
        default: "number"
        }
    }
}
