import IMWire
import Testing

/// `imwire encode` is the inverse of `imwire decode`. The fixture verifier round-trips every
/// clean codec fixture through `CanonicalEncoder` (`FixtureVerifier.reencodes`); these are the
/// cases no fixture holds.
struct CanonicalEncoderTests {
    @Test func severalNIMPacketsUseThePayloadFraming() throws {
        let decoded = try JSONParser.parse(#"[{"socketio":{"type":"heartbeat","endpoint":""},"nim":null},"#
            + #"{"socketio":{"type":"message","endpoint":"","data":""},"nim":{"kind":"request","sid":1,"cid":2,"ser":0,"params":[]}}]"#)
        let encoded = try CanonicalEncoder.nim(decoded)
        let nim = #"3:::{"SID":1,"CID":2,"SER":0,"Q":[]}"#
        #expect(String(decoding: encoded.bytes, as: UTF8.self) == "\u{fffd}3\u{fffd}2::\u{fffd}\(nim.count)\u{fffd}\(nim)")
        let back = NIMCodec.decode(encoded.bytes, direction: .send)
        #expect(back.framed && back.items.count == 2 && back.findings.isEmpty)
        // Lengths count UTF-16 code units, as JavaScript's String.length does: 😀 is two.
        let packets: [SocketIO09Packet] = [.message("😀"), .message("é")]
        let payload = SocketIO09Payload.encode(packets)
        #expect(payload == "\u{fffd}6\u{fffd}3:::😀\u{fffd}5\u{fffd}3:::é")
        #expect(SocketIO09Decoder.decode(Array(payload.utf8)).packets.map(\.data) == ["😀", "é"])
    }

    @Test func whatIsNoFrameIsRefused() throws {
        #expect(throws: CanonicalEncoder.EncodeError.self) { try CanonicalEncoder.nim(.array([])) }
        #expect(throws: CanonicalEncoder.EncodeError.self) { try CanonicalEncoder.jmessage(["socketio": .null]) }
        #expect(throws: CanonicalEncoder.EncodeError.self) { try CanonicalEncoder.mqtt(["type": "NOPE"]) }
        #expect(throws: CanonicalEncoder.EncodeError.self) { try CanonicalEncoder.leanCloud(["cmd": "nope"], encoding: .protobuf) }
    }
}
