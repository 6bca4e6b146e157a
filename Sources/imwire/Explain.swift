import ArgumentParser
import IMWire

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Explain a status code (every meaning it has across vendors and tables) or a rule ID.",
        discussion: """
            A number: each meaning comes with its source, confidence, class and reconnect advice. A number \
            no table knows is reported as unknown, with the range a source declares around it and the \
            nearest known numbers; nothing is guessed. Exit 1 when the number is unknown in the chosen \
            scope. A rule ID (LC.MISSING-ACK): the rule in full, as imwire rules ID prints it; exit 1 when \
            no rule has that ID.
            """)

    @Argument(help: "A number, e.g. 417, 803005, 4111 (negative values such as -127 after --), or a rule ID.")
    var code: String

    @Option(help: "Only this vendor: \(Dialect.allValueStrings.joined(separator: ", ")).")
    var vendor: Dialect?

    @Option(help: "Only this table of the vendor (see `imwire codes`).")
    var table: String?

    @Option(help: "text or json.")
    var format: OutputFormat = .text

    func validate() throws {
        if Int64(code) == nil, vendor != nil || table != nil {
            throw ValidationError("--vendor and --table are for numbers, not rule IDs")
        }
        if let vendor, StatusRegistry.standard.tables(of: vendor).isEmpty {
            throw ValidationError("\(vendor.rawValue) has no status tables in the registry yet")
        }
        if let table, vendor == nil { throw ValidationError("--table \(table) needs --vendor") }
        if let table, let vendor, StatusRegistry.standard.table(vendor, table) == nil {
            throw ValidationError(
                "\(vendor.rawValue) has no table \(table); see imwire codes --vendor \(vendor.rawValue)")
        }
    }

    func run() throws {
        guard let code = Int64(code) else {
            guard let rule = RuleCatalog.rule(named: self.code) else {
                print(
                    "\(self.code) is neither a number nor a rule ID: \(RuleCatalog.unknown(self.code))",
                    to: &standardError)
                throw ExitCode(1)
            }
            let description = RuleDescription(rule, root: PackageRoot.locate())
            print(format == .json ? JSONWriter.pretty(description.json) : description.text)
            return
        }
        let explanation = StatusRegistry.standard.explain(code, vendor: vendor, table: table)
        switch format {
        case .text: print(StatusExport.text(explanation), terminator: "")
        case .json: print(StatusExport.json(explanation), terminator: "")
        }
        if !explanation.isKnown { throw ExitCode(1) }
    }
}
