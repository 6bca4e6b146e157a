import CZlib
import IMWireCore

/// A streaming zlib deflater (raw deflate, zlib or gzip).
///
/// A value type with copy-on-write, and `Sendable`: it can live in a connection's state and
/// move to the task that writes the connection. A copy is an independent compressor from the
/// moment it is taken (the first change to a shared stream copies it with `deflateCopy`, some
/// hundred KiB at the default memory level), so keep one value per stream and change it in
/// place (`var`, `inout`) rather than copying it back and forth.
public struct Deflater: Sendable {
    /// The container written: raw deflate, zlib or gzip.
    public let format: ZlibFormat
    /// The window the compressor really uses (8 is raised to 9, see `init`).
    public let windowBits: Int
    /// The compression level given to `init`: -1 (zlib's default, 6) or 0...9.
    public let level: Int
    private var storage: ZStreamStorage

    /// - Parameters:
    ///   - format: raw deflate, zlib or gzip framing.
    ///   - level: -1 (zlib's default, 6) or 0...9.
    ///   - windowBits: 8...15. zlib (>= 1.2.9) refuses raw deflate with 8, so 8 becomes 9: a
    ///     9-bit zlib window never emits a distance above 512 - 262 = 250 bytes, which a peer
    ///     limited to 256 bytes of window can still inflate (zlib does the same for its wrapper).
    ///   - memoryLevel: 1...9 (zlib default 8).
    public init(format: ZlibFormat, level: Int = -1, windowBits: Int = 15, memoryLevel: Int = 8)
        throws(IMWireError)
    {
        guard (8...15).contains(windowBits) else {
            throw IMWireError.compression(.compressionInvalidParameter, "window bits \(windowBits) outside 8...15")
        }
        guard (-1...9).contains(level) else {
            throw IMWireError.compression(.compressionInvalidParameter, "level \(level) outside -1...9")
        }
        guard (1...9).contains(memoryLevel) else {
            throw IMWireError.compression(.compressionInvalidParameter, "memory level \(memoryLevel) outside 1...9")
        }
        let bits = max(windowBits, 9)
        self.format = format
        self.windowBits = bits
        self.level = level
        var status: Int32 = Z_OK
        let storage = ZStreamStorage.make(.deflate, status: &status) { stream in
            CZlib_deflateInit2(
                stream, Int32(level), format.zlibWindowBits(bits), Int32(memoryLevel), Z_DEFAULT_STRATEGY)
        }
        guard let storage else {
            throw IMWireError.compression(
                status == Z_MEM_ERROR ? .compressionOutOfMemory : .compressionInvalidParameter,
                "deflateInit2 returned \(status)")
        }
        self.storage = storage
    }

    /// The stream, copied first when another value shares it (copy on write).
    private mutating func uniqueStream() -> UnsafeMutablePointer<z_stream> {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage.stream
    }

    /// Forgets the sliding window and starts a new stream (no context takeover).
    public mutating func reset() { deflateReset(uniqueStream()) }

    /// Compresses `input`, appending what zlib emits to `output`.
    public mutating func deflate(_ input: UnsafeRawBufferPointer, flush: FlushMode, into output: inout [UInt8])
        throws(IMWireError)
    {
        let zflush: Int32
        switch flush {
        case .none: zflush = Z_NO_FLUSH
        case .sync: zflush = Z_SYNC_FLUSH
        case .finish: zflush = Z_FINISH
        }
        let stream = uniqueStream()
        stream.pointee.next_in = input.baseAddress.map {
            UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self))
        }
        stream.pointee.avail_in = uInt(input.count)
        defer {
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
        }
        while true {
            // zlib writes into a scratch buffer and only what it emitted is appended (no zero-fill
            // and trim of the room).
            let room = Inflater.scratchSize
            let status: Int32 = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { scratch in
                stream.pointee.next_out = scratch.baseAddress
                stream.pointee.avail_out = uInt(room)
                let status = CZlib.deflate(stream, zflush)
                output.append(
                    contentsOf: UnsafeBufferPointer(rebasing: scratch[..<(room - Int(stream.pointee.avail_out))]))
                return status
            }
            let unused = Int(stream.pointee.avail_out)
            stream.pointee.next_out = nil
            stream.pointee.avail_out = 0
            switch status {
            case Z_STREAM_END:
                return
            case Z_OK, Z_BUF_ERROR:
                // Done when the input is used up and zlib had room to spare (nothing pending).
                if stream.pointee.avail_in == 0, unused > 0 { return }
            default:
                throw IMWireError.compression(.compressionInternal, "deflate returned \(status)")
            }
        }
    }

    /// Compresses `input`, appending what zlib emits to `output`.
    public mutating func deflate(_ input: [UInt8], flush: FlushMode, into output: inout [UInt8])
        throws(IMWireError)
    {
        try input.withUnsafeBytes { raw in
            Result { () throws(IMWireError) in try deflate(raw, flush: flush, into: &output) }
        }.get()
    }
}

/// One-shot helpers over `Inflater` and `Deflater`.
public enum Zlib {
    /// The version string of the zlib linked at run time.
    public static var version: String { String(cString: zlibVersion()) }

    /// Compresses a whole buffer and ends the stream.
    public static func compress(_ input: [UInt8], format: ZlibFormat, level: Int = -1, windowBits: Int = 15)
        throws(IMWireError) -> [UInt8]
    {
        var deflater = try Deflater(format: format, level: level, windowBits: windowBits)
        var out: [UInt8] = []
        try deflater.deflate(input, flush: .finish, into: &out)
        return out
    }

    /// Decompresses a whole stream. For zlib and gzip the stream must end, and nothing may follow
    /// it; raw deflate may end without a final block (as permessage-deflate messages do).
    public static func decompress(_ input: [UInt8], format: ZlibFormat, windowBits: Int = 15, limit: InflateLimit)
        throws(IMWireError) -> [UInt8]
    {
        var inflater = try Inflater(format: format, windowBits: windowBits)
        var out: [UInt8] = []
        let status = try inflater.inflate(input, into: &out, limit: limit)
        switch status {
        case .streamEnd(let unconsumed) where unconsumed > 0:
            throw IMWireError.compression(
                .compressionTrailingData, "\(unconsumed) bytes after the end of the stream",
                inputOffset: input.count - unconsumed,
                produced: out.count)
        case .needsInput where format != .raw:
            throw IMWireError.compression(
                .compressionTruncated, "the input ends before the \(format.rawValue) stream does",
                inputOffset: input.count,
                produced: out.count)
        default:
            return out
        }
    }
}
