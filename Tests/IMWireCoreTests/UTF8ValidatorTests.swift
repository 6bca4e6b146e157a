import Testing

@testable import IMWireCore

@Suite struct UTF8ValidatorTests {
    @Test(arguments: [
        [UInt8](),
        Array("hello".utf8),
        Array("κόσμε".utf8),
        Array("中文 😀".utf8),
        [0xf4, 0x8f, 0xbf, 0xbf],  // U+10FFFF
        [0xed, 0x9f, 0xbf],  // U+D7FF, last before the surrogates
    ])
    func acceptsWellFormedText(bytes: [UInt8]) {
        #expect(UTF8Validator.firstInvalidOffset(bytes) == nil)
    }

    @Test(arguments: [
        ([UInt8(0x80)], 0),  // lone continuation
        ([0x61, 0xc0, 0x80], 1),  // overlong NUL
        ([0xe0, 0x80, 0x80], 1),  // overlong 3-byte
        ([0xed, 0xa0, 0x80], 1),  // surrogate U+D800
        ([0xf4, 0x90, 0x80, 0x80], 1),  // above U+10FFFF
        ([0xf5, 0x80, 0x80, 0x80], 0),  // invalid lead byte
        // Autobahn 6.x style
        ([0xce, 0xba, 0xe1, 0xbd, 0xb9, 0xcf, 0x83, 0xce, 0xbc, 0xce, 0xb5, 0xed, 0xa0, 0x80, 0x65], 12),
        ([0xe2, 0x82], 2),  // truncated at the end
    ])
    func rejectsIllFormedTextAtTheRightOffset(bytes: [UInt8], offset: Int) {
        #expect(UTF8Validator.firstInvalidOffset(bytes) == offset)
    }

    @Test func codePointsSplitAcrossChunks() {
        let text = Array("a€😀b".utf8)
        for split in 0...text.count {
            var validator = UTF8Validator()
            #expect(validator.feed(Array(text[..<split])) == nil)
            #expect(validator.feed(Array(text[split...])) == nil)
            #expect(validator.isComplete)
        }
        var partial = UTF8Validator()
        #expect(partial.feed([0xe2, 0x82]) == nil)
        #expect(!partial.isComplete)
        #expect(partial.feed([0x41]) == 0)  // the continuation never came
    }

    /// The ASCII fast path reads eight bytes at a time: a bad byte anywhere in or after such a
    /// run, and a sequence that starts just before or after one, is still found at its offset.
    @Test func findsTheOffsetAcrossEightByteRuns() {
        for length in 1...40 {
            for position in 0..<length {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                bytes[position] = 0x80
                #expect(UTF8Validator.firstInvalidOffset(bytes) == position, "length \(length), position \(position)")
                if position + 1 < length {
                    bytes[position] = 0xc3
                    bytes[position + 1] = 0xa9  // é
                    #expect(UTF8Validator.firstInvalidOffset(bytes) == nil, "length \(length), é at \(position)")
                }
            }
        }
    }

    @Test func agreesWithTheStandardLibraryOnMostlyASCIIText() {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<3000 {
            let length = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<length).map { _ in
                Int.random(in: 0..<16, using: &generator) == 0
                    ? UInt8.random(in: 0x80...0xff, using: &generator)
                    : UInt8.random(in: 0x20...0x7e, using: &generator)
            }
            let ours = UTF8Validator.firstInvalidOffset(bytes) == nil
            let stdlib = String(validating: bytes, as: UTF8.self) != nil
            #expect(ours == stdlib, "\(bytes)")
        }
    }

    @Test func agreesWithTheStandardLibrary() {
        var generator = SplitMix64(seed: 99)
        for _ in 0..<3000 {
            let length = Int.random(in: 0...8, using: &generator)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0x70...0xff, using: &generator) }
            let ours = UTF8Validator.firstInvalidOffset(bytes) == nil
            let stdlib = String(validating: bytes, as: UTF8.self) != nil
            #expect(ours == stdlib, "\(bytes)")
        }
    }
}
