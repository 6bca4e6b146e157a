import Testing

@testable import IMWireCore

@Suite struct JSONParserTests {
    @Test func parsesEveryValueKind() throws {
        let value = try JSONParser.parse(#"{"a":[1,-2.5e3,true,false,null,"x\n\u00e9\ud83d\ude00"],"b":{}}"#)
        let array = try #require(value["a"]?.arrayValue)
        #expect(array.count == 6)
        #expect(array[0].int64Value == 1)
        #expect(array[1].doubleValue == -2500)
        #expect(array[2] == .bool(true))
        #expect(array[4].isNull)
        #expect(array[5].stringValue == "x\né😀")
        #expect(value["b"]?.objectValue?.isEmpty == true)
    }

    @Test func keepsLargeIntegersExactly() throws {
        let value = try JSONParser.parse("[9223372036854775807,-9223372036854775808,18446744073709551615]")
        let items = try #require(value.arrayValue)
        #expect(items[0].int64Value == Int64.max)
        #expect(items[1].int64Value == Int64.min)
        #expect(items[2].numberValue?.uint64Value == UInt64.max)
        #expect(JSONWriter.string(value) == "[9223372036854775807,-9223372036854775808,18446744073709551615]")
    }

    // `int64Value` reads integer literals in one pass; it must say what "scan for a fraction or
    // exponent, then `Int64(literal)`, else through Double" says, at the edges and at random.
    @Test func int64ValueAgreesWithScanThenParse() throws {
        func reference(_ number: JSONNumber) -> Int64? {
            if number.isInteger { return Int64(number.literal) }
            guard let value = Double(number.literal), value == value.rounded(), abs(value) < 9.0e15 else { return nil }
            return Int64(exactly: value)
        }
        var literals = [
            "0", "-0", "7", "-7", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
            "-9223372036854775809", "92233720368547758070", "18446744073709551616", "1.0", "-1.5", "1e3",
            "1E3", "2.5e1", "-0.0", "1e-3", "9e15", "8.99e15", "123456789012345678901234567890.0e-20",
        ]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let digits = (0..<Int.random(in: 1...21, using: &random)).map { _ in
                String(Int.random(in: 0...9, using: &random))
            }
            var literal = (Bool.random(using: &random) ? "-" : "") + (digits.first == "0" ? "1" : "") + digits.joined()
            if Int.random(in: 0..<4, using: &random) == 0 { literal += ".\(Int.random(in: 0...99, using: &random))" }
            if Int.random(in: 0..<4, using: &random) == 0 { literal += "e\(Int.random(in: -20...20, using: &random))" }
            literals.append(literal)
        }
        for literal in literals {
            let number = try #require(try JSONParser.parse(literal).numberValue, "\(literal)")
            #expect(number.int64Value == reference(number), "\(literal)")
        }
    }

    @Test func keepsOrderDuplicatesAndKeyOffsets() throws {
        let value = try JSONParser.parse(#"{"b":1, "a":2, "b":3}"#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["b", "a", "b"])
        #expect(object["b"]?.int64Value == 3)
        #expect(object.duplicateKeys == ["b"])
        // Each repeat once per repeat, in order, on both sides of the 16 members compared pairwise.
        for count in [3, 17] {
            let members = (0..<count).map { #""k\#($0 % 2 == 0 ? 0 : $0)":\#($0)"# }
            let many = try #require(try JSONParser.parse("{" + members.joined(separator: ",") + "}").objectValue)
            #expect(many.duplicateKeys == Array(repeating: "k0", count: (count - 1) / 2), "\(count)")
        }
        #expect(object.offset(of: "a") == 8)
        #expect(object.offset(of: "b") == 15)
    }

    @Test(arguments: [
        ("", 0), ("{", 1), ("[1,]", 3), ("{\"a\":1,}", 7), ("01", 1), ("1.", 2), ("-", 1), ("tru", 0),
        ("\"\u{01}\"", 1), ("\"\\x\"", 1), ("\"\\ud800\"", 1), ("\"\\udc00\"", 1), ("[1] 2", 4), ("NaN", 0),
        ("{\"a\" 1}", 5), ("[\"\\u12\"]", 6),
    ])
    func rejectsWithOffsets(text: String, offset: Int) {
        do {
            _ = try JSONParser.parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.offset == offset, "\(text): \(error)")
        }
    }

    @Test func rejectsInvalidUTF8InStrings() {
        let bytes: [UInt8] = [0x22, 0x61, 0xc3, 0x28, 0x22]
        #expect(throws: IMWireError.json("invalid UTF-8 in a string", at: 3)) { try JSONParser.parse(bytes) }
    }

    @Test func findsTheBadByteOfALongStringAtItsOffset() {
        for length in 1...30 {
            for position in 0..<length {
                var bytes =
                    [UInt8(ascii: "\"")] + [UInt8](repeating: UInt8(ascii: "a"), count: length) + [UInt8(ascii: "\"")]
                bytes[1 + position] = 0x01
                #expect(throws: IMWireError.json("raw control character in a string", at: 1 + position)) {
                    try JSONParser.parse(bytes)
                }
                bytes[1 + position] = 0xff
                #expect(throws: IMWireError.json("invalid UTF-8 in a string", at: 1 + position)) {
                    try JSONParser.parse(bytes)
                }
                bytes[1 + position] = UInt8(ascii: "\"")
                #expect(throws: IMWireError.json("unexpected data after the JSON value", at: 2 + position)) {
                    try JSONParser.parse(bytes)
                }
            }
        }
    }

    @Test func capsNesting() throws {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(errorCode { try JSONParser.parse(deep, maxDepth: 64) } == .jsonSyntax)
        let fine = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        _ = try JSONParser.parse(fine, maxDepth: 64)
    }
}

