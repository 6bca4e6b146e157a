import IMWire
import Testing

/// Values that hold secrets (key-log secrets, `--secret`, `--master-key`) show their counts and
/// lengths, never the secrets, however they are formatted (issue 37: nothing leaked).
@Suite struct SecretFormattingTests {
    /// `value` as `print`, interpolation, `String(reflecting:)` and `dump` write it.
    static func formatted(_ value: Any) -> [String] {
        var printed = ""
        print(value, to: &printed)
        var dumped = ""
        dump(value, to: &dumped)
        return [printed, "\(value)", String(reflecting: value), dumped]
    }

    /// Each of `secrets` (text, or bytes as hex in either case) is in none of the forms of `value`.
    static func expectHidden(_ value: Any, _ secrets: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for text in formatted(value) {
            for secret in secrets {
                #expect(
                    !text.lowercased().contains(secret.lowercased()), "\(secret) in \(text)",
                    sourceLocation: sourceLocation)
            }
        }
    }

    static let masterSecret = [UInt8](repeating: 0xa7, count: 48)
    static let trafficSecret = (0..<32).map { UInt8(0x40 + $0) }
    /// The key log's secrets as hex, and as an array of them prints (`[167, 167, …]`) and dumps (`- 167`).
    static let keyLogSecrets = [
        Hex.encode(masterSecret), Hex.encode(trafficSecret), "167, 167", "64, 65, 66", "- 167", "- 95",
    ]

    static func keyLog() throws -> TLSKeyLog {
        let random = String(repeating: "01", count: 32)
        return try TLSKeyLog(
            parsing: """
                CLIENT_RANDOM \(random) \(Hex.encode(masterSecret))
                CLIENT_TRAFFIC_SECRET_0 \(String(repeating: "02", count: 32)) \(Hex.encode(trafficSecret))
                """)
    }

    @Test func aKeyLogShowsItsCountsOnly() throws {
        let log = try Self.keyLog()
        let secrets = Self.keyLogSecrets
        Self.expectHidden(log, secrets)
        Self.expectHidden(TLSKeyStore(log), secrets)
        let one = try #require(log.secrets(forClientRandom: [UInt8](repeating: 1, count: 32)))
        Self.expectHidden(one, secrets)
        #expect("\(log)" == "TLSKeyLog(2 client randoms)")
        #expect("\(one)" == "TLSSecrets(masterSecret: 48 bytes)")
        #expect(Self.formatted(one).last?.contains("48 bytes") == true)
    }

    @Test func dialectOptionsShowWhetherASecretIsSetAndItsLength() {
        var jmessage = JMessageSessionOptions()
        jmessage.secret = "hunter2-master-secret"
        Self.expectHidden(jmessage, ["hunter2"])
        #expect("\(jmessage)".contains("secret: 21 bytes"))
        #expect("\(JMessageSessionOptions())".contains("secret: nil"))
        var leancloud = LeanCloudSessionOptions()
        leancloud.credentials = .init(appID: "app-1", masterKey: "master-key-value")
        Self.expectHidden(leancloud, ["master-key"])
        Self.expectHidden(leancloud.credentials as Any, ["master-key"])
        #expect("\(leancloud)".contains("masterKey: 16 bytes") && "\(leancloud)".contains("app-1"))
    }

    /// What holds them hides them too: the check's options, with every secret a run can be given.
    @Test func checkOptionsHideTheSecretsTheyCarry() throws {
        var options = CheckOptions()
        options.dialectOptions[JMessageSessionOptions.self].secret = "hunter2-master-secret"
        options.dialectOptions[LeanCloudSessionOptions.self].credentials = .init(
            appID: "app-1", masterKey: "master-key-value")
        options.tlsKeyLog = try Self.keyLog()
        Self.expectHidden(options, ["hunter2", "master-key"] + Self.keyLogSecrets)
    }

    /// Merge data compares and writes the options as they always were: a secret only as `(set)`.
    @Test func settingsDescriptionsAreUnchanged() {
        var jmessage = JMessageSessionOptions()
        #expect(
            jmessage.settingsDescription
                == """
                JMessageSessionOptions(ackTimeoutMicros: 5000000, responseTimeoutMicros: \
                30000000, resendLimit: 5, replyTimeoutMicros: 5000000, secret: nil)
                """
        )
        jmessage.secret = "hunter2"
        #expect(
            jmessage.settingsDescription
                == #"""
                JMessageSessionOptions(ackTimeoutMicros: 5000000, responseTimeoutMicros: \#
                30000000, resendLimit: 5, replyTimeoutMicros: 5000000, secret: Optional("(set)"))
                """#
        )
        var leancloud = LeanCloudSessionOptions()
        #expect(
            leancloud.settingsDescription
                == """
                LeanCloudSessionOptions(requestTimeoutMicros: 30000000, \
                ackTimeoutMicros: 5000000, maxCommandSize: 5120, credentials: nil)
                """)
        leancloud.credentials = .init(appID: "app-1", masterKey: "master-key-value")
        #expect(
            leancloud.settingsDescription
                == #"""
                LeanCloudSessionOptions(requestTimeoutMicros: 30000000, \#
                ackTimeoutMicros: 5000000, maxCommandSize: 5120, credentials: \#
                Optional(IMWireLeanCloud.LeanCloudSessionOptions.Credentials(appID: \#
                Optional("app-1"), masterKey: "(set)")))
                """#
        )
        leancloud.credentials = .init(masterKey: "master-key-value")
        #expect(
            leancloud.settingsDescription.hasSuffix(
                #"""
                credentials: Optional(IMWireLeanCloud.LeanCloudSessionOptions.Credentials(appID: \#
                nil, masterKey: "(set)")))
                """#))
    }
}

/// The decoded and built logins (an MQTT or yun2win CONNECT's password, NIM's token, JMessage's
/// password hash and c_init signature) show every other field, the secret as its length only.
@Suite struct LoginFormattingTests {
    /// `value`, however formatted, holds none of `secrets` and every one of `shown`.
    static func expect(
        _ value: Any, hides secrets: [String], shows shown: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        SecretFormattingTests.expectHidden(value, secrets, sourceLocation: sourceLocation)
        for text in SecretFormattingTests.formatted(value) {
            for field in shown {
                #expect(text.contains(field), "\(field) not in \(text)", sourceLocation: sourceLocation)
            }
        }
    }

    static let password = "hunter2-mqtt-password"
    /// The password as text, hex, and as an array of its bytes prints (`[104, 117, …]`) and dumps (`- 104`).
    static let passwordForms = [password, Hex.encode(Array(password.utf8)), "104, 117, 110", "- 104\n"]

    @Test func anMQTTConnectShowsItsPasswordAsALength() {
        let connect = MQTTConnect(
            keepAlive: 60, clientID: "client-7", username: "alice", password: Array(Self.password.utf8))
        Self.expect(connect, hides: Self.passwordForms, shows: ["client-7", "alice", "21 bytes"])
        Self.expect(MQTTPacket.connect(connect), hides: Self.passwordForms, shows: ["client-7", "21 bytes"])
        Self.expect(MQTTConnect(keepAlive: 60, clientID: "client-7"), hides: [], shows: ["client-7"])
        #expect("\(connect)".contains("password: 21 bytes"))
    }

    @Test func aYun2winConnectShowsItsTokenAsALength() throws {
        let connect = MQTTConnect(
            keepAlive: 60, clientID: "00" + "0a1b2c3d-0000-4000-8000-00000000abcd", username: "uid-42",
            password: Array(Self.password.utf8))
        let decoded = Yun2winCodec.decodeAll(MQTTPacketEncoder.encode(.connect(connect)), direction: .send)
        guard case .connect(let yun2win)? = decoded.first?.message else {
            Issue.record("no CONNECT in \(decoded.map(\.summary))")
            return
        }
        #expect(yun2win.token == Self.password)
        Self.expect(yun2win, hides: Self.passwordForms, shows: ["uid-42", "0a1b2c3d", "21 bytes"])
        Self.expect(Yun2winMessage.connect(yun2win), hides: Self.passwordForms, shows: ["uid-42"])
        #expect("\(yun2win)".contains("token: 21 bytes"))
    }

    @Test func aNIMLoginShowsItsTokensAsLengths() throws {
        let login = NIMLogin(appKey: "app-key-9", account: "alice", token: "nim-token-5ecret", deviceId: "device-3")
        Self.expect(login, hides: ["nim-token", "5ecret"], shows: ["app-key-9", "alice", "device-3", "16 bytes"])
        #expect("\(login)".contains("token: 16 bytes"))
        let custom = try login.setting("customTag", "tag-8").setting("pushToken", "apns-device-push")
        Self.expect(custom, hides: ["nim-token", "apns-device"], shows: ["tag-8", "pushToken: 16 bytes"])
    }

    @Test func aJMessageLoginAndInitShowTheirHashAndSignatureAsLengths() throws {
        let login = try JMessageLogin(username: "alice", password: .plain("hunter2"), rid: 3)
        let hash = login.password
        Self.expect(login, hides: [hash, "hunter2"], shows: ["alice", "2.5.0", "32 bytes"])
        #expect("\(login)".contains("password: 32 bytes"))
        let signed = try JMessageInit.signed(
            appkey: "appkey-4", randomString: "random-5", timestamp: 1_700_000_000_000, secret: "master", rid: 1)
        Self.expect(signed, hides: [signed.signature], shows: ["appkey-4", "random-5", "1700000000000", "32 bytes"])
        #expect("\(signed)".contains("signature: 32 bytes"))
    }
}

/// LeanCloud's generated messages (swift-protobuf's text format, which `print`, interpolation
/// and `String(reflecting:)` write, and `dump`): the signature and session token of a session,
/// and the signature of a conversation, room or blacklist change, as their length.
@Suite struct LeanCloudFormattingTests {
    static let signature = "0a5e7e1b9c1d4f0e8a3b6c2d1e0f9a8b7c6d5e4f"
    static let sessionToken = "st-9e9ce82d7d3b4768ba55ead094edba9f"

    /// `bytes` as `dump` writes an array of them, one `- 48` line each, the lines trimmed and
    /// joined with `|`: so `text`, its lines trimmed and joined alike, shows whether they were dumped.
    static func dumped(_ bytes: some Sequence<UInt8>) -> String {
        bytes.prefix(6).map { "- \($0)" }.joined(separator: "|")
    }
    static func lines(_ text: String) -> String {
        text.split(separator: "\n").map { $0.trimmingPrefix(while: \.isWhitespace) }.joined(separator: "|")
    }

    /// Each form of `value` holds neither secret (as text, hex, nor dumped bytes), and every one of `shown`.
    static func expect(_ value: Any, shows shown: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let secrets = [signature, sessionToken]
        LoginFormattingTests.expect(
            value, hides: secrets + secrets.map { Hex.encode(Array($0.utf8)) }, shows: shown,
            sourceLocation: sourceLocation)
        for text in SecretFormattingTests.formatted(value) {
            for secret in secrets {
                #expect(
                    !lines(text).contains(dumped(secret.utf8)), "\(secret)'s bytes in \(text)",
                    sourceLocation: sourceLocation)
            }
        }
    }

    static func sessionOpen() -> LCGenericCommand {
        var open = LCGenericCommand()
        open.cmd = .session
        open.op = .open
        open.appID = "app-id-3"
        open.peerID = "alice"
        open.i = 1
        open.sessionMessage.s = signature
        open.sessionMessage.t = 1_700_000_000_000
        open.sessionMessage.n = "nonce-17"
        open.sessionMessage.st = sessionToken
        open.sessionMessage.ua = "js/5.0.0"
        return open
    }

    @Test func aSessionShowsItsSignatureAndSessionTokenAsLengths() throws {
        let open = Self.sessionOpen()
        Self.expect(
            open, shows: ["app-id-3", "alice", "nonce-17", "1700000000000", "js/5.0.0", "40 bytes", "35 bytes"])
        Self.expect(open.sessionMessage, shows: ["nonce-17", "40 bytes", "35 bytes"])
        #expect("\(open)".contains("s: 40 bytes") && "\(open)".contains("st: 35 bytes"))
        #expect(String(reflecting: open.sessionMessage).contains("st: 35 bytes"))
        // The value itself is untouched: its encodings still carry them.
        #expect(open.sessionMessage.s == Self.signature && open.textFormatString().contains(Self.sessionToken))
        // Decoded from its bytes, as the checker holds it.
        let decoded = LeanCloudCodec(encoding: .protobuf).decode(LeanCloudBinary.encode(open))
        #expect(decoded.command?.sessionMessage.st == Self.sessionToken)
        Self.expect(decoded, shows: ["session/open i=1", "40 bytes"])
        Self.expect(try #require(decoded.fields), shows: ["session/open i=1"])
        // A command with no credential prints as swift-protobuf prints it.
        var echo = LCGenericCommand()
        echo.cmd = .echo
        echo.peerID = "bob"
        #expect("\(echo)" == "IMWireLeanCloud.LCGenericCommand:\n" + echo.textFormatString())
    }

    @Test func signedChangesShowTheirSignatureAsALength() {
        var start = LCGenericCommand()
        start.cmd = .conv
        start.op = .start
        start.convMessage.m = ["bob", "carol"]
        start.convMessage.s = Self.signature
        start.convMessage.n = "nonce-18"
        var room = LCGenericCommand()
        room.cmd = .room
        room.roomMessage.roomID = "room-5"
        room.roomMessage.s = Self.signature
        var block = LCGenericCommand()
        block.cmd = .blacklist
        block.op = .block
        block.blacklistMessage.srcCid = "conv-6"
        block.blacklistMessage.s = Self.signature
        Self.expect(start, shows: ["carol", "nonce-18", "40 bytes"])
        Self.expect(start.convMessage, shows: ["carol", "40 bytes"])
        Self.expect(room, shows: ["room-5", "40 bytes"])
        Self.expect(room.roomMessage, shows: ["room-5", "40 bytes"])
        Self.expect(block, shows: ["conv-6", "40 bytes"])
        Self.expect(block.blacklistMessage, shows: ["conv-6", "40 bytes"])
        for value in [start, room, block] as [Any] + [start.convMessage, room.roomMessage, block.blacklistMessage] {
            #expect("\(value)".contains("s: 40 bytes"), "\(value)")
        }
    }
}

/// The general message types hide a login's credentials too: NIM's requests, packets, items and
/// messages, JMessage's events and messages, and the socket.io and engine.io packets that carry
/// them, as the builders make them and as the decoders hand them out.
@Suite struct MessageFormattingTests {
    /// `secret`'s text, its hex, and its bytes as `dump` writes an array of them.
    static func expect(
        _ value: Any, hides secret: String, shows shown: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        LoginFormattingTests.expect(
            value, hides: [secret, Hex.encode(Array(secret.utf8))], shows: shown, sourceLocation: sourceLocation)
        for text in SecretFormattingTests.formatted(value) {
            let lines = LeanCloudFormattingTests.lines(text)
            #expect(
                !lines.contains(LeanCloudFormattingTests.dumped(secret.utf8)), "bytes of \(secret) in \(text)",
                sourceLocation: sourceLocation)
        }
    }

    @Test func aNIMLoginShowsItsTokensAsLengthsInEveryForm() throws {
        let token = "nim-token-5ecret"
        let pushToken = "apns-device-push"
        let login = try NIMLogin(appKey: "app-key-9", account: "alice", token: token, deviceId: "device-3").setting(
            "pushToken", .string(pushToken))
        let request = login.request(ser: 1)
        let message = NIMCodec.decode(NIMCodec.encode(.request(request)), direction: .send)
        let item = try #require(message.items.first)
        guard case .request(let decoded)? = item.nim else {
            Issue.record("no request in \(message.summary)")
            return
        }
        #expect(decoded.field("token") == .string(token))
        let values: [Any] = [request, NIMPacket.request(request), request.params[0], decoded, item, message]
        for value in values {
            for secret in [token, pushToken] {
                Self.expect(value, hides: secret, shows: ["app-key-9", "alice", "16 bytes"])
            }
        }
        #expect("\(request)".contains(#""1000":16 bytes"#) && "\(decoded)".contains(#""token":16 bytes"#))
        #expect("\(item)".contains("data: \(item.socketIO.data.utf8.count) bytes"))
        // The socket.io 0.9 packet on its own, as its decoder hands it out, and sent as JSON (4:::).
        let bare = try #require(SocketIO09Decoder.decode(NIMCodec.encode(.request(request))).packets.first)
        let asJSON = try #require(SocketIO09Decoder.decode(Array("4:::\(bare.data)".utf8)).packets.first)
        // And its JSON on its own.
        let json = try JSONParser.parse(Array(bare.data.utf8))
        for secret in [token, pushToken] {
            Self.expect(bare, hides: secret, shows: ["data: \(bare.data.utf8.count) bytes"])
            for value in [asJSON, json] as [Any] {
                Self.expect(value, hides: secret, shows: ["app-key-9", "alice", #""1000":16 bytes"#])
            }
        }
        // Another request, and a parameter of another name, show what they carry.
        let other = NIMRequest(
            sid: 7, cid: 1, ser: 2, params: [NIMParameter(type: "Property", value: ["1000": "kept-1000"], name: "msg")])
        #expect(
            "\(other)".contains("kept-1000")
                && "\(NIMCodec.decode(NIMCodec.encode(.request(other)), direction: .send))".contains("kept-1000"))
        let otherPacket = try #require(SocketIO09Decoder.decode(NIMCodec.encode(.request(other))).packets.first)
        #expect("\(otherPacket)".contains("kept-1000"))
    }

    @Test func jmessageEventsShowTheirCredentialsAsLengthsInEveryForm() throws {
        let login = try JMessageLogin(username: "alice", password: .plain("hunter2"), rid: 3)
        let signed = try JMessageInit.signed(
            appkey: "appkey-4", randomString: "random-5", timestamp: 1_700_000_000_000, secret: "master", rid: 1)
        let old = "5f4dcc3b5aa765d61d8327deb882cf99"
        let new = "e10adc3949ba59abbe56e057f20f883e"
        var payload = JSONObject()
        payload.append("old_pwd", .string(old))
        payload.append("new_pwd", .string(new))
        payload.append("rid", 7)
        let change = JMessageEvent(name: "update_user_pwd", payload: payload, kind: .request)
        for (event, secrets, shown) in [
            (login.event, [login.password], "alice"), (signed.event, [signed.signature], "appkey-4"),
            (change, [old, new], "update_user_pwd"),
        ] {
            let bytes = EngineIOMessage.encode(event.packet)
            let engineIO = EngineIOMessage.decode(bytes, binaryFrame: false)
            let message = JMessageCodec.decode(bytes, direction: .send)
            #expect(message.event?.payload == event.payload)
            let values: [Any] = [event, event.packet, engineIO, try #require(engineIO.socketIO), message]
            for value in values {
                for secret in secrets { Self.expect(value, hides: secret, shows: [shown, "32 bytes"]) }
            }
            // The engine.io packet alone: its text, a socket.io packet holding a credential, as its length.
            let packet = try #require(engineIO.engineIO)
            for secret in secrets { Self.expect(packet, hides: secret, shows: ["\(bytes.count - 1) bytes"]) }
        }
        #expect(
            "\(login.event)" == #"""
                JMessageEvent(name: "login", kind: request, username: \#
                "alice", password: 32 bytes, version: "2.5.0", rid: 3)
                """#)
        // An event with no credential shows its payload whole.
        let text = JMessageEvent(
            name: "s_single_text", payload: JSONObject(["target_name": "bob", "rid": 4]), kind: .request)
        #expect("\(text)".contains(#"target_name: "bob""#) && "\(text.packet)".contains(#""target_name":"bob""#))
    }

    /// Plain JSON, as parsed or built, and its objects and their members.
    @Test func jsonShowsItsCredentialsAsLengths() throws {
        let secret = "hunter2-password"
        let text = #"{"user":"alice","auth":[{"password":"\#(secret)","n":1}],"token":{"kept":"not-a-string"}}"#
        let json = try JSONParser.parse(Array(text.utf8))
        let object = try #require(json.objectValue)
        let inner = try #require(json["auth"]?.arrayValue?.first?.objectValue)
        let member = try #require(inner.members.first)
        for value in [json, object, inner, member] as [Any] { Self.expect(value, hides: secret, shows: ["16 bytes"]) }
        #expect("\(json)" == #"{"user":"alice","auth":[{"password":16 bytes,"n":1}],"token":{"kept":"not-a-string"}}"#)
        #expect("\(member)" == #""password":16 bytes"# && "\(inner.members[1])" == #""n":1"#)
        // What IMWire writes keeps every byte.
        #expect(JSONWriter.string(json) == text)
    }

    /// socket.io packets (2.x in engine.io, and 0.9) whose JSON names a credential.
    @Test func socketIOPacketsWithACredentialShowItAsALength() throws {
        let secret = "hunter2-password"
        let text = #"42["auth",{"user":"alice","password":"\#(secret)"}]"#
        let engineIO = EngineIOMessage.decode(Array(text.utf8), binaryFrame: false)
        for value in [engineIO, try #require(engineIO.socketIO)] as [Any] {
            Self.expect(value, hides: secret, shows: ["alice", "16 bytes"])
        }
        Self.expect(try #require(engineIO.engineIO), hides: secret, shows: ["text(\(text.utf8.count - 1) bytes)"])
        let plain = EngineIOMessage.decode(Array(#"42["typing",{"user":"alice"}]"#.utf8), binaryFrame: false)
        #expect("\(plain)".contains(#"text("2[\"typing\""#) && "\(plain)".contains(#"{"user":"alice"}"#))
        let decoded = SocketIO09Decoder.decode(Array(#"4:::{"user":"alice","password":"\#(secret)"}"#.utf8)).packets
        let packet = try #require(decoded.first)
        Self.expect(packet, hides: secret, shows: ["alice", "16 bytes"])
        let message = SocketIO09Packet.message(#"{"token":"\#(secret)"}"#)
        Self.expect(message, hides: secret, shows: ["data: \(message.data.utf8.count) bytes"])
        #expect("\(SocketIO09Packet.message("hello there"))".contains(#"data: "hello there""#))
    }
}
