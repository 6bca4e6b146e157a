import IMWireCore

/// A strict, schema-driven walk over protobuf bytes. It does not build values; it reports every
/// deviation from the schema and from canonical protobuf with the byte offset where it starts.
/// Structural damage (truncation, an impossible varint or wire type, nesting beyond the limit)
/// stops the walk: `scan` then returns `false`, and nothing after that point can be trusted.
struct WireScanner {
    private(set) var findings: [Finding] = []
    /// Where the session rules' fields are recorded when the scan is of a `GenericCommand`
    /// (`scanCommand`).
    private(set) var fields: LeanCloudCommandFields?
    /// A string field was not valid UTF-8: protobuf parsers refuse the whole message.
    private(set) var sawInvalidUTF8 = false
    private let maxDepth: Int

    init(limits: Limits) {
        maxDepth = limits.maxNestingDepth
    }

    /// The offset of the first top-level tag of field `number` in `bytes`, which this scanner
    /// found intact: where a finding about the decoded command points. The tags are walked again
    /// only when a finding needs one; recording every frame's offsets as it was scanned cost an
    /// allocation per frame for findings that almost never come.
    func firstTopLevelTag(of number: Int32, in bytes: UnsafeRawBufferPointer) -> Int? {
        var walker = self  // skips with this scan's depth limit; what it reports is dropped
        var reader = ByteReader(bytes)
        while !reader.isAtEnd {
            let tagOffset = reader.offset
            guard case .value(let tag, _, _) = reader.readVarint(),
                let wireType = LeanCloudWireType(rawValue: UInt8(tag & 7))
            else { return nil }
            if tag >> 3 == UInt64(bitPattern: Int64(number)) { return tagOffset }
            guard walker.skipValue(&reader, wireType, field: "", groupNumber: tag >> 3, depth: 1) else { return nil }
        }
        return nil
    }

    /// Scans a whole buffer as one `message`. Returns false on structural damage.
    mutating func scan(_ bytes: UnsafeRawBufferPointer, as message: LeanCloudSchema.MessageID) -> Bool {
        var reader = ByteReader(bytes)
        return scanMessage(&reader, message, depth: 1, place: .elsewhere)
    }

    /// Scans `bytes` as a `GenericCommand` and records its `LeanCloudCommandFields` on the way. Returns
    /// them when a protobuf parser would accept the bytes (no structural damage, valid UTF-8).
    /// Bytes over `LeanCloudCommandFields.maxBytes` are scanned without recording (nil).
    mutating func scanCommand(_ bytes: [UInt8]) -> LeanCloudCommandFields? {
        guard bytes.count <= LeanCloudCommandFields.maxBytes else {
            _ = bytes.withUnsafeBytes { scan($0, as: LeanCloudSchema.genericCommand) }
            return nil
        }
        fields = LeanCloudCommandFields(bytes: bytes, nestingLimit: maxDepth)
        let intact = bytes.withUnsafeBytes { raw in
            var reader = ByteReader(raw)
            return scanMessage(&reader, LeanCloudSchema.genericCommand, depth: 1, place: .root)
        }
        let recorded = fields.take()
        return intact && !sawInvalidUTF8 ? recorded : nil
    }

    private mutating func report(_ rule: Rule, _ message: String, at offset: Int) {
        findings.append(rule.finding(message, at: offset))
    }

    /// `place`: where the message sits, for `LeanCloudCommandFields` (`.elsewhere` when nothing is recorded).
    private mutating func scanMessage(
        _ reader: inout ByteReader, _ id: LeanCloudSchema.MessageID, depth: Int, place: LeanCloudCommandFields.Place
    ) -> Bool {
        // The global table is fetched once per message and handed down: read in `scanValue`,
        // the lazy-initialisation checks of the globals (swift_once) ran eight times a frame.
        let table = ScanTable.leanCloud
        // Names are only needed to word a finding.
        var schema: LeanCloudMessageSchema { LeanCloudSchema.message(id) }
        let start = reader.offset
        var seen = FieldSet()
        while !reader.isAtEnd {
            let tagOffset = reader.offset
            guard let tag = readTag(&reader) else { return false }
            let wireBits = UInt8(tag & 7)
            let number = tag >> 3
            guard number >= 1, number <= 0x1fff_ffff else {
                report(LeanCloudRules.invalidFieldNumber, "field number \(number) in \(schema.name)", at: tagOffset)
                return false
            }
            guard let wireType = LeanCloudWireType(rawValue: wireBits), wireType != .endGroup else {
                let what =
                    wireBits == LeanCloudWireType.endGroup.rawValue
                    ? "an end-group tag without its start" : "wire type \(wireBits)"
                report(LeanCloudRules.invalidWireType, "\(what) for field \(number) in \(schema.name)", at: tagOffset)
                return false
            }
            let fieldNumber = Int32(number)
            guard let field = table.field(id, fieldNumber) else {
                report(
                    LeanCloudRules.unknownField, "\(schema.name) has no field \(number) (wire type \(wireType))",
                    at: tagOffset)
                guard skipValue(&reader, wireType, field: "\(schema.name).\(number)", groupNumber: number, depth: depth)
                else { return false }
                continue
            }
            guard wireType == field.kind.wireType else {
                let named = schema.field(number: fieldNumber)!
                report(
                    LeanCloudRules.wireTypeMismatch,
                    """
                    \(schema.name).\(named.name) is \(named.type.protoName) \
                    (\(named.type.wireType)) but arrived as \(wireType)
                    """,
                    at: tagOffset)
                guard
                    skipValue(
                        &reader, wireType, field: "\(schema.name).\(named.name)", groupNumber: number, depth: depth)
                else {
                    return false
                }
                continue
            }
            if !field.repeated, !seen.insert(fieldNumber) {
                report(
                    LeanCloudRules.duplicateField,
                    "\(schema.name).\(schema.field(number: fieldNumber)!.name) given more than once", at: tagOffset)
            }
            guard
                scanValue(
                    &reader, field, number: fieldNumber, in: id, depth: depth, tagOffset: tagOffset, place: place,
                    table: table)
            else {
                return false
            }
        }
        if !table.requiredFields(of: id).isSubset(of: seen) {
            for field in schema.requiredFields where !seen.contains(field.number) {
                report(LeanCloudRules.missingRequired, "\(schema.name).\(field.name) is required", at: start)
            }
        }
        return true
    }

