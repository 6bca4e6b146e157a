import IMWireCompression
import IMWireCore

enum CompressionFuzzing {
    /// zlib inflate with caps. Variant: raw, zlib, gzip, or raw with the permessage-deflate
    /// trailer appended. Extra bits 0-1: window bits 15, 8, 9 or 12; bits 2-3: the ratio cap
    /// (`Limits.maxExpansionRatio`, 2, 16 or 256). Tight limits make the output cap 1024 bytes.
    ///
    /// Invariants: output never passes the cap by more than one byte, nor the ratio cap times the
    /// input given so far; fed in pieces, the output is a prefix of the one-shot output and the
    /// same unless a cap stopped it (the ratio is judged on the input given so far); what inflates
    /// completely deflates and inflates back to the same bytes, in one piece and sync-flushed in
    /// pieces; `Zlib.decompress` agrees with the streaming inflater.
    static func inflate(_ input: FuzzInput) -> [String] {
        let format: ZlibFormat = [.raw, .zlib, .gzip, .raw][input.variant]
        let windowBits = [15, 8, 9, 12][input.extra & 3]
        let ratio = [input.limits.maxExpansionRatio, 2, 16, 256][input.extra >> 2 & 3]
        let limit = InflateLimit(maxOutput: input.limits.maxDecompressedSize, maxRatio: ratio)
        let data = input.variant == 3 ? input.payload + [0x00, 0x00, 0xff, 0xff] : input.payload
        var violations: [String] = []

        let whole = run(format, windowBits, limit, [data[...]], &violations)
        let chunks = input.variant == 3 ? FuzzInput.chunks(data) : input.chunks
        let pieces = run(format, windowBits, limit, chunks, &violations)
        guard let whole, let pieces else { return violations }

        if !whole.output.starts(with: pieces.output), !pieces.output.starts(with: whole.output) {
            violations.append("chunked output is not a prefix of the one-shot output")
        }
        switch (whole.error?.code, pieces.error?.code) {
        case (_, .compressionCorruptData?)
        where windowBits < 15 && pieces.error?.reason.contains("too far back") == true
            && whole.output.starts(with: pieces.output):
            // zlib accepts a distance past a small window when the bytes it reaches are in the
            // same call's output: one call sees them and goes on (to success or a later error),
            // pieces do not.
            break
        case (nil, nil), (.compressionCorruptData?, .compressionCorruptData?),
            (.compressionOutputLimit?, .compressionOutputLimit?):
            if whole.output != pieces.output {
                violations.append("chunked output differs: \(pieces.output.count) vs \(whole.output.count) bytes")
            }
        case (nil, .compressionTrailingData?):
            // the stream ended inside an earlier piece; the next piece is trailing data
            if case .streamEnd(let unconsumed) = whole.status, unconsumed > 0, whole.output == pieces.output { break }
            violations.append("chunked input reports trailing data, one-shot \(whole.status)")
        case (_, .compressionExpansionRatio?):
            break  // pieces can trip the ratio before the rest of the input arrives
        default:
            violations.append(
                """
                one-shot ends in \(whole.error.map { "\($0.code)" } ?? "success"), \
                chunked in \(pieces.error.map { "\($0.code)" } ?? "success")
                """)
        }
        // Zlib.decompress: the same inflater in one call, plus the end-of-stream rules.
        let oneShot = Result { () throws(IMWireError) in
            try Zlib.decompress(data, format: format, windowBits: windowBits, limit: limit)
        }
        switch (whole.error, whole.status, oneShot) {
        case (let error?, _, .failure(let other)) where error.code == other.code: break
        case (nil, .streamEnd(let unconsumed), .failure(let other))
        where unconsumed > 0 && other.code == .compressionTrailingData:
            break
        case (nil, .streamEnd(0), .success(let bytes)) where bytes == whole.output: break
        case (nil, .needsInput, .success(let bytes)) where format == .raw && bytes == whole.output: break
        case (nil, .needsInput, .failure(let other)) where format != .raw && other.code == .compressionTruncated: break
        default:
            violations.append(
                """
                Zlib.decompress disagrees with the inflater (\(whole.status), \
                \(whole.error.map(\.description) ?? "no error"))
                """)
        }
        if whole.error == nil { violations += roundTrip(whole.output, format: format, windowBits: windowBits) }
        return violations
    }

