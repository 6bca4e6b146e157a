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
///
/// Its reads are `@inlinable`: the wire scanner and the capture readers call them for every
/// field and every block, from other modules, too often to pay for a call each.
public struct ByteReader {
    public let bytes: UnsafeRawBufferPointer
    @usableFromInline var _position: Int
    public let baseOffset: Int

    @inlinable public init(_ bytes: UnsafeRawBufferPointer, baseOffset: Int = 0) {
        self.bytes = bytes
        self._position = 0
        self.baseOffset = baseOffset
    }

    /// Bytes read so far.
    @inlinable public var position: Int { _position }
    /// Absolute offset of the next byte to read.
    @inlinable public var offset: Int { baseOffset + _position }
    @inlinable public var remaining: Int { bytes.count - _position }
    @inlinable public var isAtEnd: Bool { _position >= bytes.count }

    @inlinable public func peekUInt8() -> UInt8? {
        _position < bytes.count ? bytes[_position] : nil
    }

    @inlinable public mutating func readUInt8() -> UInt8? {
        guard _position < bytes.count else { return nil }
        defer { _position += 1 }
        return bytes[_position]
    }

    @inlinable public mutating func readUInt16(_ order: Endianness = .big) -> UInt16? {
        readInteger(UInt16.self, order)
    }

    @inlinable public mutating func readUInt32(_ order: Endianness = .big) -> UInt32? {
        readInteger(UInt32.self, order)
    }

    @inlinable public mutating func readUInt64(_ order: Endianness = .big) -> UInt64? {
        readInteger(UInt64.self, order)
    }

    @inlinable public mutating func readInteger<T: FixedWidthInteger & UnsignedInteger>(
        _: T.Type, _ order: Endianness
    ) -> T? {
        guard remaining >= MemoryLayout<T>.size else { return nil }
        let raw = bytes.loadUnaligned(fromByteOffset: _position, as: T.self)
        _position += MemoryLayout<T>.size
        return order == .big ? T(bigEndian: raw) : T(littleEndian: raw)
    }

    /// The next `count` bytes, borrowed, or `nil` if fewer remain (nothing is consumed then).
    @inlinable public mutating func readBytes(_ count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, count <= remaining else { return nil }
        defer { _position += count }
        return UnsafeRawBufferPointer(rebasing: bytes[_position..<(_position + count)])
    }

    /// A reader over the next `count` bytes whose offsets continue this reader's.
    @inlinable public mutating func readReader(_ count: Int) -> ByteReader? {
        let start = offset
        guard let slice = readBytes(count) else { return nil }
        return ByteReader(slice, baseOffset: start)
    }

    /// Everything not yet read, consumed.
    @inlinable public mutating func readRest() -> UnsafeRawBufferPointer {
        readBytes(remaining) ?? UnsafeRawBufferPointer(start: nil, count: 0)
    }

    @inlinable @discardableResult public mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= remaining else { return false }
        _position += count
        return true
    }

    /// A protobuf base-128 varint; see `Varint.read`.
    @inlinable public mutating func readVarint() -> VarintRead {
        let result = Varint.read(bytes, at: _position)
        if case .value(_, let length, _) = result { _position += length }
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
