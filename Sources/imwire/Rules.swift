import ArgumentParser
import IMWire

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the rule catalogue (also in Spec/rules.md).")

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
            let width = RuleCatalog.all.map(\.id.rawValue.count).max() ?? 0
            for rule in RuleCatalog.all {
                let padding = String(repeating: " ", count: width - rule.id.rawValue.count)
                print("\(rule.id)\(padding)  \(rule.severity.description.padding(7))  \(rule.summary)")
            }
        }
    }
}

extension String {
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
