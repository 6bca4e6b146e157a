import IMWireCompression
import IMWireCore
import Testing

/// `Inflater` and `Deflater` are copy-on-write values: a copy continues from the same state on
/// its own, and both are `Sendable`.
@Suite struct ValueSemantics {
    /// Two sync-flushed messages from one deflater, the second referring back into the first.
    private func twoMessages() throws -> ([UInt8], [UInt8]) {
        var deflater = try Deflater(format: .raw)
        var first: [UInt8] = []
        var second: [UInt8] = []
        try deflater.deflate(sampleText(2000), flush: .sync, into: &first)
        try deflater.deflate(sampleText(2000), flush: .sync, into: &second)
        return (first, second)
    }

    @Test func aCopiedInflaterKeepsTheWindowAndIsIndependent() throws {
        let (first, second) = try twoMessages()
        var original = try Inflater(format: .raw)
        var out: [UInt8] = []
        try original.inflate(first, into: &out, limit: generous)
        var copy = original
        var fromCopy: [UInt8] = []
        var fromOriginal: [UInt8] = []
        try copy.inflate(second, into: &fromCopy, limit: generous)
        // The original was not moved on by the copy: it inflates the same message again.
        try original.inflate(second, into: &fromOriginal, limit: generous)
        #expect(fromCopy == sampleText(2000))
        #expect(fromOriginal == sampleText(2000))
        // Resetting the copy leaves the original's window alone.
        copy.reset()
        var again: [UInt8] = []
        try original.inflate(second, into: &again, limit: generous)
        #expect(again == sampleText(2000))
    }

    @Test func aCopiedDeflaterWritesWhatTheOriginalWould() throws {
        var original = try Deflater(format: .raw)
        var prefix: [UInt8] = []
        try original.deflate(sampleText(3000), flush: .sync, into: &prefix)
        var copy = original
        var fromCopy: [UInt8] = []
        var fromOriginal: [UInt8] = []
        try copy.deflate(sampleText(1000), flush: .sync, into: &fromCopy)
        try original.deflate(sampleText(1000), flush: .sync, into: &fromOriginal)
        #expect(fromCopy == fromOriginal)
        #expect(fromCopy.count < 200)  // the window of the first 3000 bytes was kept in both
    }

    @Test func anInflaterGoesIntoATask() async throws {
        let (first, second) = try twoMessages()
        var inflater = try Inflater(format: .raw)
        var out: [UInt8] = []
        try inflater.inflate(first, into: &out, limit: generous)
        // A @Sendable closure may only capture Sendable values.
        let work: @Sendable () throws -> [UInt8] = { [inflater] in
            var owned = inflater
            var rest: [UInt8] = []
            try owned.inflate(second, into: &rest, limit: generous)
            return rest
        }
        #expect(try await Task.detached(operation: work).value == sampleText(2000))
    }
}
