import IMWireCore

/// The registry as language-neutral JSON (the `Fixtures/status/<vendor>.json` files), CSV and
/// text. Output is deterministic: tables and rows in source order, keys in a fixed order.
public enum StatusExport {
    /// The fixture document of one vendor, or of every table when `vendor` is nil; ends with a newline.
    public static func json(_ registry: StatusRegistry = .standard, vendor: Dialect?, table: String? = nil) -> String {
        let tables = registry.tables(of: vendor).filter { table == nil || $0.name == table }
        var document = JSONObject()
        document.append("vendor", vendor.map { .string($0.rawValue) } ?? .null)
        document.append(
            "generated_by",
            .string(
                "imwire codes --format json" + (vendor.map { " --vendor \($0.rawValue)" } ?? "")
                    + (table.map { " --table \($0)" } ?? "")))
        document.append("tables", .array(tables.map(json)))
        return JSONWriter.pretty(.object(document)) + "\n"
    }

    static func json(_ table: StatusTable) -> JSONValue {
        var object = JSONObject()
        object.append("vendor", .string(table.vendor.rawValue))
        object.append("name", .string(table.name))
        object.append("title", .string(table.title))
        object.append("kind", .string(table.kind.rawValue))
        object.append("source", .string(table.source))
        object.append("notes", .array(table.notes.map { .string($0) }))
        object.append(
            "ranges",
            .array(
                table.ranges.map { range in
                    [
                        "lower": .number(JSONNumber(range.lower)),
                        "upper": range.upper.map { .number(JSONNumber($0)) } ?? .null,
                        "label": .string(range.label), "source": .string(range.source),
                    ]
                }))
        object.append("rows", .array(table.rows.map { json($0) }))
        return .object(object)
    }

    /// One row as JSON; `vendor` and `table` are left to the enclosing table.
    public static func json(_ row: StatusCode, withTable: Bool = false) -> JSONValue {
        var object = JSONObject()
        if withTable {
            object.append("vendor", .string(row.vendor.rawValue))
            object.append("table", .string(row.table))
        }
        object.append("number", .number(JSONNumber(row.number)))
        object.append("name", .string(row.name))
        object.append("meaning", .string(row.meaning))
        object.append("original", row.original.map { .string($0) } ?? .null)
        object.append("class", .string(row.codeClass.rawValue))
        object.append("at_login", row.atLogin.map { .string($0.rawValue) } ?? .null)
        object.append("advice", .string(row.advice.rawValue))
        object.append("travel", .string(row.travel.rawValue))
        object.append("confidence", .string(row.confidence.rawValue))
        object.append("sources", .string(row.sources))
        object.append(
            "wait",
            row.wait.map { wait in
                ["field": .string(wait.field), "unit": .string(wait.unit.rawValue), "scope": .string(wait.scope)]
            } ?? .null)
        return .object(object)
    }

    static let csvHeader = [
        "vendor", "table", "number", "name", "meaning", "original", "class", "at_login", "advice",
        "travel", "confidence", "sources", "wait_field", "wait_unit",
    ]

    /// One line per row (RFC 4180 quoting, CRLF-free: fields never contain line breaks unquoted).
    public static func csv(_ rows: [StatusCode]) -> String {
        func field(_ text: String) -> String {
            text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                ? "\"" + text.replacingAll("\"", with: "\"\"") + "\"" : text
        }
        let lines =
            [csvHeader]
            + rows.map { row in
                [
                    row.vendor.rawValue, row.table, "\(row.number)", row.name, row.meaning, row.original ?? "",
                    row.codeClass.rawValue, row.atLogin?.rawValue ?? "", row.advice.rawValue, row.travel.rawValue,
                    row.confidence.rawValue, row.sources, row.wait?.field ?? "", row.wait?.unit.rawValue ?? "",
                ]
            }
        return lines.map { $0.map(field).joined(separator: ",") }.joined(separator: "\n") + "\n"
    }

    /// A listing for people: a heading per table, one line per row.
    public static func text(_ tables: [StatusTable]) -> String {
        var out: [String] = []
        for table in tables {
            out.append(
                """
                \(table.vendor.rawValue) \(table.name): \(table.title) \
                (\(table.kind.rawValue), \(table.rows.count) rows)
                """)
            out.append("  source: \(table.source)")
            let numberWidth = table.rows.map { "\($0.number)".count }.max() ?? 0
            let classWidth = table.rows.map(\.codeClass.rawValue.count).max() ?? 0
            for row in table.rows {
                let number = "\(row.number)".leftPadded(numberWidth)
                let name = row.name.isEmpty ? "" : "\(row.name): "
                out.append("  \(number)  \(row.codeClass.rawValue.rightPadded(classWidth))  \(name)\(row.meaning)")
            }
            out.append("")
        }
        return out.joined(separator: "\n")
    }

    /// What `imwire explain` prints.
    public static func text(_ explanation: Explanation) -> String {
        var out: [String] = []
        let count = explanation.meanings.count
        if explanation.isKnown {
            out.append("\(explanation.number): \(count) meaning\(count == 1 ? "" : "s")")
        } else {
            out.append("\(explanation.number): unknown" + (explanation.unknown.isEmpty ? " (no table covers it)" : ""))
        }
        for row in explanation.meanings {
            out.append("")
            out.append("\(row.vendor.rawValue) \(row.table) \(row.number)\(row.name.isEmpty ? "" : " \(row.name)")")
            out.append("  meaning:    \(row.meaning)")
            if let original = row.original { out.append("  original:   \(original)") }
            let login = row.atLogin.map { "; answering a login: \($0.rawValue)" } ?? ""
            out.append("  class:      \(row.codeClass.rawValue)\(login) (advice: \(row.advice.rawValue))")
            if let wait = row.wait {
                out.append("  wait:       \(wait.field), in \(wait.unit.rawValue): \(wait.scope)")
            }
            out.append("  travels as: \(row.travel.rawValue)")
            out.append("  confidence: \(row.confidence.rawValue)")
            out.append("  source:     \(row.sources)")
        }
        for unknown in explanation.unknown { out.append("  \(unknown)") }
        return out.joined(separator: "\n") + "\n"
    }

    /// `imwire explain --format json`.
    public static func json(_ explanation: Explanation) -> String {
        var object = JSONObject()
        object.append("number", .number(JSONNumber(explanation.number)))
        object.append("known", .bool(explanation.isKnown))
        object.append("meanings", .array(explanation.meanings.map { json($0, withTable: true) }))
        object.append(
            "unknown",
            .array(
                explanation.unknown.map { unknown in
                    var entry = JSONObject()
                    entry.append("vendor", .string(unknown.vendor.rawValue))
                    entry.append("table", .string(unknown.table))
                    entry.append(
                        "range",
                        unknown.range.map { range in
                            [
                                "lower": .number(JSONNumber(range.lower)),
                                "upper": range.upper.map { .number(JSONNumber($0)) } ?? .null,
                                "label": .string(range.label), "source": .string(range.source),
                            ]
                        } ?? .null)
                    entry.append("below", unknown.below.map { .number(JSONNumber($0.number)) } ?? .null)
                    entry.append("above", unknown.above.map { .number(JSONNumber($0.number)) } ?? .null)
                    return .object(entry)
                }))
        return JSONWriter.pretty(.object(object)) + "\n"
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
    func rightPadded(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }

    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for char in self { if char == target { out += replacement } else { out.append(char) } }
        return out
    }
}
