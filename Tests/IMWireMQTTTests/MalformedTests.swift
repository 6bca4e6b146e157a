import IMWireCore
import Testing

@testable import IMWireMQTT

/// One malformed packet: its bytes, the version it is read under, and the findings expected.
struct MalformedCase: CustomStringConvertible, Sendable {
    let name: String
    let hex: String
    let version: MQTTVersion?
    let expected: [(String, Int)]
    let decodes: Bool
    var description: String { name }

    init(
        _ name: String, _ hex: String, _ version: MQTTVersion? = nil, _ expected: [(String, Int)], decodes: Bool = true
    ) {
        self.name = name
        self.hex = hex
        self.version = version
        self.expected = expected
        self.decodes = decodes
    }
}

@Suite("MQTT malformed packets")
struct MalformedTests {
    static let cases: [MalformedCase] = [
        MalformedCase("QoS 3 PUBLISH", "36050001610001", nil, [("MQTT.PUBLISH-QOS-INVALID", 0)], decodes: false),
        MalformedCase("DUP on QoS 0", "38050001616263", nil, [("MQTT.PUBLISH-DUP-QOS0", 0)]),
        MalformedCase(
            "password without user name",
            "10120004" + "4d515454" + "04" + "42" + "003c" + "0001" + "61" + "0003" + "707077",
            nil, [("MQTT.PASSWORD-WITHOUT-USERNAME", 9)]),
        MalformedCase("NUL in topic", "3006000361006278", nil, [("MQTT.STRING-NUL", 5)]),
        MalformedCase("wildcard in topic", "3005000361232f", nil, [("MQTT.TOPIC-WILDCARD", 5)]),
        MalformedCase("empty topic", "300200" + "00", nil, [("MQTT.TOPIC-EMPTY", 2)]),
        MalformedCase("invalid UTF-8 in topic", "30040002c328", nil, [("MQTT.STRING-INVALID-UTF8", 5)]),
        MalformedCase("PUBREL flags 0000", "60020001", .v3_1_1, [("MQTT.FIXED-HEADER-FLAGS", 0)]),
        MalformedCase("PUBREL flags 0000 under 3.1", "60020001", .v3_1, [("MQTT.FIXED-HEADER-FLAGS-V31", 0)]),
        MalformedCase("PINGREQ with flags", "c100", nil, [("MQTT.FIXED-HEADER-FLAGS", 0)]),
        MalformedCase("reserved type 0", "0000", nil, [("MQTT.PACKET-TYPE-RESERVED", 0)], decodes: false),
        MalformedCase("non-minimal length", "d08000", nil, [("MQTT.REMAINING-LENGTH-NON-MINIMAL", 1)]),
        MalformedCase("DISCONNECT with a body", "e00100", nil, [("MQTT.TRAILING-BYTES", 2)]),
        MalformedCase("PUBACK too short", "400100", nil, [("MQTT.FIELD-OVERRUN", 2)], decodes: false),
        MalformedCase("packet id 0", "40020000", nil, [("MQTT.PACKET-ID-ZERO", 2)]),
        MalformedCase(
            "CONNECT reserved flag", "100d00044d5154540403003c000161", nil, [("MQTT.CONNECT-RESERVED-FLAG", 9)]),
        MalformedCase(
            "will QoS without will", "100d00044d5154540408003c000161", nil, [("MQTT.WILL-FLAGS-INCONSISTENT", 9)]),
        MalformedCase(
            "will QoS 3", "101300044d515454041e003c000161000177" + "00016d", nil, [("MQTT.WILL-QOS-INVALID", 9)]),
        MalformedCase(
            "unknown protocol name", "100d00044d5154580402003c000161", nil, [("MQTT.PROTOCOL-NAME-INVALID", 4)]),
        MalformedCase(
            "protocol level 5", "100d00044d5154540502003c000161", nil, [("MQTT.PROTOCOL-LEVEL-UNSUPPORTED", 8)]),
        MalformedCase(
            "MQIsdp with level 4", "100f00064d51497364700402003c000161", nil,
            [("MQTT.PROTOCOL-NAME-LEVEL-MISMATCH", 10)]),
        MalformedCase(
            "empty client id under 3.1", "100e00064d514973647003020000" + "0000", nil, [("MQTT.CLIENT-ID-EMPTY", 14)]),
        MalformedCase(
            "empty client id without clean session", "100c00044d51545404000000" + "0000", nil,
            [("MQTT.CLIENT-ID-EMPTY", 12)]),
        MalformedCase(
            "client id over 23 under 3.1",
            "102600064d5149736470030200" + "1e" + "0018" + String(repeating: "61", count: 24),
            nil, [("MQTT.CLIENT-ID-TOO-LONG-V31", 14)]),
        MalformedCase(
            "CONNACK session present on refusal", "20020105", .v3_1_1,
            [("MQTT.CONNACK-SESSION-PRESENT-ON-REFUSAL", 2)]),
        MalformedCase("CONNACK flags under 3.1", "20020100", .v3_1, [("MQTT.CONNACK-FLAGS-RESERVED", 2)]),
        MalformedCase("CONNACK reserved code", "20020007", nil, [("MQTT.CONNACK-RETURN-CODE-RESERVED", 3)]),
        MalformedCase("SUBSCRIBE without filters", "82020001", nil, [("MQTT.PAYLOAD-EMPTY", 4)]),
        MalformedCase("SUBSCRIBE bad filter", "820800010003612362" + "00", nil, [("MQTT.TOPIC-FILTER-INVALID", 7)]),
        MalformedCase("SUBSCRIBE QoS 3", "8206000100016103", nil, [("MQTT.SUBSCRIBE-QOS-INVALID", 7)]),
        MalformedCase("SUBACK code 3", "9003000103", nil, [("MQTT.SUBACK-RETURN-CODE-INVALID", 4)]),
        MalformedCase(
            "UNSUBSCRIBE with + in a level", "a2070001000361" + "2b62", nil, [("MQTT.TOPIC-FILTER-INVALID", 7)]),
        MalformedCase("topic length past the end", "3003000561", nil, [("MQTT.FIELD-OVERRUN", 4)], decodes: false),
        MalformedCase("truncated body", "300a000161", nil, [("MQTT.TRUNCATED", 5)], decodes: false),
    ]

