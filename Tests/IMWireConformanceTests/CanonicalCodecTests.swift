import IMWire
import Testing

/// `imwire encode` is the inverse of `imwire decode`: both are the dialects' canonical codecs.
/// The fixture verifier round-trips every clean codec fixture through them
/// (`FixtureVerifier.reencodes`); these are the cases no fixture holds.
struct CanonicalCodecTests {
    @Test func severalNIMPacketsUseThePayloadFraming() throws {
        let decoded = try JSONParser.parse(
            #"""
            [{"socketio":{"type":"heartbeat","endpoint":""},"nim":null},{"socketio":{"type":"message",\#
            "endpoint":"","data":""},"nim":{"kind":"request","sid":1,"cid":2,"ser":0,"params":[]}}]
            """#)
        let encoded = try NIMCanonicalCodec().encode(decoded)
        let nim = #"3:::{"SID":1,"CID":2,"SER":0,"Q":[]}"#
        #expect(
            String(decoding: encoded.bytes, as: UTF8.self) == "\u{fffd}3\u{fffd}2::\u{fffd}\(nim.count)\u{fffd}\(nim)")
        let back = NIMCodec.decode(encoded.bytes, direction: .send)
        #expect(back.framed && back.items.count == 2 && back.findings.isEmpty)
        // Lengths count UTF-16 code units, as JavaScript's String.length does: 😀 is two.
        let packets: [SocketIO09Packet] = [.message("😀"), .message("é")]
        let payload = SocketIO09Payload.encode(packets)
        #expect(payload == "\u{fffd}6\u{fffd}3:::😀\u{fffd}5\u{fffd}3:::é")
        #expect(SocketIO09Decoder.decode(Array(payload.utf8)).packets.map(\.data) == ["😀", "é"])
    }

    @Test func whatIsNoFrameIsRefused() throws {
        let refused: [() throws -> CanonicalEncoded] = [
            { try NIMCanonicalCodec().encode(.array([])) },
            { try JMessageCanonicalCodec().encode(["socketio": .null]) },
            { try MQTTCanonicalCodec().encode(["type": "NOPE"]) },
            { try LeanCloudCanonicalCodec(encoding: .protobuf).encode(["cmd": "nope"]) },
        ]
        for encode in refused {
            #expect(performing: { try encode() }, throws: { ($0 as? IMWireError)?.code == .canonicalJSON })
        }
    }

    /// Decoding gives what encoding reads, in every codec: a LeanCloud command, an MQTT packet
    /// stream (one part per packet), a yun2win payload, a NIM message, a JMessage event.
    @Test func decodeThenEncodeGivesTheBytesBack() throws {
        let cases: [(any CanonicalCodec, [UInt8], CanonicalInput)] = [
            (LeanCloudCanonicalCodec(), try Hex.decode("080e2801"), CanonicalInput(binary: true)),
            (
                LeanCloudCanonicalCodec(encoding: .json), Array(#"{"cmd":"echo","i":1}"#.utf8),
                CanonicalInput(binary: false)
            ),
            (MQTTCanonicalCodec(), [0xc0, 0x00], CanonicalInput(binary: true)),
            (
                NIMCanonicalCodec(), Array(#"3:::{"SID":1,"CID":2,"SER":0,"Q":[]}"#.utf8),
                CanonicalInput(binary: false, direction: .send)
            ),
            (JMessageCanonicalCodec(), Array("2".utf8), CanonicalInput(binary: false, direction: .send)),
        ]
        for (codec, bytes, input) in cases {
            let decoding = codec.decode(bytes, as: input)
            #expect(decoding.status == 0, "\(decoding.envelope)")
            let decoded = try #require(decoding.parts.first?.decoded)
            #expect(try codec.encode(decoded).bytes == bytes)
        }
        let stream = MQTTCanonicalCodec().decode([0xc0, 0x00, 0xd0, 0x00], as: CanonicalInput(binary: true))
        #expect(stream.parts.map(\.label) == ["packet at 0", "packet at 2"])
        // Nothing decoded is exit status 2, in every codec.
        #expect(LeanCloudCanonicalCodec().decode([0x08], as: CanonicalInput(binary: true)).status == 2)
        #expect(NIMCanonicalCodec().decode(Array("zz".utf8), as: CanonicalInput(binary: false)).status == 2)
        #expect(JMessageCanonicalCodec().decode([], as: CanonicalInput(binary: false)).status == 2)
        #expect(MQTTCanonicalCodec().decode([0xf0, 0x00], as: CanonicalInput(binary: true)).status == 2)
    }

    /// The registration table holds every codec: the four dialects' (each its dialect's
    /// `canonicalCodec`) and the framings' without a dialect, with their options and units.
    @Test func theTableListsEveryCodecWithItsOptions() throws {
        let table = Dialects.standard
        #expect(
            table.codecs.map(\.name) == [
                "leancloud", "nim", "jmessage", "yun2win", "mqtt", "socketio.0.9", "engineio.3",
            ])
        for definition in table.all { #expect(definition.canonicalCodec?.name == definition.dialect.rawValue) }
        let leancloud = try #require(table.codec(named: "leancloud"))
        #expect(
            leancloud.options.map(\.name) == ["encoding"]
                && leancloud.options[0].values == ["protobuf", "base64", "json"])
        #expect(try leancloud.unit() == .binaryFrame && leancloud.unit(["encoding": "json"]) == .textFrame)
        #expect(try table.codec(named: "yun2win")?.unit() == .packets(payloadText: true))
        #expect(try table.codec(named: "mqtt")?.unit() == .packets(payloadText: false))
        #expect(try table.codec(named: "nim")?.unit() == .textFrame)
        // What the table makes is the codec the options name.
        let json = try leancloud.makeCodec(["encoding": "json"]).encode(["cmd": "echo", "i": 1])
        #expect(json == CanonicalEncoded(bytes: Array(#"{"cmd":"echo","i":1}"#.utf8), binary: false))
        // PINGREQ flags 0001: what 3.1 calls unused, 3.1.1 (the default) an error.
        let mqtt = try #require(table.codec(named: "mqtt"))
        let rules = { (options: [String: String]) in
            try mqtt.makeCodec(options).decode([0xc1, 0x00], as: CanonicalInput(binary: true)).parts.flatMap(\.findings)
                .map(\.ruleID.rawValue)
        }
        #expect(
            try rules(["mqtt-version": "3.1"]) == ["MQTT.FIXED-HEADER-FLAGS-V31"]
                && rules([:]) == ["MQTT.FIXED-HEADER-FLAGS"])
        // A value an option does not take names the option and its values; no command's flag.
        #expect {
            try leancloud.makeCodec(["encoding": "xml"])
        } throws: { error in
            error as? IMWireError
                == IMWireError(.codecOptionValue, "encoding xml: expected protobuf, base64 or json", field: "encoding")
        }
        #expect {
            try leancloud.makeCodec(["mqtt-version": "3.1"])
        } throws: { error in
            error as? IMWireError
                == IMWireError(.codecOption, "the leancloud codec has no option mqtt-version", field: "mqtt-version")
        }
    }

    /// The framings' codecs read and write what the socket.io suites of the conformance runner
    /// hold, and NIM's and JMessage's codecs write their packets through them.
    @Test func theSocketIOFramingsRoundTrip() throws {
        let socketIO = try #require(Dialects.standard.codec(named: "socketio.0.9")).makeCodec()
        let text = Array(#"5:1+::{"name":"x","args":[1]}"#.utf8)
        let decoded = try #require(socketIO.decode(text, as: CanonicalInput(binary: false)).parts.first?.decoded)
        #expect(decoded["packets"]?.arrayValue?.count == 1)
        #expect(try socketIO.encode(decoded).bytes == text)
        #expect(try NIMCanonicalCodec().encode(decoded).bytes == text)
        let engineIO = try #require(Dialects.standard.codec(named: "engineio.3")).makeCodec()
        let message = Array(#"42["x",{}]"#.utf8)
        let value = try #require(engineIO.decode(message, as: CanonicalInput(binary: false)).parts.first?.decoded)
        #expect(try engineIO.encode(value).bytes == message && JMessageCanonicalCodec().encode(value).bytes == message)
    }
}
