import IMWireCore
import Testing

@testable import IMWireWebSocket

/// `HTTPHead.parse`, which reads the head in place, against the code that copied it into
/// arrays, on heads put together at random from the pieces that matter (CRLF and bare CR or
/// LF, colons, spaces and tabs, NUL, non-token bytes, invalid UTF-8), at several `maxLength`s:
/// the same heads, fields, offsets and findings. The start line is now split at space bytes,
/// where a space followed by a combining mark used to be one Character; no piece has one.
@Suite struct HTTPHeadParseTests {
    static func reference(
        _ bytes: [UInt8], baseOffset: Int, maxLength: Int, findings: inout [Finding]
    ) -> HTTPHead? {
        let (malformedRule, truncatedRule) = (WebSocketRules.handshakeMalformed, WebSocketRules.handshakeTruncated)
        let window = Array(bytes.prefix(maxLength))
        let end = window.indices.dropFirst(3).first {
            window[$0] == 0x0a && window[$0 - 1] == 0x0d && window[$0 - 2] == 0x0a && window[$0 - 3] == 0x0d
        }.map { $0 + 1 }
        #expect(HTTPHead.endOfHead(window) == end)
        guard let end else {
            let reason =
                bytes.count > maxLength
                ? "no blank line within \(maxLength) bytes"
                : "the head ends after \(bytes.count) bytes without a blank line"
            findings.append(truncatedRule.finding(reason, at: baseOffset + bytes.count))
            return nil
        }
        var lines: [(text: [UInt8], offset: Int)] = []
        var start = 0
        var index = 0
        while index + 1 < end - 2 {
            if window[index] == 0x0d, window[index + 1] == 0x0a {
                lines.append((Array(window[start..<index]), start))
                start = index + 2
                index += 2
            } else {
                index += 1
            }
        }
        if start < end - 2 { lines.append((Array(window[start..<(end - 2)]), start)) }
        guard let first = lines.first else {
            findings.append(malformedRule.finding("empty start line", at: baseOffset))
            return nil
        }
        func malformed(_ reason: String, _ at: Int) {
            findings.append(malformedRule.finding(reason, at: baseOffset + at))
        }
        if let bad = first.text.firstIndex(where: { $0 == 0x0d || $0 == 0x0a || $0 == 0 }) {
            malformed("control character in the start line", bad)
        }
        let startText = String(decoding: first.text, as: UTF8.self)
        let parts = startText.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        if parts.count < 2 { malformed("start line `\(startText)` has fewer than two parts", 0) }
        var fields: [HTTPHead.Field] = []
        for line in lines.dropFirst() {
            guard let colon = line.text.firstIndex(of: UInt8(ascii: ":")) else {
                malformed(
                    line.text.first == 0x20 || line.text.first == 0x09
                        ? "obsolete line folding" : "field line without a colon", line.offset)
                continue
            }
            let name = line.text[..<colon]
            guard !name.isEmpty, name.allSatisfy(WebSocketExtensionHeader.isTokenChar) else {
                malformed(
                    """
                    field name `\(String(decoding: name, as: UTF8.self))` \
                    is not a token (whitespace before the colon?)
                    """, line.offset)
                continue
            }
            let rawValue = line.text[(colon + 1)...]
            if rawValue.contains(where: { $0 == 0x0d || $0 == 0x0a || $0 == 0 }) {
                malformed("control character in a field value", line.offset)
                continue
            }
            let value = String(decoding: rawValue, as: UTF8.self).trimmingSpacesAndTabs()
            let leading = rawValue.prefix { $0 == 0x20 || $0 == 0x09 }.count
            fields.append(
                HTTPHead.Field(
                    name: String(decoding: name, as: UTF8.self), value: value, offset: baseOffset + line.offset,
                    valueOffset: baseOffset + line.offset + colon + 1 + leading))
        }
        return HTTPHead(startLine: parts, fields: fields, length: end)
    }

    static let pieces: [[UInt8]] =
        [
            "GET", "HTTP/1.1", "200", "OK", " ", "  ", "\t", "\r\n", "\r\n", "\r\n", "\r", "\n", ":", ": ", "Host",
            "Upgrade",
            "websocket", "a b", "x", "\0", "(", "é", "Sec-WebSocket-Key", "/socket.io/?EIO=3", "\r\n\r\n",
        ].map { Array($0.utf8) } + [[0xff], [0xc3], [0xe2, 0x82]]

    @Test func readingInPlaceParsesAsCopyingDid() {
        var random = SystemRandomNumberGenerator()
        var heads: [[UInt8]] = [
            Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8),
            Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade:  websocket \t\r\n\r\nbody".utf8),
            Array("\r\n\r\n".utf8), Array("GET\r\n\r\n".utf8), [],
        ]
        for _ in 0..<20_000 {
            var head = Array("GET /x HTTP/1.1\r\n".utf8).prefix(Int.random(in: 0...17, using: &random)).map { $0 }
            for _ in 0..<Int.random(in: 0...16, using: &random) { head += Self.pieces.randomElement(using: &random)! }
            if Bool.random(using: &random) { head += Array("\r\n\r\n".utf8) }
            heads.append(head)
        }
        var parsed = 0
        for head in heads {
            for maxLength in [8, 40, 8192] {
                let base = Int.random(in: 0...1000, using: &random)
                var expectedFindings: [Finding] = []
                var findings: [Finding] = []
                let expected = Self.reference(head, baseOffset: base, maxLength: maxLength, findings: &expectedFindings)
                let result = HTTPHead.parse(head, baseOffset: base, maxLength: maxLength, findings: &findings)
                #expect(result == expected && findings == expectedFindings, "\(head), maxLength \(maxLength)")
                if expected != nil { parsed += 1 }
            }
        }
        #expect(parsed > 10_000)
    }

    /// `listValues` and `listContains`, which read the fields in place, against the strings
    /// split, trimmed and lowercased as they were before, on list fields put together from
    /// commas, spaces, tabs, case and near misses.
    @Test func listsReadInPlaceAsSplitStringsWere() {
        var random = SystemRandomNumberGenerator()
        let pieces = [
            "websocket", "WebSocket", "WEBSOCKET", "websockets", "websock", "upgrade", "Upgrade", ",", ", ", " ", "\t",
            "keep-alive", "é", "",
        ]
        var checked = (found: 0, missed: 0)
        for _ in 0..<5_000 {
            let fields = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                HTTPHead.Field(
                    name: ["Upgrade", "upgrade", "UPGRADE", "Connection", "Upgrades"].randomElement(using: &random)!,
                    value: (0..<Int.random(in: 0...5, using: &random)).map { _ in pieces.randomElement(using: &random)!
                    }
                    .joined(),
                    offset: 0, valueOffset: 0)
            }
            let head = HTTPHead(startLine: [], fields: fields, length: 0)
            for (name, token) in [("Upgrade", "websocket"), ("Connection", "upgrade"), ("upgrade", "keep-alive")] {
                let values = head.fields(name).flatMap { $0.value.split(separator: ",") }
                    .map { String($0).trimmingSpacesAndTabs() }.filter { !$0.isEmpty }
                #expect(head.listValues(name) == values)
                let expected = values.map { $0.lowercased() }.contains(token)
                #expect(head.listContains(name, token: token) == expected, "\(fields.map { ($0.name, $0.value) })")
                if expected { checked.found += 1 } else { checked.missed += 1 }
            }
        }
        #expect(checked.found > 400 && checked.missed > 10_000)  // 805 and 14,195 in one run
    }
}
