import IMWire
import Testing

/// `imwire encode` is the inverse of `imwire decode`: every clean codec fixture's decoded form
/// encodes back to the fixture's bytes (lc.json compared as JSON: the encoder writes keys in
/// schema order, the fixtures in the order captures and SDKs use).
struct CanonicalEncoderTests {
    /// The fixture folders whose `decoded` is what `imwire decode` prints for one frame.
    static let folders = [
        "leancloud/command", "mqtt/packet", "yun2win/packet", "nim/packet", "nim/socketio", "jmessage/engineio", "jmessage/event",
    ]

    static func cleanFixtures(_ folder: String) throws -> [Fixture] {
        try Directory.files(under: "\(repositoryRoot)/Fixtures/\(folder)", suffix: ".json").compactMap { path in
            let fixture = try Fixture(path: path)
            return fixture.expected.isEmpty && !(fixture.decoded?.isNull ?? true) ? fixture : nil
        }
    }

    @Test(arguments: folders)
    func decodedFormsEncodeToTheirBytes(folder: String) throws {
        let fixtures = try Self.cleanFixtures(folder)
        #expect(fixtures.count >= 10, "\(folder) holds \(fixtures.count) clean fixtures")
        for fixture in fixtures {
            let decoded = try #require(fixture.decoded)
            let encoded: CanonicalEncoder.Encoded
            switch fixture.dialect {
            case "leancloud":
                let encoding = LeanCloudEncoding(rawValue: fixture.encoding ?? "protobuf") ?? .protobuf
                encoded = try CanonicalEncoder.leanCloud(decoded, encoding: encoding)
                if encoding == .json {
                    let expected = try JSONParser.parse(try fixture.input())
                    #expect(try JSONParser.parse(encoded.bytes).semanticallyEquals(expected), "\(fixture.path)")
                    continue
                }
            case "mqtt", "yun2win": encoded = try CanonicalEncoder.mqtt(decoded)
            case "nim": encoded = try CanonicalEncoder.nim(decoded)
            default: encoded = try CanonicalEncoder.jmessage(decoded)
            }
            #expect(encoded.bytes == (try fixture.input()), "\(fixture.path): \(Hex.encode(encoded.bytes))")
            if let frame = fixture.object["frame"]?.stringValue { #expect(encoded.binary == (frame == "binary"), "\(fixture.path)") }
        }
    }

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
