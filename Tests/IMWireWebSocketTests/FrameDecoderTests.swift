import IMWireCore
import Testing

@testable import IMWireWebSocket

@Suite struct Frames {
    @Test func rfcExampleUnmaskedHello() {
        // RFC 6455 §5.7: a single-frame unmasked text message "Hello".
        let events = decodeAll([0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f], direction: .receive)
        #expect(events.ruleIDs.isEmpty)
        #expect(events.messages.map(\.text) == ["Hello"])
    }

    @Test func rfcExampleMaskedHello() {
        // RFC 6455 §5.7: a single-frame masked text message "Hello".
        let bytes: [UInt8] = [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]
        let events = decodeAll(bytes, direction: .send)
        #expect(events.ruleIDs.isEmpty)
        #expect(events.messages.map(\.text) == ["Hello"])
        #expect(events.frames.first?.header.maskingKey == 0x37fa_213d)
    }

    @Test func rfcExampleFragmentedHello() {
        let bytes: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6c, 0x80, 0x02, 0x6c, 0x6f]
        let events = decodeAll(bytes, direction: .receive)
        #expect(events.ruleIDs.isEmpty)
        #expect(events.messages.map(\.text) == ["Hello"])
        #expect(events.messages.first?.frameCount == 2)
    }

    @Test func sixteenAndSixtyFourBitLengths() {
        let medium = [UInt8](repeating: 0x61, count: 256)
        let large = [UInt8](repeating: 0x62, count: 65_536)
        let bytes = clientFrame(0x82, medium) + clientFrame(0x82, large)
        let events = decodeAll(bytes)
        #expect(events.ruleIDs.isEmpty)
        #expect(events.messages.map(\.payload) == [medium, large])
        #expect(events.frames.map(\.header.headerLength) == [8, 14])
    }

    @Test func highBitLengthIsRejectedBeforeConversion() {
        // swift-nio CVE-2026-43678 regression vector.
        let bytes: [UInt8] = [0x82, 0x7f, 0x80, 0, 0, 0, 0, 0, 0, 0x01]
        var decoder = WebSocketStreamDecoder(WebSocketStreamConfiguration(direction: .receive))
        let events = decoder.feed(bytes)
        #expect(events.ruleIDs == ["WS.LENGTH-HIGH-BIT-SET"])
        #expect(events.findings.first?.offset == 2)
        #expect(decoder.failure?.closeCode == .protocolError)
        // Whatever follows is not decoded.
        #expect(decoder.feed([0x81, 0x00]).isEmpty)
    }

    @Test func frameAnnouncingTwoToTheSixtyTwoIsTooLargeAndNothingIsAllocated() {
        let bytes: [UInt8] = [0x82, 0x7f, 0x40, 0, 0, 0, 0, 0, 0, 0]
        var decoder = WebSocketStreamDecoder(WebSocketStreamConfiguration(direction: .receive))
        let events = decoder.feed(bytes)
        #expect(events.ruleIDs == ["WS.FRAME-TOO-LARGE"])
        #expect(decoder.failure?.closeCode == .messageTooBig)
        #expect(events.findings.first?.message.contains("1009") == true)
    }

    @Test func nonMinimalLengths() {
        let bytes = rawFrame(0x82, [1, 2, 3], lengthForm: 16) + rawFrame(0x82, [4], lengthForm: 64)
        let events = decodeAll(bytes, direction: .receive)
        #expect(events.ruleIDs == ["WS.LENGTH-NOT-MINIMAL", "WS.LENGTH-NOT-MINIMAL"])
        #expect(events.findings.map(\.offset) == [1, 8])
        #expect(events.messages.count == 2)
    }

    @Test func maskingDirection() {
        #expect(decodeAll(rawFrame(0x81, Array("a".utf8)), direction: .send).ruleIDs == ["WS.CLIENT-FRAME-UNMASKED"])
        #expect(
            decodeAll(clientFrame(0x81, Array("a".utf8)), direction: .receive).ruleIDs == ["WS.SERVER-FRAME-MASKED"])
    }

    @Test func reservedBitsAndOpcodes() {
        #expect(decodeAll(clientFrame(0xc1, Array("a".utf8))).ruleIDs == ["WS.RSV-WITHOUT-EXTENSION"])
        #expect(decodeAll(clientFrame(0xa1, Array("a".utf8))).ruleIDs == ["WS.RSV-WITHOUT-EXTENSION"])
        #expect(decodeAll(clientFrame(0x83)).ruleIDs == ["WS.RESERVED-OPCODE"])
        #expect(decodeAll(clientFrame(0x8b, [1])).ruleIDs == ["WS.RESERVED-OPCODE"])
    }

    @Test func controlFrameRules() {
        #expect(
            decodeAll(clientFrame(0x89, [UInt8](repeating: 0, count: 126))).ruleIDs == ["WS.CONTROL-FRAME-TOO-LONG"])
        #expect(decodeAll(clientFrame(0x89, [UInt8](repeating: 0, count: 125))).ruleIDs.isEmpty)
        #expect(decodeAll(clientFrame(0x09, [1])).ruleIDs == ["WS.CONTROL-FRAME-FRAGMENTED"])
    }

    @Test func truncatedStream() {
        let events = decodeAll(Array(clientFrame(0x81, Array("hello".utf8)).dropLast(2)))
        #expect(events.ruleIDs == ["WS.TRUNCATED-FRAME"])
        #expect(events.findings.first?.offset == 0)
        let header = decodeAll([0x81, 0xfe, 0x01])
        #expect(header.ruleIDs == ["WS.TRUNCATED-FRAME"])
    }

    /// Autobahn 4.2.5: a frame with reserved opcode 15 that the peer's close cuts off inside its
    /// header is judged on what the header shows, not reported only as cut short.
    @Test func aHeaderCutShortIsJudgedOnItsBytes() {
        let reserved = decodeAll([0x8f, 0x85, 0x37, 0xfa])  // FIN, opcode 0xF, masked, length 5, half a key
        #expect(reserved.ruleIDs == ["WS.RESERVED-OPCODE", "WS.TRUNCATED-FRAME"])
        #expect(reserved.findings.map(\.offset) == [0, 0])
        #expect(decodeAll([0x09]).ruleIDs == ["WS.CONTROL-FRAME-FRAGMENTED", "WS.TRUNCATED-FRAME"])
        // Unmasked client ping: the mask bit is known; its length (16-bit form) is not.
        #expect(decodeAll([0x89, 0x7e, 0x00]).ruleIDs == ["WS.CLIENT-FRAME-UNMASKED", "WS.TRUNCATED-FRAME"])
        #expect(decodeAll([0xc1]).ruleIDs == ["WS.RSV-WITHOUT-EXTENSION", "WS.TRUNCATED-FRAME"])
    }

    /// A peer that fails the connection at the first bad byte (Autobahn's own echo server) cuts
    /// the client's frame short on the wire: what arrived is judged as that peer judged it
    /// (Autobahn 5.11, 6.4.3), and nothing is delivered.
    @Test func aFrameCutShortIsJudgedOnItsMessageToo() {
        // A continuation with no message in progress, cut inside its header, then inside its payload.
        #expect(decodeAll([0x80]).ruleIDs == ["WS.TRUNCATED-FRAME", "WS.CONTINUATION-WITHOUT-START"])
        #expect(
            decodeAll(Array(clientFrame(0x80, Array("abc".utf8)).dropLast(1))).ruleIDs == [
                "WS.TRUNCATED-FRAME", "WS.CONTINUATION-WITHOUT-START",
            ])
        // Text that is not UTF-8 in the part that arrived (0xce 0xba then 0xf4 0x90: above U+10FFFF).
        let invalid = decodeAll(Array(clientFrame(0x81, [0xce, 0xba, 0xf4, 0x90, 0x80, 0x80, 0x65]).dropLast(3)))
        #expect(invalid.ruleIDs == ["WS.TRUNCATED-FRAME", "WS.INVALID-UTF8"])
        #expect(invalid.findings.last?.offset == 6 + 3)  // header 6 bytes, the fourth payload byte
        #expect(invalid.messages.isEmpty)
        // Text cut inside a valid sequence is no fault: the rest may have been on its way.
        #expect(decodeAll(Array(clientFrame(0x81, [0x68, 0xce, 0xba]).dropLast(1))).ruleIDs == ["WS.TRUNCATED-FRAME"])
        // The second fragment of a text message, invalid where it was cut, and a new message begun inside one.
        let fragments = clientFrame(0x01, Array("ab".utf8)) + Array(clientFrame(0x80, [0xff, 0x61]).dropLast(1))
        #expect(
            decodeAll(fragments).findings.map(\.ruleID.rawValue) == [
                "WS.TRUNCATED-FRAME", "WS.INVALID-UTF8", "WS.MESSAGE-UNFINISHED",
            ])
        let interleaved = clientFrame(0x01, Array("ab".utf8)) + [0x81]
        #expect(decodeAll(interleaved).ruleIDs == ["WS.TRUNCATED-FRAME", "WS.MESSAGE-INTERLEAVED"])
        // After this side's close, any frame.
        #expect(
            decodeAll(clientFrame(0x88, [0x03, 0xe8]) + [0x81]).ruleIDs == [
                "WS.TRUNCATED-FRAME", "WS.FRAME-AFTER-CLOSE",
            ])
    }
}

