import IMWireCore

@testable import IMWireLeanCloud

func hex(_ text: String) -> [UInt8] { (try? Hex.decode(text)) ?? [] }

func json(_ text: String) -> JSONValue { (try? JSONParser.parse(text)) ?? .null }

/// Rule IDs and offsets of the warning and error findings, in order.
func verdicts(_ findings: [Finding]) -> [String] {
    findings.filter { $0.severity >= .warning }.map { "\($0.ruleID)@\($0.offset.map(String.init) ?? "-")" }
}

/// Random canonical JSON for a schema message: every field type, presence and repetition.
struct RandomCommandBuilder {
    var generator: SplitMix64

    mutating func value(for type: LeanCloudFieldSchema.FieldType, depth: Int) -> JSONValue {
        switch type {
        case .int32: return .number(JSONNumber(Int64(Int32.random(in: Int32.min...Int32.max, using: &generator))))
        case .int64: return .string(String(Int64.random(in: Int64.min...Int64.max, using: &generator)))
        case .bool: return .bool(Bool.random(using: &generator))
        case .string:
            let samples = ["", "tom", "中文", "😀 emoji", "a\"b\\c", "{\"_lctype\":-1,\"_lctext\":\"hi\"}"]
            return .string(samples.randomElement(using: &generator) ?? "")
        case .bytes:
            let count = Int.random(in: 0...12, using: &generator)
            return .string(Base64.encode((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        case .enumeration(let id):
            return .string(LeanCloudSchema.enumeration(id).values.randomElement(using: &generator)?.name ?? "")
        case .message(let id):
            return .object(message(id, depth: depth + 1))
        }
    }

    mutating func message(_ id: LeanCloudSchema.MessageID, depth: Int) -> JSONObject {
        var object = JSONObject()
        for field in LeanCloudSchema.message(id).fields {
            let isMessage = if case .message = field.type { true } else { false }
            let include =
                field.label == .required || (Int.random(in: 0..<4, using: &generator) == 0 && !(isMessage && depth > 2))
            guard include else { continue }
            if field.label == .repeated {
                let count = Int.random(in: 1...3, using: &generator)
                object.append(field.name, .array((0..<count).map { _ in value(for: field.type, depth: depth) }))
            } else {
                object.append(field.name, value(for: field.type, depth: depth))
            }
        }
        return object
    }
}
