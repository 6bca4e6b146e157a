import IMWire
import Testing

/// Credentials in logins stay out of what IMWire shows unless asked (`--show-secrets`).
@Suite struct SecretRedactionTests {
    /// The genuine SDKs' clean recordings, each with a credential its login carries.
    static let recordings: [(path: String, secrets: [String])] = [
        ("vendor-sdk/nim/nim-clean.jsonl", ["token-alice"]),
        (
            "vendor-sdk/jmessage/jmessage-clean.jsonl",
            ["dac24dcc2864a1e7f549fd6c7795c7b8", "b7499be60492fb8e268d8bc5cf5f9b21"]
        ),
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
            #expect(
                shown.contains(secret) || shown.contains(Hex.encode(Array(secret.utf8))),
                "\(secret) is not in the recording")
            #expect(!hidden.contains(secret), "\(secret) shown without --show-secrets")
            #expect(!hidden.contains(Hex.encode(Array(secret.utf8))), "\(secret)'s bytes shown without --show-secrets")
        }
        #expect(hidden.contains(SecretRedaction.mark))
    }

    /// Everything IMWire writes of a transcript given inline (`frames`: direction and text, or
    /// `hex:` and hex): each message as `imwire show` prints it (text, JSON), the timeline, and
    /// the reports (JSON, text, SARIF, HTML); with `details`, the messages' decoded JSON and
    /// payloads too (`imwire show`, `--timeline-details`), else only what `imwire check` writes.
    static func written(
        _ frames: [(dir: String, text: String)], dialect: String? = nil, subprotocol: String? = nil,
        details: Bool = true,
        showSecrets: Bool = false
    ) -> (all: String, messages: [CheckedMessage]) {
        let lines = lines(frames, dialect: dialect, subprotocol: subprotocol)
        var options = CheckOptions()
        options.describesMessages = details
        options.timelineDetails = details
        options.timelineLimit = 1000
        options.showSecrets = showSecrets
        let checker = Checker(options: options)
        var messages: [CheckedMessage] = []
        checker.onMessage = { messages.append($0) }
        for (index, line) in lines.enumerated() {
            if let item = TranscriptLine.parse(Array(line.utf8), line: index + 1, limits: options.limits) {
                checker.consume(item)
            }
        }
        let report = checker.finish(source: "inline")
        var text =
            details
            ? messages.map { $0.text(hex: true) + "\n" + JSONWriter.string($0.json) } : messages.compactMap(\.summary)
        for connection in report.connections {
            for entry in connection.timeline {
                text.append(entry.summary + (entry.json ?? "") + Hex.encode(entry.payload ?? []))
            }
        }
        text.append(JSONReport.render(report, threshold: .info))
        text.append(TextReport.render(report, threshold: .info))
        text.append(SARIFReport.render(report, threshold: .info, version: "0"))
        text.append(HTMLReport.render(report, threshold: .info))
        return (text.joined(separator: "\n"), messages)
    }

    /// The transcript lines of `frames` on one connection `c1` (`dir` and text, or `hex:` and hex).
    static func lines(_ frames: [(dir: String, text: String)], dialect: String? = nil, subprotocol: String? = nil)
        -> [String]
    {
        var open = JSONObject()
        for (key, value) in [("type", "open"), ("conn", "c1"), ("client", "10.0.0.1:5000"), ("server", "10.0.0.2:80")] {
            open.append(key, .string(value))
        }
        open.append("t", 1)
        if let dialect { open.append("dialect", .string(dialect)) }
        if let subprotocol { open.append("subprotocol", .string(subprotocol)) }
        var lines = [JSONWriter.string(.object(open))]
        for (index, frame) in frames.enumerated() {
            var line = JSONObject()
            line.append("conn", "c1")
            line.append("t", .number(JSONNumber(index + 2)))
            line.append("dir", .string(frame.dir))
            if frame.text.hasPrefix("hex:") {
                line.append("hex", .string(String(frame.text.dropFirst(4))))
            } else {
                line.append("text", .string(frame.text))
            }
            lines.append(JSONWriter.string(.object(line)))
        }
        return lines
    }

    /// A JMessage connection up to its login: engine.io open, socket.io connect, then `frames`.
    static func jmessage(_ frames: [(dir: String, text: String)]) -> [(dir: String, text: String)] {
        [
            (
                "receive",
                #"0{"sid":"07a6cbc444a94f3e8a2a0878a4f51582","upgrades":[],"pingTimeout":60000,"pingInterval":25000}"#
            ), ("receive", "40"),
        ]
            + frames
    }

    /// A login whose JSON is cut short is SIO.PAYLOAD-INVALID: its summary (the finding's
    /// subject in every report, the live `--messages` line) names it without quoting its text.
    @Test func theSummaryOfAnUndecodableLoginQuotesNothing() throws {
        let password = "5f4dcc3b5aa765d61d8327deb882cf99"
        let (all, messages) = Self.written(
            Self.jmessage([("send", #"42["login",{"password":"\#(password)""#)]), dialect: "jmessage", details: false)
        let login = try #require(messages.last)
        #expect(login.reports("SIO.PAYLOAD-INVALID"))
        let summary = try #require(login.summary)
        #expect(!summary.contains(password.prefix(8)) && !summary.contains("login"), "\(summary)")
        // Nor the reports, where it is the finding's subject and the timeline's label.
        #expect(all.contains("SIO.PAYLOAD-INVALID"))
        #expect(!all.contains(password.prefix(8)))
    }

    /// What `imwire show` and the reports write of `frames`, without and with `--show-secrets`,
    /// checked for `secrets` (given as text, or as `hex:` bytes): hidden unless asked, in any
    /// form (text, hex).
    static func expectHidden(
        _ secrets: [String], in frames: [(dir: String, text: String)], dialect: String? = nil,
        subprotocol: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (hidden: (all: String, messages: [CheckedMessage]), shown: (all: String, messages: [CheckedMessage])) {
        let hidden = written(frames, dialect: dialect, subprotocol: subprotocol)
        let shown = written(frames, dialect: dialect, subprotocol: subprotocol, showSecrets: true)
        for secret in secrets {
            let bytes = secret.hasPrefix("hex:") ? try Hex.decode(String(secret.dropFirst(4))) : Array(secret.utf8)
            let text = String(decoding: bytes, as: UTF8.self)
            let forms = secret.hasPrefix("hex:") ? [Hex.encode(bytes)] : [text, Hex.encode(bytes)]
            #expect(
                forms.contains { shown.all.contains($0) }, "\(secret) is not in the transcript",
                sourceLocation: sourceLocation)
            for form in forms {
                #expect(
                    !hidden.all.contains(form), "\(form) shown without --show-secrets", sourceLocation: sourceLocation)
            }
        }
        #expect(hidden.all.contains(SecretRedaction.mark), sourceLocation: sourceLocation)
        return (hidden, shown)
    }

    /// LeanCloud signs session open, conversation start and members, room and blacklist
    /// changes: `s` in each of those commands' messages is the signature.
    @Test(arguments: ["sessionMessage", "convMessage", "roomMessage", "blacklistMessage"])
    func aLeanCloudSignatureIsASecret(_ message: String) throws {
        let signature = "0a5e7e1b9c1d4f0e8a3b6c2d1e0f9a8b7c6d5e4f"
        let json = try JSONParser.parse(
            Array(
                #"""
                {"cmd":"blacklist","op":"block","\#(message)":{"s":"\#(signature)",\#
                "t":"1700000000000","n":"nonce-17"}}
                """#.utf8))
        let (redacted, masked) = SecretRedaction.redact(json: json, payload: Array("\u{1}(\(signature)\u{2}".utf8))
        let text = try JSONWriter.string(#require(redacted))
        #expect(!text.contains(signature) && text.contains(SecretRedaction.mark) && text.contains("nonce-17"))
        #expect(
            String(decoding: masked, as: UTF8.self) == "\u{1}(" + String(repeating: "*", count: signature.count)
                + "\u{2}")
    }

    /// JMessage's password change carries the old and the new password (MD5).
    @Test func aJMessagePasswordChangeIsSecret() throws {
        let old = "5f4dcc3b5aa765d61d8327deb882cf99"
        let new = "e10adc3949ba59abbe56e057f20f883e"
        _ = try Self.expectHidden(
            [old, new],
            in: Self.jmessage([("send", #"42["update_user_pwd",{"old_pwd":"\#(old)","new_pwd":"\#(new)","rid":7}]"#)]),
            dialect: "jmessage")
        let json = try JSONParser.parse(Array(#"{"pwd":"hunter2-pwd"}"#.utf8))
        #expect(SecretRedaction.redact(json: json, payload: []).json?["pwd"] == .string(SecretRedaction.mark))
    }

    /// A secret with characters JSON escapes (`"`, `\\`, and `/` and non-ASCII as some writers
    /// do) is found in the JSON text too: the raw `data` of the engine.io packet, the payload.
    @Test func aSecretIsHiddenInItsJSONEscapedForms() throws {
        let logins = [
            #"42["login",{"username":"alice","password":"zebraQ\"7\\k/9-é"}]"#,
            #"42["login",{"username":"alice","password":"zebraQ\"7\\k\/9-\u00e9"}]"#,
            #"42["login",{"username":"alice","password":"zebraQ\"7\\k/9-\u00E9"}]"#,
        ]
        for login in logins {
            let (hidden, _) = try Self.expectHidden(
                ["zebraQ"], in: Self.jmessage([("send", login)]), dialect: "jmessage")
            #expect(!hidden.messages.isEmpty && hidden.messages.allSatisfy { $0.canonicalJSON != nil })
        }
    }

    /// A LeanCloud frame in base64 (`lc.proto2base64.*`) carries its session token as base64
    /// text: its payload must not give it away either.
    @Test func aSecretInABase64FrameIsHidden() throws {
        let secret = "st-9e9ce82d7d3b4768ba55ead094edba9f"
        // leancloud-clean.jsonl's session/open and session/opened, in base64.
        let open =
            """
            080010011a1c696d7769726556656e646f7253646b546573742d4d645958624d4d492205616c\
            6963652801b20643220d6a732f352e302e302d72632e3728003a2439626436663433332d3161\
            63302d346432662d613362302d663063373237393364333835900196eecffba1349801bb01
            """
        let opened =
            """
            080010052205616c696365280148bdeecffba134b20628522373742d3965396\
            36538326437643362343736386261353565616430393465646261396658901c
            """
        let frames = try [("send", open), ("receive", opened)].map {
            (dir: $0.0, text: Base64.encode(try Hex.decode($0.1)))
        }
        // The secret's base64 at each of the three alignments, less the characters its neighbours share.
        let encoded = (0..<3).map { shift in
            String(
                Base64.encode(Array(repeating: 0, count: shift) + Array(secret.utf8)).dropFirst(shift == 0 ? 0 : 4)
                    .dropLast(4))
        }
        let (hidden, shown) = try Self.expectHidden([secret], in: frames, subprotocol: "lc.proto2base64.3")
        #expect(shown.messages.count == 2 && shown.messages.allSatisfy { $0.canonicalJSON != nil })
        #expect(encoded.contains { shown.all.contains(Hex.encode(Array($0.utf8))) })
        for form in encoded {
            #expect(!hidden.all.contains(form) && !hidden.all.contains(Hex.encode(Array(form.utf8))), "\(form)")
        }
    }

    /// An MQTT password that is not UTF-8 is written as `passwordHex`, and yun2win reads the
    /// token from it lossily: neither, nor the password's bytes, are shown.
    @Test func aPasswordThatIsNotUTF8IsHidden() throws {
        // yun2win-clean.jsonl's CONNECT, its password \xff "imtoken-9d2e" \x80.
        let password = "ff696d746f6b656e2d3964326580"
        let connect =
            "104900044d51545404c2012c0026303061303733373763362d356239662d366631642d343238652d316566323536616239613261"
            + "00057531303031000e" + password
        let (hidden, _) = try Self.expectHidden(
            ["hex:" + password, "imtoken-9d2e"], in: [("send", "hex:" + connect), ("receive", "hex:20020000")],
            dialect: "yun2win",
            subprotocol: "mqttv3.1")
        #expect(hidden.messages.first?.canonicalJSON != nil)
    }

    /// Where the genuine SDKs' logins carry their credentials as they are, only those are
    /// masked: no payload is withheld whole.
    @Test(arguments: recordings.map(\.path))
    func aPayloadIsWithheldOnlyWhenItsSecretIsNotFound(_ path: String) throws {
        var options = CheckOptions()
        options.describesMessages = true
        let checker = Checker(options: options)
        var withheld: [String] = []
        checker.onMessage = { message in
            if !message.payload.isEmpty, message.payload.allSatisfy({ $0 == UInt8(ascii: "*") }) {
                withheld.append("\(message.connection) #\(message.frame)")
            }
        }
        _ = try checker.check(try CaptureFile.open("\(repositoryRoot)/Fixtures/captures/\(path)"), named: path)
        #expect(withheld.isEmpty)
    }

    @Test func theOtherFieldsAndTheOffsetsStay() throws {
        let json = try JSONParser.parse(
            Array(
                #"""
                {"login":{"username":"alice","password":"p4ssw0rd",\#
                "version":"2.5.0"},"raw":"{\"password\":\"p4ssw0rd\"}"}
                """#.utf8))
        let payload = Array(#"{"username":"alice","password":"p4ssw0rd"}"#.utf8)
        let (redacted, masked) = SecretRedaction.redact(json: json, payload: payload)
        let mark = SecretRedaction.mark
        #expect(
            redacted.map { JSONWriter.string($0) }
                == #"""
                {"login":{"username":"alice","password":"\#(mark)",\#
                "version":"2.5.0"},"raw":"{\"password\":\"\#(mark)\"}"}
                """#)
        #expect(masked.count == payload.count)
        #expect(String(decoding: masked, as: UTF8.self) == #"{"username":"alice","password":"********"}"#)
        // Nothing to hide: both unchanged.
        let plain = try JSONParser.parse(Array(#"{"cmd":"echo","i":4}"#.utf8))
        #expect(SecretRedaction.redact(json: plain, payload: [1, 2, 3]).json == plain)
    }
}
