import Foundation
import IMWire
import Testing

/// A login that its dialect recognises by its first bytes but cannot read (cut short, a field
/// overrunning its packet) carries its credential where no decoder found it: what IMWire writes
/// of it is its length only (`SecretRedaction.withhold`) unless `--show-secrets`, in `imwire show`
/// and the reports, in what `imwire convert` writes and in what `imwire decode` prints (issue 37).
@Suite struct UnreadLoginTests {
    struct Login: Sendable, CustomTestStringConvertible {
        var name: String
        var frames: [(dir: String, text: String)]
        var dialect: String
        var subprotocol: String?
        /// What must not be shown: the credential (or, in base64, the frame's own text).
        var secret: String
        var testDescription: String { name }
    }

    static let password = "5f4dcc3b5aa765d61d8327deb882cf99"
    static let logins: [Login] = {
        let open = LeanCloudBinary.encode(LeanCloudFormattingTests.sessionOpen())
        let signature = LeanCloudFormattingTests.signature
        let base64 = Base64.encode(Array(open.dropLast(3)))
        // An MQTT CONNECT whose password announces 40 bytes, 12 left in the packet.
        let connect =
            "102d00044d51545404c2012c000c303061303733372d35623966000575313030310028"
            + Hex.encode(Array("imtoken-3b1f".utf8))
        return [
            Login(
                name: "jmessage login cut short",
                frames: SecretRedactionTests.jmessage([
                    ("send", #"42["login",{"username":"alice","password":"\#(password)""#)
                ]),
                dialect: "jmessage", secret: password),
            Login(
                name: "jmessage c_init cut short",
                frames: SecretRedactionTests.jmessage([
                    ("send", #"42["c_init",{"appkey":"appkey-4","signature":"\#(password)","#)
                ]),
                dialect: "jmessage", secret: password),
            Login(
                name: "nim login cut short",
                frames: [
                    (
                        "send",
                        #"""
                        3:::{"SID":2,"CID":3,"SER":1,"Q":[{"t":"Property",\#
                        "v":{"19":"alice","1000":"nim-token-5ecret"
                        """#
                    )
                ],
                dialect: "nim", secret: "nim-token-5ecret"),
            Login(
                name: "yun2win CONNECT overrunning", frames: [("send", "hex:" + connect)], dialect: "yun2win",
                subprotocol: "mqttv3.1",
                secret: "imtoken-3b1f"),
            Login(
                name: "leancloud session/open cut short (protobuf)",
                frames: [("send", "hex:" + Hex.encode(Array(open.dropLast(3))))],
                dialect: "leancloud", subprotocol: "lc.protobuf2.3", secret: signature),
            Login(
                name: "leancloud session/open cut short (lc.json)",
                frames: [("send", String(LeanCloudJSON.encode(LeanCloudFormattingTests.sessionOpen()).dropLast(2)))],
                dialect: "leancloud",
                subprotocol: "lc.json.3", secret: signature),
            Login(
                name: "leancloud session/open cut short (base64)", frames: [("send", base64)], dialect: "leancloud",
                subprotocol: "lc.proto2base64.3", secret: String(base64.prefix(40))),
        ]
    }()

    static func forms(_ secret: String) -> [String] { [secret, Hex.encode(Array(secret.utf8))] }

    /// `imwire show` (text and JSON), the live `--messages` lines, the timeline and the reports.
    @Test(arguments: logins)
    func showAndTheReportsShowItsLengthOnly(_ login: Login) throws {
        let hidden = SecretRedactionTests.written(login.frames, dialect: login.dialect, subprotocol: login.subprotocol)
        let shown = SecretRedactionTests.written(
            login.frames, dialect: login.dialect, subprotocol: login.subprotocol, showSecrets: true)
        #expect(Self.forms(login.secret).contains { shown.all.contains($0) }, "not in the transcript")
        for form in Self.forms(login.secret) {
            #expect(!hidden.all.contains(form), "\(form) shown without --show-secrets")
        }
        let message = try #require(hidden.messages.last)
        let raw = try #require(shown.messages.last)
        #expect(raw.summary == message.summary && raw.findings == message.findings && !raw.findings.isEmpty)
        #expect(message.payload == [UInt8](repeating: UInt8(ascii: "*"), count: raw.payload.count))
        if let json = message.canonicalJSON, json != .array([]) {
            #expect(JSONWriter.string(json).contains("bytes of a login IMWire could not read"))
        }
        // What the checker counts is the same either way.
        var options = CheckOptions()
        options.showSecrets = true
        let lines = SecretRedactionTests.lines(login.frames, dialect: login.dialect, subprotocol: login.subprotocol)
        #expect(check(lines: lines).connections == check(lines: lines, options: options).connections)
    }

    /// `imwire convert`, to a transcript and to pcapng.
    @Test(arguments: logins)
    func convertWritesItsLengthOnly(_ login: Login) throws {
        let file = NSTemporaryDirectory() + "imwire-unread-login-\(UUID().uuidString).jsonl"
        let lines = SecretRedactionTests.lines(login.frames, dialect: login.dialect, subprotocol: login.subprotocol)
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        var written: [String] = []
        for hiding in [true, false] {
            let transcript = try ConvertSecretsTests.transcript(file, hiding: hiding).joined(separator: "\n")
            let copy = NSTemporaryDirectory() + "imwire-unread-login-\(UUID().uuidString).pcapng"
            try Data(CaptureConverter.pcapng(from: try CaptureFile.open(file), hidingSecrets: hiding)).write(
                to: URL(fileURLWithPath: copy))
            defer { try? FileManager.default.removeItem(atPath: copy) }
            written.append(
                transcript + "\n" + (try ConvertSecretsTests.transcript(copy, hiding: false).joined(separator: "\n")))
        }
        #expect(Self.forms(login.secret).contains { written[1].contains($0) }, "not in the transcript")
        for form in Self.forms(login.secret) {
            #expect(!written[0].contains(form), "\(form) written without --show-secrets")
        }
        #expect(written[0].contains("*****") || written[0].contains("2a2a2a2a2a"))
    }

    /// A message that is no login is shown as it is, whether it reads or not.
    @Test func otherMessagesAreShownAsTheyAre() throws {
        let text = #"42["typing",{"user":"alice","#
        let shown = SecretRedactionTests.written(SecretRedactionTests.jmessage([("send", text)]), dialect: "jmessage")
        #expect(shown.messages.last?.payload == Array(text.utf8))
        let nim = #"3:::{"SID":7,"CID":1,"SER":2,"Q":[{"t":"Property","v":{"1000":"kept-text""#
        #expect(SecretRedactionTests.written([("send", nim)], dialect: "nim").messages.last?.payload == Array(nim.utf8))
        // A message that reads, whose text merely has a member named like a credential.
        let chat = #"""
            3:::{"SID":7,"CID":1,"SER":2,"Q":[{"t":"Property",\#
            "v":{"0":0,"1":"bob","3":"{\"password\":\"kept-text\"}"}}]}
            """#
        let read = try #require(SecretRedactionTests.written([("send", chat)], dialect: "nim").messages.last)
        #expect(read.canonicalJSON != nil && read.payload == Array(chat.utf8))
        // A NIM packet that was read is no unread login, whatever its text names.
        let named = WireMessage(
            direction: .send, frameType: .text, payload: Array(#"3:::{"SID":7,"CID":1,"password":"kept"}"#.utf8))
        let item = { (nim: JSONValue) in JSONValue.array([.object(JSONObject(["socketio": .null, "nim": nim]))]) }
        #expect(
            !NIMDialect.definition.recognisesUnreadLogin(
                named, item(.object(JSONObject(["kind": "request", "sid": 7, "cid": 1])))))
        #expect(NIMDialect.definition.recognisesUnreadLogin(named, item(.null)))
    }
}

/// `imwire decode` of the same logins (run through the `imwire` built beside the tests).
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: builtIMWire)))
struct UnreadLoginDecodeTests {
    @Test(arguments: UnreadLoginTests.logins.filter { $0.dialect != "leancloud" || $0.subprotocol == "lc.json.3" })
    func decodePrintsItsLengthOnly(_ login: UnreadLoginTests.Login) throws {
        let frame = try #require(login.frames.last?.text)
        var arguments = ["decode", "--dialect", login.dialect, "--format", "json"]
        arguments += frame.hasPrefix("hex:") ? ["--hex", String(frame.dropFirst(4))] : ["--text", frame]
        if login.subprotocol == "lc.json.3" { arguments += ["--encoding", "json"] }
        let hidden = try MasterKeyFileTests.run(arguments)
        let shown = try MasterKeyFileTests.run(arguments + ["--show-secrets"])
        #expect(hidden.status == shown.status)
        #expect(
            Self.forms(login.secret).contains { shown.output.contains($0) }
                || login.dialect != "jmessage" && login.dialect != "nim", "\(shown)")
        for form in UnreadLoginTests.forms(login.secret) {
            #expect(!hidden.output.contains(form), "\(form) in \(hidden.output)")
        }
    }

    static func forms(_ secret: String) -> [String] { UnreadLoginTests.forms(secret) }
}
