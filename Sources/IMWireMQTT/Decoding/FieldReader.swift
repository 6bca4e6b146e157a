import IMWireCore

/// Reads the fields of one packet body and records a finding for each deviation. Offsets are
/// from the first byte of the packet (the reader's base offset is the fixed header's length).
struct FieldReader {
    var reader: ByteReader
    var findings: [Finding] = []

    init(_ reader: ByteReader) { self.reader = reader }

    var offset: Int { reader.offset }
    var isAtEnd: Bool { reader.isAtEnd }

    mutating func report(_ rule: Rule, _ message: String, at offset: Int) {
        findings.append(rule.finding(message, at: offset))
    }

    private mutating func overrun(_ field: String, need: Int) {
        report(
            MQTTRules.fieldOverrun, "\(field): needs \(need) byte(s), \(reader.remaining) left in the packet",
            at: reader.offset)
    }

    mutating func byte(_ field: String) -> UInt8? {
        guard let value = reader.readUInt8() else {
            overrun(field, need: 1)
            return nil
        }
        return value
    }

    mutating func uint16(_ field: String) -> UInt16? {
        guard let value = reader.readUInt16() else {
            overrun(field, need: 2)
            return nil
        }
        return value
    }

    /// A packet identifier; 0 is reported.
    mutating func packetID() -> UInt16? {
        let start = reader.offset
        guard let id = uint16("packet identifier") else { return nil }
        if id == 0 { report(MQTTRules.packetIDZero, "packet identifier 0", at: start) }
        return id
    }

    /// Length-prefixed bytes (MQTT Binary Data).
    mutating func binary(_ field: String) -> (bytes: [UInt8], offset: Int)? {
        guard let length = uint16("\(field) length") else { return nil }
        let start = reader.offset
        guard let raw = reader.readBytes(Int(length)) else {
            overrun(field, need: Int(length))
            _ = reader.readRest()
            return nil
        }
        return (Array(raw), start)
    }

    /// A length-prefixed UTF-8 string. Malformed UTF-8 and U+0000 are reported at the offending
    /// byte; the text is still returned (with replacement characters) so decoding can go on.
    mutating func string(_ field: String) -> (text: String, offset: Int)? {
        guard let (bytes, start) = binary(field) else { return nil }
        if let bad = UTF8Validator.firstInvalidOffset(bytes) {
            report(MQTTRules.stringInvalidUTF8, "\(field) is not well-formed UTF-8", at: start + bad)
        }
        if let nul = bytes.firstIndex(of: 0) {
            report(MQTTRules.stringNUL, "\(field) contains U+0000", at: start + nul)
        }
        return (String(decoding: bytes, as: UTF8.self), start)
    }

    /// Reports whatever is left after the last field.
    mutating func expectEnd(_ type: MQTTPacketType) {
        guard !reader.isAtEnd else { return }
        report(
            MQTTRules.trailingBytes, "\(reader.remaining) byte(s) after the last field of \(type.name)",
            at: reader.offset)
    }
}

/// Topic name and topic filter rules (MQTT 3.1.1 §4.7).
enum TopicSyntax {
    /// Index (UTF-8 byte) of the first wildcard in a topic name.
    static func wildcardIndex(_ topic: String) -> Int? {
        topic.utf8.firstIndex { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "#") }
            .map { topic.utf8.distance(from: topic.utf8.startIndex, to: $0) }
    }

    /// Why a topic filter is invalid and the UTF-8 index of the problem, or nil if it is valid.
    static func filterProblem(_ filter: String) -> (reason: String, index: Int)? {
        let bytes = Array(filter.utf8)
        if bytes.isEmpty { return ("empty topic filter", 0) }
        var levelStart = 0
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "#"):
                if index != bytes.count - 1 { return ("`#` is not the last character", index) }
                if index != levelStart { return ("`#` shares its level with other characters", index) }
            case UInt8(ascii: "+"):
                let levelEnd = index + 1 == bytes.count || bytes[index + 1] == UInt8(ascii: "/")
                if index != levelStart || !levelEnd { return ("`+` shares its level with other characters", index) }
            case UInt8(ascii: "/"):
                levelStart = index + 1
            default:
                break
            }
        }
        return nil
    }
}
