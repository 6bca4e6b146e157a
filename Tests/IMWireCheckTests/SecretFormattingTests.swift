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
                #expect(!text.lowercased().contains(secret.lowercased()), "\(secret) in \(text)", sourceLocation: sourceLocation)
            }
        }
    }

    static let masterSecret = [UInt8](repeating: 0xa7, count: 48)
    static let trafficSecret = (0..<32).map { UInt8(0x40 + $0) }
    /// The key log's secrets as hex, and as an array of them prints (`[167, 167, …]`) and dumps (`- 167`).
    static let keyLogSecrets = [Hex.encode(masterSecret), Hex.encode(trafficSecret), "167, 167", "64, 65, 66", "- 167", "- 95"]

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
        options.dialectOptions[LeanCloudSessionOptions.self].credentials = .init(appID: "app-1", masterKey: "master-key-value")
        options.tlsKeyLog = try Self.keyLog()
        Self.expectHidden(options, ["hunter2", "master-key"] + Self.keyLogSecrets)
    }

    /// Merge data compares and writes the options as they always were: a secret only as `(set)`.
    @Test func settingsDescriptionsAreUnchanged() {
        var jmessage = JMessageSessionOptions()
        #expect(
            jmessage.settingsDescription
                == "JMessageSessionOptions(ackTimeoutMicros: 5000000, responseTimeoutMicros: 30000000, resendLimit: 5, replyTimeoutMicros: 5000000, secret: nil)"
        )
        jmessage.secret = "hunter2"
        #expect(
            jmessage.settingsDescription
                == #"JMessageSessionOptions(ackTimeoutMicros: 5000000, responseTimeoutMicros: 30000000, resendLimit: 5, replyTimeoutMicros: 5000000, secret: Optional("(set)"))"#
        )
        var leancloud = LeanCloudSessionOptions()
        #expect(
            leancloud.settingsDescription
                == "LeanCloudSessionOptions(requestTimeoutMicros: 30000000, ackTimeoutMicros: 5000000, maxCommandSize: 5120, credentials: nil)")
        leancloud.credentials = .init(appID: "app-1", masterKey: "master-key-value")
        #expect(
            leancloud.settingsDescription
                == #"LeanCloudSessionOptions(requestTimeoutMicros: 30000000, ackTimeoutMicros: 5000000, maxCommandSize: 5120, credentials: Optional(IMWireLeanCloud.LeanCloudSessionOptions.Credentials(appID: Optional("app-1"), masterKey: "(set)")))"#
        )
        leancloud.credentials = .init(masterKey: "master-key-value")
        #expect(
            leancloud.settingsDescription.hasSuffix(
                #"credentials: Optional(IMWireLeanCloud.LeanCloudSessionOptions.Credentials(appID: nil, masterKey: "(set)")))"#))
    }
}

/// The decoded and built logins (an MQTT or yun2win CONNECT's password, NIM's token, JMessage's
/// password hash and c_init signature) show every other field, the secret as its length only.
@Suite struct LoginFormattingTests {
    /// `value`, however formatted, holds none of `secrets` and every one of `shown`.
    static func expect(_ value: Any, hides secrets: [String], shows shown: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        SecretFormattingTests.expectHidden(value, secrets, sourceLocation: sourceLocation)
        for text in SecretFormattingTests.formatted(value) {
            for field in shown { #expect(text.contains(field), "\(field) not in \(text)", sourceLocation: sourceLocation) }
        }
    }

    static let password = "hunter2-mqtt-password"
    /// The password as text, hex, and as an array of its bytes prints (`[104, 117, …]`) and dumps (`- 104`).
    static let passwordForms = [password, Hex.encode(Array(password.utf8)), "104, 117, 110", "- 104\n"]

    @Test func anMQTTConnectShowsItsPasswordAsALength() {
        let connect = MQTTConnect(keepAlive: 60, clientID: "client-7", username: "alice", password: Array(Self.password.utf8))
        Self.expect(connect, hides: Self.passwordForms, shows: ["client-7", "alice", "21 bytes"])
        Self.expect(MQTTPacket.connect(connect), hides: Self.passwordForms, shows: ["client-7", "21 bytes"])
        Self.expect(MQTTConnect(keepAlive: 60, clientID: "client-7"), hides: [], shows: ["client-7"])
        #expect("\(connect)".contains("password: 21 bytes"))
    }

    @Test func aYun2winConnectShowsItsTokenAsALength() throws {
        let connect = MQTTConnect(
            keepAlive: 60, clientID: "00" + "0a1b2c3d-0000-4000-8000-00000000abcd", username: "uid-42", password: Array(Self.password.utf8))
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
        let signed = try JMessageInit.signed(appkey: "appkey-4", randomString: "random-5", timestamp: 1_700_000_000_000, secret: "master", rid: 1)
        Self.expect(signed, hides: [signed.signature], shows: ["appkey-4", "random-5", "1700000000000", "32 bytes"])
        #expect("\(signed)".contains("signature: 32 bytes"))
    }
}
