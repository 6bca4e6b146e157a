/// The schema as the wire scanner walks it: for each message and field number, the field's type
/// and label as small integers in one flat array. Reading `LeanCloudMessageSchema` and `LeanCloudFieldSchema` values
/// per field copied their names and arrays (a retain and a release each, per field, per frame);
/// the names are now looked up in `LeanCloudSchema` only to word a finding.
final class ScanTable: Sendable {
    static let leanCloud = ScanTable(messages: LeanCloudSchema.messages, enums: LeanCloudSchema.enums)

    struct Field {
        enum Kind: UInt8 { case int32, int64, bool, enumeration, string, bytes, message }
        var kind: Kind
        var repeated: Bool
        /// The enum or message id for `.enumeration` and `.message`.
        var target: Int32 = 0
    }

    /// Message `m`'s field number `n` is at `fields[firstField[m] + n]` when `n < width[m]`;
    /// nil where the message has no such field.
    private let fields: [Field?]
    private let firstField: [Int]
    private let width: [Int]
    private let required: [FieldSet]
    /// Enum `e`'s values, sorted, are `enumValues[enumStart[e] ..< enumStart[e + 1]]`.
    private let enumValues: [Int32]
    private let enumStart: [Int]
    /// The same as a bitmap from each enum's lowest value (`enumLow[e]`, `enumSpan[e]` bits,
    /// from word `enumWord[e]` of `enumBits`): the scanner asks about every enum field, and a
    /// bit is read in O(1) where the search took a few probes. Enums spanning more than
    /// `maxBitmapSpan` values are searched.
    private let enumBits: [UInt64]
    private let enumWord: [Int]
    private let enumLow: [Int64]
    private let enumSpan: [Int64]
    private static let maxBitmapSpan: Int64 = 1 << 12
    /// Where a `GenericCommand` scan records the session rules' fields: kept here so the
    /// scanner reaches both tables through the one global it fetches per message.
    let recording = LeanCloudCommandFields.Table.shared

    init(messages: [LeanCloudMessageSchema], enums: [LeanCloudEnumSchema]) {
        var fields: [Field?] = []
        var firstField: [Int] = []
        var width: [Int] = []
        var required: [FieldSet] = []
        for message in messages {
            let count = Int(message.fields.map(\.number).max() ?? 0) + 1
            firstField.append(fields.count)
            width.append(count)
            var table = [Field?](repeating: nil, count: count)
            var needed = FieldSet()
            for field in message.fields {
                table[Int(field.number)] = Self.compile(field)
                if field.label == .required { _ = needed.insert(field.number) }
            }
            fields += table
            required.append(needed)
        }
        var values: [Int32] = []
        var starts: [Int] = []
        for enumeration in enums {
            starts.append(values.count)
            values += enumeration.values.map(\.number).sorted()
        }
        starts.append(values.count)
        var bits: [UInt64] = []
        var words: [Int] = []
        var lows: [Int64] = []
        var spans: [Int64] = []
        for index in enums.indices {
            let sorted = values[starts[index]..<starts[index + 1]]
            let low = Int64(sorted.first ?? 0)
            let span = sorted.last.map { Int64($0) - low + 1 } ?? 0
            words.append(bits.count)
            lows.append(low)
            guard span <= Self.maxBitmapSpan else {
                spans.append(-1)
                continue
            }
            spans.append(span)
            var map = [UInt64](repeating: 0, count: Int((span + 63) / 64))
            for value in sorted {
                let bit = Int(Int64(value) - low)
                map[bit / 64] |= 1 << UInt64(bit % 64)
            }
            bits += map
        }
        enumBits = bits
        enumWord = words
        enumLow = lows
        enumSpan = spans
        self.fields = fields
        self.firstField = firstField
        self.width = width
        self.required = required
        enumValues = values
        enumStart = starts
    }

    private static func compile(_ field: LeanCloudFieldSchema) -> Field {
        let repeated = field.label == .repeated
        return switch field.type {
        case .int32: Field(kind: .int32, repeated: repeated)
        case .int64: Field(kind: .int64, repeated: repeated)
        case .bool: Field(kind: .bool, repeated: repeated)
        case .string: Field(kind: .string, repeated: repeated)
        case .bytes: Field(kind: .bytes, repeated: repeated)
        case .enumeration(let id): Field(kind: .enumeration, repeated: repeated, target: Int32(id))
        case .message(let id): Field(kind: .message, repeated: repeated, target: Int32(id))
        }
    }

    /// The field; nil when `message` has no field `number`.
    func field(_ message: LeanCloudSchema.MessageID, _ number: Int32) -> Field? {
        guard number >= 0, Int(number) < width[message] else { return nil }
        return fields[firstField[message] + Int(number)]
    }

    func requiredFields(of message: LeanCloudSchema.MessageID) -> FieldSet { required[message] }

    func isValue(_ value: Int32, of enumeration: LeanCloudSchema.EnumID) -> Bool {
        let span = enumSpan[enumeration]
        if span >= 0 {
            let bit = Int64(value) - enumLow[enumeration]
            guard bit >= 0, bit < span else { return false }
            return enumBits[enumWord[enumeration] + Int(bit / 64)] & (1 << UInt64(bit % 64)) != 0
        }
        var low = enumStart[enumeration]
        var high = enumStart[enumeration + 1]
        while low < high {
            let middle = (low + high) / 2
            if enumValues[middle] == value { return true }
            if enumValues[middle] < value { low = middle + 1 } else { high = middle }
        }
        return false
    }
}

extension ScanTable.Field.Kind {
    var wireType: LeanCloudWireType {
        switch self {
        case .int32, .int64, .bool, .enumeration: .varint
        case .string, .bytes, .message: .lengthDelimited
        }
    }
}