/// `members(of:)` validates as `parse` does but returns only where each member's value is.
@Suite struct JSONMemberSpanTests {
    private func members(_ text: String, maxDepth: Int = 64) throws -> [JSONMemberSpan]? {
        try Array(text.utf8).withUnsafeBytes { try JSONParser.members(of: $0, maxDepth: maxDepth) }
    }

    @Test func spansHoldEachValueWithItsType() throws {
        let text = #" {"a":[1,{"x":2}], "b" : "s\"", "a":null,"n":-1e3,"t":true,"o":{}} "#
        let spans = try #require(try members(text))
        #expect(spans.map(\.key) == ["a", "b", "a", "n", "t", "o"])
        #expect(spans.map(\.typeName) == ["array", "string", "null", "number", "boolean", "object"])
        let parsed = try #require(try JSONParser.parse(text).objectValue)
        let utf8 = Array(text.utf8)
        for (span, member) in zip(spans, parsed) {
            #expect(try JSONParser.parse(Array(utf8[span.value])) == member.value, "\(span.key)")
            #expect(span.typeName == member.value.typeName)
            #expect(span.keyOffset == member.offset)
        }
        #expect(spans[1].keyOffset == 19)
    }

    @Test func nonObjectsValidateButHaveNoMembers() throws {
        #expect(try members(#"[1,2]"#) == nil)
        #expect(try members(#" "x" "#) == nil)
        #expect(try members("{}") == [])
    }

    /// Every text `parse` refuses, `members(of:)` refuses at the same offset: the shared grammar.
    @Test(arguments: [
        "", "{", "{\"a\":1,}", "{\"a\":01}", "{\"a\":[1,]}", "{\"a\":\"\\x\"}", "{\"a\":1} x", "{\"a\" 1}",
        "{\"a\":{\"b\":tru}}", "{\"a\":\"\u{01}\"}", "[1] 2",
    ])
    func refusesWhatParseRefuses(text: String) {
        var parseError: IMWireError?
        do { _ = try JSONParser.parse(text) } catch { parseError = error }
        var membersError: IMWireError?
        do { _ = try members(text) } catch { membersError = error as? IMWireError }
        #expect(parseError != nil)
        #expect(membersError == parseError, "\(text)")
    }

    @Test func nestingIsCappedInsideValues() {
        let deep = "{\"a\":" + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}"
        #expect(errorCode { try members(deep, maxDepth: 64) } == .jsonSyntax)
    }

    @Test func badUTF8InsideASkippedValueIsFound() {
        let bytes: [UInt8] = Array(#"{"a":["x"#.utf8) + [0xc3, 0x28] + Array(#""]}"#.utf8)
        #expect(throws: IMWireError.json("invalid UTF-8 in a string", at: 9)) {
            try bytes.withUnsafeBytes { try JSONParser.members(of: $0) }
        }
    }
}

@Suite struct JSONWriterTests {
    @Test func compactAndDeterministic() {
        let value: JSONValue = ["z": 1, "a": ["x", nil, true], "s": "q\"\\\n\u{01}é"]
        #expect(JSONWriter.string(value) == #"{"z":1,"a":["x",null,true],"s":"q\"\\\n\u0001é"}"#)
        #expect(JSONWriter.string(value, sortedKeys: true) == #"{"a":["x",null,true],"s":"q\"\\\n\u0001é","z":1}"#)
    }

