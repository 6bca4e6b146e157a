import IMWireCore

extension IMWireError.Code {
    /// Inflating stopped: the output would pass `InflateLimit.maxOutput`.
    public static let compressionOutputLimit = Self("compression.output-limit")
    /// Inflating stopped: the output would pass `InflateLimit.maxRatio` times the input.
    public static let compressionExpansionRatio = Self("compression.expansion-ratio")
    /// zlib rejected the data (bad block type, distance too far back, checksum mismatch...).
    public static let compressionCorruptData = Self("compression.corrupt-data")
    /// The input ended before the stream did (only where an end is required).
    public static let compressionTruncated = Self("compression.truncated")
    /// Bytes follow the end of the stream.
    public static let compressionTrailingData = Self("compression.trailing-data")
    /// A parameter zlib refuses (window bits outside 8...15, level outside -1...9).
    public static let compressionInvalidParameter = Self("compression.invalid-parameter")
    /// zlib could not allocate its state.
    public static let compressionOutOfMemory = Self("compression.out-of-memory")
    /// zlib returned something it should not (a bug here or in zlib).
    public static let compressionInternal = Self("compression.internal")
}

extension IMWireError {
    /// Why compression or decompression stopped, typed so a caller tells a bomb from corrupt
    /// data: `offset` is the input bytes consumed (in the current unit) when it was detected,
    /// when known; `produced` the output bytes produced in the unit by then.
    package static func compression(_ code: Code, _ reason: String, inputOffset: Int? = nil, produced: Int = 0)
        -> IMWireError
    {
        IMWireError(code, reason, summary: code.rawValue, offset: inputOffset, number: produced)
    }

    /// For an error of `Inflater`, `Deflater` or `Zlib`: the output bytes produced in the
    /// current unit when it was detected (0 for a parameter refused). Nil for other errors.
    public var producedBytes: Int? { code.rawValue.hasPrefix("compression.") ? number : nil }

    /// The rule a compression error violates.
    package var compressionRule: Rule {
        switch code {
        case .compressionOutputLimit: CompressionRules.outputLimit
        case .compressionExpansionRatio: CompressionRules.expansionRatio
        case .compressionCorruptData: CompressionRules.corruptData
        case .compressionTruncated: CompressionRules.truncated
        case .compressionTrailingData: CompressionRules.trailingData
        default: CompressionRules.failure
        }
    }

    /// A finding for a compression error; `baseOffset` is where the compressed input starts.
    package func compressionFinding(baseOffset: Int = 0) -> Finding {
        compressionRule.finding(reason, at: baseOffset + (offset ?? 0))
    }
}
