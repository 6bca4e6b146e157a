import ArgumentParser
import IMWire

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the rule catalogue (also in Spec/rules.md), or explain one rule.",
        discussion: """
            Without a rule ID: one line per rule (ID, severity as strict/lenient where --lenient changes \
            it, summary), filtered by --dialect and --layer. With an ID: the rule in full, with the Spec \
            section that states its requirement and an input in Fixtures/ or the tests that triggers it; \
            exit 1 when no rule has that ID.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, markdown, json
    }

    @Argument(help: "A rule ID, e.g. LC.MISSING-ACK (any case).")
    var id: String?

    @Option(help: "Only the rules of this dialect: \(Dialect.allValueStrings.joined(separator: ", ")).")
    var dialect: Dialect?

    @Option(help: "Only the rules of this layer: \(Layer.allCases.map(\.rawValue).joined(separator: ", ")).")
    var layer: Layer?

    @Option(help: "text, markdown or json.")
    var format: Format = .text

    @Option(
        help: """
            The package root, for the Spec sections and the examples \
            (default: found from the current directory or the executable).
            """)
    var root: String?

    func run() throws {
        if let id {
            guard let rule = RuleCatalog.rule(named: id) else {
                print(RuleCatalog.unknown(id), to: &standardError)
                throw ExitCode(1)
            }
            let description = RuleDescription(rule, root: root ?? PackageRoot.locate())
            switch format {
            case .text: print(description.text)
            case .markdown: print(SpecGenerator.rules([rule]))
            case .json: print(JSONWriter.pretty(description.json))
            }
            return
        }
        let rules = RuleCatalog.all.filter { rule in
            (dialect == nil || rule.dialect == dialect) && (layer == nil || rule.layer == layer)
        }
        switch format {
        case .markdown:
            print(SpecGenerator.rules(rules))
        case .json:
            print(JSONWriter.pretty(.array(rules.map(RuleCatalog.json))))
        case .text:
            func severity(_ rule: Rule) -> String {
                rule.lenientSeverity == rule.severity ? "\(rule.severity)" : "\(rule.severity)/\(rule.lenientSeverity)"
            }
            let width = rules.map(\.id.rawValue.count).max() ?? 0
            let severityWidth = rules.map { severity($0).count }.max() ?? 0
            for rule in rules {
                let padding = String(repeating: " ", count: width - rule.id.rawValue.count)
                print("\(rule.id)\(padding)  \(severity(rule).padding(severityWidth))  \(rule.summary)")
            }
        }
    }
}

extension Layer: ExpressibleByArgument {}

extension String {
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
