import IMWireCore

extension IMWireError.Code {
    /// A field name the Property's tag map does not have (nim.md §4.2): never dropped silently.
    public static let nimUnknownField = Self("nim.unknown-field")
    /// A numeric tag the map does not name, met when a Property is read from the wire.
    public static let nimUnknownTag = Self("nim.unknown-tag")
    /// A key of a wire Property that is not a numeric tag.
    public static let nimNotATag = Self("nim.not-a-tag")
    /// A field a typed request needs is absent.
    public static let nimMissingField = Self("nim.missing-field")
    /// A field holds another JSON type than the typed request reads.
    public static let nimWrongType = Self("nim.wrong-type")
    /// The request is another command than the typed view reads.
    public static let nimWrongCommand = Self("nim.wrong-command")
    /// The command's `Q` list (nim.md §3.5) takes no Property of this map first.
    public static let nimPropertyNotTaken = Self("nim.property-not-taken")
    /// The request's `Q` lacks the Property its command takes, or its first item is not one.
    public static let nimMissingProperty = Self("nim.missing-property")
}

/// Why a typed NIM request could not be built, or a request could not be read as one: one line
/// naming the problem, the field (`field`) when it is about one.
extension IMWireError {
    package static func nimUnknownField(map: String, field: String) -> IMWireError {
        IMWireError(.nimUnknownField, "the \(map) tag map has no field \"\(field)\"", field: field)
    }

    package static func nimUnknownTag(map: String, tag: String) -> IMWireError {
        IMWireError(.nimUnknownTag, "the \(map) tag map has no tag \(tag)", field: tag)
    }

    package static func nimNotATag(map: String, key: String) -> IMWireError {
        IMWireError(.nimNotATag, "key \"\(key)\" of a \(map) Property is not a numeric tag", field: key)
    }

    package static func nimMissingField(map: String, field: String) -> IMWireError {
        IMWireError(.nimMissingField, "\(map) needs the field \"\(field)\"", field: field)
    }

    package static func nimWrongType(map: String, field: String, expected: String) -> IMWireError {
        IMWireError(.nimWrongType, "\(map) field \"\(field)\" is not \(expected)", field: field)
    }

    package static func nimWrongCommand(expected: String, found: String) -> IMWireError {
        IMWireError(.nimWrongCommand, "the request is \(found), not \(expected)")
    }

    package static func nimPropertyNotTaken(command: String, map: String) -> IMWireError {
        IMWireError(.nimPropertyNotTaken, "\(command) does not take a \(map) Property")
    }

    package static func nimMissingProperty(command: String) -> IMWireError {
        IMWireError(.nimMissingProperty, "\(command) lacks its Property parameter")
    }
}

/// A `Property` Q item built by field NAME (nim.md §3.4, §4.2): each name is mapped to its
/// numeric tag through the object's tag map, and a name the map lacks is an error. The wire
/// object lists its tags in ascending order, as `JSON.stringify` writes integer keys.
public struct NIMProperty: Sendable, Hashable {
    /// The tag map the fields are named through.
    public let map: NIMTagMap
    private var values: [Int: JSONValue]

    /// An empty Property of `map`.
    public init(_ map: NIMTagMap) {
        self.map = map
        values = [:]
    }

    /// A Property of `map` with `fields` by name; throws `unknownField` for a name the map lacks.
    public init(_ map: NIMTagMap, _ fields: KeyValuePairs<String, JSONValue>) throws(IMWireError) {
        self.init(map)
        for (name, value) in fields { try set(name, value) }
    }

    /// The Property a wire object describes (`{"19":"alice",…}`); throws for a key that is not a
    /// numeric tag or a tag the map does not name.
    public init(_ map: NIMTagMap, tagged: JSONObject) throws(IMWireError) {
        self.init(map)
        for member in tagged {
            guard let tag = Int(member.key), !member.key.hasPrefix("+"), !member.key.hasPrefix("-") else {
                throw .nimNotATag(map: map.name, key: member.key)
            }
            guard map.name(ofTag: tag) != nil else { throw .nimUnknownTag(map: map.name, tag: member.key) }
            values[tag] = member.value
        }
    }

    /// The value of the field `name`, nil when unset or not a field of the map.
    public subscript(name: String) -> JSONValue? { map.tag(of: name).flatMap { values[$0] } }

    /// Sets the field `name` (nil removes it); throws `unknownField` for a name the map lacks.
    public mutating func set(_ name: String, _ value: JSONValue?) throws(IMWireError) {
        guard let tag = map.tag(of: name) else { throw .nimUnknownField(map: map.name, field: name) }
        values[tag] = value
    }

