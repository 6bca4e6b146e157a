import IMWireCore

/// Every rule the compression layer checks. IDs are stable; `Spec/rules.md` is generated from
/// `CompressionRules.all`.
package enum CompressionRules {
    package static let corruptData = Rule(
        "ZLIB.CORRUPT-DATA", .error, layer: .compression,
        summary: """
            Data that zlib rejects: invalid block type or code \
            lengths, distance too far back, bad checksum or header.
            """,
        specRef: "Spec/websocket.md#deflate-data")
    package static let outputLimit = Rule(
        "ZLIB.OUTPUT-LIMIT", .error, layer: .compression,
        summary: "Decompressed output larger than Limits.maxDecompressedSize; stopped as soon as crossed.",
        specRef: "Spec/websocket.md#decompression-limits (maxDecompressedSize)")
    package static let expansionRatio = Rule(
        "ZLIB.EXPANSION-RATIO", .error, layer: .compression,
        summary: "Decompressed output more than Limits.maxExpansionRatio times the input (a decompression bomb).",
        specRef: "Spec/websocket.md#decompression-limits (maxExpansionRatio)")
    package static let truncated = Rule(
        "ZLIB.TRUNCATED", .error, layer: .compression,
        summary: "The input ends before the compressed stream does.",
        specRef: "Spec/websocket.md#deflate-end")
    package static let trailingData = Rule(
        "ZLIB.TRAILING-DATA", .warning, layer: .compression,
        summary: "Bytes after the end of a zlib or gzip stream.",
        specRef: "Spec/websocket.md#deflate-end (trailing bytes)")
    package static let failure = Rule(
        "ZLIB.FAILURE", .error, layer: .compression,
        summary:
            "zlib could not run (bad parameter, out of memory, internal error); nothing was decided about the input.",
        specRef: "Spec/websocket.md#zlib-failure")

    package static let all: [Rule] = [corruptData, outputLimit, expansionRatio, truncated, trailingData, failure]
}