    private struct Run {
        var output: [UInt8] = []
        var status: InflateStatus = .needsInput
        var error: IMWireError?
    }

    /// Feeds `chunks` to one inflater, checking the caps after every call; nil if it cannot start.
    private static func run(
        _ format: ZlibFormat, _ windowBits: Int, _ limit: InflateLimit, _ chunks: [ArraySlice<UInt8>],
        _ violations: inout [String]
    ) -> Run? {
        var inflater: Inflater
        do { inflater = try Inflater(format: format, windowBits: windowBits) } catch {
            violations.append("no inflater for \(format) with \(windowBits) bits: \(error)")
            return nil
        }
        var result = Run()
        var given = 0
        for chunk in chunks {
            given += chunk.count
            do {
                result.status = try inflater.inflate(Array(chunk), into: &result.output, limit: limit)
            } catch {
                result.error = error
            }
            let produced = result.output.count
            if produced != inflater.unitOutput {
                violations.append("output \(produced) bytes, inflater counts \(inflater.unitOutput)")
            }
            if produced > limit.maxOutput + 1 {
                violations.append("output \(produced) bytes passes the cap \(limit.maxOutput) by more than one")
            }
            let (byRatio, overflow) = limit.maxRatio.multipliedReportingOverflow(by: max(given, 1))
            if !overflow, produced > byRatio + 1 {
                violations.append("output \(produced) bytes passes \(limit.maxRatio)x \(given) input bytes")
            }
            if result.error == nil, produced > limit.maxOutput || (!overflow && produced > byRatio) {
                violations.append("output \(produced) bytes over a cap without an error")
            }
            if let error = result.error {
                if error.producedBytes != produced {
                    violations.append("error says \(error.producedBytes ?? -1) bytes produced, \(produced) were")
                }
                break
            }
        }
        return result
    }

    /// Bytes deflate and inflate back: in one piece with the stream finished, and sync-flushed
    /// in pieces as permessage-deflate does.
    private static func roundTrip(_ bytes: [UInt8], format: ZlibFormat, windowBits: Int) -> [String] {
        let unlimited = InflateLimit(maxOutput: .max, maxRatio: .max)
        guard let packed = try? Zlib.compress(bytes, format: format, windowBits: windowBits) else {
            return ["\(bytes.count) bytes do not compress"]
        }
        // zlib and gzip headers carry the window the deflater really used (8 becomes 9).
        let inflateBits = format == .raw ? windowBits : max(windowBits, 9)
        guard (try? Zlib.decompress(packed, format: format, windowBits: inflateBits, limit: unlimited)) == bytes else {
            return ["\(bytes.count) bytes do not survive \(format) compression"]
        }
        guard var deflater = try? Deflater(format: .raw, windowBits: windowBits),
            var inflater = try? Inflater(format: .raw, windowBits: windowBits)
        else { return ["no raw deflater"] }
        var out: [UInt8] = []
        var start = 0
        var size = 1
        while start < bytes.count || start == 0 {
            let end = min(bytes.count, start + size)
            var compressed: [UInt8] = []
            do {
                try deflater.deflate(Array(bytes[start..<end]), flush: .sync, into: &compressed)
                inflater.beginUnit()
                _ = try inflater.inflate(compressed, into: &out, limit: unlimited)
            } catch {
                return ["sync-flushed pieces fail: \(error)"]
            }
            if end == bytes.count { break }
            start = end
            size = size * 3 + 1
        }
        return out == bytes ? [] : ["sync-flushed pieces inflate to other bytes"]
    }
}
