import IMWireCore

/// The three containers zlib reads and writes around the same deflate data (RFC 1951).
public enum ZlibFormat: String, Sendable, Hashable, CaseIterable {
    /// Bare deflate blocks, no header or checksum; what permessage-deflate carries (RFC 7692 §7).
    case raw
    /// RFC 1950: 2-byte header, deflate data, Adler-32.
    case zlib
    /// RFC 1952: gzip member header, deflate data, CRC-32 and size.
    case gzip

    /// zlib's `windowBits` argument for this container: negative for raw, +16 for gzip.
    func zlibWindowBits(_ bits: Int) -> Int32 {
        switch self {
        case .raw: -Int32(bits)
        case .zlib: Int32(bits)
        case .gzip: Int32(bits) + 16
        }
    }
}

/// How much a deflater flushes after the input it was given.
public enum FlushMode: Sendable, Hashable {
    /// Keep data buffered for better compression.
    case none
    /// Emit everything and end on a byte boundary with an empty stored block (`00 00 ff ff`);
    /// the stream stays open. permessage-deflate ends every message this way.
    case sync
    /// Emit everything and end the stream (final block, trailer for zlib and gzip).
    case finish
}

/// Caps for one unit of decompression (a message, a file). Work stops as soon as either is
/// crossed, with at most one byte produced beyond the cap.
public struct InflateLimit: Sendable, Hashable {
    /// Most bytes of output.
    public var maxOutput: Int
    /// Most output bytes per input byte given so far (a decompression bomb is all ratio).
    public var maxRatio: Int

    public init(maxOutput: Int, maxRatio: Int) {
        self.maxOutput = max(0, maxOutput)
        self.maxRatio = max(1, maxRatio)
    }

    /// `Limits.maxDecompressedSize` and `Limits.maxExpansionRatio`.
    public init(_ limits: Limits) {
        self.init(maxOutput: limits.maxDecompressedSize, maxRatio: limits.maxExpansionRatio)
    }

    /// The output allowed after `input` bytes of input, and whether the size cap is the tighter one.
    func allowance(afterInput input: Int) -> (bytes: Int, bySize: Bool) {
        let (byRatio, overflow) = maxRatio.multipliedReportingOverflow(by: max(input, 1))
        if overflow || byRatio >= maxOutput { return (maxOutput, true) }
        return (byRatio, false)
    }
}

/// What one call to `Inflater.inflate` reached.
public enum InflateStatus: Sendable, Hashable {
    /// All input was consumed; the stream goes on.
    case needsInput
    /// The deflate stream ended; `unconsumed` input bytes follow it.
    case streamEnd(unconsumed: Int)
}
