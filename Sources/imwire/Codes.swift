import ArgumentParser
import IMWire

struct Codes: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the status-code and enum tables of the registry.",
        discussion: """
            `--format json --vendor V` prints exactly \
            Fixtures/status/V.json (see scripts/generate-status-fixtures.sh).
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, csv
    }

    @Option(help: "Only this vendor: \(Dialect.allValueStrings.joined(separator: ", ")).")
    var vendor: Dialect?

    @Option(help: "Only this table of the vendor.")
    var table: String?

    @Option(help: "text, json or csv.")
    var format: Format = .text

    func validate() throws {
        if let vendor, StatusRegistry.standard.tables(of: vendor).isEmpty {
            throw ValidationError("\(vendor.rawValue) has no status tables in the registry yet")
        }
        if let table, vendor == nil { throw ValidationError("--table \(table) needs --vendor") }
        if let table, let vendor, StatusRegistry.standard.table(vendor, table) == nil {
            throw ValidationError("\(vendor.rawValue) has no table \(table)")
        }
    }

    func run() {
        let registry = StatusRegistry.standard
        let tables = registry.tables(of: vendor).filter { table == nil || $0.name == table }
        switch format {
        case .text: print(StatusExport.text(tables), terminator: "")
        case .json: print(StatusExport.json(registry, vendor: vendor, table: table), terminator: "")
        case .csv: print(StatusExport.csv(tables.flatMap(\.rows)), terminator: "")
        }
    }
}
