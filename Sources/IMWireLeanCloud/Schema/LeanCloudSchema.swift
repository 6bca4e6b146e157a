/// The LeanCloud protobuf schema as data, for the strict wire scanner, the JSON encodings and the
/// generated Spec tables. The tables themselves (`messages`, `enums`) are generated from
/// `Spec/leancloud/messages2.proto` into `Generated/Schema.swift`.
public enum LeanCloudSchema {
    /// The index of a message type in `LeanCloudSchema`'s tables.
    public typealias MessageID = Int
    /// The index of an enum in `LeanCloudSchema`'s tables.
    public typealias EnumID = Int

    public static func message(_ id: MessageID) -> LeanCloudMessageSchema { messages[id] }
    public static func enumeration(_ id: EnumID) -> LeanCloudEnumSchema { enums[id] }

    public static func messageID(named name: String) -> MessageID? {
        messages.firstIndex { $0.name == name }
    }
}

/// One protobuf message: its fields, and an index from field number to field.
public struct LeanCloudMessageSchema: Sendable {
    public let name: String
    public let fields: [LeanCloudFieldSchema]
    public let requiredFields: [LeanCloudFieldSchema]
    /// Field index by field number (the schema's numbers are small: a table, not a hash).
    private let byNumber: [Int]
    private let byName: [String: Int]

    public init(name: String, fields: [LeanCloudFieldSchema]) {
        self.name = name
        self.fields = fields
        requiredFields = fields.filter { $0.label == .required }
        var numbers = [Int](repeating: -1, count: Int(fields.map(\.number).max() ?? 0) + 1)
        var names: [String: Int] = [:]
        for (index, field) in fields.enumerated() {
            numbers[Int(field.number)] = index
            names[field.name] = index
        }
        byNumber = numbers
        byName = names
    }

    public func field(number: Int32) -> LeanCloudFieldSchema? {
        guard number >= 0, Int(number) < byNumber.count, byNumber[Int(number)] >= 0 else { return nil }
        return fields[byNumber[Int(number)]]
    }

    public func field(named name: String) -> LeanCloudFieldSchema? { byName[name].map { fields[$0] } }
}

/// One field of a message in `messages.proto2`: number, name, label and type.
public struct LeanCloudFieldSchema: Sendable {
    /// The field's proto2 label.
    public enum Label: String, Sendable { case optional, required, repeated }

    /// The field's proto2 type.
    public enum FieldType: Sendable, Hashable {
        case int32, int64, bool, string, bytes
        case enumeration(LeanCloudSchema.EnumID)
        case message(LeanCloudSchema.MessageID)

        /// The protobuf wire type a value of this type travels as.
        public var wireType: LeanCloudWireType {
            switch self {
            case .int32, .int64, .bool, .enumeration: .varint
            case .string, .bytes, .message: .lengthDelimited
            }
        }

        /// The type as written in the .proto file.
        public var protoName: String {
            switch self {
            case .int32: "int32"
            case .int64: "int64"
            case .bool: "bool"
            case .string: "string"
            case .bytes: "bytes"
            case .enumeration(let id): LeanCloudSchema.enumeration(id).name
            case .message(let id): LeanCloudSchema.message(id).name
            }
        }
    }

    public let number: Int32
    public let name: String
    public let type: FieldType
    public let label: Label
    public let defaultValue: String?

    public init(number: Int32, name: String, type: FieldType, label: Label, defaultValue: String? = nil) {
        self.number = number
        self.name = name
        self.type = type
        self.label = label
        self.defaultValue = defaultValue
    }
}

/// One enum of `messages.proto2`: its name and its values.
public struct LeanCloudEnumSchema: Sendable {
    public let name: String
    public let values: [(number: Int32, name: String)]

    public init(name: String, values: [(Int32, String)]) {
        self.name = name
        self.values = values.map { (number: $0.0, name: $0.1) }
    }

    public func name(of number: Int32) -> String? { values.first { $0.number == number }?.name }
    public func number(of name: String) -> Int32? { values.first { $0.name == name }?.number }
}

/// Protobuf wire types (the low 3 bits of a tag).
public enum LeanCloudWireType: UInt8, Sendable, CustomStringConvertible {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case startGroup = 3
    case endGroup = 4
    case fixed32 = 5

    public var description: String {
        switch self {
        case .varint: "varint (0)"
        case .fixed64: "64-bit (1)"
        case .lengthDelimited: "length-delimited (2)"
        case .startGroup: "start-group (3)"
        case .endGroup: "end-group (4)"
        case .fixed32: "32-bit (5)"
        }
    }
}
