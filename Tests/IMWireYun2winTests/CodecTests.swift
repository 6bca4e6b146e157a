import IMWireCore
import IMWireMQTT
import Testing

@testable import IMWireYun2win

func publish(_ topic: String, _ payload: String, qos: MQTTQoS = .atMostOnce) -> [UInt8] {
    MQTTPacketEncoder.encode(
        .publish(
            MQTTPublish(
                qos: qos, topic: topic, packetID: qos == .atMostOnce ? nil : 1,
                payload: Array(payload.utf8))))
}

func ruleIDs(_ decoded: [Yun2winDecodedPacket]) -> [String] {
    decoded.flatMap { $0.findings.filter { $0.severity >= .warning }.map(\.ruleID.rawValue) }
}

@Suite("yun2win codec")
struct CodecTests {
    static let uuid = "3f2504e0-4f89-11d3-9a0c-0305e82c3301"

    @Test(arguments: Yun2winPlatform.allCases)
    func connectFollowingThePlatformIsClean(platform: Yun2winPlatform) throws {
        let connect = MQTTConnect(
            version: platform.mqttVersion, keepAlive: platform.keepAlive,
            clientID: "0\(platform.digit)\(Self.uuid)", username: "u1", password: Array("tok".utf8))
        let decoded = Yun2winCodec.decodeAll(MQTTPacketEncoder.encode(.connect(connect)), direction: .send)
        try #require(decoded.count == 1)
        guard case .connect(let y2w)? = decoded[0].message else {
            Issue.record("not a connect")
            return
        }
        #expect(y2w.uid == "u1")
        #expect(y2w.token == "tok")
        #expect(y2w.parsedClientID?.platform == platform)
        #expect(y2w.parsedClientID?.isReconnect == false)
        // 3.1 limits client ids to 23 characters; yun2win's Android ids have 38, which its brokers
        // accept: an info finding under yun2win (a bare MQTT decode warns).
        #expect(ruleIDs(decoded) == [])
        let infos = decoded[0].findings.filter { $0.severity == .info }.map(\.ruleID.rawValue)
        #expect(infos == (platform == .android ? ["MQTT.CLIENT-ID-TOO-LONG-V31"] : []))
    }

