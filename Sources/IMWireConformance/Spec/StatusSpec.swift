import IMWireCore
import IMWireRegistry

/// `Spec/status-codes/<vendor>.md`: one generated block per vendor of the status registry, so a
/// vendor added to the registry gets its Spec file checked without touching this file.
package enum StatusSpec {
    package static func file(_ vendor: Dialect) -> String { "Spec/status-codes/\(vendor.rawValue).md" }
    package static func blockName(_ vendor: Dialect) -> String { "status-codes-\(vendor.rawValue)" }

    package static var files: [String] { StatusRegistry.standard.vendors.map(file) }

    package static var blocks: [String: @Sendable () -> String] {
        var blocks: [String: @Sendable () -> String] = [:]
        for vendor in StatusRegistry.standard.vendors { blocks[blockName(vendor)] = { markdown(vendor) } }
        return blocks
    }

    /// Every table of `vendor`: a heading, the source, notes and ranges, then the rows.
    package static func markdown(_ vendor: Dialect, registry: StatusRegistry = .standard) -> String {
        registry.tables(of: vendor).map { table in
            var parts = ["### `\(table.name)`: \(table.title)"]
            parts.append("\(table.kind.rawValue), \(table.rows.count) rows. Source: \(table.source).")
            if !table.notes.isEmpty { parts.append(table.notes.map { "- \($0)" }.joined(separator: "\n")) }
            if !table.ranges.isEmpty {
                parts.append("Ranges: " + table.ranges.map { "\($0) (\($0.source))" }.joined(separator: "; ") + ".")
            }
            parts.append(
                MarkdownTable.render(
                    ["code", "name", "meaning", "original", "class", "advice", "travels as", "confidence", "source"],
                    table.rows.map { row in
                        [
                            "\(row.number)", row.name.isEmpty ? "" : "`\(row.name)`",
                            row.meaning
                                + (row.wait.map { " Wait: \($0.field) in \($0.unit.rawValue), \($0.scope)." } ?? ""),
                            row.original ?? "",
                            row.codeClass.rawValue + (row.atLogin.map { "; at login \($0.rawValue)" } ?? ""),
                            row.advice.rawValue, row.travel.rawValue, row.confidence.rawValue,
                            row.sources == table.source ? "" : row.sources,
                        ]
                    }))
            return parts.joined(separator: "\n\n")
        }.joined(separator: "\n\n")
    }
}
