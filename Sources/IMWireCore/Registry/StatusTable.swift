/// One status-code or enum table of a vendor, as a source defines it: a header enum, a doc page,
/// an SDK's message table. Rows are made through a `StatusRowBuilder` bound to the table, so a
/// row cannot name another vendor or table than the one it sits in.
public struct StatusTable: Sendable, Hashable {
    /// Whether the table lists outcome codes or the values of an enum.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Outcome codes (errors, successes, close codes, kick reasons).
        case codes
        /// Values of a state or type enum.
        case enumeration = "enum"
        /// Bit flags combined with OR.
        case options
    }

    public let vendor: Dialect
    /// Unique within the vendor; used on the command line and in fixtures.
    public let name: String
    public let title: String
    public let kind: Kind
    /// The source of the whole table (each row may add its own).
    public let source: String
    /// Conflicts, collisions and caveats worth reading next to the table.
    public let notes: [String]
    /// Groups the sources declare (e.g. JMessage "803xxx = send message"), for reporting unknown numbers.
    public let ranges: [CodeRange]
    public let rows: [StatusCode]

    public init(
        _ vendor: Dialect, _ name: String, title: String, kind: Kind, source: String,
        travel: Travel, notes: [String] = [], ranges: [CodeRange] = [],
        rows: (StatusRowBuilder) -> [StatusCode]
    ) {
        self.vendor = vendor
        self.name = name
        self.title = title
        self.kind = kind
        self.source = source
        self.notes = notes
        self.ranges = ranges
        self.rows = rows(StatusRowBuilder(vendor: vendor, table: name, sources: source, travel: travel))
    }

    /// Every row with this number (a source may define one number twice, e.g. NIM 10404).
    public func rows(_ number: Int64) -> [StatusCode] { rows.filter { $0.number == number } }

    /// The declared range that contains `number`, the narrowest when several do.
    public func range(containing number: Int64) -> CodeRange? {
        ranges.filter { $0.contains(number) }.min { $0.width < $1.width }
    }
}

/// A group of numbers a source declares, e.g. JMessage 803000–803999 "send message".
public struct CodeRange: Sendable, Hashable, CustomStringConvertible {
    public let lower: Int64
    /// Nil when the source gives no end ("every number above 10000").
    public let upper: Int64?
    public let label: String
    public let source: String

    public init(_ lower: Int64, _ upper: Int64?, _ label: String, source: String) {
        self.lower = lower
        self.upper = upper
        self.label = label
        self.source = source
    }

    public func contains(_ number: Int64) -> Bool { lower <= number && upper.map { number <= $0 } ?? true }

    /// "803000–803999 send message" or "10000 and above client-defined".
    public var description: String {
        (upper.map { "\(lower)–\($0)" } ?? "\(lower) and above") + " " + label
    }

    var width: UInt64 { upper.map { UInt64(bitPattern: $0 &- lower) } ?? .max }
}

/// Makes the rows of one table with the table's defaults filled in.
public struct StatusRowBuilder: Sendable {
    public let vendor: Dialect
    public let table: String
    public let sources: String
    public let travel: Travel

    public func callAsFunction(
        _ number: Int64, _ name: String, _ meaning: String, _ codeClass: CodeClass? = nil,
        original: String? = nil, sources: String? = nil, _ confidence: Confidence = .confirmed,
        travel: Travel? = nil, atLogin: CodeClass? = nil, wait: WaitHint? = nil
    ) -> StatusCode {
        // Without a class a row is an enum value; the registry tests reject that in code tables.
        StatusCode(
            vendor, table, number, name, meaning, original: original, sources: sources ?? self.sources, confidence,
            travel: travel ?? self.travel, codeClass: codeClass ?? .enumValue, atLogin: atLogin, wait: wait)
    }
}
