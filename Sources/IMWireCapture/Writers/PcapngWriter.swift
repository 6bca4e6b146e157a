import IMWireCore

/// Writes pcapng (little-endian): one Section Header Block, Interface Description Blocks as
/// needed (microsecond timestamps), and an Enhanced Packet Block per packet with optional
/// `epb_flags` direction and `opt_comment`s. What Wireshark shows as packet comments.
public struct PcapngWriter {
    public private(set) var bytes: [UInt8] = []
    private var interfaces: [UInt32: UInt32] = [:]

    /// `comment`: the section header's `opt_comment` (a shard's `ShardIdentity`, for one).
    public init(application: String = "imwire", comment: String? = nil) {
        var options = ByteWriter()
        if let comment { Self.option(1, Array(comment.utf8.prefix(65_000)), into: &options) }
        Self.option(4, Array(application.utf8), into: &options)
        Self.option(0, [], into: &options)
        var body = ByteWriter()
        body.append(UInt32(0x1a2b_3c4d), .little)
        body.append(UInt16(1), .little)
        body.append(UInt16(0), .little)
        body.append(UInt64.max, .little)  // section length unspecified
        body.append(contentsOf: options.bytes)
        block(0x0a0d_0d0a, body.bytes)
    }

    private static func option(_ code: UInt16, _ value: [UInt8], into writer: inout ByteWriter) {
        writer.append(code, .little)
        writer.append(UInt16(value.count), .little)
        writer.append(contentsOf: value)
        writer.append(contentsOf: repeatElement(0, count: (4 - value.count % 4) % 4))
    }

    private mutating func block(_ type: UInt32, _ body: [UInt8]) {
        let total = UInt32(12 + body.count)
        var writer = ByteWriter(capacity: Int(total))
        writer.append(type, .little)
        writer.append(total, .little)
        writer.append(contentsOf: body)
        writer.append(total, .little)
        bytes += writer.bytes
    }

    /// A writer whose output continues a file already started by another writer with the same
    /// interfaces (no new section header): for writing a large capture in pieces.
    public static func continuation(linkTypes: [UInt32] = [101]) -> PcapngWriter {
        var writer = PcapngWriter()
        for linkType in linkTypes { _ = writer.interface(for: linkType) }
        writer.bytes.removeAll()
        return writer
    }

    /// The interface index for a link type, described on first use.
    private mutating func interface(for linkType: UInt32) -> UInt32 {
        if let index = interfaces[linkType] { return index }
        let index = UInt32(interfaces.count)
        interfaces[linkType] = index
        var body = ByteWriter()
        body.append(UInt16(truncatingIfNeeded: linkType), .little)
        body.append(UInt16(0), .little)
        body.append(UInt32(0), .little)  // no snaplen
        Self.option(9, [6], into: &body)  // if_tsresol: microseconds
        Self.option(0, [], into: &body)
        block(1, body.bytes)
        return index
    }

    /// Hands out the bytes written so far and forgets them: for writing a file as it grows.
    public mutating func takeBytes() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    /// Appends a Decryption Secrets Block (`DecryptionSecrets.tlsKeyLog`: key-log text).
    public mutating func secrets(_ data: [UInt8], type: UInt32 = DecryptionSecrets.tlsKeyLog) {
        var body = ByteWriter(capacity: 8 + data.count + 3)
        body.append(type, .little)
        body.append(UInt32(truncatingIfNeeded: data.count), .little)
        body.append(contentsOf: data)
        body.append(contentsOf: repeatElement(0, count: (4 - data.count % 4) % 4))
        block(Self.decryptionSecretsBlock, body.bytes)
    }
    static let decryptionSecretsBlock: UInt32 = 10
    private static let zeros = [UInt8](repeating: 0, count: 4096)

    /// Appends one packet. `inbound`: epb_flags direction (nil: not recorded). `origin`: where
    /// the packet lay in the capture a shard was cut from (`PacketOrigin`, a custom option).
    public mutating func packet(
        _ data: [UInt8], linkType: UInt32, time: Int64, originalLength: Int? = nil,
        inbound: Bool? = nil, comments: [String] = [], origin: PacketOrigin? = nil
    ) {
        data.withUnsafeBytes { data in
            packet(
                data, linkType: linkType, time: time, originalLength: originalLength, inbound: inbound,
                comments: comments, origin: origin)
        }
    }

    /// `packet(_:linkType:…)` of bytes lent in place (what `imwire shard` copies).
    package mutating func packet(
        _ data: UnsafeRawBufferPointer, linkType: UInt32, time: Int64, originalLength: Int?,
        inbound: Bool?, comments: [String], origin: PacketOrigin?
    ) {
        let id = interface(for: linkType)
        let micros = UInt64(bitPattern: max(0, time))
        let padding = (4 - data.count % 4) % 4
        // An option value is at most 65535 bytes.
        let commentValues = comments.map { Array($0.utf8.prefix(65_000)) }
        var optionsLength = commentValues.reduce(0) { $0 + 4 + ($1.count + 3) & ~3 }
        if inbound != nil { optionsLength += 8 }
        if origin != nil { optionsLength += 4 + PacketOrigin.optionLength }
        if optionsLength > 0 { optionsLength += 4 }
        let size = 32 + data.count + padding + optionsLength
        // Past 4 GiB the length field wraps (pcapng cannot say it); the buffer is still `size`.
        let total = UInt32(truncatingIfNeeded: size)
        // The block is sized at once and its fields stored in place (`bytes` left to grow
        // geometrically: reserving the exact size here would copy the whole buffer per packet): a
        // shard run writes every packet of a capture here, where appending field by field took
        // more time than the copy of the data.
        let start = bytes.count
        // Zeros from a page of them: `repeatElement` was appended a byte at a time.
        var zeroed = 0
        while zeroed < size {
            let step = min(size - zeroed, Self.zeros.count)
            bytes.append(contentsOf: Self.zeros[..<step])
            zeroed += step
        }
        bytes.withUnsafeMutableBytes { block in
            var at = start
            func store<Value: FixedWidthInteger>(_ value: Value) {
                block.storeBytes(of: value.littleEndian, toByteOffset: at, as: Value.self)
                at += MemoryLayout<Value>.size
            }
            func store(_ source: UnsafeRawBufferPointer) {
                if let base = source.baseAddress {
                    (block.baseAddress! + at).copyMemory(from: base, byteCount: source.count)
                }
                at += (source.count + 3) & ~3  // the padding is already zero
            }
            store(UInt32(6))
            store(total)
            store(id)
            store(UInt32(truncatingIfNeeded: micros >> 32))
            store(UInt32(truncatingIfNeeded: micros))
            store(UInt32(truncatingIfNeeded: data.count))
            store(UInt32(truncatingIfNeeded: originalLength ?? data.count))
            store(data)
            if optionsLength > 0 {
                for value in commentValues {
                    store(UInt32(value.count) << 16 | 1)
                    value.withUnsafeBytes { store($0) }
                }
                if let inbound {
                    store(UInt32(4) << 16 | 2)
                    store(UInt32(inbound ? 1 : 2))
                }
                if let origin {
                    store(UInt32(PacketOrigin.optionLength) << 16 | UInt32(PacketOrigin.optionCode))
                    store(UInt32(0))  // PEN 0: not a registered enterprise's option
                    store(UInt64(origin.number))
                    store(UInt64(origin.fileOffset))
                    store(UInt64(origin.dataOffset))
                }
                store(UInt32(0))  // opt_endofopt
            }
            store(total)
        }
    }
}
