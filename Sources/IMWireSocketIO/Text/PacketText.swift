import IMWireCore

/// Helpers for reading socket.io packets, which are JavaScript strings on the wire: byte offsets
/// for findings, UTF-16 lengths where the protocol counts characters, and integers that must
/// fit a JavaScript number exactly (53 bits).
enum PacketText {
    /// The largest integer a JavaScript number holds exactly.
    static let maxSafeInteger: Int64 = (1 << 53) - 1

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// The index of the first invalid UTF-8 byte, if any.
    static func invalidUTF8(_ bytes: [UInt8]) -> Int? {
        var validator = UTF8Validator()
        let bad = bytes.withUnsafeBytes { validator.feed($0) }
        if let bad { return bad }
        return validator.isComplete ? nil : bytes.count
    }

    static func string(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Decimal digits from `start` up to the first non-digit: the value (nil when it exceeds 53
    /// bits) and the index after the digits.
    static func integer(_ bytes: [UInt8], from start: Int, upTo end: Int? = nil) -> (value: Int64?, end: Int) {
        let limit = end ?? bytes.count
        var index = start
        var value: Int64? = 0
        while index < limit, isDigit(bytes[index]) {
            if let current = value {
                let (times, o1) = current.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times.addingReportingOverflow(Int64(bytes[index] - UInt8(ascii: "0")))
                value = (o1 || o2 || sum > maxSafeInteger) ? nil : sum
            }
            index += 1
        }
        return (value, index)
    }

    /// Parses `bytes[range]` as JSON; a failure carries its offset within `bytes` plus `base`.
    static func json(_ bytes: [UInt8], _ range: Range<Int>, base: Int, limits: Limits) -> Result<JSONValue, IMWireError>
    {
        bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<JSONValue, IMWireError> in
            do throws(IMWireError) {
                return .success(
                    try JSONParser.parse(UnsafeRawBufferPointer(rebasing: raw[range]), maxDepth: limits.maxJSONDepth))
            } catch {
                return .failure(error.offset(by: base + range.lowerBound))
            }
        }
    }

    /// The index `count` UTF-16 code units after `start` in valid UTF-8, or nil when the text
    /// ends first or the count splits a surrogate pair.
    static func advance(_ bytes: [UInt8], from start: Int, utf16Units count: Int) -> Int? {
        var index = start
        var units = 0
        while units < count {
            guard index < bytes.count else { return nil }
            let lead = bytes[index]
            let width = lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4
            units += width == 4 ? 2 : 1
            index += width
        }
        return units == count && index <= bytes.count ? index : nil
    }

    /// The UTF-16 length of a string, as JavaScript's `length` counts it.
    static func utf16Count(_ text: String) -> Int { text.utf16.count }
}