@Suite struct Encoding {
    @Test func encoderUsesMinimalLengthsAndRoundTrips() throws {
        for size in [0, 1, 125, 126, 65_535, 65_536] {
            let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0) }
            let encoder = try WebSocketMessageEncoder(direction: .send, maskingKey: { testKey })
            let bytes = try encoder.message(.binary, payload)
            let expectedHeader = 2 + (size < 126 ? 0 : size <= 0xffff ? 2 : 8) + 4
            #expect(bytes.count == expectedHeader + size)
            let events = decodeAll(bytes)
            #expect(events.ruleIDs.isEmpty)
            #expect(events.messages.first?.payload == payload)
        }
    }

    @Test func rfcMaskedExampleIsReproduced() throws {
        let encoder = try WebSocketMessageEncoder(direction: .send, maskingKey: { 0x37fa_213d })
        #expect(
            try encoder.message(.text, Array("Hello".utf8)) == [
                0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58,
            ])
    }

    @Test func serverFramesAreNotMaskedAndCloseCarriesCode() throws {
        let encoder = try WebSocketMessageEncoder(direction: .receive)
        #expect(encoder.close(.protocolError) == [0x88, 0x02, 0x03, 0xea])
        #expect(encoder.control(.ping, [1, 2]) == [0x89, 0x02, 1, 2])
    }

    @Test func fragmentation() throws {
        let encoder = try WebSocketMessageEncoder(direction: .receive, fragmentSize: 2)
        let bytes = try encoder.message(.text, Array("Hello".utf8))
        #expect(bytes == [0x01, 0x02, 0x48, 0x65, 0x00, 0x02, 0x6c, 0x6c, 0x80, 0x01, 0x6f])
    }

    @Test func maskingPhasesAgreeWithByteWiseMasking() {
        let data = (0..<37).map { UInt8($0 * 7 & 0xff) }
        for phase in 0..<4 {
            var out = [UInt8](repeating: 0, count: data.count)
            data.withUnsafeBytes { source in
                out.withUnsafeMutableBytes { destination in
                    _ = WebSocketMasking.apply(
                        key: testKey, phase: phase, from: source.baseAddress!, to: destination.baseAddress!,
                        count: data.count)
                }
            }
            let keyBytes: [UInt8] = [0x37, 0x12, 0xa5, 0xc9]
            let expected = data.enumerated().map { $0.element ^ keyBytes[($0.offset + phase) % 4] }
            #expect(out == expected)
        }
    }
}

