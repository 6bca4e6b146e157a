import Testing

@testable import IMWireCore

@Suite struct VarintTests {
    private func read(_ bytes: [UInt8]) -> VarintRead {
        bytes.withUnsafeBytes { Varint.read($0, at: 0) }
    }

    @Test(
        arguments: [
            (0, [0x00]),
            (1, [0x01]),
            (127, [0x7f]),
            (128, [0x80, 0x01]),
            (300, [0xac, 0x02]),
            (187, [0xbb, 0x01]),
            (UInt64(Int64.max), [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]),
            (UInt64.max, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
        ] as [(UInt64, [UInt8])])
    func knownEncodings(value: UInt64, bytes: [UInt8]) {
        #expect(Varint.encode(value) == bytes)
        #expect(Varint.encodedLength(value) == bytes.count)
        #expect(read(bytes) == .value(value, length: bytes.count, minimal: true))
    }

    @Test func negativeInt32IsTenBytes() {
        // protobuf sign-extends negative int32 to 64 bits.
        let bytes = Varint.encode(UInt64(bitPattern: -1))
        #expect(bytes.count == 10)
        #expect(read(bytes) == .value(UInt64.max, length: 10, minimal: true))
    }

    @Test func nonMinimalEncodingsAreFlagged() {
        #expect(read([0x80, 0x00]) == .value(0, length: 2, minimal: false))
        #expect(read([0x81, 0x80, 0x00]) == .value(1, length: 3, minimal: false))
        #expect(read([0xac, 0x02]) == .value(300, length: 2, minimal: true))
    }

    @Test func damageIsReportedNotTrapped() {
        #expect(read([]) == .truncated)
        #expect(read([0x80]) == .truncated)
        #expect(read([0xff, 0xff]) == .truncated)
        #expect(read([UInt8](repeating: 0xff, count: 10)) == .tooLong)
        #expect(read([UInt8](repeating: 0xff, count: 11) + [0x01]) == .tooLong)
        #expect(read([UInt8](repeating: 0xff, count: 9) + [0x02]) == .overflow)
        #expect(read([UInt8](repeating: 0x80, count: 9) + [0x7f]) == .overflow)
    }

    @Test func randomRoundTrip() {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<5000 {
            let bits = Int.random(in: 0...64, using: &generator)
            let value = bits == 0 ? 0 : UInt64.random(in: 0...UInt64.max, using: &generator) >> (64 - bits)
            let bytes = Varint.encode(value)
            #expect(read(bytes) == .value(value, length: bytes.count, minimal: true))
        }
    }

    @Test func zigZag() {
        for value: Int64 in [0, -1, 1, -2, 2, Int64.max, Int64.min] {
            #expect(Varint.zigZagDecode(Varint.zigZagEncode(value)) == value)
        }
        #expect(Varint.zigZagEncode(-1) == 1)
        #expect(Varint.zigZagEncode(1) == 2)
    }
}
