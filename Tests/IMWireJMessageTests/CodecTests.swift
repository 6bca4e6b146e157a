import IMWireCore
import IMWireJMessage
import IMWireSocketIO
import Testing

@Suite struct JMessageCodecTests {
    @Test func responseWithoutRidIsReported() {
        let message = JMessageCodec.decode(Array(#"42["send_group_msg",{"code":803005}]"#.utf8), direction: .receive)
        #expect(message.findings.filter { $0.severity >= .warning }.map(\.ruleID.rawValue) == ["JM.RID-MISSING"])
        #expect(message.event?.kind == .response)
    }

    @Test func signatureMatchesTheDocumentedString() {
        let signature = JMessageSignature.sign(appkey: "k", timestamp: "1", randomString: "r", secret: "s")
        #expect(JMessageSignature.message(appkey: "k", timestamp: "1", randomString: "r", secret: "s") == "appkey=k&timestamp=1&random_str=r&key=s")
        #expect(JMessageSignature.isMD5Hex(signature))
        var payload = JSONObject()
        payload.append("appkey", "k"); payload.append("random_str", "r"); payload.append("timestamp", 1); payload.append("signature", .string(signature))
        #expect(JMessageSignature.check(payload, secret: "s", at: 0).isEmpty)
        #expect(JMessageSignature.check(payload, secret: "x", at: 0).map(\.ruleID.rawValue) == ["JM.SIGNATURE-INVALID"])
    }

    @Test func everyEventNameIsUniqueAndRolesCoverTheFlows() {
        #expect(Set(JMessageEvents.all.map(\.name)).count == JMessageEvents.all.count)
        #expect(JMessageEvents.spec("msg_sync")?.role == .push && JMessageEvents.spec("msg_recv_v2")?.role == .reply)
        #expect(JMessageEvents.all.filter { $0.since.contains("UNCONFIRMED") }.count == 6)
    }

    @Test func retriesWithTheSameRidAreCounted() {
        var tracker = JMessageSessionTracker()
        func event(_ name: String, _ payload: JSONObject, _ kind: JMessageEventKind) -> JMessageEvent { JMessageEvent(name: name, payload: payload, kind: kind) }
        var findings: [Finding] = []
        var payload = JSONObject()
        payload.append("rid", 9)
        for index in 0..<6 { findings += tracker.observe(event("get_groups_list", payload, .request), time: Int64(index) * 5_500_000, frameIndex: index + 1) }
        #expect(findings.map(\.ruleID.rawValue).contains("JM.RETRY-LIMIT"))
        #expect(findings.map(\.ruleID.rawValue).contains("JM.BEFORE-INIT"))
        #expect(!findings.map(\.ruleID.rawValue).contains("JM.ACK-MISSING"))
    }

    @Test func arbitraryBytesNeverTrap() {
        var seed: UInt64 = 42
        let base = Array(#"42["s_across_single_text",{"content":{"version":1,"msg_type":"image","msg_body":{}},"rid":3}]"#.utf8)
        for round in 0..<400 {
            var bytes = base
            for _ in 0..<(round % 6) {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                bytes[Int(seed >> 33) % bytes.count] = UInt8(truncatingIfNeeded: seed >> 13)
            }
            _ = JMessageCodec.decode(Array(bytes.prefix(round % bytes.count + 1)), binaryFrame: round % 5 == 0, direction: nil)
        }
        #expect(Bool(true))
    }
}
