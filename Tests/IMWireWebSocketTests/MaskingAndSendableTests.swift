import IMWireCompression
import IMWireCore
import Testing

@testable import IMWireWebSocket

/// The masking key of a client frame with a short (< 126) payload.
private func maskingKey(ofShortFrame frame: ArraySlice<UInt8>) -> UInt32 {
    let bytes = Array(frame.dropFirst(2).prefix(4))
    return bytes.reduce(0) { $0 << 8 | UInt32($1) }
}

@Suite struct RandomMasking {
    @Test func theDefaultKeyIsFreshForEveryFrameAndStillDecodes() throws {
        let encoder = try WebSocketMessageEncoder(direction: .send)
        let payload = Array("the same text every time".utf8)
        var keys: [UInt32] = []
        var bytes: [UInt8] = []
        for _ in 0..<8 {
            let frame = try encoder.message(.text, payload)
            #expect(frame[1] & 0x80 != 0)  // MASK bit
            keys.append(maskingKey(ofShortFrame: frame[...]))
            bytes += frame
        }
        // 8 keys of 32 random bits: a repeat has odds of about 2^-27.
        #expect(Set(keys).count == keys.count, "\(keys)")
        let events = decodeAll(bytes, direction: .send)
        #expect(events.findings.isEmpty, "\(events.findings)")
        #expect(events.messages.map(\.payload) == Array(repeating: payload, count: 8))
    }

    @Test func clientFrameDrawsAKeyPerCallAndStillDecodes() {
        let frames = (0..<8).map { _ in WebSocketFrameEncoder.clientFrame(.binary, payload: [1, 2, 3, 4, 5]) }
        #expect(Set(frames.map { maskingKey(ofShortFrame: $0[...]) }).count == 8)
        let events = decodeAll(frames.flatMap { $0 }, direction: .send)
        #expect(events.findings.isEmpty)
        #expect(events.messages.map(\.payload) == Array(repeating: [1, 2, 3, 4, 5], count: 8))
    }

    @Test func anExplicitKeyGivesTheOldBytes() throws {
        // The old default, key 0: the MASK bit and a zero key, the payload as it is.
        let zero = try WebSocketMessageEncoder(direction: .send, maskingKey: { 0 })
        #expect(try zero.message(.text, Array("hello".utf8)) == [0x81, 0x85, 0, 0, 0, 0] + Array("hello".utf8))
        let fixed = try WebSocketMessageEncoder(direction: .send, maskingKey: { testKey })
        #expect(try fixed.message(.text, Array("hello".utf8)) == rawFrame(0x81, Array("hello".utf8), mask: testKey))
        #expect(fixed.close(.normalClosure) == rawFrame(0x88, [0x03, 0xe8], mask: testKey))
        #expect(
            WebSocketFrameEncoder.clientFrame(.text, payload: Array("hello".utf8), maskingKey: testKey)
                == rawFrame(0x81, Array("hello".utf8), mask: testKey))
    }

    @Test func aSeededGeneratorRepeatsItsKeys() throws {
        let one = try WebSocketMessageEncoder(direction: .send, maskingKeysFrom: SplitMix(state: 42))
        let two = try WebSocketMessageEncoder(direction: .send, maskingKeysFrom: SplitMix(state: 42))
        let first = try one.message(.binary, [9, 9, 9]) + one.message(.binary, [9, 9, 9])
        let second = try two.message(.binary, [9, 9, 9]) + two.message(.binary, [9, 9, 9])
        #expect(first == second)
        #expect(maskingKey(ofShortFrame: first[0..<9]) != maskingKey(ofShortFrame: first[9...]))
    }

    @Test func serverFramesStayUnmasked() throws {
        let server = try WebSocketMessageEncoder(direction: .receive)
        #expect(try server.message(.text, Array("hi".utf8)) == [0x81, 0x02] + Array("hi".utf8))
    }
}

/// Compiles only for `Sendable` types.
private func requireSendable<T: Sendable>(_: T.Type) {}

/// Owns one direction's decoder, as a connection actor would.
private actor Reader {
    var decoder: WebSocketStreamDecoder
    init(_ decoder: WebSocketStreamDecoder) { self.decoder = decoder }
    func feed(_ bytes: [UInt8]) -> [WebSocketEvent] { decoder.feed(bytes) + decoder.finish() }
}

@Suite struct Sendability {
    @Test func theValueTypesAreSendable() {
        requireSendable(WebSocketStreamDecoder.self)
        requireSendable(WebSocketMessageAssembler.self)
        requireSendable(Inflater.self)
        requireSendable(Deflater.self)
    }

    /// Two compressed messages with context takeover: the second refers back into the first.
    private func compressedMessages() throws -> (PerMessageDeflateParameters, [UInt8], [UInt8]) {
        let deflate = PerMessageDeflateParameters()
        let server = try WebSocketMessageEncoder(direction: .receive, permessageDeflate: deflate)
        let text = Array(String(repeating: "a message the server repeats; ", count: 20).utf8)
        return (deflate, try server.message(.text, text), try server.message(.text, text))
    }

    @Test func aDecoderGoesIntoATaskAndAnActor() async throws {
        let (deflate, first, second) = try compressedMessages()
        var decoder = WebSocketStreamDecoder(
            WebSocketStreamConfiguration(direction: .receive, permessageDeflate: deflate))
        #expect(decoder.feed(first).messages.count == 1)
        // A @Sendable closure may only capture Sendable values: this compiles because the decoder is.
        let work: @Sendable () -> [WebSocketEvent] = { [decoder] in
            var owned = decoder
            return owned.feed(second) + owned.finish()
        }
        let inTask = await Task.detached(operation: work).value
        let inActor = await Reader(decoder).feed(second)
        for events in [inTask, inActor] {
            #expect(events.findings.isEmpty, "\(events.findings)")
            #expect(events.messages.count == 1)
        }
    }

    /// A copy of a decoder is a decoder of its own (copy-on-write inflater): both decode the
    /// rest of the stream, neither disturbs the other.
    @Test func aCopiedDecoderIsIndependent() throws {
        let (deflate, first, second) = try compressedMessages()
        var original = WebSocketStreamDecoder(
            WebSocketStreamConfiguration(direction: .receive, permessageDeflate: deflate))
        _ = original.feed(first)
        var copy = original
        let fromCopy = copy.feed(second) + copy.finish()
        let fromOriginal = original.feed(second) + original.finish()
        #expect(fromCopy.findings.isEmpty && fromOriginal.findings.isEmpty)
        #expect(fromCopy.messages.map(\.payload) == fromOriginal.messages.map(\.payload))
        #expect(fromCopy.messages.count == 1)
    }

    /// The encoder is a single-owner class, not Sendable; one that nothing else references can
    /// still be handed to the task that writes the connection (region-based isolation).
    @Test func anEncoderCanBeHandedToTheWritingTask() async throws {
        let encoder = try WebSocketMessageEncoder(direction: .send, permessageDeflate: PerMessageDeflateParameters())
        let frames = try await Task { try encoder.message(.text, Array("hello".utf8)) }.value
        let events = decodeAll(frames, direction: .send, deflate: PerMessageDeflateParameters())
        #expect(events.messages.map(\.payload) == [Array("hello".utf8)])
    }
}
