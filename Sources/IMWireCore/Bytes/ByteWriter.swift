/// An append-only byte buffer with the integer encodings the codecs need.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public var count: Int { bytes.count }

    public mutating func append(_ byte: UInt8) { bytes.append(byte) }

    public mutating func append<S: Sequence>(contentsOf sequence: S) where S.Element == UInt8 {
        bytes.append(contentsOf: sequence)
    }

    public mutating func append(_ raw: UnsafeRawBufferPointer) { bytes.append(contentsOf: raw) }

    package mutating func append(utf8 string: String) { bytes.append(contentsOf: string.utf8) }

    public mutating func append<T: FixedWidthInteger & UnsignedInteger>(_ value: T, _ order: Endianness) {
        // One append of the value's bytes in the order asked: callers in other modules get this
        // generic unspecialized, where a loop of shifts costs a witness call per byte.
        withUnsafeBytes(of: order == .big ? value.bigEndian : value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A protobuf base-128 varint in its minimal form.
    package mutating func appendVarint(_ value: UInt64) { Varint.write(value, into: &bytes) }

    /// Overwrites bytes already written (e.g. a length known only afterwards).
    package mutating func overwrite(at index: Int, with newBytes: [UInt8]) {
        bytes.replaceSubrange(index..<(index + newBytes.count), with: newBytes)
    }
}