    @Test func connectWithoutCredentialsOrWithAnotherPlatformsParameters() {
        let connect = MQTTConnect(version: .v3_1_1, keepAlive: 30, clientID: "02\(Self.uuid)")
        let decoded = Yun2winCodec.decodeAll(MQTTPacketEncoder.encode(.connect(connect)), direction: .send)
        #expect(
            ruleIDs(decoded) == [
                "Y2W.CONNECT-USERNAME-MISSING", "Y2W.CONNECT-PASSWORD-MISSING", "Y2W.CONNECT-CONVENTION",
            ])
        let bad = MQTTConnect(version: .v3_1_1, keepAlive: 60, clientID: "x2abc", username: "u", password: [0x31])
        #expect(
            ruleIDs(Yun2winCodec.decodeAll(MQTTPacketEncoder.encode(.connect(bad)), direction: .send)) == [
                "Y2W.CLIENT-ID-FORMAT"
            ])
    }

    @Test func commandsDecodeAndEncodeBack() throws {
        let payloads = [
            #"""
            {"cmd":"sendMessage","y2wMessageId":"m1","mts":1479000000000,\#
            "message":{"syncs":[{"type":0},{"type":1,"sessionId":"p2p_7"}],"pns":{"msg":"hi"}}}
            """#,
            #"""
            {"cmd":"updateSession","y2wMessageId":"m2","mts":1479000000001,"members":[{"uid":"a",\#
            "isDel":false},{"uid":"b","isDel":true}],"force":true,"message":{}}
            """#,
        ]
        for payload in payloads {
            let decoded = Yun2winCodec.decodeAll(publish("y2w/session/p2p_7", payload), direction: .send)
            #expect(ruleIDs(decoded) == [])
            guard case .command(let command, let topic)? = decoded.first?.message else {
                Issue.record("no command")
                continue
            }
            #expect(topic.sessionParts?.type == "p2p")
            #expect(topic.sessionParts?.id == "7")
            #expect(JSONWriter.string(command.json) == payload)
        }
        let token = Yun2winCodec.decodeAll(
            publish("y2w/single02\(Self.uuid)", #"{"cmd":"updateToken","token":"ab12"}"#), direction: .send)
        #expect(ruleIDs(token) == [])
        #expect(token.first?.message == .command(.updateToken(token: "ab12"), topic: .single(suffix: "02\(Self.uuid)")))
    }

    @Test func badCommandsAreReportedAtTheirKey() throws {
        // PUBLISH header 2 bytes + topic length 2 + "y2w/session/a_b" (15) = payload at 19.
        let base = 19
        let cases: [(String, String, Int)] = [
            (#"{"cmd":"deleteSession"}"#, "Y2W.CMD-UNKNOWN", 1),
            (#"{"y2wMessageId":"m"}"#, "Y2W.CMD-MISSING", 0),
            (#"{"cmd":"sendMessage","mts":1,"message":{}}"#, "Y2W.MESSAGE-ID-MISSING", 0),
            (#"{"cmd":"sendMessage","y2wMessageId":"m","mts":"1","message":{}}"#, "Y2W.MTS-INVALID", 40),
            (#"{"cmd":"sendMessage","y2wMessageId":"m","mts":1,"message":[]}"#, "Y2W.FIELD-INVALID", 48),
            (#"{"cmd":"sendMessage","y2wMessageId":"m","mts":1,"message":{},"x":1}"#, "Y2W.UNKNOWN-KEY", 61),
            (
                #"{"cmd":"sendMessage","y2wMessageId":"m","mts":1,"message":{"syncs":[{"type":9}]}}"#,
                "Y2W.APP-MESSAGE-INVALID", 69
            ),
            (#"not json"#, "Y2W.PAYLOAD-NOT-JSON", 0),
        ]
        for (payload, rule, offset) in cases {
            let decoded = Yun2winCodec.decodeAll(publish("y2w/session/a_b", payload), direction: .send)
            let findings = decoded.flatMap(\.findings).filter { $0.severity >= .warning }
            #expect(findings.map(\.ruleID.rawValue) == [rule], "\(payload)")
            #expect(findings.first?.offset == base + offset, "\(payload)")
        }
    }

    @Test func serverMessagesAndHowCodesTravel() throws {
        func server(_ payload: String) -> [Yun2winDecodedPacket] {
            Yun2winCodec.decodeAll(publish("y2w/u1", payload), direction: .receive)
        }
        #expect(server(#"{"returnCode":11}"#).first?.message == .server(.connectionReturn(code: 11), topic: "y2w/u1"))
        #expect(ruleIDs(server(#"{"returnCode":10}"#)) == [])
        #expect(ruleIDs(server(#"{"y2wMessageId":"m1","returnCode":20}"#)) == [])
        #expect(ruleIDs(server(#"{"y2wMessageId":"m1","returnCode":27,"mts":5}"#)) == [])
        #expect(ruleIDs(server(#"{"y2wMessageId":"m1","returnCode":28}"#)) == ["Y2W.ACK-MTS-MISSING"])
        #expect(ruleIDs(server(#"{"y2wMessageId":"m1","returnCode":21}"#)) == ["Y2W.CLIENT-LOCAL-CODE-ON-WIRE"])
        #expect(ruleIDs(server(#"{"y2wMessageId":"m1","returnCode":5}"#)) == ["Y2W.RETURN-CODE-WRONG-TRAVEL"])
        #expect(ruleIDs(server(#"{"returnCode":5}"#)) == ["Y2W.RETURN-CODE-WRONG-TRAVEL"])
        #expect(ruleIDs(server(#"{"returnCode":20}"#)) == ["Y2W.RETURN-CODE-WRONG-TRAVEL"])
        #expect(ruleIDs(server(#"{"returnCode":101}"#)) == ["Y2W.CLIENT-LOCAL-CODE-ON-WIRE"])
        #expect(ruleIDs(server(#"{"returnCode":42}"#)) == ["Y2W.RETURN-CODE-UNKNOWN"])

        func connack(_ code: UInt8) -> [Yun2winDecodedPacket] {
            Yun2winCodec.decodeAll(
                MQTTPacketEncoder.encode(.connack(MQTTConnack(returnCode: code))), direction: .receive)
        }
        for code: UInt8 in [0, 2, 3, 4, 5, 6, 7, 99, 100] { #expect(ruleIDs(connack(code)) == [], "CONNACK \(code)") }
        #expect(connack(4).first?.findings.map(\.ruleID.rawValue) == ["Y2W.CONNACK-YUN2WIN-MEANING"])
        #expect(ruleIDs(connack(1)) == ["Y2W.CONNACK-CODE-UNUSED"])
        #expect(ruleIDs(connack(10)) == ["MQTT.CONNACK-RETURN-CODE-RESERVED", "Y2W.RETURN-CODE-WRONG-TRAVEL"])
        #expect(ruleIDs(connack(101)) == ["MQTT.CONNACK-RETURN-CODE-RESERVED", "Y2W.CLIENT-LOCAL-CODE-ON-WIRE"])
    }

    @Test func topicsAndClientIDs() {
        #expect(Yun2winTopic("y2w/session/y2wIMApp_u1").sessionParts?.type == "y2wIMApp")
        #expect(Yun2winTopic("y2w/single123") == .single(suffix: "123"))
        #expect(Yun2winTopic("other/t") == .other("other/t"))
        let id = Yun2winClientID.parse("12\(Self.uuid.uppercased())")
        #expect(id?.isReconnect == true && id?.platform == .ios && id?.hasWellFormedUUID == true)
        #expect(Yun2winClientID.parse("32abc") == nil)
        #expect(Yun2winClientID.parse("01xyz")?.hasWellFormedUUID == false)
        #expect(Yun2winClientID.parse("00\(Self.uuid)")?.hasWellFormedUUID == true)
        // One group a digit short, one a digit long, a g, a dash out of place, a fullwidth 1.
        for bad in [
            "0123456-89ab-cdef-0123-456789abcdef0", "012345678-9ab-cdef-0123-456789abcdef",
            "01234567-89ab-cdef-0123-456789abcdeg",
            "01234567-89ab-cdef-0123-456789abcde-", "01234567-89ab-cdef-0123-456789abcde\u{FF11}",
            "01234567-89ab-cdef-0123-456789abcdef-", "",
        ] {
            #expect(Yun2winClientID(isReconnect: false, platform: .web, uuid: bad).hasWellFormedUUID == false, "\(bad)")
        }
        let wrongTopic = Yun2winCodec.decodeAll(
            publish("y2w/single1", #"{"cmd":"sendMessage","y2wMessageId":"m","mts":1,"message":{}}"#),
            direction: .send)
        #expect(ruleIDs(wrongTopic) == ["Y2W.TOPIC-COMMAND-MISMATCH"])
        #expect(wrongTopic.first?.findings.first?.offset == 2)
        let qos1 = Yun2winCodec.decodeAll(
            publish("y2w/session/a_b", #"{"cmd":"updateToken","token":"t"}"#, qos: .atLeastOnce), direction: .send)
        #expect(ruleIDs(qos1) == ["Y2W.TOPIC-COMMAND-MISMATCH", "Y2W.PUBLISH-CONVENTION"])
    }

    @Test func gate() {
        let (request, findings) = Yun2winGate.decodeRequest(Array("oper=register&country=".utf8))
        #expect(findings.isEmpty && request?.isJSON == false && request?.fields.first?.value == "register")
        let (ios, iosFindings) = Yun2winGate.decodeRequest(Array(#"{"oper":"register","appKey":"k","uid":"u"}"#.utf8))
        #expect(iosFindings.isEmpty && ios?.isJSON == true && ios?.fields.count == 3)
        #expect(
            Yun2winGate.decodeRequest(Array("oper=login".utf8)).1.map(\.ruleID.rawValue) == ["Y2W.GATE-REQUEST-INVALID"]
        )
        let (reply, replyFindings) = Yun2winGate.decodeReply(
            Array(#"{"rtnval":"success","data":{"url":"im.example","region":"hz"}}"#.utf8))
        #expect(replyFindings.isEmpty && reply?.url == "im.example" && reply?.region == "hz")
        #expect(Yun2winGate.decodeReply(Array(#"{"rtnval":"fail"}"#.utf8)).1.first?.offset == 1)
    }

    @Test func ruleIDsAreUnique() {
        let ids = Yun2winRules.all.map(\.id.rawValue)
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.hasPrefix("Y2W.") })
        #expect(Yun2winRules.all.allSatisfy { $0.dialect == .yun2win })
    }
}
