/// The one error type IMWire throws: a stable `code` to match on, a `reason` in words, and where
/// the input went wrong (a file, a line, a byte offset, a named field), after swift-asn1's
/// `ASN1Error`.
///
/// Match on `code` (`catch let error as IMWireError where error.code == .jsonSyntax`); print the
/// error (`description`) for a person. Each module declares its own codes
/// (`extension IMWireError.Code { public static let name = Self("area.what") }`), so IMWireCore
/// lists none but its own, and a program's own dialect can declare and throw codes of its own.
///
/// The error is one reference wide, so a `Result` or a typed `throws` of it costs a word on the
/// path that succeeds. Unlike `ASN1Error`, equality compares every part, not the code alone: a
/// test can expect one exact error (`#expect(throws: IMWireError(.jsonSyntax, "…", offset: 3))`).
public struct IMWireError: Error, Sendable, Hashable, CustomStringConvertible {
    private let storage: Storage

    /// What kind of error it is: stable across releases, to match on.
    public var code: Code { storage.parts.code }
    /// Why, in words: what a finding made of the error says (`unexpected data after the JSON value`).
    public var reason: String { storage.parts.reason }
    /// The file it is about, when it is about one.
    public var path: String? { storage.parts.path }
    /// The 1-based line of the text read (a key log's, a JSONL file's), when known.
    public var line: Int? { storage.parts.line }
    /// The byte offset in the input where the error was found, when known.
    public var offset: Int? { storage.parts.offset }
    /// The named thing it is about, when one is: the option or setting refused (`encoding`,
    /// `nim-timeout`); a command line names its flag after it.
    public var field: String? { storage.parts.field }
    /// The findings that make it (a WebSocket handshake's, a connection's violation); empty for
    /// most errors.
    public var findings: [Finding] { storage.parts.findings }
    /// What the description puts before the where and the reason (`invalid JSON`, `key log`).
    package var summary: String? { storage.parts.summary }
    /// A number whose meaning the code's module gives and reads through a property of its own
    /// (an HTTP status, a close code, a count of bytes).
    package var number: Int? { storage.parts.number }

    /// An error with `code` and `reason`, and where it was found.
    public init(
        _ code: Code, _ reason: String, path: String? = nil, line: Int? = nil, offset: Int? = nil,
        field: String? = nil, findings: [Finding] = []
    ) {
        self.init(code, reason, summary: nil, path: path, line: line, offset: offset, field: field, findings: findings)
    }

    /// An error whose description starts with `summary` (`invalid JSON at offset 3: …`), or that
    /// carries a `number` its module reads.
    package init(
        _ code: Code, _ reason: String, summary: String?, path: String? = nil, line: Int? = nil, offset: Int? = nil,
        field: String? = nil, findings: [Finding] = [], number: Int? = nil
    ) {
        self.init(
            Storage.Parts(
                code: code, reason: reason, summary: summary, path: path, line: line, offset: offset, field: field,
                findings: findings, number: number))
    }

    private init(_ parts: Storage.Parts) { storage = Storage(parts) }

    /// The same error with its offset moved by `delta` (an offset in a part of the input made
    /// one in the whole); unchanged without one.
    package func offset(by delta: Int) -> IMWireError {
        guard let offset, delta != 0 else { return self }
        var parts = storage.parts
        parts.offset = offset + delta
        return IMWireError(parts)
    }

    /// The same error about the file at `path` (a report, a fixture, a key log): its
    /// description starts with the path.
    package func with(path: String) -> IMWireError {
        var parts = storage.parts
        parts.path = path
        return IMWireError(parts)
    }

    /// The rule IDs of `findings`, in order.
    package var ruleIDs: [String] { findings.map(\.ruleID.rawValue) }

    /// `summary path line N at offset N: reason`, each part when present (no `: ` before an
    /// empty reason), and the reason alone when none is: `invalid JSON at offset 3: unexpected
    /// data after the JSON value`, `key log line 2: bad hex`, `scenario.json: "dialect":
    /// expected a string`.
    public var description: String {
        var head: [String] = []
        if let summary { head.append(summary) }
        if let path { head.append(path) }
        if let line { head.append("line \(line)") }
        if let offset { head.append("at offset \(offset)") }
        guard !head.isEmpty else { return reason }
        return head.joined(separator: " ") + (reason.isEmpty ? "" : ": " + reason)
    }

    public static func == (left: IMWireError, right: IMWireError) -> Bool {
        left.storage === right.storage || left.storage.parts == right.storage.parts
    }

    public func hash(into hasher: inout Hasher) { storage.parts.hash(into: &hasher) }
}

extension IMWireError {
    /// A stable identifier of a kind of error: a dotted name, the module's area first
    /// (`json.syntax`, `compression.output-limit`, `capture.format`). Open: each module declares
    /// its own (`extension IMWireError.Code { public static let name = Self("area.what") }`), and
    /// a name never changes meaning once published.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }
    }

    /// The parts of an error, kept behind one reference.
    private final class Storage: Sendable {
        struct Parts: Hashable {
            var code: Code
            var reason: String
            var summary: String?
            var path: String?
            var line: Int?
            var offset: Int?
            var field: String?
            var findings: [Finding]
            var number: Int?
        }

        let parts: Parts

        init(_ parts: Parts) { self.parts = parts }
    }
}
