import IMWire
import Testing

/// The code of `Sources/IMWire/IMWire.docc/JMessage.md`, run.
@Suite struct DocCSnippetJMessage {
    static let appkey = "4f7aef34fb361292c566a1cd"

    /// `c_init`, signed with the app's master secret as the Web SDK's server side signs it.
    static func cInit(secret: String) throws -> JMessageInit {
        try JMessageInit.signed(
            appkey: appkey, randomString: "022cd9fd995849b58b3ef0e943421ed9", timestamp: 1_507_882_399_401,
            secret: secret, rid: 1001)
    }

    /// `login`, its password sent as its MD5.
    static func login() throws -> JMessageLogin {
        try JMessageLogin(username: "alice", password: .plain("secret"), rid: 1002)
    }

    @Test func buildAnEvent() throws {
        let cInit = try Self.cInit(secret: "master-secret-1")
        #expect(cInit.signature == "1ac74f74c5e180a76ab28e4b8e46c7de")
        #expect(cInit.event.summary == "c_init rid=1001 (request)")
        let text = JMessageCodec.encode(cInit.event)  // engine.io MESSAGE + socket.io EVENT: 42["c_init",{…}]
        #expect(
            String(decoding: text, as: UTF8.self)
                == #"""
                42["c_init",{"appkey":"4f7aef34fb361292c566a1cd",\#
                "random_str":"022cd9fd995849b58b3ef0e943421ed9","signature":"1ac74f74c5e180a76ab28e4b8e46c7de",\#
                "timestamp":1507882399401,"flag":0,"fromPlatForm":"j","rid":1001}]
                """#
        )
        #expect(
            String(decoding: JMessageCodec.encode(try Self.login().event), as: UTF8.self)
                == #"""
                42["login",{"username":"alice","password":"5ebe2294ecd0e0f08eab7690d2a6ee69",\#
                "version":"2.5.0","rid":1002}]
                """#)
        let content = JMessageContent.text(
            "hi", targetType: .single, targetID: "bob", targetName: nil, fromID: "alice", createTime: 1_507_882_400_000)
        let send = try JMessageSend.single(content, appkey: Self.appkey, rid: 1003)
        #expect(
            String(decoding: JMessageCodec.encode(send.event), as: UTF8.self)
                == #"""
                42["s_across_single_text",{"content":{"version":1,"target_type":"single",\#
                "from_platform":"web","target_id":"bob","from_id":"alice","create_time":1507882400000,\#
                "msg_type":"text","msg_body":{"text":"hi"}},"no_offline":false,"no_notification":false,\#
                "target_id":"bob","appkey":"4f7aef34fb361292c566a1cd","rid":1003}]
                """#
        )
    }

    @Test func frameCompressAndDecode() throws {
        let text = JMessageCodec.encode(try Self.cInit(secret: "master-secret-1").event)
        let deflate = PerMessageDeflateParameters(serverMaxWindowBits: 10)
        var key: UInt32 = 1
        let client = try WebSocketMessageEncoder(
            direction: .send, permessageDeflate: deflate, fragmentSize: 64,
            maskingKey: {
                key = key &* 48_271
                return key
            })
        let bytes = try client.message(.text, text)  // compressed, then split into frames of 64 bytes

        // The compressor on its own: the client's window (15 bits here), sync flush, trailer dropped.
        var deflater = try Deflater(format: .raw, windowBits: deflate.maxWindowBits(.send))
        var compressed: [UInt8] = []
        try deflater.deflate(text, flush: .sync, into: &compressed)
        compressed.removeLast(4)
        #expect(compressed.count < text.count)

        var decoder = WebSocketStreamDecoder(WebSocketStreamConfiguration(direction: .send, permessageDeflate: deflate))
        var messages: [WebSocketMessage] = []
        for event in decoder.feed(bytes) + decoder.finish() {
            if case .message(let message) = event { messages.append(message) }
        }
        #expect(messages.count == 1 && messages[0].frameCount > 1 && messages[0].payload == text)

        let decoded = JMessageCodec.decode(messages[0].payload, direction: .send, secret: "master-secret-1")
        #expect(decoded.findings.isEmpty)
        #expect(decoded.event?.name == "c_init" && decoded.event?.rid == 1001)
        let forged = JMessageCodec.decode(
            JMessageCodec.encode(try Self.cInit(secret: "guessed").event), direction: .send, secret: "master-secret-1")
        #expect(forged.findings.map(\.ruleID) == ["JM.SIGNATURE-INVALID"])
    }

    @Test func trackTheSession() throws {
        let connection = JMessageConnection(options: JMessageSessionOptions(secret: "master-secret-1"))
        let cInit = String(
            decoding: JMessageCodec.encode(try Self.cInit(secret: "master-secret-1").event), as: UTF8.self)
        let exchange: [(Int64, Direction, String)] = [
            (10_000, .receive, #"0{"sid":"kS0","upgrades":[],"pingInterval":25000,"pingTimeout":60000}"#),
            (20_000, .receive, "40"),
            (100_000, .send, cInit),
            (150_000, .receive, #"42["ack",{"rid":1001}]"#),
            (200_000, .receive, #"42["c_init",{"rid":1001,"code":0,"message":"success"}]"#),
            (700_000, .send, String(decoding: JMessageCodec.encode(try Self.login().event), as: UTF8.self)),
            (750_000, .receive, #"42["ack",{"rid":1002}]"#),
            (800_000, .receive, #"42["login",{"rid":1002,"code":0,"message":"success"}]"#),
            (1_000_000, .send, #"42["get_groups_list",{"rid":1003}]"#),
            (1_050_000, .receive, #"42["ack",{"rid":1003}]"#),
            (1_100_000, .receive, #"42["get_groups_list",{"rid":1003,"code":803005,"message":"user not in group"}]"#),
        ]
        var findings: [Finding] = []
        for (index, (time, direction, text)) in exchange.enumerated() {
            let message = WireMessage(direction: direction, frameType: .text, payload: Array(text.utf8))
            findings += connection.observe(message, timeMicros: time, frameIndex: index + 1).findings
        }
        findings += connection.finish(atMicros: 2_000_000, frameIndex: exchange.count)
        #expect(connection.tracker.phase == .loggedIn)
        #expect(connection.sessionFacts.login?.accepted == 800_000)
        #expect(findings.map(\.ruleID) == ["JM.RESPONSE-ERROR"])
        #expect(findings.first?.severity == .info && findings.first?.location.frameIndex == 11)
    }

    @Test func driveTheReconnectMachine() {
        var simulator = ReconnectSimulator(policy: JMessagePolicies.web)
        var steps: [TraceStep] = []
        for (time, event): (Int64, ReconnectEvent) in [
            (0, .userLogin), (10, .transportOpened), (200, .loginAcknowledged),
            (900, .loginResponse(code: 0, waitMillis: nil)),
        ] {
            steps += simulator.feed(event, atMillis: time)
        }
        #expect(simulator.state.phase == .online)
        // the ack's 30 s response wait
        #expect(steps.flatMap(\.commands).map(\.description).contains("schedule(login, 30000ms)"))

        // The Web SDK does not reconnect: a dropped link stops, and the app decides.
        let dropped =
            simulator.feed(.transportClosed(code: nil), atMillis: 60_000) + simulator.advance(toMillis: 600_000)
        #expect(simulator.state.stop?.cause == .disconnected)
        #expect(dropped.flatMap(\.outputs).map(\.description) == ["onDisconnect()"])
        #expect(!dropped.flatMap(\.commands).contains(.openTransport))
    }
}
