import IMWireCompression
import IMWireCore
import Testing

/// Deterministic, compressible sample text: words picked by a fixed LCG (no randomness in tests).
func sampleText(_ count: Int) -> [UInt8] {
    let words = ["the ", "quick ", "brown ", "fox ", "jumps ", "over ", "lazy ", "dog ", "0123 ", "websocket "].map {
        Array($0.utf8)
    }
    var state: UInt32 = 12345
    var out: [UInt8] = []
    while out.count < count {
        state = state &* 1_103_515_245 &+ 12345
        out += words[Int(state >> 16) % words.count]
    }
    return Array(out.prefix(count))
}

let generous = InflateLimit(maxOutput: 1 << 26, maxRatio: 1 << 20)

@Suite struct RoundTrips {
    @Test(arguments: ZlibFormat.allCases)
    func compressThenDecompress(format: ZlibFormat) throws {
        let input = sampleText(50_000)
        let compressed = try Zlib.compress(input, format: format)
        #expect(compressed.count < input.count / 2)
        let output = try Zlib.decompress(compressed, format: format, limit: generous)
        #expect(output == input)
    }

    @Test func knownZlibVector() throws {
        // zlib.compress(b"hello") in CPython 3.11 (level 6): 78 9c cb 48 cd c9 c9 07 00 06 2c 02 15
        let compressed: [UInt8] = [0x78, 0x9c, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00, 0x06, 0x2c, 0x02, 0x15]
        #expect(try Zlib.decompress(compressed, format: .zlib, limit: generous) == Array("hello".utf8))
        #expect(try Zlib.compress(Array("hello".utf8), format: .zlib) == compressed)
    }

    @Test func gzipHeaderIsWritten() throws {
        let compressed = try Zlib.compress(Array("hi".utf8), format: .gzip)
        #expect(Array(compressed.prefix(3)) == [0x1f, 0x8b, 0x08])
    }

    @Test func syncFlushEndsWithEmptyStoredBlock() throws {
        var deflater = try Deflater(format: .raw)
        var out: [UInt8] = []
        try deflater.deflate(Array("Hello".utf8), flush: .sync, into: &out)
        // RFC 7692 §7.2.3.1: "Hello" compressed then sync-flushed.
        #expect(Hex.encode(out) == "f248cdc9c90700" + "0000ffff")
    }

    @Test func streamingInOneBytePiecesGivesTheSameOutput() throws {
        let input = sampleText(5000)
        let compressed = try Zlib.compress(input, format: .raw)
        var inflater = try Inflater(format: .raw)
        var out: [UInt8] = []
        for byte in compressed { _ = try inflater.inflate([byte], into: &out, limit: generous) }
        #expect(out == input)
        #expect(inflater.isFinished)
    }
}

@Suite struct ContextTakeover {
    /// Two messages compressed with a shared window: the second refers back into the first.
    func twoMessages(reset: Bool) throws -> ([UInt8], [UInt8]) {
        var deflater = try Deflater(format: .raw)
        let text = sampleText(2000)
        var first: [UInt8] = []
        try deflater.deflate(text, flush: .sync, into: &first)
        if reset { deflater.reset() }
        var second: [UInt8] = []
        try deflater.deflate(text, flush: .sync, into: &second)
        return (first, second)
    }

    @Test func keptWindowMakesTheSecondMessageSmallAndNeedsTheFirst() throws {
        let (first, second) = try twoMessages(reset: false)
        #expect(second.count < first.count / 4)
        var shared = try Inflater(format: .raw)
        var out: [UInt8] = []
        _ = try shared.inflate(first, into: &out, limit: generous)
        out.removeAll()
        _ = try shared.inflate(second, into: &out, limit: generous)
        #expect(out == sampleText(2000))
        // A fresh inflater has no window to refer back into.
        var fresh = try Inflater(format: .raw)
        var other: [UInt8] = []
        #expect(throws: IMWireError.self) { try fresh.inflate(second, into: &other, limit: generous) }
    }

    @Test func resetWindowMakesMessagesIndependent() throws {
        let (first, second) = try twoMessages(reset: true)
        #expect(first == second)
        var inflater = try Inflater(format: .raw)
        var out: [UInt8] = []
        _ = try inflater.inflate(second, into: &out, limit: generous)
        #expect(out == sampleText(2000))
    }
}