    @Test func integersAreWrittenAsStringSpellsThem() {
        var values = [0, 1, -1, 9, 10, -10, 99, 100, 12_345, Int.max, Int.min, Int.max - 1, Int.min + 1]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            values.append(Int.random(in: Int.min...Int.max, using: &generator) >> Int.random(in: 0...62))
        }
        for value in values {
            var out: [UInt8] = [0x78]
            JSONWriter.writeInteger(value, into: &out)
            #expect(String(decoding: out, as: UTF8.self) == "x" + String(value))
        }
    }

    @Test func prettyOutputParsesBack() throws {
        let value: JSONValue = ["a": [1, 2, ["b": []]], "c": [:]]
        let pretty = JSONWriter.pretty(value)
        #expect(pretty.contains("\n  \"a\": ["))
        #expect(try JSONParser.parse(pretty) == value)
    }

    // A report's objects are written member by member, literal keys copied and data keys
    // escaped: byte for byte what `writePretty` writes for the same tree, at any depth.
    @Test func prettyObjectsWriteWhatTheTreeWrites() {
        for indent in [0, 1, 3, 17] {
            var out: [UInt8] = [0x78]
            var object = JSONWriter.PrettyObject(indent: indent)
            object.member("id", "a\"1", into: &out)
            object.member("none", nil as String?, into: &out)
            object.member("count", -120, into: &out)
            object.member("list", [1, "x"], into: &out)
            object.member("nested", into: &out)
            var nested = JSONWriter.PrettyObject(indent: object.valueIndent)
            nested.member(named: "tab\there \"q\"", 7, into: &out)
            nested.member(named: "é", into: &out)
            JSONWriter.PrettyObject(indent: nested.valueIndent).end(into: &out)
            nested.end(into: &out)
            object.end(into: &out)
            let tree: JSONValue = [
                "id": "a\"1", "none": nil, "count": -120, "list": [1, "x"],
                "nested": ["tab\there \"q\"": 7, "é": [:]],
            ]
            var expected: [UInt8] = [0x78]
            JSONWriter.writePretty(tree, into: &expected, indent: indent)
            #expect(out == expected, "\(String(decoding: out, as: UTF8.self))")
        }
    }

    @Test func semanticEqualityIgnoresOrderAndNumberSpelling() throws {
        let a = try JSONParser.parse(#"{"x":1,"y":[1.0,"s"]}"#)
        let b = try JSONParser.parse(#"{"y":[1e0,"s"],"x":1.0}"#)
        #expect(a.semanticallyEquals(b))
        #expect(a != b)
        #expect(!a.semanticallyEquals(try JSONParser.parse(#"{"x":2,"y":[1,"s"]}"#)))
    }

    @Test func randomStringsRoundTrip() throws {
        var generator = SplitMix64(seed: 3)
        let alphabet: [Character] = ["a", "\"", "\\", "\n", "\u{0}", "\u{1f}", "é", "中", "😀", "/", " "]
        // Up to 40 characters, so the parser's eight-bytes-at-a-time scan meets every special
        // character at every position within and after a word.
        for _ in 0..<1500 {
            let text = String(
                (0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            #expect(try JSONParser.parse(JSONWriter.string(.string(text))) == .string(text))
        }
    }

    /// `writeString` copies runs without escapes at once; the output is what escaping byte by
    /// byte gives, for every byte below 0x20, quotes and backslashes at every position of a run.
    @Test func stringsEscapeAsByteAtATimeDid() {
        func reference(_ text: String) -> [UInt8] {
            let hex = Array("0123456789abcdef".utf8)
            var out: [UInt8] = [0x22]
            for byte in text.utf8 {
                switch byte {
                case 0x22: out += [0x5c, 0x22]
                case 0x5c: out += [0x5c, 0x5c]
                case 0x0a: out += [0x5c, UInt8(ascii: "n")]
                case 0x0d: out += [0x5c, UInt8(ascii: "r")]
                case 0x09: out += [0x5c, UInt8(ascii: "t")]
                case 0x08: out += [0x5c, UInt8(ascii: "b")]
                case 0x0c: out += [0x5c, UInt8(ascii: "f")]
                case 0x00..<0x20: out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0f)]]
                default: out.append(byte)
                }
            }
            return out + [0x22]
        }
        var generator = SplitMix64(seed: 11)
        let specials = (0..<0x20).map { Character(Unicode.Scalar($0)) } + ["\"", "\\", "\u{7f}"]
        let plain: [Character] = ["a", "é", "中", "😀", " ", "/"]
        var escaped = 0
        for _ in 0..<3000 {
            let text = String(
                (0..<Int.random(in: 0...24, using: &generator)).map { _ in
                    Int.random(in: 0..<4, using: &generator) == 0
                        ? specials.randomElement(using: &generator)! : plain.randomElement(using: &generator)!
                })
            var out: [UInt8] = [9]  // appended to what is there
            JSONWriter.writeString(text, into: &out)
            #expect(out == [9] + reference(text), "\(text.debugDescription)")
            if out.count > text.utf8.count + 3 { escaped += 1 }
        }
        #expect(escaped > 1000)
    }
}

@Suite struct FindingTests {
    static let rule = Rule(
        "TEST.RULE", .error, lenient: .warning, layer: .encoding, dialect: .leancloud,
        summary: "test", specRef: "nowhere")

    @Test func findingsCarryTheirRule() {
        let finding = Self.rule.finding("broken", at: 4)
        #expect(finding.severity == .error)
        #expect(finding.ruleID == "TEST.RULE")
        #expect(finding.rule.lenientSeverity == .warning)
        #expect(finding.shifted(by: 10).offset == 14)
        #expect(finding.description == "[TEST.RULE] error: broken (offset 4)")
    }

    @Test func severitiesOrder() {
        #expect(Severity.info < .warning && Severity.warning < .error)
        #expect(Severity(name: "warning") == .warning)
        #expect(Severity(name: "fatal") == nil)
        #expect(Layer.capture < Layer.session)
    }
}
