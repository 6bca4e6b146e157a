import IMWireCompression
import IMWireCore
import Testing

@testable import IMWireWebSocket

@Suite struct Fragmentation {
    @Test func pingBetweenFragmentsIsAllowed() {
        let bytes = clientFrame(0x01, Array("Hel".utf8)) + clientFrame(0x89, [7]) + clientFrame(0x80, Array("lo".utf8))
        let events = decodeAll(bytes)
        #expect(events.ruleIDs.isEmpty)
        #expect(events.messages.map(\.text) == ["Hello"])
        #expect(events.frames.map(\.opcode) == [.text, .ping, .continuation])
    }

    @Test func continuationWithoutStart() {
        let events = decodeAll(clientFrame(0x80, Array("x".utf8)))
        #expect(events.ruleIDs == ["WS.CONTINUATION-WITHOUT-START"])
    }

    @Test func newMessageInsideFragmentedOne() {
        let bytes = clientFrame(0x01, Array("a".utf8)) + clientFrame(0x81, Array("b".utf8))
        let events = decodeAll(bytes)
        #expect(events.ruleIDs == ["WS.MESSAGE-INTERLEAVED"])
        #expect(events.findings.first?.offset == 7)
        #expect(events.messages.map(\.text) == ["b"])
    }

    @Test func tenThousandOneByteFragmentsHitTheFragmentCap() {
        var bytes = clientFrame(0x02, [0])
        for _ in 0..<9_998 { bytes += clientFrame(0x00, [1]) }
        bytes += clientFrame(0x80, [2])
        let events = decodeAll(bytes, limits: Limits(maxFragments: 1000))
        #expect(events.ruleIDs == ["WS.TOO-MANY-FRAGMENTS"])
        #expect(events.messages.isEmpty)
        // Under a generous cap the message is whole.
        let whole = decodeAll(bytes, limits: Limits(maxFragments: 20_000))
        #expect(whole.messages.first?.payload.count == 10_000)
        #expect(whole.ruleIDs.isEmpty)
    }

    @Test func messageSizeCap() {
        let bytes =
            clientFrame(0x02, [UInt8](repeating: 1, count: 600)) + clientFrame(0x80, [UInt8](repeating: 2, count: 600))
        let events = decodeAll(bytes, limits: Limits(maxMessageSize: 1000))
        #expect(events.ruleIDs == ["WS.MESSAGE-TOO-LARGE"])
        #expect(events.messages.isEmpty)
    }

    @Test func unfinishedMessageAtEndIsInfo() {
        let events = decodeAll(clientFrame(0x01, Array("a".utf8)))
        #expect(events.ruleIDs.isEmpty)
        #expect(events.findings.map(\.ruleID.rawValue) == ["WS.MESSAGE-UNFINISHED"])
    }
}

@Suite struct TextAndClose {
    @Test func invalidUTF8OffsetIsTheBadByte() {
        // "κόσμε" then 0xed 0xa0 0x80 (a surrogate) — Autobahn 6.x style.
        let payload: [UInt8] = Array("κόσμε".utf8) + [0xed, 0xa0, 0x80]
        let events = decodeAll(clientFrame(0x81, payload))
        #expect(events.ruleIDs == ["WS.INVALID-UTF8"])
        #expect(events.findings.first?.offset == 6 + 10 + 1)
        #expect(events.findings.first?.message.contains("1007") == true)
    }

    @Test func codePointSplitAcrossFragmentsIsValid() {
        let euro: [UInt8] = [0xe2, 0x82, 0xac]
        let bytes = clientFrame(0x01, [euro[0]]) + clientFrame(0x00, [euro[1]]) + clientFrame(0x80, [euro[2]])
        let events = decodeAll(bytes)
        #expect(events.ruleIDs.isEmpty)
        #expect(events.messages.map(\.text) == ["€"])
    }

    @Test func messageEndingMidCodePoint() {
        let events = decodeAll(clientFrame(0x01, [0xe2, 0x82]) + clientFrame(0x80, []))
        #expect(events.ruleIDs == ["WS.INVALID-UTF8"])
    }

    @Test func closeBodies() {
        #expect(decodeAll(clientFrame(0x88, [0x03])).ruleIDs == ["WS.CLOSE-PAYLOAD-ONE-BYTE"])
        #expect(decodeAll(clientFrame(0x88, [0x03, 0xe8])).ruleIDs.isEmpty)
        #expect(decodeAll(clientFrame(0x88, [])).closes.first?.code == nil)
        for code: UInt16 in [0, 999, 1004, 1005, 1006, 1016, 1100, 2000, 2999, 5000] {
            #expect(
                decodeAll(clientFrame(0x88, [UInt8(code >> 8), UInt8(code & 0xff)])).ruleIDs == [
                    "WS.CLOSE-CODE-INVALID"
                ], "code \(code)")
        }
        for code: UInt16 in [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999] {
            #expect(
                decodeAll(clientFrame(0x88, [UInt8(code >> 8), UInt8(code & 0xff)])).ruleIDs.isEmpty, "code \(code)")
        }
        #expect(decodeAll(clientFrame(0x88, [0x03, 0xe8, 0xff])).ruleIDs == ["WS.CLOSE-REASON-INVALID-UTF8"])
    }

    @Test func framesAfterClose() {
        let events = decodeAll(clientFrame(0x88, [0x03, 0xe8]) + clientFrame(0x89))
        #expect(events.ruleIDs == ["WS.FRAME-AFTER-CLOSE"])
    }
}

