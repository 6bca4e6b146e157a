import IMWireCore

/// The `lc.json.*` encoding (leancloud.md §2.2): one flat JSON object per text frame. The fields
/// of the cmd's sub-message sit at top level beside `cmd`, `op`, `i`…; enums are names, and `op`
/// uses hyphens (`members-joined`); `JsonObjectMessage` fields are real JSON; int64 values are
/// numbers; bytes are base64 (INFERRED). The literal `{}` is the keep-alive.
public enum LeanCloudJSON {
    private static let generic = LeanCloudSchema.message(LeanCloudSchema.genericCommand)

    // MARK: encode

    public static func encode(_ command: LCGenericCommand) -> String {
        guard let canonical = LeanCloudCanonicalJSON.encode(command).objectValue else { return "{}" }
        var flat = JSONObject()
        for member in canonical {
            guard let field = generic.field(named: member.key) else { continue }
            if case .message(let id) = field.type, case .object(let inner) = member.value {
                let schema = LeanCloudSchema.message(id)
                for innerMember in inner {
                    guard let innerField = schema.field(named: innerMember.key) else { continue }
                    flat.append(innerMember.key, flatValue(innerMember.value, innerField))
                }
            } else if member.key == "op", let name = member.value.stringValue {
                flat.append("op", .string(hyphenated(name)))
            } else {
                flat.append(member.key, flatValue(member.value, field))
            }
        }
        return JSONWriter.string(.object(flat))
    }

    static func hyphenated(_ op: String) -> String { String(op.map { $0 == "_" ? "-" : $0 }) }

    private static func flatValue(_ value: JSONValue, _ field: LeanCloudFieldSchema) -> JSONValue {
        if field.label == .repeated, case .array(let items) = value {
            return .array(items.map { flatScalar($0, field.type) })
        }
        return flatScalar(value, field.type)
    }

    private static func flatScalar(_ value: JSONValue, _ type: LeanCloudFieldSchema.FieldType) -> JSONValue {
        switch type {
        case .int64:
            if let text = value.stringValue, let number = Int64(text) { return .number(JSONNumber(number)) }
            return value
        case .message(let id) where id == LeanCloudSchema.jsonObjectMessage:
            guard let text = value["data"]?.stringValue else { return value }
            return (try? JSONParser.parse(text)) ?? .string(text)
        case .message(let id):
            guard case .object(let object) = value else { return value }
            let schema = LeanCloudSchema.message(id)
            var out = JSONObject()
            for member in object {
                guard let field = schema.field(named: member.key) else { continue }
                out.append(member.key, flatValue(member.value, field))
            }
            return .object(out)
        default:
            return value
        }
    }

    // MARK: decode

    public static func decode(_ payload: [UInt8], limits: Limits = .default) -> LeanCloudDecodedCommand {
        guard payload.count <= limits.maxFrameSize else {
            let finding = LeanCloudRules.frameTooLarge.finding(
                "\(payload.count) bytes, limit \(limits.maxFrameSize)", at: 0)
            return LeanCloudDecodedCommand(command: nil, findings: [finding], wireSize: payload.count)
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(payload, maxDepth: limits.maxJSONDepth)
        } catch {
            let finding = LeanCloudRules.invalidJSON.finding(error.reason, at: error.offset)
            return LeanCloudDecodedCommand(command: nil, findings: [finding], wireSize: payload.count)
        }
        guard case .object(let object) = root else {
            let finding = LeanCloudRules.invalidJSON.finding("expected an object, found \(root.typeName)", at: 0)
            return LeanCloudDecodedCommand(command: nil, findings: [finding], wireSize: payload.count)
        }
        if object.isEmpty { return LeanCloudDecodedCommand(kind: .heartbeat, command: nil, findings: [], wireSize: 0) }

        var converter = Converter()
        let canonical = converter.canonical(object)
        var findings = converter.findings
        let command: LCGenericCommand
        do {
            command = try LeanCloudCanonicalJSON.decode(.object(canonical))
        } catch {
            findings.append(LeanCloudRules.jsonBadValue.finding(error.description, at: 0))
            return LeanCloudDecodedCommand(command: nil, findings: findings, wireSize: payload.count)
        }
        let subOffset = converter.firstSubMessageKeyOffset
        // Its own protobuf encoding, which gives the wire size and the fields the session rules read.
        let encoded = LeanCloudBinary.encode(command)
        let fields = LeanCloudBinary.fields(of: encoded, limits: limits)
        if let fields {
            findings += LeanCloudCommandChecks.check(fields) { number in
                switch number {
                case 1: object.offset(of: "cmd")
                case 2: object.offset(of: "op")
                case 100...: subOffset
                default: nil
                }
            }
        }
        return LeanCloudDecodedCommand(built: command, fields: fields, findings: findings, wireSize: encoded.count)
    }

