/// A JSON document as parsed, without loss: object members keep their order (and duplicates),
/// numbers keep their literal text, so 64-bit integers survive and output is reproducible.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var objectValue: JSONObject? { if case .object(let value) = self { value } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var numberValue: JSONNumber? { if case .number(let value) = self { value } else { nil } }
    public var int64Value: Int64? { numberValue?.int64Value }
    public var doubleValue: Double? { numberValue?.doubleValue }
    public var isNull: Bool { self == .null }

    /// The JSON type name, for messages ("expected string, found number").
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Equality that ignores member order and number spelling (`1`, `1.0`, `1e0` are equal).
    public func semanticallyEquals(_ other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.number(let a), .number(let b)): return a.sameValue(as: b)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.semanticallyEquals($1) }
        case (.object(let a), .object(let b)):
            guard a.members.count == b.members.count else { return false }
            return a.members.allSatisfy { member in
                b[member.key].map { member.value.semanticallyEquals($0) } ?? false
            }
        default: return false
        }
    }
}

/// A JSON number kept as its literal text.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    public let literal: String

    /// `literal` must already be a valid JSON number; the parser and the initialisers ensure it.
    init(literal: String) { self.literal = literal }

    public init(_ value: Int64) { literal = String(value) }
    public init(_ value: Int) { literal = String(value) }
    public init(_ value: UInt64) { literal = String(value) }
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 1e15 {
            literal = String(Int64(value))
        } else {
            literal = "\(value)"
        }
    }

    public var isInteger: Bool { !literal.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") } }
    /// The value if it is a whole number within `Int64` (`1.0` and `1e3` are); nil otherwise.
    /// An integer literal (most are) is read in one pass, not scanned and then parsed.
    public var int64Value: Int64? {
        var value: Int64 = 0
        var negative = false
        var overflowed = false
        for byte in literal.utf8 {
            switch byte {
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int64(byte &- UInt8(ascii: "0"))
                let (tens, tensOverflow) = value.multipliedReportingOverflow(by: 10)
                let (next, digitOverflow) =
                    negative ? tens.subtractingReportingOverflow(digit) : tens.addingReportingOverflow(digit)
                overflowed = overflowed || tensOverflow || digitOverflow
                value = next
            default: return integralDouble.flatMap { Int64(exactly: $0) }  // a fraction or exponent
            }
        }
        return overflowed ? nil : value
    }
    public var uint64Value: UInt64? { isInteger ? UInt64(literal) : integralDouble.flatMap { UInt64(exactly: $0) } }
    public var doubleValue: Double? { Double(literal) }
    public var description: String { literal }

    private var integralDouble: Double? {
        guard let value = Double(literal), value == value.rounded(), abs(value) < 9.0e15 else { return nil }
        return value
    }

    func sameValue(as other: JSONNumber) -> Bool {
        if literal == other.literal { return true }
        if isInteger, other.isInteger, let a = Int64(literal), let b = Int64(other.literal) { return a == b }
        if let a = doubleValue, let b = other.doubleValue { return a == b }
        return false
    }
}

/// A JSON object: members in document order, duplicates kept (lookups return the last one, as
/// most parsers do; `duplicateKeys` lists them for strict checks).
public struct JSONObject: Sendable, Hashable, Sequence {
    /// One key and value of an object, in the order they were written.
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue
        /// Byte offset of the key in the parsed text (nil for built values); not part of equality.
        public var offset: Int?

        public init(key: String, value: JSONValue, offset: Int? = nil) {
            self.key = key
            self.value = value
            self.offset = offset
        }

        public static func == (lhs: Member, rhs: Member) -> Bool { lhs.key == rhs.key && lhs.value == rhs.value }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(key)
            hasher.combine(value)
        }
    }

    public var members: [Member]

    public init(_ members: [Member] = []) { self.members = members }
    public init(_ pairs: KeyValuePairs<String, JSONValue>) {
        members = pairs.map { Member(key: $0.key, value: $0.value) }
    }

    public subscript(key: String) -> JSONValue? {
        get { members.last(where: { $0.key == key })?.value }
        set {
            if let index = members.lastIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }

    public var duplicateKeys: [String] {
        // A command's few members are compared pairwise: no set hashed for every payload.
        if members.count <= 16 {
            return members.indices.compactMap { index in
                let key = members[index].key
                return members[..<index].contains { $0.key == key } ? key : nil
            }
        }
        var seen = Set<String>()
        var duplicates: [String] = []
        for member in members where !seen.insert(member.key).inserted { duplicates.append(member.key) }
        return duplicates
    }

    public mutating func append(_ key: String, _ value: JSONValue, offset: Int? = nil) {
        members.append(Member(key: key, value: value, offset: offset))
    }

    /// Byte offset of the last member named `key`, when the object was parsed from text.
    public func offset(of key: String) -> Int? { members.last(where: { $0.key == key })?.offset }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .number(JSONNumber(value)) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }
}
