import IMWireCore
import IMWireIO

/// What the first pass of `CaptureSharder` learned of each packet, for the second: one 32-bit
/// entry per packet, in a scratch file (so memory stays flat at any capture size), holding the
/// packet's client unit plus one (0: no TCP segment to place) and, in the top bit, whether it is
/// a client SYN. The second pass places every packet from its entry without parsing it again,
/// and each of its threads passes over the packets of the other threads' shards unread.
final class PacketPlaces: @unchecked Sendable {
    private static let opensBit: UInt32 = 1 << 31
    private static let chunk = 1 << 20
    private let file: ScratchFile
    private var buffer: [UInt8] = []
    private var written = 0

    init() throws(IMWireError) {
        guard let file = ScratchFile(name: "shard-places") else {
            throw IMWireError(.captureFormat, "no scratch file could be made in $TMPDIR (or /tmp) for imwire shard")
        }
        self.file = file
        buffer.reserveCapacity(Self.chunk)
    }

    /// Notes the next packet's unit (nil: none) and whether it opens a connection.
    func append(unit: Int?, opens: Bool) throws(IMWireError) {
        var entry = UInt32(truncatingIfNeeded: unit.map { $0 + 1 } ?? 0)
        if opens { entry |= Self.opensBit }
        withUnsafeBytes(of: entry.littleEndian) { buffer.append(contentsOf: $0) }
        if buffer.count >= Self.chunk { try flush() }
    }

    /// Writes what is noted; call once the pass is over, before reading.
    func flush() throws(IMWireError) {
        guard !buffer.isEmpty else { return }
        guard file.write(buffer, at: written) else {
            throw IMWireError(.captureFormat, "the scratch file of imwire shard cannot be written (disk full?)")
        }
        written += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// The entries from the first, read a chunk at a time (one reader per thread).
    func reader() -> Reader { Reader(file: file, count: written) }

    final class Reader {
        private let file: ScratchFile
        private let count: Int
        private var chunk: [UInt8] = []
        private var chunkStart = 0
        private var position = 0

        fileprivate init(file: ScratchFile, count: Int) {
            self.file = file
            self.count = count
        }

        /// The next packet's unit (nil: none) and whether it opens a connection; a packet past
        /// the entries written (a capture that grew between the passes) has none.
        func next() -> (unit: Int?, opens: Bool) {
            guard position < count else { return (nil, false) }
            if position - chunkStart >= chunk.count {
                chunkStart = position
                chunk = file.bytes(at: position, count: min(PacketPlaces.chunk, count - position))
            }
            let entry = chunk.withUnsafeBytes {
                UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: position - chunkStart, as: UInt32.self))
            }
            position += 4
            let unit = Int(entry & ~PacketPlaces.opensBit)
            return (unit == 0 ? nil : unit - 1, entry & PacketPlaces.opensBit != 0)
        }
    }
}