    private mutating func scanValue(
        _ reader: inout ByteReader, _ field: ScanTable.Field, number: Int32, in message: LeanCloudSchema.MessageID,
        depth: Int, tagOffset: Int, place: LeanCloudCommandFields.Place, table: ScanTable
    ) -> Bool {
        let valueOffset = reader.offset
        // Recorded the way a protobuf parser sets the typed field (see `LeanCloudCommandFields`).
        let recorded = place.isRecorded ? table.recording.field(at: place, number) : nil
        // Built only when a finding needs it.
        func path() -> String {
            let schema = LeanCloudSchema.message(message)
            return "\(schema.name).\(schema.field(number: number)!.name)"
        }
        switch field.kind {
        case .int32:
            guard let value = readVarint(&reader, what: path()) else { return false }
            if value > UInt64(UInt32.max), value < 0xffff_ffff_8000_0000 {
                report(LeanCloudRules.int32OutOfRange, "\(path()) = \(value) does not fit int32", at: valueOffset)
            }
            if let recorded { fields?.record(recorded, value: Int64(Int32(truncatingIfNeeded: value))) }
        case .int64:
            guard let value = readVarint(&reader, what: path()) else { return false }
            if let recorded { fields?.record(recorded, value: Int64(bitPattern: value)) }
        case .bool:
            guard let value = readVarint(&reader, what: path()) else { return false }
            if value > 1 {
                report(LeanCloudRules.boolNotCanonical, "\(path()) = \(value), expected 0 or 1", at: valueOffset)
            }
            if let recorded { fields?.record(recorded, value: value == 0 ? 0 : 1) }
        case .enumeration:
            guard let value = readVarint(&reader, what: path()) else { return false }
            let enumID = LeanCloudSchema.EnumID(field.target)
            if !(Int32(exactly: Int64(bitPattern: value)).map { table.isValue($0, of: enumID) } ?? false) {
                let name = LeanCloudSchema.enumeration(enumID).name
                report(
                    LeanCloudRules.unknownEnumValue, "\(path()) = \(Int64(bitPattern: value)) is not a \(name)",
                    at: valueOffset)
            }
            // swift-protobuf keeps the low 32 bits and drops a value the enum lacks.
            let low = Int32(truncatingIfNeeded: value)
            if let recorded, table.isValue(low, of: enumID) { fields?.record(recorded, value: Int64(low)) }
        case .string, .bytes, .message:
            guard let length = readLength(&reader, what: path()) else { return false }
            guard var payload = reader.readReader(length) else {
                report(
                    LeanCloudRules.truncated, "\(path()) announces \(length) bytes, \(reader.remaining) remain",
                    at: valueOffset)
                return false
            }
            switch field.kind {
            case .string:
                if let bad = UTF8Validator.firstInvalidOffset(payload.bytes) {
                    report(LeanCloudRules.invalidUTF8, "\(path()) is not valid UTF-8", at: payload.offset + bad)
                    sawInvalidUTF8 = true
                }
                if let recorded { fields?.record(recorded, start: payload.offset, length: length) }
            case .message:
                guard depth < maxDepth else {
                    report(
                        LeanCloudRules.nestingTooDeep, "\(path()) opens depth \(depth + 1), limit \(maxDepth)",
                        at: tagOffset)
                    return false
                }
                if place.isRoot, !field.repeated { fields?.recordSubMessage(number) }
                return scanMessage(
                    &payload, LeanCloudSchema.MessageID(field.target), depth: depth + 1, place: place.child(number))
            default:
                break
            }
        }
        return true
    }

