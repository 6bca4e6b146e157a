import IMWireCheck
import IMWireCore
import IMWireIO

/// One rule in full, as `imwire rules ID` and `imwire explain ID` print it: what it checks, its
/// severities, where its requirement is stated (the Spec section's heading read from the page)
/// and an input in the repository that triggers it.
public struct RuleDescription: Sendable {
    public let rule: Rule
    /// Each link of the reference with the heading of the section it names, when the page has it.
    public let sections: [(link: SpecReferences.Link, heading: String?)]
    public let example: RuleExample?

    /// Reads the Spec pages and the fixtures under `root` (nil: describes the rule alone).
    public init(_ rule: Rule, root: String?) {
        self.rule = rule
        sections = SpecReferences.links(in: rule.specRef).map { link in
            (link, root.flatMap { Self.heading(of: link, root: $0) })
        }
        example = root.flatMap { RuleExample.find(rule.id, root: $0) }
    }

    public var text: String {
        var lines = ["\(rule.id)  \(severities)", "  \(rule.summary)", "  layer: \(rule.layer.rawValue)"]
        if let dialect = rule.dialect { lines[2] += ", dialect: \(dialect.rawValue)" }
        if let code = RuleCatalog.closeCode(of: rule) {
            lines.append("  a WebSocket peer closes with \(code.rawValue) (RFC 6455 §7.4)")
        }
        lines.append("  specified: \(rule.specRef)")
        for (link, heading) in sections { lines.append("    \(link): \(heading ?? "(no such section)")") }
        if let example {
            lines.append("  example: \(example.location)" + (example.summary.isEmpty ? "" : ": \(example.summary)"))
            if let command = example.command { lines.append("    \(command)") }
        }
        return lines.joined(separator: "\n")
    }

    public var json: JSONValue {
        guard case .object(var object) = RuleCatalog.json(rule) else { return RuleCatalog.json(rule) }
        object.append(
            "sections",
            .array(
                sections.map { link, heading in
                    var section = JSONObject()
                    section.append("link", .string(link.description))
                    section.append("heading", heading.map(JSONValue.string) ?? .null)
                    return .object(section)
                }))
        if let example {
            var value = JSONObject()
            value.append("location", .string(example.location))
            value.append("summary", .string(example.summary))
            value.append("command", example.command.map(JSONValue.string) ?? .null)
            object.append("example", .object(value))
        }
        return .object(object)
    }

    private var severities: String {
        rule.lenientSeverity == rule.severity
            ? "(\(rule.severity))" : "(\(rule.severity); \(rule.lenientSeverity) with --lenient)"
    }

    /// The heading after the link's anchor (or the page's first heading when it names none).
    static func heading(of link: SpecReferences.Link, root: String) -> String? {
        guard let bytes = try? FileByteSource.readAll(path: "\(root)/\(link.path)") else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        var start = lines.startIndex
        if let anchor = link.anchor {
            guard
                let found = lines.firstIndex(where: {
                    $0.contains("id=\"\(anchor)\"")
                        || ($0.hasPrefix("#") && SpecReferences.slug($0.drop { $0 == "#" }) == anchor)
                })
            else { return nil }
            start = found
        }
        guard let heading = lines[start...].first(where: { $0.hasPrefix("#") }) else { return nil }
        return String(heading.drop { $0 == "#" || $0 == " " })
    }
}

/// An input in the repository that triggers a rule: a sample capture `imwire check` reports it
/// on, else a golden fixture that expects it, else the trigger the rule-coverage test runs.
public struct RuleExample: Sendable, Hashable {
    /// A path relative to the package root (with `:line` for a test source).
    public let location: String
    public let summary: String
    /// A command that shows the finding, when one does.
    public let command: String?

    public static func find(_ id: RuleID, root: String) -> RuleExample? {
        let captures = Directory.files(under: "\(root)/Fixtures/captures", suffix: ".expected.json")
        for path in captures {
            guard let json = parse(path),
                names(id, in: json["findings"]) || names(id, in: json["captureFindings"])
                    || json["rules"]?.arrayValue?.contains(.string(id.rawValue)) == true
            else { continue }
            let capture = String(relative(path, root).dropLast(".expected.json".count)) + ".jsonl"
            return RuleExample(location: capture, summary: "a sample capture", command: "imwire check \(capture)")
        }
        for path in Directory.files(under: "\(root)/Fixtures", suffix: ".json")
        where !path.hasSuffix(".expected.json") && !path.contains("/serve/") {
            guard let json = parse(path), names(id, in: json["expect"]) else { continue }
            return RuleExample(
                location: relative(path, root), summary: json["description"]?.stringValue ?? "", command: nil)
        }
        let triggers = "Tests/IMWireConformanceTests/RuleTriggers.swift"
        guard let bytes = try? FileByteSource.readAll(path: "\(root)/\(triggers)") else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard let line = lines.firstIndex(where: { $0.contains("Trigger(\"\(id)\"") }) else { return nil }
        return RuleExample(
            location: "\(triggers):\(line + 1)", summary: "the input the rule-coverage test checks", command: nil)
    }

    private static func parse(_ path: String) -> JSONValue? {
        (try? FileByteSource.readAll(path: path)).flatMap { try? JSONParser.parse($0) }
    }

    private static func names(_ id: RuleID, in value: JSONValue?) -> Bool {
        guard let value else { return false }
        if value["rule"]?.stringValue == id.rawValue { return true }
        return value.arrayValue?.contains { names(id, in: $0) } ?? false
    }

    private static func relative(_ path: String, _ root: String) -> String {
        path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }
}
