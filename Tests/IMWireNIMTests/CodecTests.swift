import IMWireCore
import IMWireNIM
import IMWireSocketIO
import Testing

@Suite struct NIMCodecTests {
    @Test func loginRequestNamesItsTags() throws {
        let text = #"3:::{"SID":2,"CID":3,"SER":1,"Q":[{"t":"Property","v":{"3":16,"19":"alice","1000":"tok"}}]}"#
        let message = NIMCodec.decode(Array(text.utf8), direction: .send)
        #expect(message.findings.isEmpty, "\(message.findings)")
        guard case .request(let request)? = message.items.first?.nim else {
            Issue.record("no request")
            return
        }
        #expect(request.command?.name == "login")
        #expect(request.field("account") == "alice" && request.field("clientType") == 16)
        #expect(
            NIMCodec.encode(
                .request(
                    NIMRequest(
                        sid: 2, cid: 3, ser: 1,
                        params: request.params.map { NIMParameter(type: $0.type, value: $0.value) })))
                == Array(text.utf8))
    }

    @Test func theTableIsCompleteAndUnique() {
        #expect(NIMCommands.all.count == 274)
        #expect(Set(NIMCommands.all.map(\.key)).count == NIMCommands.all.count)
        #expect(NIMCommands.command(sid: 2, cid: 5)?.response == ["from", "reason", "custom", "customClientType"])
        #expect(NIMCommands.all.filter(\.isNotifyWrapper).map(\.key) == ["4_1", "4_2", "4_10", "4_11"])
        #expect(NIMWebCodes.success == [200, 406, 808, 810])
        #expect([302, 417, 422].allSatisfy { NIMWebCodes.endsLogin($0) } && !NIMWebCodes.endsLogin(404))
    }

    @Test func serOutOfRangeIsAtTheSERKey() {
        let text = #"3:::{"SID":7,"CID":1,"SER":40000,"Q":[]}"#
        let message = NIMCodec.decode(Array(text.utf8), direction: .send)
        #expect(
            message.findings.filter { $0.severity >= .warning }.map(\.ruleID.rawValue) == [
                "NIM.SER-OUT-OF-RANGE", "NIM.Q-MISMATCH",
            ])
        #expect(message.findings.first?.offset == 21)
    }

    @Test func arbitraryBytesNeverTrap() {
        var seed: UInt64 = 0x9e37_79b9_7f4a_7c15
        for length in 0..<400 {
            var bytes: [UInt8] = Array(#"3:::{"SID":2,"CID":3,"SER":1,"Q":[{"t":"Property","v":{"19":"a"}}]}"#.utf8)
            for _ in 0..<(length % 7) {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes[Int(seed >> 33) % bytes.count] = UInt8(truncatingIfNeeded: seed >> 17)
            }
            _ = NIMCodec.decode(Array(bytes.prefix(length % bytes.count + 1)), direction: nil)
        }
        #expect(Bool(true))
    }

    @Test func kickEndsTheSessionAndARelaunchIsReported() {
        let first = NIMConnection()
        let login = #"3:::{"SID":2,"CID":3,"SER":1,"Q":[{"t":"Property","v":{"19":"alice"}}]}"#
        _ = first.observe(Array("1::".utf8), direction: .receive, timeMicros: 0, frameIndex: 1)
        _ = first.observe(Array(login.utf8), direction: .send, timeMicros: 1, frameIndex: 2)
        _ = first.observe(
            Array(#"3:::{"sid":2,"cid":3,"ser":1,"code":200}"#.utf8), direction: .receive, timeMicros: 2, frameIndex: 3)
        _ = first.observe(
            Array(#"3:::{"sid":2,"cid":5,"ser":0,"code":200,"r":[16,3]}"#.utf8), direction: .receive, timeMicros: 3,
            frameIndex: 4)
        #expect(first.endedAccounts["alice"] != nil)
        let second = NIMConnection(endedAccounts: first.endedAccounts)
        let findings = second.observe(Array(login.utf8), direction: .send, timeMicros: 10, frameIndex: 1).observation
            .findings
        #expect(findings.contains { $0.ruleID == "NIM.AUTO-RELOGIN" })
    }
}
