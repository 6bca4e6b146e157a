/// Byte order of a multi-byte integer on the wire.
public enum Endianness: Sendable {
    case big
    case little
}

/// A forward cursor over borrowed contiguous bytes. Every read checks the remaining length and
/// returns `nil` when the bytes run out, so callers turn a short read into their own finding.
/// Offsets are absolute: `baseOffset` is added, so a reader over a nested unit reports positions
/// in the enclosing one.
///
/// The reader borrows its bytes; use it inside `withUnsafeBytes` and never let it escape.
public struct ByteReader {
    public let bytes: UnsafeRawBufferPointer
    public private(set) var position: Int
    public let baseOffset: Int

    public init(_ bytes: UnsafeRawBufferPointer, baseOffset: Int = 0) {
        self.bytes = bytes
        self.position = 0
        self.baseOffset = baseOffset
    }

    /// Absolute offset of the next byte to read.
    public var offset: Int { baseOffset + position }
    public var remaining: Int { bytes.count - position }
    public var isAtEnd: Bool { position >= bytes.count }

    public func peekUInt8() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    public mutating func readUInt8() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    public mutating func readUInt16(_ order: Endianness = .big) -> UInt16? {
        readInteger(UInt16.self, order)
    }

    public mutating func readUInt32(_ order: Endianness = .big) -> UInt32? {
        readInteger(UInt32.self, order)
    }

    public mutating func readUInt64(_ order: Endianness = .big) -> UInt64? {
        readInteger(UInt64.self, order)
    }

    public mutating func readInteger<T: FixedWidthInteger & UnsignedInteger>(
        _: T.Type, _ order: Endianness
    ) -> T? {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { return nil }
        var value: T = 0
        for index in 0..<size {
            let byte = T(bytes[position + index])
            switch order {
            case .big: value = value << 8 | byte
            case .little: value |= byte << (8 * index)
            }
        }
        position += size
        return value
    }

    /// The next `count` bytes, borrowed, or `nil` if fewer remain (nothing is consumed then).
    public mutating func readBytes(_ count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, count <= remaining else { return nil }
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: bytes[position..<(position + count)])
    }

    /// A reader over the next `count` bytes whose offsets continue this reader's.
    public mutating func readReader(_ count: Int) -> ByteReader? {
        let start = offset
        guard let slice = readBytes(count) else { return nil }
        return ByteReader(slice, baseOffset: start)
    }

    /// Everything not yet read, consumed.
    public mutating func readRest() -> UnsafeRawBufferPointer {
        readBytes(remaining) ?? UnsafeRawBufferPointer(start: nil, count: 0)
    }

    @discardableResult public mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= remaining else { return false }
        position += count
        return true
    }

    /// A protobuf base-128 varint; see `Varint.read`.
    public mutating func readVarint() -> VarintRead {
        let result = Varint.read(bytes, at: position)
        if case .value(_, let length, _) = result { position += length }
        return result
    }
}

extension Array where Element == UInt8 {
    /// Runs `body` with a reader over the array's bytes.
    public func withReader<R>(baseOffset: Int = 0, _ body: (inout ByteReader) throws -> R) rethrows -> R {
        try withUnsafeBytes { raw in
            var reader = ByteReader(raw, baseOffset: baseOffset)
            return try body(&reader)
        }
    }
}
