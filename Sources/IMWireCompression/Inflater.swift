import CZlib
import IMWireCore

/// A streaming zlib inflater (raw deflate, zlib or gzip) with output caps.
///
/// One `Inflater` is one decompression context. Feed it input in as many pieces as you like;
/// `beginUnit()` restarts the size and ratio accounting (e.g. per WebSocket message) without
/// touching the sliding window, `reset()` also forgets the window (no context takeover).
///
/// A value type with copy-on-write, and `Sendable`: it can live in a connection's state and
/// move to the task that reads the connection. A copy is an independent context from the
/// moment it is taken (the first change to a shared stream copies it with `inflateCopy`, a
/// window's worth of memory), so keep one value per stream and change it in place (`var`,
/// `inout`) rather than copying it back and forth.
public struct Inflater: Sendable {
    /// The container read: raw deflate, zlib or gzip.
    public let format: ZlibFormat
    /// The window given to `init` (8...15).
    public let windowBits: Int
    private var storage: ZStreamStorage
    /// Input given since `beginUnit()`.
    public private(set) var unitInput = 0
    /// Output produced since `beginUnit()`.
    public private(set) var unitOutput = 0
    /// Set once the stream has ended (zlib and gzip); further input is trailing data.
    public private(set) var isFinished = false

    /// - Parameters:
    ///   - format: raw deflate, zlib or gzip framing.
    ///   - windowBits: 8...15. Raw inflate accepts 8; zlib and gzip read the window from their
    ///     header and only need it to be at least as large.
    public init(format: ZlibFormat, windowBits: Int = 15) throws(IMWireError) {
        guard (8...15).contains(windowBits) else {
            throw IMWireError.compression(.compressionInvalidParameter, "window bits \(windowBits) outside 8...15")
        }
        self.format = format
        self.windowBits = windowBits
        var status: Int32 = Z_OK
        guard
            let storage = ZStreamStorage.make(
                .inflate, status: &status, { CZlib_inflateInit2($0, format.zlibWindowBits(windowBits)) })
        else {
            throw IMWireError.compression(
                status == Z_MEM_ERROR ? .compressionOutOfMemory : .compressionInvalidParameter,
                "inflateInit2 returned \(status)")
        }
        self.storage = storage
    }

    /// The stream, copied first when another value shares it (copy on write).
    private mutating func uniqueStream() -> UnsafeMutablePointer<z_stream> {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage.stream
    }

    /// Starts a new unit for the caps; the sliding window (context takeover) is kept.
    public mutating func beginUnit() {
        unitInput = 0
        unitOutput = 0
    }

    /// Forgets the sliding window and any partial stream, and starts a new unit.
    public mutating func reset() {
        inflateReset(uniqueStream())
        isFinished = false
        beginUnit()
    }

