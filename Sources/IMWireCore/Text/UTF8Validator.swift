/// A streaming UTF-8 validator (Unicode Table 3-7: no overlongs, no surrogates, nothing above
/// U+10FFFF). Feed it chunks in order; a code point may be split across chunks, as it may be
/// across WebSocket fragments. It fails fast: the offset reported is the first byte that can no
/// longer start or continue a valid sequence.
public struct UTF8Validator: Sendable, Hashable {
    private var needed = 0
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xbf

    public init() {}

    /// True when the bytes fed so far end on a code point boundary.
    public var isComplete: Bool { needed == 0 }

    /// Validates the next chunk; returns the index (within the chunk) of the first invalid byte.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        let count = chunk.count
        while index < count {
            if needed == 0 {
                // ASCII, eight bytes at a time: most protocol text is ASCII.
                while count - index >= 8,
                    chunk.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    index += 8
                }
                guard index < count else { break }
            }
            let byte = chunk[index]
            if needed == 0 {
                if byte < 0x80 {
                    index += 1
                    continue
                }
                switch byte {
                case 0xc2...0xdf:
                    needed = 1
                    lower = 0x80
                    upper = 0xbf
                case 0xe0:
                    needed = 2
                    lower = 0xa0
                    upper = 0xbf
                case 0xe1...0xec, 0xee...0xef:
                    needed = 2
                    lower = 0x80
                    upper = 0xbf
                case 0xed:
                    needed = 2
                    lower = 0x80
                    upper = 0x9f
                case 0xf0:
                    needed = 3
                    lower = 0x90
                    upper = 0xbf
                case 0xf1...0xf3:
                    needed = 3
                    lower = 0x80
                    upper = 0xbf
                case 0xf4:
                    needed = 3
                    lower = 0x80
                    upper = 0x8f
                default: return index
                }
            } else {
                guard byte >= lower, byte <= upper else { return index }
                lower = 0x80
                upper = 0xbf
                needed -= 1
            }
            index += 1
        }
        return nil
    }

    public mutating func feed(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// The offset of the first invalid byte of a complete text, `count` if it ends mid-sequence.
    public static func firstInvalidOffset(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var validator = UTF8Validator()
        if let bad = validator.feed(bytes) { return bad }
        return validator.isComplete ? nil : bytes.count
    }

    public static func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBytes { firstInvalidOffset($0) }
    }
}