@Suite struct PermessageDeflate {
    let negotiated = PerMessageDeflateParameters()

    @Test func rfc7692ExampleHello() {
        // RFC 7692 §7.2.3.1: "Hello" compressed, one unmasked frame.
        let events = decodeAll(
            [0xc1, 0x07, 0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00], direction: .receive, deflate: negotiated)
        #expect(events.ruleIDs.isEmpty)
        #expect(events.messages.map(\.text) == ["Hello"])
        #expect(events.messages.first?.wasCompressed == true)
    }

    @Test func rfc7692ExampleFragmented() {
        // §7.2.3.1, the same compressed data in two fragments.
        let bytes: [UInt8] = [0x41, 0x03, 0xf2, 0x48, 0xcd, 0x80, 0x04, 0xc9, 0xc9, 0x07, 0x00]
        let events = decodeAll(bytes, direction: .receive, deflate: negotiated)
        #expect(events.ruleIDs.isEmpty)
        #expect(events.messages.map(\.text) == ["Hello"])
    }

    @Test func rfc7692ExampleSharedWindow() {
        // §7.2.3.2: the second "Hello" refers back into the first message's window.
        let bytes: [UInt8] = [
            0xc1, 0x07, 0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00, 0xc1, 0x05, 0xf2, 0x00, 0x11, 0x00, 0x00,
        ]
        let events = decodeAll(bytes, direction: .receive, deflate: negotiated)
        #expect(events.ruleIDs.isEmpty)
        #expect(events.messages.map(\.text) == ["Hello", "Hello"])
        // Under server_no_context_takeover the second message cannot be inflated.
        let reset = decodeAll(
            bytes, direction: .receive, deflate: PerMessageDeflateParameters(serverNoContextTakeover: true))
        #expect(reset.ruleIDs == ["ZLIB.CORRUPT-DATA"])
    }

    @Test func emptyMessageAndBFinal() {
        // §7.2.3.6 empty message `00`; §7.2.3.4 a block with BFINAL set.
        let bytes: [UInt8] = [
            0xc1, 0x01, 0x00, 0xc1, 0x07, 0xf3, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00, 0xc1, 0x07, 0xf2, 0x48, 0xcd, 0xc9,
            0xc9, 0x07, 0x00,
        ]
        let events = decodeAll(bytes, direction: .receive, deflate: negotiated)
        #expect(events.ruleIDs.isEmpty)
        #expect(events.messages.map(\.text) == ["", "Hello", "Hello"])
    }

    @Test func rsv1PlacementRules() {
        let events = decodeAll(
            clientFrame(0xc9) + clientFrame(0x01, [0x41]) + clientFrame(0xc0, [0x41]), deflate: negotiated)
        #expect(events.ruleIDs == ["PMD.RSV1-ON-CONTROL", "PMD.RSV1-ON-CONTINUATION"])
    }

    @Test func encoderRoundTripWithContextTakeoverAndFragments() throws {
        for parameters in [
            PerMessageDeflateParameters(),
            PerMessageDeflateParameters(clientNoContextTakeover: true, clientMaxWindowBits: 9),
        ] {
            let encoder = try WebSocketMessageEncoder(
                direction: .send, permessageDeflate: parameters, fragmentSize: 7, maskingKey: { testKey })
            let texts = ["Hello", "Hello", "", String(repeating: "websocket ", count: 300)]
            var bytes: [UInt8] = []
            for text in texts { try encoder.encodeMessage(.text, Array(text.utf8), into: &bytes) }
            let events = decodeAll(bytes, deflate: parameters)
            #expect(events.ruleIDs.isEmpty)
            #expect(events.messages.map(\.text) == texts)
            #expect(events.messages.allSatisfy { $0.wasCompressed })
        }
    }

