/// Status-code and enum tables, indexed. Tables are typed once, in the dialect modules; a registry
/// only indexes them (`StatusRegistry.standard`, in IMWireRegistry, holds every vendor's). Unknown
/// numbers are reported as unknown for their vendor and table, with the range a source declares
/// and the nearest known neighbours, never with a guessed meaning.
public struct StatusRegistry: Sendable {
    public let tables: [StatusTable]

    public init(tables: [StatusTable]) { self.tables = tables }

    /// The vendors that have tables, in the order of their first table.
    public var vendors: [Dialect] {
        var seen = Set<Dialect>()
        return tables.map(\.vendor).filter { seen.insert($0).inserted }
    }

    /// Every row of every table, table by table.
    public var rows: [StatusCode] { tables.flatMap(\.rows) }

    /// The tables of `vendor`, or every table.
    public func tables(of vendor: Dialect?) -> [StatusTable] {
        guard let vendor else { return tables }
        return tables.filter { $0.vendor == vendor }
    }

    public func table(_ vendor: Dialect, _ name: String) -> StatusTable? {
        tables.first { $0.vendor == vendor && $0.name == name }
    }

    /// `number` in one table: its rows, or an unknown report. Nil when the table does not exist.
    public func lookup(_ vendor: Dialect, _ table: String, _ number: Int64) -> Lookup? {
        guard let table = self.table(vendor, table) else { return nil }
        let rows = table.rows(number)
        return rows.isEmpty ? .unknown(UnknownCode(table: table, number: number)) : .known(rows)
    }

    /// Every meaning `number` has across vendors and tables (or within one vendor).
    public func meanings(of number: Int64, vendor: Dialect? = nil) -> [StatusCode] {
        tables(of: vendor).flatMap { $0.rows(number) }
    }

    /// Everything the registry can say about `number`: its meanings, or, when it has none in the
    /// chosen scope, an unknown report for each code table that declares a range around it (or,
    /// when none does, each code table whose known numbers span it).
    public func explain(_ number: Int64, vendor: Dialect? = nil, table name: String? = nil) -> Explanation {
        let scope = tables(of: vendor).filter { name == nil || $0.name == name }
        let meanings = scope.flatMap { $0.rows(number) }
        guard meanings.isEmpty else { return Explanation(number: number, meanings: meanings, unknown: []) }
        let covering: [StatusTable]
        if name != nil {
            covering = scope
        } else {
            let codeTables = scope.filter { $0.kind == .codes }
            let declared = codeTables.filter { $0.range(containing: number) != nil }
            covering = declared.isEmpty ? codeTables.filter { $0.spans(number) } : declared
        }
        return Explanation(
            number: number, meanings: meanings, unknown: covering.map { UnknownCode(table: $0, number: number) })
    }

    /// The most cautious advice any on-the-wire row of `vendor` gives for `number` (sources that
    /// disagree are merged towards caution: stopping beats backing off beats reconnecting), with
    /// the rows it rests on. Nil when no on-the-wire row knows the number.
    public func mostCautiousAdvice(_ number: Int64, vendor: Dialect) -> (advice: ReconnectAdvice, rows: [StatusCode])? {
        let rows = meanings(of: number, vendor: vendor).filter(\.travel.isOnTheWire)
        guard let advice = rows.map(\.advice).max() else { return nil }
        return (advice, rows.filter { $0.advice == advice })
    }
}

/// The answer for one number in one table.
public enum Lookup: Sendable, Hashable {
    /// One row, or several when the source defines the number twice.
    case known([StatusCode])
    case unknown(UnknownCode)
}

/// A number a table does not define, with what the table does say around it.
public struct UnknownCode: Sendable, Hashable, CustomStringConvertible {
    public let vendor: Dialect
    public let table: String
    public let number: Int64
    /// The range a source declares around the number, if any.
    public let range: CodeRange?
    /// The nearest defined numbers below and above, in the same table.
    public let below: StatusCode?
    public let above: StatusCode?

    public init(table: StatusTable, number: Int64) {
        vendor = table.vendor
        self.table = table.name
        self.number = number
        range = table.range(containing: number)
        below = table.rows.filter { $0.number < number }.max { $0.number < $1.number }
        above = table.rows.filter { $0.number > number }.min { $0.number < $1.number }
    }

    /// "9999 is unknown in leancloud sdk-local; range 9900–9999 other; nearest known: 9977 below, none above".
    public var description: String {
        var text = "\(number) is unknown in \(vendor.rawValue) \(table)"
        if let range { text += "; declared range \(range) (\(range.source))" }
        let neighbour = { (row: StatusCode?) in
            row.map { $0.name.isEmpty ? "\($0.number)" : "\($0.number) \($0.name)" } ?? "none"
        }
        text += "; nearest known: \(neighbour(below)) below, \(neighbour(above)) above"
        return text
    }
}

/// What `imwire explain` prints.
public struct Explanation: Sendable, Hashable {
    public let number: Int64
    public let meanings: [StatusCode]
    /// Filled only when nothing in scope knows the number.
    public let unknown: [UnknownCode]

    public var isKnown: Bool { !meanings.isEmpty }
}

extension StatusTable {
    /// Whether `number` lies between the table's smallest and largest defined numbers.
    func spans(_ number: Int64) -> Bool {
        guard let low = rows.map(\.number).min(), let high = rows.map(\.number).max() else { return false }
        return low <= number && number <= high
    }
}
