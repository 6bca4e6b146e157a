import IMWire
import Testing

/// Credentials in logins stay out of what IMWire shows unless asked (`--show-secrets`).
@Suite struct SecretRedactionTests {
    /// The genuine SDKs' clean recordings, each with a credential its login carries.
    static let recordings: [(path: String, secrets: [String])] = [
        ("vendor-sdk/nim/nim-clean.jsonl", ["token-alice"]),
        ("vendor-sdk/jmessage/jmessage-clean.jsonl", ["dac24dcc2864a1e7f549fd6c7795c7b8", "b7499be60492fb8e268d8bc5cf5f9b21"]),
        ("vendor-sdk/yun2win/yun2win-clean.jsonl", ["imtoken-3b1f"]),
        ("vendor-sdk/leancloud/leancloud-clean.jsonl", ["st-9e9ce82d7d3b4768ba55ead094edba9f"]),
    ]

    /// Everything `imwire show` and the HTML report would print of the recording's messages.
    static func shown(_ path: String, showSecrets: Bool) throws -> String {
        var options = CheckOptions()
        options.describesMessages = true
        options.timelineDetails = true
        options.timelineLimit = 1000
        options.showSecrets = showSecrets
        let checker = Checker(options: options)
        var text: [String] = []
        checker.onMessage = { text.append($0.text(hex: true)) }
        let report = try checker.check(try CaptureFile.open("\(repositoryRoot)/Fixtures/captures/\(path)"), named: path)
        for connection in report.connections {
            for entry in connection.timeline {
                text.append((entry.json ?? "") + Hex.encode(entry.payload ?? []))
            }
        }
        return text.joined(separator: "\n")
    }

    @Test(arguments: recordings.map(\.path))
    func aLoginsCredentialsAreShownOnlyWhenAsked(_ path: String) throws {
        let secrets = try #require(Self.recordings.first { $0.path == path }?.secrets)
        let hidden = try Self.shown(path, showSecrets: false)
        let shown = try Self.shown(path, showSecrets: true)
        for secret in secrets {
            #expect(shown.contains(secret) || shown.contains(Hex.encode(Array(secret.utf8))), "\(secret) is not in the recording")
            #expect(!hidden.contains(secret), "\(secret) shown without --show-secrets")
            #expect(!hidden.contains(Hex.encode(Array(secret.utf8))), "\(secret)'s bytes shown without --show-secrets")
        }
        #expect(hidden.contains(SecretRedaction.mark))
    }

    @Test func theOtherFieldsAndTheOffsetsStay() throws {
        let json = try JSONParser.parse(
            Array(#"{"login":{"username":"alice","password":"p4ssw0rd","version":"2.5.0"},"raw":"{\"password\":\"p4ssw0rd\"}"}"#.utf8))
        let payload = Array(#"{"username":"alice","password":"p4ssw0rd"}"#.utf8)
        let (redacted, masked) = SecretRedaction.redact(json: json, payload: payload)
        let mark = SecretRedaction.mark
        #expect(
            redacted.map { JSONWriter.string($0) }
                == #"{"login":{"username":"alice","password":"\#(mark)","version":"2.5.0"},"raw":"{\"password\":\"\#(mark)\"}"}"#)
        #expect(masked.count == payload.count)
        #expect(String(decoding: masked, as: UTF8.self) == #"{"username":"alice","password":"********"}"#)
        // Nothing to hide: both unchanged.
        let plain = try JSONParser.parse(Array(#"{"cmd":"echo","i":4}"#.utf8))
        #expect(SecretRedaction.redact(json: plain, payload: [1, 2, 3]).json == plain)
    }
}
