import ArgumentParser
import IMWire

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print every meaning a status code or enum value has across vendors and tables.",
        discussion: """
            Each meaning comes with its source, confidence, class and reconnect advice. A number no table \
            knows is reported as unknown, with the range a source declares around it and the nearest known \
            numbers; nothing is guessed. Exit 1 when the number is unknown in the chosen scope.
            """)

    @Argument(help: "The number, e.g. 417, 803005, 4111 (negative values such as -127 after --).")
    var code: Int64

    @Option(help: "Only this vendor: \(Dialect.allCases.map(\.rawValue).joined(separator: ", ")).")
    var vendor: Dialect?

    @Option(help: "Only this table of the vendor (see `imwire codes`).")
    var table: String?

    @Option(help: "text or json.")
    var format: OutputFormat = .text

    func validate() throws {
        if let vendor, StatusRegistry.standard.tables(of: vendor).isEmpty {
            throw ValidationError("\(vendor.rawValue) has no status tables in the registry yet")
        }
        if let table, vendor == nil { throw ValidationError("--table \(table) needs --vendor") }
        if let table, let vendor, StatusRegistry.standard.table(vendor, table) == nil {
            throw ValidationError("\(vendor.rawValue) has no table \(table); see imwire codes --vendor \(vendor.rawValue)")
        }
    }

    func run() throws {
        let explanation = StatusRegistry.standard.explain(code, vendor: vendor, table: table)
        switch format {
        case .text: print(StatusExport.text(explanation), terminator: "")
        case .json: print(StatusExport.json(explanation), terminator: "")
        }
        if !explanation.isKnown { throw ExitCode(1) }
    }
}