@Suite struct RuleCatalogue {
    @Test func idsAreUniqueAndPrefixed() {
        let ids = WebSocketRules.all.map(\.id.rawValue)
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.hasPrefix("WS.") || $0.hasPrefix("PMD.") })
        #expect(WebSocketRules.all.allSatisfy { !$0.specRef.isEmpty && !$0.summary.isEmpty })
    }

    @Test func everyFramingErrorNamesACloseCode() {
        let handshake = [
            "WS.HANDSHAKE-", "WS.SUBPROTOCOL-", "WS.EXTENSION-", "PMD.PARAMETER-", "PMD.ACCEPTED-", "PMD.WINDOW-",
        ]
        for rule in WebSocketRules.all where rule.severity == .error && rule.id != WebSocketRules.frameAfterClose.id {
            let isHandshake = handshake.contains { rule.id.rawValue.hasPrefix($0) }
            #expect((WebSocketRules.closeCode(for: rule.id) == nil) == isHandshake, "\(rule.id)")
        }
    }

    @Test func closeCodesOnTheWire() {
        #expect(WebSocketRules.closeCode(for: WebSocketRules.invalidUTF8.id) == .invalidPayloadData)
        #expect(WebSocketRules.closeCode(for: WebSocketRules.frameTooLarge.id) == .messageTooBig)
        #expect(WebSocketRules.closeCode(for: WebSocketRules.reservedOpcode.id) == .protocolError)
        #expect(!CloseCode.noStatusReceived.isValidOnWire)
        #expect(CloseCode(3000).isValidOnWire)
    }
}

@Suite struct Memory {
    @Test func aHugeAnnouncedFramePartlyDeliveredIsReportedTruncated() {
        // 16 MiB announced (the default cap), 10 bytes delivered: no frame, then a truncation
        // finding. (The decoder stores what arrives instead of allocating the announced length.)
        var decoder = IMWireWebSocket.WebSocketFrameDecoder(direction: .receive)
        var out: [WebSocketFrameOutput] = []
        let header: [UInt8] = [0x82, 0x7f, 0, 0, 0, 0, 0x01, 0, 0, 0]
        header.withUnsafeBytes { raw in decoder.feed(raw) { out.append($0) } }
        [UInt8](repeating: 1, count: 10).withUnsafeBytes { raw in decoder.feed(raw) { out.append($0) } }
        #expect(out.isEmpty)
        decoder.finish { out.append($0) }
        #expect(out.count == 1)
    }
}
