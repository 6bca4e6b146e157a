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
