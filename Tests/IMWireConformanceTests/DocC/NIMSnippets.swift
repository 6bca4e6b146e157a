import IMWire
import Testing

/// The code of `Sources/IMWire/IMWire.docc/NIM.md`, run.
@Suite struct DocCSnippetNIM {
    /// The login request 2_3: a `Property` of tags (3 clientType, 19 account, 1000 token).
    static func login() throws -> NIMPacket {
        let property = try JSONParser.parse(#"{"3":16,"19":"alice","1000":"tok"}"#)
        return .request(NIMRequest(sid: 2, cid: 3, ser: 1, params: [NIMParameter(type: "Property", value: property)]))
    }

    @Test func buildAPacket() throws {
        let login = try Self.login()
        #expect(login.command?.name == "login")
        let text = NIMCodec.encode(login)  // a socket.io 0.9 message packet, as the Web SDK sends it
        #expect(
            String(decoding: text, as: UTF8.self) == #"3:::{"SID":2,"CID":3,"SER":1,"Q":[{"t":"Property","v":{"3":16,"19":"alice","1000":"tok"}}]}"#)
        #expect(NIMCodec.encode(.request(NIMRequest(sid: 1, cid: 2, ser: 0))) == Array(#"3:::{"SID":1,"CID":2,"SER":0,"Q":[]}"#.utf8))
    }

    @Test func frameCompressAndDecode() throws {
        let text = NIMCodec.encode(try Self.login())
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
        #expect(logins.first?.field("account") == "alice" && logins.first?.field("clientType") == 16)
    }

    @Test func trackTheSession() {
        let connection = NIMConnection()
        var findings: [Finding] = []
        func observe(_ text: String, _ direction: Direction, at time: Int64, frame: Int) {
            findings += connection.observe(Array(text.utf8), direction: direction, timeMicros: time, frameIndex: frame).findings
        }
        observe("1::", .receive, at: 0, frame: 1)  // socket.io 0.9 connect
        observe(#"3:::{"SID":2,"CID":3,"SER":1,"Q":[{"t":"Property","v":{"19":"alice"}}]}"#, .send, at: 10_000, frame: 2)
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
        #expect(relogin.findings.contains { $0.ruleID == "NIM.AUTO-RELOGIN" })
    }

    @Test func driveTheReconnectMachine() {
        let policy = NIMPolicies.web
        var simulator = ReconnectSimulator(policy: policy)
        var steps: [TraceStep] = []
        steps += simulator.feed(.userLogin, atMillis: 0)
        steps += simulator.feed(.routeResolved(ttlMillis: nil), atMillis: 1)
        steps += simulator.feed(.transportOpened, atMillis: 2)
        steps += simulator.feed(.loginResponse(code: 416, waitMillis: 30_000), atMillis: 3)  // too many logins: wait 30 s
        let delays = steps.flatMap(\.actions).compactMap { action in
            if case .scheduleTimer(.retry, let delay) = action { delay } else { nil }
        }
        #expect(delays == [30_000])

        // 302 (wrong password) is terminal: nothing reconnects until the user logs in again.
        var wrong = ReconnectSimulator(policy: policy)
        _ = wrong.feed(.userLogin, atMillis: 0)
        _ = wrong.feed(.routeResolved(ttlMillis: nil), atMillis: 1)
        _ = wrong.feed(.transportOpened, atMillis: 2)
        let refused = wrong.feed(.loginResponse(code: 302, waitMillis: nil), atMillis: 3) + wrong.advance(toMillis: 600_000)
        #expect(wrong.state.stop?.cause == .loginRejected && wrong.state.stop?.code == 302)
        #expect(!refused.flatMap(\.commands).contains(.openTransport))
        #expect(refused.flatMap(\.outputs).map(\.description).contains("NIMLoginStep=6 NIMLoginStepLoginFailed code=302"))
    }
}
