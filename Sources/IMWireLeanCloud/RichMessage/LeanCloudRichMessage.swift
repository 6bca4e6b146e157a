import IMWireCore

/// A typed ("rich") message: the JSON carried in `DirectCommand.msg`, `LogItem.data`,
/// `PatchItem.data` and `UnreadTuple.data` (leancloud.md §7). Reserved types are negative;
/// positive ones are the app's own. Keys the SDKs do not reserve are kept in `extra`.
public struct LeanCloudRichMessage: Sendable, Hashable {
    /// The message type `_lctype` names.
    public enum Kind: Sendable, Hashable {
        case text, image, audio, video, location, file, recalled
        /// A positive `_lctype` registered by the app.
        case custom(Int64)
        /// `_lctype` 0 ("no type", reserved) or another value no SDK defines.
        case reserved(Int64)

        public init(lctype: Int64) {
            switch lctype {
            case -1: self = .text
            case -2: self = .image
            case -3: self = .audio
            case -4: self = .video
            case -5: self = .location
            case -6: self = .file
            case -127: self = .recalled
            case 1...: self = .custom(lctype)
            default: self = .reserved(lctype)
            }
        }

        public var lctype: Int64 {
            switch self {
            case .text: -1
            case .image: -2
            case .audio: -3
            case .video: -4
            case .location: -5
            case .file: -6
            case .recalled: -127
            case .custom(let value), .reserved(let value): value
            }
        }

        /// Whether the SDKs expect an `_lcfile` for this type.
        public var carriesFile: Bool {
            switch self {
            case .image, .audio, .video, .file: true
            default: false
            }
        }
    }

    /// The `_lcfile` of an image, audio, video or file message.
    public struct FileInfo: Sendable, Hashable {
        public var url: String?
        public var objectID: String?
        public var metadata: JSONObject?
        public init(url: String? = nil, objectID: String? = nil, metadata: JSONObject? = nil) {
            self.url = url
            self.objectID = objectID
            self.metadata = metadata
        }
        public var name: String? { metadata?["name"]?.stringValue }
        public var format: String? { metadata?["format"]?.stringValue }
        public var size: Double? { metadata?["size"]?.doubleValue }
        public var width: Double? { metadata?["width"]?.doubleValue }
        public var height: Double? { metadata?["height"]?.doubleValue }
        public var duration: Double? { metadata?["duration"]?.doubleValue }
    }

    /// The `_lcloc` of a location message.
    public struct GeoPoint: Sendable, Hashable {
        public var latitude: Double
        public var longitude: Double
        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    public var kind: Kind
    public var text: String?
    public var attributes: JSONObject?
    public var file: FileInfo?
    public var location: GeoPoint?
    /// App-defined top-level keys, in their order.
    public var extra: JSONObject

    public init(
        kind: Kind, text: String? = nil, attributes: JSONObject? = nil, file: FileInfo? = nil,
        location: GeoPoint? = nil, extra: JSONObject = JSONObject()
    ) {
        self.kind = kind
        self.text = text
        self.attributes = attributes
        self.file = file
        self.location = location
        self.extra = extra
    }

    // MARK: decoding

