import IMWireCore
import Testing

@testable import IMWireMQTT

/// One valid packet of every type, for both versions.
func samplePackets(_ version: MQTTVersion) -> [MQTTPacket] {
    let will = MQTTConnect.Will(topic: "status/1", message: [0xde, 0xad], qos: .atLeastOnce, retain: true)
    return [
        .connect(
            MQTTConnect(
                version: version, cleanSession: true, keepAlive: 30, clientID: "01client",
                username: "u1", password: Array("tok".utf8))),
        .connect(MQTTConnect(version: version, cleanSession: false, keepAlive: 0, clientID: "c2", will: will)),
        .connack(MQTTConnack(sessionPresent: version == .v3_1_1, returnCode: 0)),
        .connack(MQTTConnack(returnCode: 5)),
        .publish(MQTTPublish(topic: "y2w/session/p2p_1", payload: Array("{\"returnCode\":11}".utf8))),
        .publish(
            MQTTPublish(dup: true, qos: .atLeastOnce, retain: true, topic: "a/b", packetID: 7, payload: [0, 1, 0xff])),
        .publish(MQTTPublish(qos: .exactlyOnce, topic: "a", packetID: 65535, payload: [])),
        .puback(packetID: 7),
        .pubrec(packetID: 8),
        .pubrel(packetID: 8),
        .pubcomp(packetID: 8),
        .subscribe(
            MQTTSubscribe(
                packetID: 9,
                subscriptions: [
                    .init(topicFilter: "a/+/c", qos: .atLeastOnce),
                    .init(topicFilter: "#", qos: .atMostOnce),
                ])),
        .suback(MQTTSuback(packetID: 9, returnCodes: version == .v3_1_1 ? [1, 0x80] : [1, 0])),
        .unsubscribe(MQTTUnsubscribe(packetID: 10, topicFilters: ["a/+/c", "sport/#"])),
        .unsuback(packetID: 10),
        .pingreq,
        .pingresp,
        .disconnect,
    ]
}

@Suite("MQTT round trips")
struct RoundTripTests {
    @Test(arguments: MQTTVersion.allCases)
    func everyPacketTypeRoundTrips(version: MQTTVersion) throws {
        let packets = samplePackets(version)
        #expect(Set(packets.map(\.type)) == Set(MQTTPacketType.allCases))
        for packet in packets {
            let bytes = MQTTPacketEncoder.encode(packet)
            let decoded = MQTTStreamDecoder.decodeAll(bytes, options: MQTTDecodeOptions(version: version))
            try #require(decoded.count == 1, "\(packet.summary)")
            #expect(decoded[0].packet == packet)
            #expect(decoded[0].findings.isEmpty, "\(packet.summary): \(decoded[0].findings)")
            #expect(decoded[0].length == bytes.count)
            #expect(decoded[0].version == version)
        }
    }

    @Test(arguments: MQTTVersion.allCases)
    func canonicalJSONRoundTrips(version: MQTTVersion) throws {
        for packet in samplePackets(version) {
            let json = MQTTCanonicalJSON.encode(packet)
            let text = JSONWriter.string(json)
            let reparsed = try JSONParser.parse(text)
            #expect(try MQTTCanonicalJSON.decode(reparsed) == packet, "\(text)")
        }
    }

    @Test func knownBytes() {
        #expect(MQTTPacketEncoder.encode(.pingreq) == [0xc0, 0x00])
        #expect(MQTTPacketEncoder.encode(.pingresp) == [0xd0, 0x00])
        #expect(MQTTPacketEncoder.encode(.disconnect) == [0xe0, 0x00])
        #expect(MQTTPacketEncoder.encode(.pubrel(packetID: 1)) == [0x62, 0x02, 0x00, 0x01])
        #expect(MQTTPacketEncoder.encode(.connack(MQTTConnack(returnCode: 2))) == [0x20, 0x02, 0x00, 0x02])
        // MQTT 3.1 CONNECT "MQIsdp" level 3, clean session, keep-alive 30, client "a".
        let connect = MQTTPacketEncoder.encode(.connect(MQTTConnect(version: .v3_1, keepAlive: 30, clientID: "a")))
        #expect(Hex.encode(connect) == "100f00064d51497364700302001e000161")
    }

    @Test func remainingLengthBoundaries() throws {
        for size in [0, 127, 128, 16383, 16384, 70000] {
            let payload = [UInt8](repeating: 0x41, count: size)
            let bytes = MQTTPacketEncoder.encode(.publish(MQTTPublish(topic: "t", payload: payload)))
            let body = size + 3
            let expectedHeader = body < 128 ? 2 : (body < 16384 ? 3 : 4)
            let decoded = MQTTStreamDecoder.decodeAll(bytes)
            try #require(decoded.count == 1)
            #expect(decoded[0].length == expectedHeader + body)
            #expect(decoded[0].findings.isEmpty)
            guard case .publish(let publish)? = decoded[0].packet else {
                Issue.record("not a PUBLISH")
                continue
            }
            #expect(publish.payload.count == size)
        }
    }

    @Test func versionIsLearnedFromConnect() {
        var stream: [UInt8] = []
        stream += MQTTPacketEncoder.encode(.connect(MQTTConnect(version: .v3_1, keepAlive: 30, clientID: "x")))
        stream += MQTTPacketEncoder.encode(.suback(MQTTSuback(packetID: 1, returnCodes: [0x80])))
        let decoded = MQTTStreamDecoder.decodeAll(stream)
        #expect(decoded.map(\.version) == [.v3_1_1, .v3_1])
        // 0x80 is a 3.1.1 failure code only.
        #expect(decoded[1].findings.map(\.ruleID) == [MQTTRules.subackReturnCodeInvalid.id])
    }
}