    @Test func encoderStripsTrailerAndSetsRSV1() throws {
        let encoder = try WebSocketMessageEncoder(direction: .receive, permessageDeflate: negotiated)
        #expect(
            try encoder.message(.text, Array("Hello".utf8)) == [0xc1, 0x07, 0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00])
        #expect(try encoder.message(.text, []) == [0xc1, 0x01, 0x00])
    }

    @Test func oneKilobyteMessageInflatingPastTheCap() throws {
        let encoder = try WebSocketMessageEncoder(
            direction: .receive, permessageDeflate: negotiated, compressionLevel: 9)
        let bytes = try encoder.message(.binary, [UInt8](repeating: 0, count: 1 << 20))
        #expect(bytes.count < 2048)
        let events = decodeAll(
            bytes, direction: .receive, deflate: negotiated, limits: Limits(maxMessageSize: 64 << 10))
        #expect(events.ruleIDs == ["WS.MESSAGE-TOO-LARGE"])
        let ratio = decodeAll(bytes, direction: .receive, deflate: negotiated, limits: Limits(maxExpansionRatio: 100))
        #expect(ratio.ruleIDs == ["ZLIB.EXPANSION-RATIO"])
        #expect(ratio.findings.first?.message.contains("1009") == true)
    }

    @Test func invalidUTF8AfterInflate() throws {
        let encoder = try WebSocketMessageEncoder(direction: .receive, permessageDeflate: negotiated)
        let bytes = try encoder.message(.text, [0x61, 0xff, 0x62])
        #expect(decodeAll(bytes, direction: .receive, deflate: negotiated).ruleIDs == ["WS.INVALID-UTF8"])
    }
}

@Suite struct ChunkingInvariance {
    /// A stream with every kind of event: fragments, control frames in between, compression,
    /// violations, a close.
    func sampleStream() throws -> [UInt8] {
        let deflate = PerMessageDeflateParameters()
        let encoder = try WebSocketMessageEncoder(
            direction: .send, permessageDeflate: deflate, fragmentSize: 5, maskingKey: { testKey })
        var bytes: [UInt8] = []
        try encoder.encodeMessage(.text, Array(String(repeating: "κόσμε ", count: 40).utf8), into: &bytes)
        bytes += clientFrame(0x89, [1, 2, 3])
        encoder.fragmentSize = nil
        try encoder.encodeMessage(
            .binary, (0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 31) }, compress: false, into: &bytes)
        bytes += rawFrame(0x82, [9, 9], lengthForm: 16)  // unmasked, non-minimal
        bytes += clientFrame(0x01, [0xce]) + clientFrame(0x80, [0xba, 0xff])  // split code point, then bad byte
        bytes += clientFrame(0x83, [1])  // reserved opcode
        bytes += clientFrame(0x88, [0x03, 0xe8] + Array("bye".utf8))
        bytes += clientFrame(0x8a)  // after close
        bytes += Array(clientFrame(0x81, Array("cut".utf8)).prefix(4))  // truncated, and after the close too
        return bytes
    }

    @Test func oneByteAllAtOnceAndRandomSplitsAgree() throws {
        let bytes = try sampleStream()
        let reference = decodeAll(bytes, deflate: PerMessageDeflateParameters())
        #expect(reference.messages.count == 4)
        #expect(
            reference.ruleIDs == [
                "WS.LENGTH-NOT-MINIMAL", "WS.CLIENT-FRAME-UNMASKED", "WS.INVALID-UTF8", "WS.RESERVED-OPCODE",
                "WS.FRAME-AFTER-CLOSE", "WS.TRUNCATED-FRAME", "WS.FRAME-AFTER-CLOSE",
            ])
        let oneByte = decodeAll(
            bytes, deflate: PerMessageDeflateParameters(), chunks: Array(repeating: 1, count: bytes.count))
        #expect(oneByte == reference)
        var generator = SplitMix(state: 42)
        for _ in 0..<25 {
            var sizes: [Int] = []
            var total = 0
            while total < bytes.count {
                let size = Int.random(in: 1...300, using: &generator)
                sizes.append(size)
                total += size
            }
            #expect(decodeAll(bytes, deflate: PerMessageDeflateParameters(), chunks: sizes) == reference)
        }
    }
}

@Suite struct HostileInput {
    /// Seeded random bytes and mutated valid streams: nothing traps, and whole-buffer and
    /// one-byte feeding agree event for event.
    @Test func randomAndMutatedStreamsAreChunkingInvariant() throws {
        var generator = SplitMix(state: 7)
        let deflate = PerMessageDeflateParameters()
        let encoder = try WebSocketMessageEncoder(
            direction: .send, permessageDeflate: deflate, fragmentSize: 9, maskingKey: { testKey })
        var valid: [UInt8] = []
        for index in 0..<6 {
            try encoder.encodeMessage(
                index % 2 == 0 ? .text : .binary, Array("message \(index) κόσμε".utf8), into: &valid)
        }
        valid += encoder.close(.normalClosure)
        let limits = Limits(maxFrameSize: 4096, maxMessageSize: 8192, maxFragments: 64)
        for round in 0..<150 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int.random(in: 0...600, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            } else {
                bytes = valid
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let index = Int.random(in: 0..<bytes.count, using: &generator)
                    bytes[index] ^= UInt8.random(in: 1...255, using: &generator)
                }
            }
            for direction in Direction.allCases {
                let whole = decodeAll(
                    bytes, direction: direction, deflate: round % 4 == 1 ? deflate : nil, limits: limits)
                let octets = decodeAll(
                    bytes, direction: direction, deflate: round % 4 == 1 ? deflate : nil, limits: limits,
                    chunks: Array(repeating: 1, count: max(bytes.count, 1)))
                #expect(whole == octets, "round \(round) \(direction)")
            }
        }
    }
}