@Suite struct Caps {
    @Test func outputCapStopsAssoonAsCrossed() throws {
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        let bomb = try Zlib.compress(zeros, format: .raw, level: 9)
        let limit = InflateLimit(maxOutput: 10_000, maxRatio: 1 << 20)
        do {
            _ = try Zlib.decompress(bomb, format: .raw, limit: limit)
            Issue.record("a 1 MiB bomb passed a 10 kB cap")
        } catch {
            #expect(error.code == .compressionOutputLimit)
            #expect(error.producedBytes == 10_001)
            #expect(error.compressionRule.id == "ZLIB.OUTPUT-LIMIT")
        }
    }

    @Test func ratioCapCatchesABomb() throws {
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        let bomb = try Zlib.compress(zeros, format: .zlib, level: 9)
        let limit = InflateLimit(maxOutput: 1 << 30, maxRatio: 100)
        do {
            _ = try Zlib.decompress(bomb, format: .zlib, limit: limit)
            Issue.record("a 1000:1 bomb passed a 100:1 cap")
        } catch {
            #expect(error.code == .compressionExpansionRatio)
            #expect(error.producedBytes == 100 * bomb.count + 1)
        }
    }

    @Test func unboundedLimitsDoNotOverflow() throws {
        let input = sampleText(3000)
        let compressed = try Zlib.compress(input, format: .raw)
        #expect(
            try Zlib.decompress(compressed, format: .raw, limit: InflateLimit(maxOutput: .max, maxRatio: .max)) == input
        )
    }

    @Test func limitsDefaultsAreUsed() {
        let limit = InflateLimit(Limits(maxDecompressedSize: 123, maxExpansionRatio: 7))
        #expect(limit.maxOutput == 123)
        #expect(limit.maxRatio == 7)
    }
}

@Suite struct BadInput {
    @Test func corruptDataIsTyped() throws {
        // Block type 3 (reserved) in the first byte: BFINAL=1, BTYPE=11.
        do {
            _ = try Zlib.decompress([0x07, 0x00], format: .raw, limit: generous)
            Issue.record("reserved block type accepted")
        } catch {
            #expect(error.code == .compressionCorruptData)
            #expect(error.compressionRule.id == "ZLIB.CORRUPT-DATA")
        }
    }

    @Test func truncatedZlibStream() throws {
        let compressed = try Zlib.compress(sampleText(1000), format: .zlib)
        do {
            _ = try Zlib.decompress(Array(compressed.dropLast(3)), format: .zlib, limit: generous)
            Issue.record("truncated stream accepted")
        } catch {
            #expect(error.code == .compressionTruncated)
        }
    }

    @Test func trailingDataAfterZlibStream() throws {
        let compressed = try Zlib.compress(sampleText(100), format: .zlib) + [1, 2, 3]
        do {
            _ = try Zlib.decompress(compressed, format: .zlib, limit: generous)
            Issue.record("trailing data accepted")
        } catch {
            #expect(error.code == .compressionTrailingData)
            #expect(error.offset == compressed.count - 3)
        }
    }

    @Test func badChecksum() throws {
        var compressed = try Zlib.compress(sampleText(100), format: .gzip)
        compressed[compressed.count - 6] ^= 0xff
        #expect {
            try Zlib.decompress(compressed, format: .gzip, limit: generous)
        } throws: { ($0 as? IMWireError)?.code == .compressionCorruptData }
    }

    @Test func windowBitsOutOfRange() {
        #expect(
            throws: IMWireError.compression(.compressionInvalidParameter, "window bits 7 outside 8...15")
        ) { try Inflater(format: .raw, windowBits: 7) }
        #expect(
            throws: IMWireError.compression(.compressionInvalidParameter, "window bits 16 outside 8...15")
        ) { try Deflater(format: .raw, windowBits: 16) }
    }

    @Test func windowBitsEightIsRaisedForCompressionAndAcceptedForInflate() throws {
        var deflater = try Deflater(format: .raw, windowBits: 8)
        #expect(deflater.windowBits == 9)
        var out: [UInt8] = []
        let text = sampleText(4000)
        try deflater.deflate(text, flush: .sync, into: &out)
        // What a 9-bit zlib window emits inflates within an 8-bit window.
        var inflater = try Inflater(format: .raw, windowBits: 8)
        var back: [UInt8] = []
        _ = try inflater.inflate(out, into: &back, limit: generous)
        #expect(back == text)
    }
}