    /// Parses `text` as a typed message. Returns nil without findings when the content is not a
    /// typed message at all (plain text, or JSON without `_lctype`): that is legal content.
    public static func parse(_ text: String) -> (message: LeanCloudRichMessage?, findings: [Finding]) {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0), building: true) }
    }

    /// The findings `parse` gives for UTF-8 `text`, without building the message: the checker
    /// reads every direct message, and a text message's text need not become a String for that.
    public static func findings(utf8 text: UnsafeRawBufferPointer) -> [Finding] {
        parse(text, building: false).findings
    }

    /// The JSON is validated whole, but a member's value is built only when a check reads it or
    /// `building` asks for the message.
    private static func parse(_ text: UnsafeRawBufferPointer, building: Bool) -> (
        message: LeanCloudRichMessage?, findings: [Finding]
    ) {
        guard text.first == UInt8(ascii: "{"), let members = (try? JSONParser.members(of: text)) ?? nil,
            let typeMember = members.last(where: { $0.key == "_lctype" })
        else { return (nil, []) }
        // Each span holds one complete JSON value, so it parses on its own.
        func value(_ member: JSONMemberSpan) -> JSONValue {
            (try? JSONParser.parse(UnsafeRawBufferPointer(rebasing: text[member.value]))) ?? .null
        }
        var findings: [Finding] = []
        func problem(_ message: String, _ key: String) {
            findings.append(
                LeanCloudRules.richMessageInvalid.finding(message, at: members.last { $0.key == key }?.keyOffset))
        }
        let lctype: Int64
        if let plain = plainInteger(UnsafeRawBufferPointer(rebasing: text[typeMember.value])) {
            lctype = plain
        } else {
            let typeValue = value(typeMember)
            guard let integer = typeValue.int64Value, typeValue.numberValue?.isInteger == true else {
                problem("_lctype must be an integer, found \(typeValue)", "_lctype")
                return (nil, findings)
            }
            lctype = integer
        }
        let kind = Kind(lctype: lctype)
        if case .reserved = kind { problem("_lctype \(lctype) is reserved (0) or undefined", "_lctype") }
        // Built only when asked for: the checker wants the findings, and building a message it
        // then dropped cost a dozen retains per direct message.
        var message = building ? LeanCloudRichMessage(kind: kind) : nil
        var hasFileURL = false
        var hasLocation = false
        for member in members {
            switch member.key {
            case "_lctype": continue
            case "_lctext":
                if member.typeName == "string" {
                    message?.text = value(member).stringValue
                } else if member.typeName != "null" {
                    problem("_lctext must be a string, found \(member.typeName)", member.key)
                }
            case "_lcattrs":
                if member.typeName == "object" {
                    message?.attributes = value(member).objectValue
                } else if member.typeName != "null" {
                    problem("_lcattrs must be an object, found \(member.typeName)", member.key)
                }
            case "_lcfile":
                guard let fileObject = value(member).objectValue else {
                    if member.typeName != "null" {
                        problem("_lcfile must be an object, found \(member.typeName)", member.key)
                    }
                    continue
                }
                let file = parseFile(fileObject, problem: { problem($0, member.key) })
                hasFileURL = file.url != nil
                message?.file = file
            case "_lcloc":
                let location = value(member).objectValue
                guard let location, let lat = location["latitude"]?.doubleValue,
                    let lon = location["longitude"]?.doubleValue
                else {
                    problem("_lcloc must be {latitude, longitude} numbers", member.key)
                    continue
                }
                if !(-90...90).contains(lat) || !(-180...180).contains(lon) {
                    problem("_lcloc (\(lat), \(lon)) is outside latitude ±90 / longitude ±180", member.key)
                }
                hasLocation = true
                message?.location = GeoPoint(latitude: lat, longitude: lon)
            default:
                message?.extra.append(member.key, value(member))
            }
        }
        if kind.carriesFile, !hasFileURL {
            problem("_lctype \(lctype) needs _lcfile.url", "_lctype")
        }
        if kind == .location, !hasLocation, !members.contains(where: { $0.key == "_lcloc" }) {
            problem("_lctype -5 needs _lcloc", "_lctype")
        }
        return (message, findings)
    }

    /// A JSON number (already validated) that is a plain integer of at most 18 digits, the way
    /// the SDKs write `_lctype`: read from its bytes rather than built as a JSON value.
    private static func plainInteger(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        let negative = bytes.first == UInt8(ascii: "-")
        let digits = bytes.dropFirst(negative ? 1 : 0)
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return negative ? -value : value
    }

    private static func parseFile(_ object: JSONObject, problem: (String) -> Void) -> FileInfo {
        var file = FileInfo()
        if let url = object["url"] {
            if let text = url.stringValue { file.url = text } else { problem("_lcfile.url must be a string") }
        }
        if let id = object["objId"] {
            if let text = id.stringValue {
                file.objectID = text
            } else if !id.isNull {
                problem("_lcfile.objId must be a string")
            }
        }
        if let meta = object["metaData"] {
            if let metaObject = meta.objectValue {
                file.metadata = metaObject
                for key in ["size", "width", "height", "duration"] {
                    if let value = metaObject[key], !value.isNull, value.numberValue == nil {
                        problem("_lcfile.metaData.\(key) must be a number, found \(value.typeName)")
                    }
                }
                for key in ["name", "format"] {
                    if let value = metaObject[key], !value.isNull, value.stringValue == nil {
                        problem("_lcfile.metaData.\(key) must be a string, found \(value.typeName)")
                    }
                }
            } else if !meta.isNull {
                problem("_lcfile.metaData must be an object")
            }
        }
        return file
    }

    // MARK: encoding

    /// The message as `_lc*` JSON, keys in SDK order: `_lctype`, `_lctext`, `_lcattrs`, `_lcfile`,
    /// `_lcloc`, then extras.
    public var json: JSONValue {
        var object = JSONObject()
        object.append("_lctype", .number(JSONNumber(kind.lctype)))
        if let text { object.append("_lctext", .string(text)) }
        if let attributes { object.append("_lcattrs", .object(attributes)) }
        if let file {
            var fileObject = JSONObject()
            if let url = file.url { fileObject.append("url", .string(url)) }
            if let id = file.objectID { fileObject.append("objId", .string(id)) }
            if let metadata = file.metadata { fileObject.append("metaData", .object(metadata)) }
            object.append("_lcfile", .object(fileObject))
        }
        if let location, let lat = JSONNumber(location.latitude), let lon = JSONNumber(location.longitude) {
            object.append("_lcloc", ["latitude": .number(lat), "longitude": .number(lon)])
        }
        object.members += extra.members
        return .object(object)
    }

    public var encoded: String { JSONWriter.string(json) }
}

extension LeanCloudRichMessage {
    /// The typed value as JSON, the `decoded` form of rich-message fixtures:
    /// `{"kind", "lctype", "text"?, "attributes"?, "file"?, "location"?, "extra"?}`.
    public var typedJSON: JSONValue {
        var object = JSONObject()
        object.append("kind", .string(kind.name))
        object.append("lctype", .number(JSONNumber(kind.lctype)))
        if let text { object.append("text", .string(text)) }
        if let attributes { object.append("attributes", .object(attributes)) }
        if let file {
            var fileObject = JSONObject()
            if let url = file.url { fileObject.append("url", .string(url)) }
            if let id = file.objectID { fileObject.append("objId", .string(id)) }
            if let metadata = file.metadata { fileObject.append("metaData", .object(metadata)) }
            object.append("file", .object(fileObject))
        }
        if let location, let lat = JSONNumber(location.latitude), let lon = JSONNumber(location.longitude) {
            object.append("location", ["latitude": .number(lat), "longitude": .number(lon)])
        }
        if !extra.isEmpty { object.append("extra", .object(extra)) }
        return .object(object)
    }
}

extension LeanCloudRichMessage.Kind {
    public var name: String {
        switch self {
        case .text: "text"
        case .image: "image"
        case .audio: "audio"
        case .video: "video"
        case .location: "location"
        case .file: "file"
        case .recalled: "recalled"
        case .custom: "custom"
        case .reserved: "reserved"
        }
    }
}