    @Test(arguments: cases)
    func reportsTheRuleAtTheOffset(_ item: MalformedCase) throws {
        let bytes = try Hex.decode(item.hex)
        let decoded = MQTTStreamDecoder.decodeAll(bytes, options: MQTTDecodeOptions(version: item.version))
        try #require(decoded.count == 1, "\(decoded)")
        let findings = decoded[0].findings.map { ($0.ruleID.rawValue, $0.offset ?? -1) }
        #expect(findings.map(\.0) == item.expected.map(\.0), "\(decoded[0].findings)")
        #expect(findings.map(\.1) == item.expected.map(\.1), "\(decoded[0].findings)")
        #expect((decoded[0].packet != nil) == item.decodes)
        for finding in decoded[0].findings {
            #expect(MQTTRules.all.contains(finding.rule))
        }
    }

    @Test func vendorConnackCodesAreNotReserved() throws {
        let options = MQTTDecodeOptions(vendorConnackCodes: [6, 7])
        let decoded = MQTTStreamDecoder.decodeAll([0x20, 0x02, 0x00, 0x07], options: options)
        #expect(decoded.first?.findings.isEmpty == true)
        #expect(decoded.first?.packet == .connack(MQTTConnack(returnCode: 7)))
    }

    @Test func threeOneAllowsDupOnResentSubscribe() throws {
        let packet = MQTTPacket.subscribe(
            MQTTSubscribe(packetID: 3, subscriptions: [.init(topicFilter: "a", qos: .atMostOnce)], dup: true))
        let bytes = MQTTPacketEncoder.encode(packet)
        #expect(bytes[0] == 0x8a)
        let v31 = MQTTStreamDecoder.decodeAll(bytes, options: MQTTDecodeOptions(version: .v3_1))
        #expect(v31.first?.findings.isEmpty == true)
        #expect(v31.first?.packet == packet)
        let v311 = MQTTStreamDecoder.decodeAll(bytes, options: MQTTDecodeOptions(version: .v3_1_1))
        #expect(v311.first?.findings.map(\.ruleID) == [MQTTRules.fixedHeaderFlags.id])
    }

    @Test func ruleIDsAreUniqueAndWellFormed() {
        let ids = MQTTRules.all.map(\.id.rawValue)
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.hasPrefix("MQTT."))
            #expect(id.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "." || $0 == "-" })
        }
    }

    @Test func garbageNeverTraps() {
        var random = SplitMix(state: 0x1234_5678_9abc_def1)
        for _ in 0..<2000 {
            let bytes = (0..<(1 + random.next(64))).map { _ in UInt8(random.next(256)) }
            let whole = MQTTStreamDecoder.decodeAll(bytes)
            var decoder = MQTTStreamDecoder()
            var chunked: [MQTTDecodedPacket] = []
            for byte in bytes { chunked += decoder.feed([byte]) }
            chunked += decoder.finish()
            #expect(whole == chunked)
        }
    }
}