    /// A copy with the field `name` set (nil removes it).
    public func setting(_ name: String, _ value: JSONValue?) throws(IMWireError) -> NIMProperty {
        var copy = self
        try copy.set(name, value)
        return copy
    }

    /// The fields by name, in tag order (the decoder's `NIMParameter.fields`).
    public var fields: JSONObject {
        JSONObject(
            sortedTags.map { JSONObject.Member(key: map.name(ofTag: $0) ?? "#\($0)", value: values[$0] ?? .null) })
    }

    /// The wire object: numeric tags in ascending order (`NIMParameter.value`).
    public var tagged: JSONObject {
        JSONObject(sortedTags.map { JSONObject.Member(key: String($0), value: values[$0] ?? .null) })
    }

    /// The `Q` item `{t: "Property", v}`, named `name` with its fields as the decoder names them.
    public func parameter(name: String?) -> NIMParameter {
        NIMParameter(
            type: NIMParameterType.property.rawValue, value: .object(tagged), name: name, fields: .object(fields))
    }

    private var sortedTags: [Int] { values.keys.sorted() }

    // Typed reads for the request views.

    func string(_ name: String) -> String? { self[name]?.stringValue }
    func integer(_ name: String) -> Int64? { self[name]?.int64Value }

    func require(_ name: String, _ expected: String, _ read: (JSONValue) -> Bool) throws(IMWireError) {
        guard let value = self[name] else { throw .nimMissingField(map: map.name, field: name) }
        guard read(value) else { throw .nimWrongType(map: map.name, field: name, expected: expected) }
    }

    /// Stores a field the map is known to have (the typed builders' own names).
    mutating func store(_ name: String, _ value: JSONValue?) {
        guard let tag = map.tag(of: name) else { preconditionFailure("\(map.name) has no field \(name)") }
        values[tag] = value
    }
}

extension NIMRequest {
    /// A request whose `Q` is one Property: a command whose parameter list (nim.md §3.5) takes a
    /// Property of `property.map` first (2_3 login, 5_1 sync, 7_1 sendMsg, 8_2 sendTeamMsg,
    /// 21_2 sendSuperTeamMsg). The parameter is named as the decoder names it, so the request
    /// equals its own decoding.
    public init(sid: Int64, cid: Int64, ser: Int64, property: NIMProperty) throws(IMWireError) {
        let key = "\(sid)_\(cid)"
        let name = NIMCommands.command(sid: sid, cid: cid)?.name ?? key
        guard let spec = NIMCommands.parameters[key]?.first, spec.tagMap == property.map else {
            throw .nimPropertyNotTaken(command: "\(key) \(name)", map: property.map.name)
        }
        self.init(sid: sid, cid: cid, ser: ser, params: [property.parameter(name: spec.name)])
    }

    /// Heartbeat 1_2: SER 0 and no parameters (nim.md §3.3, §5.3).
    public static let heartbeat = NIMRequest(sid: NIMCommands.heartbeat.sid, cid: NIMCommands.heartbeat.cid, ser: 0)

    /// Logout 2_6 with serial `ser`. The reference gives no parameter list for it (UNCONFIRMED);
    /// it is sent without parameters.
    public static func logout(ser: Int64) -> NIMRequest { NIMRequest(sid: 2, cid: 6, ser: ser) }

    /// Whether this is logout 2_6.
    public var isLogout: Bool { sid == 2 && cid == 6 }

    /// The first `Q` item read as a Property of `map` (through the tag map, not the decoder's
    /// names): throws when there is none or a key is not a tag of the map.
    public func property(_ map: NIMTagMap) throws(IMWireError) -> NIMProperty {
        let command = "\(sid)_\(cid)" + (self.command.map { " \($0.name)" } ?? "")
        guard let first = params.first, first.type == NIMParameterType.property.rawValue,
            case .object(let object) = first.value
        else {
            throw .nimMissingProperty(command: command)
        }
        return try NIMProperty(map, tagged: object)
    }

    /// Throws `wrongCommand` unless this request is one of `commands` (sid, cid).
    func expect(_ commands: [(sid: Int64, cid: Int64)], _ expected: String) throws(IMWireError) {
        guard commands.contains(where: { $0.sid == sid && $0.cid == cid }) else {
            throw .nimWrongCommand(expected: expected, found: "\(sid)_\(cid)" + (command.map { " \($0.name)" } ?? ""))
        }
    }
}