    /// Turns a flat object into the canonical (protobuf JSON mapping) object, checking each value
    /// against the schema and reporting what does not fit at the offset of its key.
    private struct Converter {
        var findings: [Finding] = []
        var firstSubMessageKeyOffset: Int?

        mutating func canonical(_ object: JSONObject) -> JSONObject {
            reportDuplicates(object)
            var cmd: LCCommandType? = nil
            if let value = object["cmd"] {
                if let name = value.stringValue, let parsed = LeanCloudNames.commandType(named: name) {
                    cmd = parsed
                } else if let number = value.int64Value, let parsed = LCCommandType(rawValue: Int(number)) {
                    cmd = parsed
                } else {
                    // A name or a number is quoted; an object or an array is only named (it may hold a credential).
                    let text =
                        value.stringValue != nil || value.numberValue != nil
                        ? "\(value) is not" : "is \(value.typeName), not"
                    findings.append(
                        LeanCloudRules.jsonBadValue.finding("cmd \(text) a CommandType", at: object.offset(of: "cmd")))
                }
            }
            let sub = cmd.flatMap(LeanCloudSubMessage.expected(for:))
            let subSchema = sub.flatMap { generic.field(number: $0.rawValue) }.flatMap {
                field -> LeanCloudMessageSchema? in
                if case .message(let id) = field.type { return LeanCloudSchema.message(id) }
                return nil
            }

            var top = JSONObject()
            var inner = JSONObject()
            for member in object {
                if member.value.isNull { continue }
                if member.key == "cmd" {
                    if let cmd { top.append("cmd", .string(LeanCloudNames.name(of: cmd))) }
                } else if member.key == "op" {
                    if let op = opName(member) { top.append("op", .string(op)) }
                } else if let field = generic.field(named: member.key) {
                    if let value = convert(member.value, field, path: member.key, at: member.offset) {
                        top.append(member.key, value)
                    }
                } else if let subSchema, let field = subSchema.field(named: member.key) {
                    if firstSubMessageKeyOffset == nil { firstSubMessageKeyOffset = member.offset }
                    if let value = convert(member.value, field, path: member.key, at: member.offset) {
                        inner.append(member.key, value)
                    }
                } else {
                    let scope = sub.map { "GenericCommand or \($0.fieldName)" } ?? "GenericCommand"
                    findings.append(
                        LeanCloudRules.jsonUnknownKey.finding(
                            "\"\(member.key)\" is not a field of \(scope)", at: member.offset))
                }
            }
            if let sub, !inner.isEmpty {
                if case .object(var nested)? = top[sub.fieldName] {
                    nested.members += inner.members
                    top[sub.fieldName] = .object(nested)
                } else {
                    top.append(sub.fieldName, .object(inner))
                }
            }
            return top
        }

        private mutating func opName(_ member: JSONObject.Member) -> String? {
            if let number = member.value.int64Value, let op = LCOpType(rawValue: Int(number)) {
                return LeanCloudNames.name(of: op)
            }
            guard let text = member.value.stringValue else {
                findings.append(
                    LeanCloudRules.jsonBadValue.finding(
                        "op is \(member.value.typeName), not an OpType name", at: member.offset))
                return nil
            }
            let underscored = String(text.map { $0 == "-" ? "_" : $0 })
            guard LeanCloudNames.opType(named: underscored) != nil else {
                findings.append(
                    LeanCloudRules.jsonBadValue.finding("op \"\(text)\" is not an OpType", at: member.offset))
                return nil
            }
            if text.contains("_") {
                findings.append(
                    LeanCloudRules.jsonOpUnderscore.finding(
                        "op \"\(text)\" should be \"\(hyphenated(text))\"", at: member.offset))
            }
            return underscored
        }

