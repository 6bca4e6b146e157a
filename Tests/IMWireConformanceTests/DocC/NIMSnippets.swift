import IMWire
import Testing

/// The code of `Sources/IMWire/IMWire.docc/NIM.md`, run.
@Suite struct DocCSnippetNIM {
    /// The login request 2_3, built by field name: the Property's tags come from the login map.
    static func login() -> NIMPacket {
        // clientType .web, the Web SDK 8.5.0's defaults
        let login = NIMLogin(appKey: "app", account: "alice", token: "tok")
        return .request(login.request(ser: 1))
    }

    @Test func buildAPacket() throws {
        let login = Self.login()
        #expect(login.command?.name == "login")
        let text = NIMCodec.encode(login)  // a socket.io 0.9 message packet, as the Web SDK sends it
        #expect(
            String(decoding: text, as: UTF8.self)
                == #"""
                3:::{"SID":2,"CID":3,"SER":1,"Q":[{"t":"Property","v":{"3":16,\#
                "6":190,"9":1,"18":"app","19":"alice","40":"8.5.0","1000":"tok"}}]}
                """#
        )
        let send = NIMSendMsg.text("hi", to: "bob", idClient: "c-1").request(ser: 2)  // 7_1 sendMsg
        #expect(
            String(decoding: NIMCodec.encode(.request(send)), as: UTF8.self)
                == #"""
                3:::{"SID":7,"CID":1,"SER":2,"Q":[{"t":"Property",\#
                "v":{"0":0,"1":"bob","8":0,"9":"hi","11":"c-1"}}]}
                """#)
        #expect(NIMCodec.encode(.request(.heartbeat)) == Array(#"3:::{"SID":1,"CID":2,"SER":0,"Q":[]}"#.utf8))
        #expect(
            try NIMLogin(appKey: "app", account: "alice", token: "tok").setting("customTag", "vip").property[
                "customTag"] == "vip")
        // Read back: the typed views of a decoded request.
        guard case .request(let request)? = NIMCodec.decode(text, direction: .send).items.first?.nim else {
            Issue.record("no request")
            return
        }
        #expect(request.login?.account == "alice" && request.login?.clientType == .web)
    }

    @Test func frameCompressAndDecode() throws {
        let text = NIMCodec.encode(Self.login())
        let deflate = PerMessageDeflateParameters(clientNoContextTakeover: true)
        var key: UInt32 = 0x0bad_cafe
        let client = try WebSocketMessageEncoder(
            direction: .send, permessageDeflate: deflate,
            maskingKey: {
                key &+= 0x9e37_79b9
                return key
            })
        let bytes = try client.message(.text, text) + client.message(.text, text)

        // permessage-deflate by hand: raw deflate, sync flush, the 00 00 ff ff trailer dropped.
        var deflater = try Deflater(format: .raw, windowBits: deflate.maxWindowBits(.send))
        var compressed: [UInt8] = []
        try deflater.deflate(text, flush: .sync, into: &compressed)
        compressed.removeLast(4)
        #expect(try Zlib.decompress(compressed, format: .raw, limit: InflateLimit(Limits.default)) == text)

        var decoder = WebSocketStreamDecoder(WebSocketStreamConfiguration(direction: .send, permessageDeflate: deflate))
        let events = decoder.feed(bytes) + decoder.finish()
        var logins: [NIMRequest] = []
        for case .message(let message) in events {
            #expect(message.kind == .text && message.wasCompressed)
            let decoded = NIMCodec.decode(message.payload, direction: .send)
            #expect(decoded.findings.isEmpty)
            for item in decoded.items {
                if case .request(let request)? = item.nim { logins.append(request) }
            }
        }
        #expect(logins.count == 2)
        #expect(logins.first?.login?.account == "alice" && logins.first?.login?.clientType == .web)
    }

    @Test func trackTheSession() {
        let connection = NIMConnection()
        var findings: [Finding] = []
        func observe(_ text: String, _ direction: Direction, at time: Int64, frame: Int) {
            findings +=
                connection.observe(Array(text.utf8), direction: direction, timeMicros: time, frameIndex: frame)
                .observation.findings
        }
        observe("1::", .receive, at: 0, frame: 1)  // socket.io 0.9 connect
        observe(
            #"3:::{"SID":2,"CID":3,"SER":1,"Q":[{"t":"Property","v":{"19":"alice"}}]}"#, .send, at: 10_000, frame: 2)
        observe(#"3:::{"sid":2,"cid":3,"ser":1,"code":200}"#, .receive, at: 60_000, frame: 3)
        #expect(connection.tracker.phase == .loggedIn)
        observe(#"3:::{"sid":2,"cid":5,"ser":0,"code":200,"r":[16,3]}"#, .receive, at: 5_000_000, frame: 4)  // kicked
        #expect(connection.tracker.phase == .kicked(reason: 3))
        #expect(findings.filter { $0.severity >= .warning }.isEmpty)
        #expect(connection.sessionFacts.end == .kicked(code: 3))

        // The next connection of the same client: logging in again by itself after a kick.
        let next = NIMConnection(endedAccounts: connection.endedAccounts)
        let relogin = next.observe(
            Array(#"3:::{"SID":2,"CID":3,"SER":1,"Q":[{"t":"Property","v":{"19":"alice"}}]}"#.utf8), direction: .send,
            timeMicros: 8_000_000, frameIndex: 1)
        #expect(relogin.observation.findings.contains { $0.ruleID == "NIM.AUTO-RELOGIN" })
    }

    @Test func driveTheReconnectMachine() {
        let policy = NIMPolicies.web
        var simulator = ReconnectSimulator(policy: policy)
        var steps: [TraceStep] = []
        steps += simulator.feed(.userLogin, atMillis: 0)
        steps += simulator.feed(.routeResolved(ttlMillis: nil), atMillis: 1)
        steps += simulator.feed(.transportOpened, atMillis: 2)
        // too many logins: wait 30 s
        steps += simulator.feed(.loginResponse(code: 416, waitMillis: 30_000), atMillis: 3)
        let delays = steps.flatMap(\.actions).compactMap { action in
            if case .scheduleTimer(.retry, let delay) = action { delay } else { nil }
        }
        #expect(delays == [30_000])

        // 302 (wrong password) is terminal: nothing reconnects until the user logs in again.
        var wrong = ReconnectSimulator(policy: policy)
        _ = wrong.feed(.userLogin, atMillis: 0)
        _ = wrong.feed(.routeResolved(ttlMillis: nil), atMillis: 1)
        _ = wrong.feed(.transportOpened, atMillis: 2)
        let refused =
            wrong.feed(.loginResponse(code: 302, waitMillis: nil), atMillis: 3) + wrong.advance(toMillis: 600_000)
        #expect(wrong.state.stop?.cause == .loginRejected && wrong.state.stop?.code == 302)
        #expect(!refused.flatMap(\.commands).contains(.openTransport))
        #expect(
            refused.flatMap(\.outputs).map(\.description).contains("NIMLoginStep=6 NIMLoginStepLoginFailed code=302"))
    }
}