    /// Inflates `input`, appending to `output`. Stops with a typed error as soon as the output
    /// of the current unit crosses `limit` (at most one byte beyond it is produced).
    @discardableResult
    public mutating func inflate(
        _ input: UnsafeRawBufferPointer, into output: inout [UInt8], limit: InflateLimit
    ) throws(IMWireError) -> InflateStatus {
        if isFinished {
            if input.isEmpty { return .streamEnd(unconsumed: 0) }
            throw IMWireError.compression(
                .compressionTrailingData, "\(input.count) bytes after the end of the stream", inputOffset: unitInput,
                produced: unitOutput)
        }
        let unitInputBefore = unitInput
        let unitOutputBefore = unitOutput
        unitInput += input.count
        let (allowance, bySize) = limit.allowance(afterInput: unitInput)
        guard let base = input.baseAddress, !input.isEmpty else { return .needsInput }
        let stream = uniqueStream()
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        defer {
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
        }
        while true {
            // Room for the next step: never more than one byte past the allowance (which may be
            // Int.max, so the +1 saturates). zlib writes into a scratch buffer, and only what it
            // produced is appended: sizing the room by the output so far made every small piece of
            // a large message zero-fill and trim half of it again (quadratic over a message).
            // The first step of a call gets a small scratch, which stays on the stack (most
            // messages are short); only output that fills it gets the large one, on the heap.
            let headroom = allowance - unitOutput
            let scratchSize = unitOutput == unitOutputBefore ? Self.firstScratchSize : Self.scratchSize
            let room = min(scratchSize, headroom < Int.max ? headroom + 1 : headroom)
            guard room > 0 else { break }
            let status: Int32 = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: scratchSize) { scratch in
                stream.pointee.next_out = scratch.baseAddress
                stream.pointee.avail_out = uInt(room)
                let status = CZlib.inflate(stream, Z_NO_FLUSH)
                let produced = room - Int(stream.pointee.avail_out)
                Self.reserve(&output, for: produced)
                output.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<produced]))
                return status
            }
            let unused = Int(stream.pointee.avail_out)
            unitOutput += room - unused
            stream.pointee.next_out = nil
            stream.pointee.avail_out = 0
            let consumed = unitInputBefore + input.count - Int(stream.pointee.avail_in)
            if unitOutput > allowance {
                throw bySize
                    ? IMWireError.compression(
                        .compressionOutputLimit, "output passed the cap of \(limit.maxOutput) bytes",
                        inputOffset: consumed, produced: unitOutput)
                    : IMWireError.compression(
                        .compressionExpansionRatio, "output passed \(limit.maxRatio)x the \(unitInput) input bytes",
                        inputOffset: consumed,
                        produced: unitOutput)
            }
            switch status {
            case Z_STREAM_END:
                isFinished = true
                return .streamEnd(unconsumed: Int(stream.pointee.avail_in))
            case Z_OK, Z_BUF_ERROR:
                // Input exhausted and zlib did not fill the room: it has nothing more to give.
                if stream.pointee.avail_in == 0, unused > 0 { return .needsInput }
                if status == Z_BUF_ERROR, unused > 0 {
                    throw IMWireError.compression(
                        .compressionInternal, "inflate made no progress", inputOffset: consumed, produced: unitOutput)
                }
            case Z_DATA_ERROR:
                throw IMWireError.compression(
                    .compressionCorruptData, Self.message(stream) ?? "invalid deflate data", inputOffset: consumed,
                    produced: unitOutput)
            case Z_NEED_DICT:
                throw IMWireError.compression(
                    .compressionCorruptData, "the stream needs a preset dictionary", inputOffset: consumed,
                    produced: unitOutput)
            case Z_MEM_ERROR:
                throw IMWireError.compression(
                    .compressionOutOfMemory, "inflate ran out of memory", inputOffset: consumed, produced: unitOutput)
            default:
                throw IMWireError.compression(
                    .compressionInternal, "inflate returned \(status)", inputOffset: consumed, produced: unitOutput)
            }
        }
        // Only reached with an allowance already used up and output still pending.
        let consumed = unitInputBefore + input.count - Int(stream.pointee.avail_in)
        throw bySize
            ? IMWireError.compression(
                .compressionOutputLimit, "output reached the cap of \(limit.maxOutput) bytes", inputOffset: consumed,
                produced: unitOutput)
            : IMWireError.compression(
                .compressionExpansionRatio, "output reached \(limit.maxRatio)x the input", inputOffset: consumed,
                produced: unitOutput)
    }

    /// Inflates `input`, appending to `output` (see the `UnsafeRawBufferPointer` form).
    @discardableResult
    public mutating func inflate(_ input: [UInt8], into output: inout [UInt8], limit: InflateLimit)
        throws(IMWireError) -> InflateStatus
    {
        try input.withUnsafeBytes { raw in
            Result { () throws(IMWireError) in try inflate(raw, into: &output, limit: limit) }
        }.get()
    }

    /// Output produced per zlib call: the first call of an `inflate` writes at most
    /// `firstScratchSize` bytes, which `withUnsafeTemporaryAllocation` keeps on the stack (it
    /// takes the heap above 1 KiB); the next ones up to `scratchSize`.
    static let firstScratchSize = 1 << 10
    static let scratchSize = 32 << 10

    /// Grows `output` to the next power of two when `extra` more bytes do not fit. Appending a
    /// first piece of 1 KiB and then pieces of 32 KiB would grow it to 33 KiB, 66 KiB, …
    /// instead, which takes more memory at the peak than powers of two.
    static func reserve(_ output: inout [UInt8], for extra: Int) {
        let needed = output.count + extra
        guard needed > output.capacity else { return }
        output.reserveCapacity(1 << (Int.bitWidth - (needed - 1).leadingZeroBitCount))
    }

    static func message(_ stream: UnsafeMutablePointer<z_stream>) -> String? {
        stream.pointee.msg.map { String(cString: $0) }
    }
}