        private mutating func reportDuplicates(_ object: JSONObject) {
            var seen = Set<String>()
            for member in object.members where !seen.insert(member.key).inserted {
                findings.append(
                    LeanCloudRules.jsonDuplicateKey.finding(
                        "\"\(member.key)\" given twice; the last one wins", at: member.offset))
            }
        }

        /// The value is named by its JSON type, not quoted: it may be a credential (`st`, `s`).
        private mutating func bad(_ path: String, _ value: JSONValue, _ expected: String, _ offset: Int?) -> JSONValue?
        {
            findings.append(
                LeanCloudRules.jsonBadValue.finding(
                    "\(path): expected \(expected), found \(value.typeName)", at: offset))
            return nil
        }

        private mutating func convert(_ value: JSONValue, _ field: LeanCloudFieldSchema, path: String, at offset: Int?)
            -> JSONValue?
        {
            guard field.label == .repeated else { return convertScalar(value, field.type, path: path, at: offset) }
            guard case .array(let items) = value else { return bad(path, value, "an array", offset) }
            var out: [JSONValue] = []
            for (index, item) in items.enumerated() {
                if let converted = convertScalar(item, field.type, path: "\(path)[\(index)]", at: offset) {
                    out.append(converted)
                }
            }
            // An empty repeated field is an absent one; kept, it would make its sub-message
            // present and empty, which lc.json cannot write back (found by fuzzing).
            return out.isEmpty ? nil : .array(out)
        }

        private mutating func convertScalar(
            _ value: JSONValue, _ type: LeanCloudFieldSchema.FieldType, path: String, at offset: Int?
        ) -> JSONValue? {
            switch type {
            case .int32:
                guard let number = integer(value), Int32(exactly: number) != nil else {
                    return bad(path, value, "an int32", offset)
                }
                return .number(JSONNumber(number))
            case .int64:
                guard let number = integer(value) else { return bad(path, value, "an int64", offset) }
                return .string(String(number))
            case .bool:
                guard value.boolValue != nil else { return bad(path, value, "a boolean", offset) }
                return value
            case .string:
                guard value.stringValue != nil else { return bad(path, value, "a string", offset) }
                return value
            case .bytes:
                guard let text = value.stringValue, (try? Base64.decode(text)) != nil else {
                    return bad(path, value, "base64 bytes", offset)
                }
                return value
            case .enumeration(let id):
                let schema = LeanCloudSchema.enumeration(id)
                if let name = value.stringValue, schema.number(of: name) != nil { return value }
                if let number = value.int64Value, let name = Int32(exactly: number).flatMap(schema.name(of:)) {
                    return .string(name)
                }
                return bad(path, value, "a \(schema.name)", offset)
            case .message(let id) where id == LeanCloudSchema.jsonObjectMessage:
                if let text = value.stringValue { return ["data": .string(text)] }
                return ["data": .string(JSONWriter.string(value))]
            case .message(let id):
                guard case .object(let object) = value else { return bad(path, value, "an object", offset) }
                let schema = LeanCloudSchema.message(id)
                var out = JSONObject()
                for member in object where !member.value.isNull {
                    guard let field = schema.field(named: member.key) else {
                        findings.append(
                            LeanCloudRules.jsonUnknownKey.finding(
                                "\"\(member.key)\" is not a field of \(schema.name) (in \(path))", at: member.offset))
                        continue
                    }
                    if let converted = convert(member.value, field, path: "\(path).\(member.key)", at: member.offset) {
                        out.append(member.key, converted)
                    }
                }
                return .object(out)
            }
        }

        private func integer(_ value: JSONValue) -> Int64? {
            if let number = value.int64Value { return number }
            if let text = value.stringValue { return Int64(text) }
            return nil
        }
    }
}
