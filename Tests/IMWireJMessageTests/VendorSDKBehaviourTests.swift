import IMWireCore
import IMWireJMessage
import IMWireSocketIO
import Testing

/// What the genuine JMessage web SDK 2.5.0 did against a mock server
/// (Fixtures/captures/vendor-sdk/jmessage), replayed message by message through one connection.
@Suite struct JMessageVendorSDKBehaviourTests {
    private static let open = #"0{"sid":"s1","upgrades":[],"pingInterval":25000,"pingTimeout":60000}"#

    /// Rule IDs of each message's findings, for `(ms, direction, text)` on one connection.
    private func replay(_ messages: [(Int64, Direction, String)]) -> [[String]] {
        let connection = JMessageConnection()
        var result: [[String]] = []
        let start = messages.first?.0 ?? 0
        for (index, (millis, direction, text))
            in ([(start, Direction.receive, Self.open), (start, .receive, "40")] + messages).enumerated()
        {
            let findings = connection.observe(
                Array(text.utf8), binaryFrame: false, direction: direction, timeMicros: millis * 1000, frameIndex: index
            ).observation.findings
            if index >= 2 { result.append(findings.map(\.ruleID.rawValue)) }
        }
        return result
    }

    private func send(rid: Int, createdMillis: Int64) -> String {
        #"""
        42["s_across_single_text",{"content":{"version":1,"target_type":"single",\#
        "from_platform":"web","target_id":"bob","from_id":"alice","create_time":\#(createdMillis),\#
        "msg_type":"text","msg_body":{"text":"hi"}},"no_offline":false,"no_notification":false,\#
        "target_id":"bob","appkey":"4f7aef34fb361292c566a1cd","rid":\#(rid)}]
        """#
    }

    /// jmessage-drop-pending: the send pending when the transport dropped is re-sent 5 s after its
    /// first send on the connection socket.io reconnected, before any c_init: a re-send, not a
    /// request before init. The server's refusal is still named.
    @Test func aSendCarriedOverFromAnEarlierConnectionIsAResendNotBeforeInit() {
        let created: Int64 = 1_795_823_396_033
        let findings = replay([
            (created + 5002, .send, send(rid: 4_926_386, createdMillis: created)),
            (created + 5003, .receive, #"42["ack",{"rid":4926386}]"#),
            (created + 5004, .receive, #"42["s_single_text",{"rid":4926386,"code":800013,"message":"user logout"}]"#),
        ])
        #expect(findings == [["JM.RESEND-BEFORE-LOGIN"], [], ["JM.RESPONSE-ERROR"]])
    }

    /// A reply before login answers a push of an earlier connection (no push comes before login).
    @Test func aReplyBeforeLoginIsAResend() {
        let findings = replay([
            (6000, .send, #"42["msg_recv_v2",{"msg_id":3000001,"msg_type":3,"from_uid":20002,"from_gid":0,"rid":77}]"#)
        ])
        #expect(findings == [["JM.RESEND-BEFORE-LOGIN"]])
    }

    /// A send made now (content created at the send) before c_init is still a request before init.
    @Test func aFreshSendBeforeInitIsStillReported() {
        let now: Int64 = 1_795_823_396_033
        let findings = replay([(now + 1, .send, send(rid: 5, createdMillis: now))])
        #expect(findings == [["JM.BEFORE-INIT"]])
    }

    /// jmessage-kick: event_type 1 is named; the SDK's reply to it is expected, and nothing follows.
    @Test func aKickIsNamed() {
        let findings = replay([
            (
                100, .send,
                #"""
                42["c_init",{"appkey":"4f7aef34fb361292c566a1cd",\#
                "random_str":"711881d597b163bd","signature":"3baff20ad1bffd3c4748df2d7fe5762b",\#
                "timestamp":1795823307932,"flag":0,"fromPlatForm":"j","rid":1}]
                """#
            ),
            (110, .receive, #"42["ack",{"rid":1}]"#),
            (120, .receive, #"42["c_init",{"rid":1,"code":0}]"#),
            (
                600, .send,
                #"""
                42["login",{"username":"alice","password":"dac24dcc2864a1e7f549fd6c7795c7b8",\#
                "version":"2.5.0","rid":2}]
                """#
            ),
            (610, .receive, #"42["ack",{"rid":2}]"#),
            (620, .receive, #"42["login",{"rid":2,"code":0}]"#),
            (
                3600, .receive,
                #"""
                42["event_notification",{"event_id":4000001,"event_type":1,"from_uid":0,\#
                "gid":0,"extra":0,"description":"","ctime_ms":1795823311506}]
                """#
            ),
            (
                3610, .send,
                #"42["event_notification",{"event_id":4000001,"event_type":1,"from_uid":0,"gid":0,"rid":3}]"#
            ),
            (3620, .receive, #"42["ack",{"rid":3}]"#),
            (3630, .send, "41"),
        ])
        #expect(findings.flatMap { $0 } == ["JM.KICKED"])
        #expect(findings[6] == ["JM.KICKED"])
    }
}
