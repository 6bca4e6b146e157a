import IMWireCore

/// The head of an HTTP/1.1 message (RFC 9112): start line and header fields, up to and
/// including the blank line. Field offsets are absolute within the stream the head came from.
package struct HTTPHead: Sendable, Hashable {
    /// One header field, name and value as sent. Its bytes are the head's, shared by all its
    /// fields: strings are made only for the fields that are read (a browser's head has a dozen
    /// fields, a check looks at a few, and making them all was 2% of checking socket.io traffic).
    package struct Field: Sendable, Hashable {
        package let nameBytes: ArraySlice<UInt8>
        package let valueBytes: ArraySlice<UInt8>
        /// Offset of the field line.
        package var offset: Int
        /// Offset of the value's first byte (after the colon and optional whitespace).
        package var valueOffset: Int

        package var name: String { String(decoding: nameBytes, as: UTF8.self) }
        package var value: String { String(decoding: valueBytes, as: UTF8.self) }

        // Equal when name and value read the same (as when they were strings: an invalid byte
        // reads as U+FFFD) at the same offsets.
        package static func == (lhs: Field, rhs: Field) -> Bool {
            lhs.offset == rhs.offset && lhs.valueOffset == rhs.valueOffset && lhs.name == rhs.name
                && lhs.value == rhs.value
        }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(value)
            hasher.combine(offset)
            hasher.combine(valueOffset)
        }

        package init(name: String, value: String, offset: Int, valueOffset: Int) {
            self.init(
                nameBytes: ArraySlice(name.utf8), valueBytes: ArraySlice(value.utf8), offset: offset,
                valueOffset: valueOffset)
        }

        init(nameBytes: ArraySlice<UInt8>, valueBytes: ArraySlice<UInt8>, offset: Int, valueOffset: Int) {
            self.nameBytes = nameBytes
            self.valueBytes = valueBytes
            self.offset = offset
            self.valueOffset = valueOffset
        }
    }

    /// The start line split at its first two spaces (request: method, target, version;
    /// response: version, status, reason).
    package var startLine: [String]
    package var fields: [Field]
    /// Bytes of the head, blank line included: where the WebSocket frames begin.
    package var length: Int

    /// Fields named `name` (case-insensitive), in order.
    package func fields(_ name: String) -> [Field] {
        fields.filter { Self.sameName($0.nameBytes, name) }
    }

    /// Whether a field named `name` (case-insensitive) is there; no array made.
    package func has(_ name: String) -> Bool { fields.contains { Self.sameName($0.nameBytes, name) } }

    /// Whether a field's name is `name`, ASCII case folded, compared in place.
    private static func sameName(_ a: ArraySlice<UInt8>, _ b: String) -> Bool {
        guard a.count == b.utf8.count else { return false }
        let inPlace = a.withUnsafeBufferPointer { a in
            b.utf8.withContiguousStorageIfAvailable { b in sameFolded(a[...], b[...]) }
        }
        return inPlace ?? a.elementsEqual(b.utf8) { folded($0) == folded($1) }
    }

    /// Field names are tokens, so ASCII (`parse` drops any other): compared byte by byte with
    /// ASCII case folded, not lowercased into new strings for every field of every lookup.
    static func sameName(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        // Native strings are contiguous: compared in place, without the UTF-8 view's iterator.
        let inPlace = a.utf8.withContiguousStorageIfAvailable { a in
            b.utf8.withContiguousStorageIfAvailable { b in sameFolded(a[...], b[...]) }
        }
        if let inPlace, let same = inPlace { return same }
        return a.utf8.elementsEqual(b.utf8) { folded($0) == folded($1) }
    }

    private static func folded(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte }

    /// Whether `a` and `b` are the same bytes with ASCII case folded.
    private static func sameFolded(_ a: Slice<UnsafeBufferPointer<UInt8>>, _ b: Slice<UnsafeBufferPointer<UInt8>>)
        -> Bool
    {
        guard a.count == b.count else { return false }
        var (i, j) = (a.startIndex, b.startIndex)
        while i < a.endIndex {
            guard a[i] == b[j] || folded(a[i]) == folded(b[j]) else { return false }
            i += 1
            j += 1
        }
        return true
    }

    /// The comma-joined values of `name` (RFC 9110 §5.3), nil when absent.
    package func value(_ name: String) -> String? {
        let matching = fields(name)
        return matching.isEmpty ? nil : matching.map(\.value).joined(separator: ", ")
    }

    /// The elements of a comma-separated list field, trimmed, empty elements dropped.
    package func listValues(_ name: String) -> [String] {
        var values: [String] = []
        _ = firstListElement(name) { element in
            if !element.isEmpty {
                values.append(String(decoding: UnsafeBufferPointer(rebasing: element), as: UTF8.self))
            }
            return false
        }
        return values
    }

    /// Whether the comma-separated list field `name` has the element `token` (ASCII case
    /// folded, `token` in lower case): `listValues` without its strings, for the checks every
    /// upgrade goes through.
    package func listContains(_ name: String, token: String) -> Bool {
        var token = token
        return token.withUTF8 { token in firstListElement(name) { Self.sameFolded($0, token[...]) } }
    }

    /// Whether `match` holds for an element of the list field `name`, each element trimmed of
    /// spaces and tabs and read in place (empty ones included), in order until it does.
    private func firstListElement(_ name: String, _ match: (Slice<UnsafeBufferPointer<UInt8>>) -> Bool) -> Bool {
        fields.contains { field in
            guard Self.sameName(field.nameBytes, name) else { return false }
            return field.valueBytes.withUnsafeBufferPointer { value in
                var start = 0
                while start <= value.count {
                    var end = start
                    while end < value.count, value[end] != UInt8(ascii: ",") { end += 1 }
                    var (low, high) = (start, end)
                    while low < high, value[low] == 0x20 || value[low] == 0x09 { low += 1 }
                    while high > low, value[high - 1] == 0x20 || value[high - 1] == 0x09 { high -= 1 }
                    if match(value[low..<high]) { return true }
                    start = end + 1
                }
                return false
            }
        }
    }

    /// The offset just after the blank line ending the head, or nil when it has not arrived.
    package static func endOfHead(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var index = 3
        while let found = bytes.firstIndex(of: 0x0a, in: index..<bytes.count) {
            if bytes[found - 1] == 0x0d, bytes[found - 2] == 0x0a, bytes[found - 3] == 0x0d { return found + 1 }
            index = found + 1
        }
        return nil
    }

    /// Where the first CR, LF or NUL is in `bytes[range]`.
    private static func firstControl(in bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        let first = min(
            bytes.firstIndex(of: 0x0d, in: range) ?? .max, bytes.firstIndex(of: 0x0a, in: range) ?? .max,
            bytes.firstIndex(of: 0, in: range) ?? .max)
        return first == .max ? nil : first
    }

    package static func endOfHead(_ bytes: [UInt8]) -> Int? { bytes.withUnsafeBytes { endOfHead($0) } }

    /// Parses the head at the start of `bytes`. Lines end in CRLF; a field line is
    /// `token ":" OWS value OWS`; obsolete line folding and whitespace before the colon are
    /// rejected (RFC 9112 §5.1, §5.2). `maxLength` caps the bytes searched. Problems are findings
    /// of `malformed` and `truncated` (a WebSocket upgrade's by default; plain HTTP has its own).
    package static func parse(
        _ bytes: [UInt8], baseOffset: Int, maxLength: Int, findings: inout [Finding],
        malformed malformedRule: Rule = WebSocketRules.handshakeMalformed,
        truncated truncatedRule: Rule = WebSocketRules.handshakeTruncated
    ) -> HTTPHead? {
        // Read in place: every HTTP message of a capture passes here, too often to copy the
        // window (up to `maxLength` of the stream) and each line into arrays.
        bytes.withUnsafeBytes { raw in
            parse(
                UnsafeRawBufferPointer(rebasing: raw.prefix(maxLength)), available: bytes.count, baseOffset: baseOffset,
                maxLength: maxLength, findings: &findings, malformed: malformedRule, truncated: truncatedRule)
        }
    }

    /// As `parse(_:baseOffset:maxLength:findings:malformed:truncated:)` of the first `length`
    /// bytes, where `endOfHead` found the head ends (its caller's buffer, read in place): no
    /// copy, and no second search for the blank line.
    package static func parse(
        _ bytes: [UInt8], headLength length: Int, maxLength: Int, findings: inout [Finding],
        malformed malformedRule: Rule, truncated truncatedRule: Rule
    ) -> HTTPHead? {
        precondition(length >= 4 && length <= bytes.count, "headLength is endOfHead's answer")
        return bytes.withUnsafeBytes { raw in
            parse(
                UnsafeRawBufferPointer(rebasing: raw.prefix(min(length, maxLength))), available: length, baseOffset: 0,
                maxLength: maxLength, findings: &findings, malformed: malformedRule, truncated: truncatedRule,
                end: length <= maxLength ? length : nil)
        }
    }

    private static func parse(
        _ window: UnsafeRawBufferPointer, available: Int, baseOffset: Int, maxLength: Int, findings: inout [Finding],
        malformed malformedRule: Rule, truncated truncatedRule: Rule, end knownEnd: Int? = nil
    ) -> HTTPHead? {
        guard let end = knownEnd ?? endOfHead(window) else {
            let reason =
                available > maxLength
                ? "no blank line within \(maxLength) bytes"
                : "the head ends after \(available) bytes without a blank line"
            findings.append(truncatedRule.finding(reason, at: baseOffset + available))
            return nil
        }
        // The lines, CRLF not included, as ranges of the window.
        var lines: [Range<Int>] = []
        lines.reserveCapacity(16)  // a usual head's lines, in one allocation
        var start = 0
        var index = 0
        // A CR at `found` ends a line when an LF follows it before the blank line's CRLF.
        while index < end - 3, let found = window.firstIndex(of: 0x0d, in: index..<(end - 3)) {
            if window[found + 1] == 0x0a {
                lines.append(start..<found)
                start = found + 2
                index = found + 2
            } else {
                index = found + 1
            }
        }
        if start < end - 2 { lines.append(start..<(end - 2)) }
        guard let first = lines.first else {
            findings.append(malformedRule.finding("empty start line", at: baseOffset))
            return nil
        }
        func malformed(_ reason: String, _ at: Int) {
            findings.append(malformedRule.finding(reason, at: baseOffset + at))
        }
        if let bad = Self.firstControl(in: window, first) {
            malformed("control character in the start line", bad)
        }
        // Split at spaces as bytes: HTTP's grammar is bytes, and a space followed by a combining
        // mark is still a space.
        // (At its first two spaces found with memchr: the generic `split` cost 1.4% of a check.)
        var parts: [String] = []
        parts.reserveCapacity(3)
        var partStart = first.lowerBound
        while parts.count < 2, let space = window.firstIndex(of: 0x20, in: partStart..<first.upperBound) {
            parts.append(String(decoding: window[partStart..<space], as: UTF8.self))
            partStart = space + 1
        }
        parts.append(String(decoding: window[partStart..<first.upperBound], as: UTF8.self))
        if parts.count < 2 {
            malformed("start line `\(String(decoding: window[first], as: UTF8.self))` has fewer than two parts", 0)
        }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        var fields: [Field] = []
        fields.reserveCapacity(lines.count - 1)
        // The head's bytes, once, for its fields to share.
        let headBytes = Array(UnsafeRawBufferPointer(rebasing: window[..<end]))
        for line in lines.dropFirst() {
            let text = window[line]
            guard let colon = window.firstIndex(of: UInt8(ascii: ":"), in: line) else {
                malformed(
                    text.first == 0x20 || text.first == 0x09 ? "obsolete line folding" : "field line without a colon",
                    line.lowerBound)
                continue
            }
            let name = window[line.lowerBound..<colon]
            guard !name.isEmpty, name.allSatisfy(WebSocketExtensionHeader.isTokenChar) else {
                malformed(
                    """
                    field name `\(String(decoding: name, as: UTF8.self))` \
                    is not a token (whitespace before the colon?)
                    """, line.lowerBound)
                continue
            }
            let rawValue = window[(colon + 1)..<line.upperBound]
            if Self.firstControl(in: window, (colon + 1)..<line.upperBound) != nil {
                malformed("control character in a field value", line.lowerBound)
                continue
            }
            // The value without its optional whitespace: trimmed as bytes, then decoded once.
            let valueStart = rawValue.firstIndex { !isSpace($0) } ?? rawValue.endIndex
            let valueEnd = (rawValue.lastIndex { !isSpace($0) }).map { $0 + 1 } ?? valueStart
            fields.append(
                Field(
                    nameBytes: headBytes[line.lowerBound..<colon], valueBytes: headBytes[valueStart..<valueEnd],
                    offset: baseOffset + line.lowerBound, valueOffset: baseOffset + valueStart))
        }
        return HTTPHead(startLine: parts, fields: fields, length: end)
    }
}

extension String {
    /// Drops leading and trailing spaces and tabs, HTTP's optional whitespace (no Foundation).
    package func trimmingSpacesAndTabs() -> String {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else {
            return ""
        }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
