import IMWireCore

/// Why compression or decompression stopped. Typed, so callers can tell a bomb from corrupt data.
public struct CompressionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why inflating or deflating stopped.
    public enum Code: String, Sendable, Hashable {
        /// The output would exceed `InflateLimit.maxOutput`.
        case outputLimitExceeded
        /// The output would exceed `InflateLimit.maxRatio` times the input.
        case expansionRatioExceeded
        /// zlib rejected the data (bad block type, distance too far back, checksum mismatch...).
        case corruptData
        /// The input ended before the stream did (only where an end is required).
        case truncated
        /// Bytes follow the end of the stream.
        case trailingData
        /// A parameter zlib refuses (window bits outside 8...15, level outside -1...9).
        case invalidParameter
        /// zlib could not allocate its state.
        case outOfMemory
        /// zlib returned something it should not (a bug here or in zlib).
        case internalError
    }

    public let code: Code
    public let reason: String
    /// Input bytes consumed (in the current unit) when the error was detected, when known.
    public let inputOffset: Int?
    /// Output bytes produced in the current unit when the error was detected.
    public let produced: Int

    package init(_ code: Code, _ reason: String, inputOffset: Int? = nil, produced: Int = 0) {
        self.code = code
        self.reason = reason
        self.inputOffset = inputOffset
        self.produced = produced
    }

    public var description: String {
        var text = "\(code.rawValue): \(reason)"
        if let inputOffset { text += " (input offset \(inputOffset))" }
        return text
    }

    /// The rule this error violates.
    package var rule: Rule {
        switch code {
        case .outputLimitExceeded: CompressionRules.outputLimit
        case .expansionRatioExceeded: CompressionRules.expansionRatio
        case .corruptData: CompressionRules.corruptData
        case .truncated: CompressionRules.truncated
        case .trailingData: CompressionRules.trailingData
        case .invalidParameter, .outOfMemory, .internalError: CompressionRules.failure
        }
    }

    /// A finding for this error; `baseOffset` is where the compressed input starts.
    package func finding(baseOffset: Int = 0) -> Finding {
        rule.finding(reason, at: baseOffset + (inputOffset ?? 0))
    }
}
