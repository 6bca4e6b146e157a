import ArgumentParser
import IMWire

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the rule catalogue (also in Spec/rules.md).",
        discussion: "Text: rule ID, severity (strict/lenient where --lenient changes it, as error/warning), summary.")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, markdown, json
    }

    @Option(help: "text, markdown or json.")
    var format: Format = .text

    func run() {
        switch format {
        case .markdown:
            print(SpecGenerator.rules(RuleCatalog.all))
        case .json:
            print(JSONWriter.pretty(.array(RuleCatalog.all.map(RuleCatalog.json))))
        case .text:
            func severity(_ rule: Rule) -> String {
                rule.lenientSeverity == rule.severity ? "\(rule.severity)" : "\(rule.severity)/\(rule.lenientSeverity)"
            }
            let width = RuleCatalog.all.map(\.id.rawValue.count).max() ?? 0
            let severityWidth = RuleCatalog.all.map { severity($0).count }.max() ?? 0
            for rule in RuleCatalog.all {
                let padding = String(repeating: " ", count: width - rule.id.rawValue.count)
                print("\(rule.id)\(padding)  \(severity(rule).padding(severityWidth))  \(rule.summary)")
            }
        }
    }
}

extension String {
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
