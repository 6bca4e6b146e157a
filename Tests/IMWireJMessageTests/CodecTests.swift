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
        #expect(
            JMessageSignature.message(appkey: "k", timestamp: "1", randomString: "r", secret: "s")
                == "appkey=k&timestamp=1&random_str=r&key=s")
        #expect(JMessageSignature.isMD5Hex(signature))
        var payload = JSONObject()
        payload.append("appkey", "k")
        payload.append("random_str", "r")
        payload.append("timestamp", 1)
        payload.append("signature", .string(signature))
        #expect(JMessageSignature.check(payload, secret: "s", at: 0).isEmpty)
        let wrong = JMessageSignature.check(payload, secret: "x", at: 0)
        #expect(wrong.map(\.ruleID.rawValue) == ["JM.SIGNATURE-INVALID"])
        // The signature is a credential and the expected one a keyed hash of the secret: neither is in the message.
        let expected = JMessageSignature.sign(appkey: "k", timestamp: "1", randomString: "r", secret: "x")
        #expect(
            wrong.allSatisfy { !$0.message.contains(signature) && !$0.message.contains(expected) },
            "\(wrong.map(\.message))")
    }

    @Test func everyEventNameIsUniqueAndRolesCoverTheFlows() {
        #expect(Set(JMessageEvents.all.map(\.name)).count == JMessageEvents.all.count)
        #expect(JMessageEvents.spec("msg_sync")?.role == .push && JMessageEvents.spec("msg_recv_v2")?.role == .reply)
        #expect(JMessageEvents.all.filter { $0.since.contains("UNCONFIRMED") }.count == 6)
    }

    /// RETRY_TIMES 5 (jmessage.md §3) is one send and up to 5 re-sends: the sixth send is within
    /// the budget, the seventh is the first past it.
    @Test func retryBudgetIsOneSendAndFiveResends() {
        var tracker = JMessageSessionTracker()
        #expect(tracker.options.resendLimit == 5)
        var payload = JSONObject()
        payload.append("rid", 9)
        let request = JMessageEvent(name: "get_groups_list", payload: payload, kind: .request)
        var limitAt: [Int] = []
        var all: [String] = []
        for send in 1...8 {
            let findings = tracker.observe(request, timeMicros: Int64(send - 1) * 5_500_000, frameIndex: send)
            if findings.contains(where: { $0.ruleID == "JM.RETRY-LIMIT" }) { limitAt.append(send) }
            all += findings.map(\.ruleID.rawValue)
        }
        #expect(limitAt == [7, 8])
        #expect(all.contains("JM.BEFORE-INIT"))
        #expect(!all.contains("JM.ACK-MISSING") && !all.contains("JM.RETRY-EARLY"))
    }

    @Test func pushedMessagesAreTrackedUpToALimit() {
        var tracker = JMessageSessionTracker()
        let limit = Limits.default.maxPendingRequests
        var payload = JSONObject()
        payload.append(
            "messages",
            .array(
                (0..<(limit + 3)).map { id in
                    var message = JSONObject()
                    message.append("msg_id", .number(JSONNumber(id)))
                    return .object(message)
                }))
        _ = tracker.observe(
            JMessageEvent(name: "msg_sync", payload: payload, kind: .push), timeMicros: 0, frameIndex: 1)
        let unacknowledged = tracker.finish(atMicros: 60_000_000).filter { $0.ruleID == "JM.MSG-NOT-ACKNOWLEDGED" }
        #expect(unacknowledged.count == limit)
    }

    @Test func aSmallerResendLimitMovesTheBoundary() {
        var tracker = JMessageSessionTracker(options: JMessageSessionOptions(resendLimit: 0))
        var payload = JSONObject()
        payload.append("rid", 4)
        let request = JMessageEvent(name: "get_groups_list", payload: payload, kind: .request)
        #expect(!tracker.observe(request, timeMicros: 0, frameIndex: 1).contains { $0.ruleID == "JM.RETRY-LIMIT" })
        #expect(
            tracker.observe(request, timeMicros: 6_000_000, frameIndex: 2).contains { $0.ruleID == "JM.RETRY-LIMIT" })
    }

    @Test func eventTypeIsNamedThroughTheWebTable() {
        func decoded(_ type: String) -> (JSONValue?, [String]) {
            let message = JMessageCodec.decode(
                Array(#"42["event_notification",{"event_id":1,"event_type":\#(type)}]"#.utf8), direction: .receive)
            return (
                JMessageCanonicalJSON.encode(message)["jmessage"]?["event_type"],
                message.findings.map(\.ruleID.rawValue)
            )
        }
        let (forced, clean) = decoded("1")
        #expect(
            forced?["code"] == 1 && forced?["meaning"]?.stringValue?.hasPrefix("Forced offline") == true
                && clean.isEmpty)
        #expect(decoded("55").0?["meaning"]?.stringValue?.hasPrefix("Message retracted") == true)
        for unknown in ["86", "\"1\"", "1.5"] {
            let (value, findings) = decoded(unknown)
            #expect(value?["meaning"] == .null && findings == ["JM.EVENT-TYPE-UNKNOWN"], "\(unknown)")
        }
        #expect(JMessageStatusCodes.webEventType.rows.count == 27)
    }

    @Test func arbitraryBytesNeverTrap() {
        var seed: UInt64 = 42
        let base = Array(
            #"42["s_across_single_text",{"content":{"version":1,"msg_type":"image","msg_body":{}},"rid":3}]"#.utf8)
        for round in 0..<400 {
            var bytes = base
            for _ in 0..<(round % 6) {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes[Int(seed >> 33) % bytes.count] = UInt8(truncatingIfNeeded: seed >> 13)
            }
            _ = JMessageCodec.decode(
                Array(bytes.prefix(round % bytes.count + 1)), binaryFrame: round % 5 == 0, direction: nil)
        }
        #expect(Bool(true))
    }
}