    /// Reads a varint, reporting damage. Non-minimal encodings are reported and accepted.
    private mutating func readVarint(_ reader: inout ByteReader, what: @autoclosure () -> String) -> UInt64? {
        let offset = reader.offset
        switch reader.readVarint() {
        case .value(let value, _, let minimal):
            if !minimal { report(LeanCloudRules.varintNonMinimal, "\(what()) varint is not minimal", at: offset) }
            return value
        case .truncated:
            report(LeanCloudRules.truncated, "bytes end inside the \(what()) varint", at: offset)
        case .tooLong:
            report(LeanCloudRules.varintTooLong, "\(what()) varint longer than 10 bytes", at: offset)
        case .overflow:
            report(LeanCloudRules.varintTooLong, "\(what()) varint exceeds 64 bits", at: offset)
        }
        return nil
    }

    /// A tag is a 32-bit varint: swift-protobuf and upb refuse one spread over more than five
    /// bytes (inside a group swift-protobuf reads tags more loosely, upb does not;
    /// PB.VARINT-TOO-LONG is one of LeanCloudDifferential's allowed rejections).
    private mutating func readTag(_ reader: inout ByteReader) -> UInt64? {
        let offset = reader.offset
        guard let tag = readVarint(&reader, what: "tag") else { return nil }
        guard reader.offset - offset <= 5 else {
            report(LeanCloudRules.varintTooLong, "tag varint of \(reader.offset - offset) bytes, at most 5", at: offset)
            return nil
        }
        return tag
    }

    private mutating func readLength(_ reader: inout ByteReader, what: @autoclosure () -> String) -> Int? {
        let offset = reader.offset
        guard let length = readVarint(&reader, what: "\(what()) length") else { return nil }
        guard length <= UInt64(reader.remaining) else {
            report(
                LeanCloudRules.truncated, "\(what()) announces \(length) bytes, \(reader.remaining) remain", at: offset)
            return nil
        }
        return Int(length)
    }

    private mutating func skipValue(
        _ reader: inout ByteReader, _ wireType: LeanCloudWireType, field: String, groupNumber: UInt64, depth: Int
    ) -> Bool {
        let offset = reader.offset
        switch wireType {
        case .varint:
            return readVarint(&reader, what: field) != nil
        case .fixed64, .fixed32:
            let size = wireType == .fixed64 ? 8 : 4
            guard reader.skip(size) else {
                report(LeanCloudRules.truncated, "\(field) needs \(size) bytes, \(reader.remaining) remain", at: offset)
                return false
            }
            return true
        case .lengthDelimited:
            guard let length = readLength(&reader, what: field) else { return false }
            return reader.skip(length)
        case .startGroup:
            return skipGroup(&reader, field: field, groupNumber: groupNumber, depth: depth)
        case .endGroup:
            return false
        }
    }

    /// Skips a (deprecated) group up to its matching end-group tag, as protobuf parsers do for
    /// a group in an unknown or mistyped field. Nested groups count toward the depth limit.
    private mutating func skipGroup(_ reader: inout ByteReader, field: String, groupNumber: UInt64, depth: Int) -> Bool
    {
        guard depth < maxDepth else {
            report(
                LeanCloudRules.nestingTooDeep, "group in \(field) opens depth \(depth + 1), limit \(maxDepth)",
                at: reader.offset)
            return false
        }
        while true {
            let tagOffset = reader.offset
            guard !reader.isAtEnd else {
                report(LeanCloudRules.truncated, "bytes end inside the group of \(field)", at: tagOffset)
                return false
            }
            guard let tag = readTag(&reader) else { return false }
            let number = tag >> 3
            guard number >= 1, number <= 0x1fff_ffff, let wireType = LeanCloudWireType(rawValue: UInt8(tag & 7)) else {
                report(LeanCloudRules.invalidWireType, "tag \(tag) inside the group of \(field)", at: tagOffset)
                return false
            }
            if wireType == .endGroup {
                guard number == groupNumber else {
                    report(
                        LeanCloudRules.invalidWireType,
                        "end-group for field \(number) closes the group of field \(groupNumber)", at: tagOffset)
                    return false
                }
                return true
            }
            guard skipValue(&reader, wireType, field: field, groupNumber: number, depth: depth + 1) else {
                return false
            }
        }
    }
}

/// Which field numbers a message instance has used; the schema's numbers are all below 128.
struct FieldSet: Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    static func covers(_ number: Int32) -> Bool { (0..<128).contains(number) }

    /// Inserts `number`; false if it was already there.
    mutating func insert(_ number: Int32) -> Bool {
        guard Self.covers(number) else { return true }
        let bit = UInt64(1) << UInt64(number & 63)
        if number < 64 {
            defer { low |= bit }
            return low & bit == 0
        }
        defer { high |= bit }
        return high & bit == 0
    }

    func isSubset(of other: FieldSet) -> Bool { low & ~other.low == 0 && high & ~other.high == 0 }

    func contains(_ number: Int32) -> Bool {
        guard Self.covers(number) else { return false }
        let bit = UInt64(1) << UInt64(number & 63)
        return (number < 64 ? low : high) & bit != 0
    }
}
