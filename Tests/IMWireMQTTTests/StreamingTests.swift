import IMWireCore
import Testing

@testable import IMWireMQTT

/// A small deterministic generator for chunk boundaries (xorshift; the seed is fixed).
struct SplitMix {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Int(state % UInt64(bound))
    }
}

@Suite("MQTT streaming")
struct StreamingTests {
    /// Every packet of both versions, plus malformed ones, back to back.
    static let stream: [UInt8] = {
        var bytes: [UInt8] = []
        for packet in samplePackets(.v3_1_1) { bytes += MQTTPacketEncoder.encode(packet) }
        bytes += [0xf0, 0x01, 0x00]  // reserved type 15 with a 1-byte body
        bytes += [0x36, 0x04, 0x00, 0x01, 0x61, 0x00]  // PUBLISH QoS 3
        bytes += [0xc0, 0x80, 0x00]  // PINGREQ with a non-minimal length
        bytes += [0x40, 0x03, 0x00, 0x01, 0x02]  // PUBACK with a trailing byte
        bytes += [0x30, 0x10, 0x00]  // a PUBLISH cut short by the end of the stream
        return bytes
    }()

    func decode(chunks sizes: [Int], of bytes: [UInt8]) -> [MQTTDecodedPacket] {
        var decoder = MQTTStreamDecoder()
        var out: [MQTTDecodedPacket] = []
        var index = 0
        var turn = 0
        while index < bytes.count {
            let size = max(1, sizes[turn % sizes.count])
            let end = min(bytes.count, index + size)
            out += decoder.feed(Array(bytes[index..<end]))
            index = end
            turn += 1
        }
        return out + decoder.finish()
    }

    @Test func anyChunkingGivesTheSameResult() {
        let whole = MQTTStreamDecoder.decodeAll(Self.stream)
        #expect(whole.count == samplePackets(.v3_1_1).count + 5)
        for size in 1...9 {
            #expect(decode(chunks: [size], of: Self.stream) == whole, "chunk size \(size)")
        }
        var random = SplitMix(state: 0x9e37_79b9_7f4a_7c15)
        for _ in 0..<50 {
            let sizes = (0..<17).map { _ in 1 + random.next(40) }
            #expect(decode(chunks: sizes, of: Self.stream) == whole, "chunks \(sizes)")
        }
    }

    @Test func malformedPacketsInTheStreamAreReportedInPlace() {
        let decoded = MQTTStreamDecoder.decodeAll(Self.stream)
        let tail = decoded.suffix(5).map { $0.findings.map(\.ruleID) }
        #expect(
            tail == [
                [MQTTRules.packetTypeReserved.id],
                [MQTTRules.publishQoSInvalid.id],
                [MQTTRules.remainingLengthNonMinimal.id],
                [MQTTRules.trailingBytes.id],
                [MQTTRules.truncated.id],
            ])
        // Offsets are from each packet's first byte; the truncated one ends 3 bytes in.
        #expect(decoded.last?.findings.first?.offset == 3)
        #expect(decoded.last?.length == 18)
        let offsets = decoded.map(\.streamOffset)
        #expect(offsets == offsets.sorted())
    }

    @Test func overlongRemainingLengthStopsTheStream() {
        let bytes: [UInt8] = [0xc0, 0x00, 0x30, 0xff, 0xff, 0xff, 0xff, 0x7f, 0xc0, 0x00]
        for size in 1...4 {
            let decoded = decode(chunks: [size], of: bytes)
            #expect(decoded.count == 2)
            #expect(decoded[1].findings.map(\.ruleID) == [MQTTRules.remainingLengthOverlong.id])
            #expect(decoded[1].findings.first?.offset == 4)
            #expect(decoded[1].streamOffset == 2)
        }
    }

    @Test func oversizedPacketIsSkippedWithoutBuffering() {
        var limits = Limits()
        limits.maxFrameSize = 100
        // PUBLISH announcing 268,435,455 bytes, then the stream ends; and one announcing 200 bytes, then PINGREQ.
        let huge: [UInt8] = [0x30, 0xff, 0xff, 0xff, 0x7f, 0x00, 0x01]
        var decoder = MQTTStreamDecoder(options: MQTTDecodeOptions(limits: limits))
        let first = decoder.feed(huge)
        #expect(first.map { $0.findings.map(\.ruleID) } == [[MQTTRules.packetTooLarge.id]])
        let end = decoder.finish()
        #expect(end.map { $0.findings.map(\.ruleID) } == [[MQTTRules.truncated.id]])

        var skip: [UInt8] = [0x30, 0xc8, 0x01] + [UInt8](repeating: 0x41, count: 200)
        skip += [0xc0, 0x00]
        for size in [1, 7, 300] {
            var chunked = MQTTStreamDecoder(options: MQTTDecodeOptions(limits: limits))
            var out: [MQTTDecodedPacket] = []
            var index = 0
            while index < skip.count {
                let end = min(skip.count, index + size)
                out += chunked.feed(Array(skip[index..<end]))
                index = end
            }
            out += chunked.finish()
            #expect(out.map { $0.findings.map(\.ruleID) } == [[MQTTRules.packetTooLarge.id], []], "chunk \(size)")
            #expect(out.last?.packet == .pingreq)
        }
    }
}
