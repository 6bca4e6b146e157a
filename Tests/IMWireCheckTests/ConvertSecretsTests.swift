import Foundation
import IMWire
import Testing

/// `imwire convert` and `imwire decode` hide the credentials logins carry unless
/// `--show-secrets`, as `imwire check` does (issue 37: nothing leaked).
@Suite struct ConvertSecretsTests {
    /// Each form a secret may be written in: its text, and its bytes as hex.
    static func forms(_ secret: String) -> [String] { [secret, Hex.encode(Array(secret.utf8))] }

    static func transcript(_ path: String, hiding: Bool) throws -> [String] {
        var lines: [String] = []
        CaptureConverter.transcript(from: try CaptureFile.open(path), hidingSecrets: hiding) { lines.append($0) }
        return lines
    }

    /// `convert --to jsonl`: the genuine SDKs' logins, each credential in none of the lines
    /// unless asked; the messages are the same ones otherwise, so the check counts them alike.
    @Test(arguments: SecretRedactionTests.recordings.map(\.path))
    func aTranscriptHidesTheCredentialsOfLogins(_ path: String) throws {
        let secrets = try #require(SecretRedactionTests.recordings.first { $0.path == path }?.secrets)
        let file = "\(repositoryRoot)/Fixtures/captures/\(path)"
        let hidden = try Self.transcript(file, hiding: true).joined(separator: "\n")
        let shown = try Self.transcript(file, hiding: false).joined(separator: "\n")
        for secret in secrets {
            #expect(Self.forms(secret).contains { shown.contains($0) }, "\(secret) is not in the recording")
            for form in Self.forms(secret) { #expect(!hidden.contains(form), "\(form) in the transcript") }
        }
        #expect(hidden.contains("****") || hidden.contains("2a2a2a2a"))
        let lines = hidden.split(separator: "\n").map(String.init)
        #expect(
            check(lines: lines).connections.map(\.messages)
                == (try check("Fixtures/captures/\(path)")).connections.map(\.messages))
    }

    /// `convert --to pcapng` of the same recordings: the credentials are in the messages the
    /// packets carry (client frames are masked: read back as a transcript) only when asked.
    @Test(arguments: SecretRedactionTests.recordings.map(\.path))
    func aPcapngHidesTheCredentialsOfLogins(_ path: String) throws {
        let secrets = try #require(SecretRedactionTests.recordings.first { $0.path == path }?.secrets)
        let file = "\(repositoryRoot)/Fixtures/captures/\(path)"
        var read: [String] = []
        for hiding in [true, false] {
            let pcapng = CaptureConverter.pcapng(from: try CaptureFile.open(file), hidingSecrets: hiding)
            let copy = NSTemporaryDirectory() + "imwire-secret-\(UUID().uuidString).pcapng"
            try Data(pcapng).write(to: URL(fileURLWithPath: copy))
            defer { try? FileManager.default.removeItem(atPath: copy) }
            read.append(try Self.transcript(copy, hiding: false).joined(separator: "\n"))
            #expect(
                try check(copy).connections.map(\.messages)
                    == (try check("Fixtures/captures/\(path)")).connections.map(\.messages))
        }
        for secret in secrets {
            #expect(Self.forms(secret).contains { read[1].contains($0) }, "\(secret) is not in the recording")
            for form in Self.forms(secret) { #expect(!read[0].contains(form), "\(form) in the pcapng") }
        }
    }

    /// A transcript's raw `stream` lines (MQTT on TCP): the CONNECT's token is replaced where
    /// the line holds it, and where a writer cut it across lines, in each of them.
    @Test func streamLinesHideTheCredentialsOfTheMessagesTheyCarry() throws {
        let token = "imtoken-3b1f"
        let connect = MQTTPacketEncoder.encode(
            .connect(
                MQTTConnect(keepAlive: 300, clientID: "00a0737-5b9f", username: "u1001", password: Array(token.utf8))))
        func stream(_ t: Double, _ dir: String, _ bytes: [UInt8]) -> String {
            #"{"type":"stream","conn":"m","t":\#(t),"dir":"\#(dir)","hex":"\#(Hex.encode(bytes))"}"#
        }
        let open = #"{"type":"open","conn":"m","t":0,"dialect":"yun2win"}"#
        let whole = [open, stream(0.1, "send", connect), stream(0.2, "receive", [0x20, 0x02, 0x00, 0x00])]
        let split =
            [open, stream(0.1, "send", Array(connect.dropLast(4))), stream(0.15, "send", Array(connect.suffix(4)))]
            + whole.suffix(1)
        // Cut in three, with another connection's lines between the parts.
        let other = [
            #"{"type":"open","conn":"x","t":0.11}"#,
            #"{"type":"stream","conn":"x","t":0.12,"dir":"send","hex":"0102"}"#,
        ]
        let three =
            [open, stream(0.1, "send", Array(connect.dropLast(8)))] + other
            + [
                stream(0.13, "send", Array(connect.dropLast(4).suffix(4))),
                stream(0.15, "send", Array(connect.suffix(4))),
            ] + whole.suffix(1)
        for (name, lines) in [("whole", whole), ("split", split), ("three", three)] {
            let file = NSTemporaryDirectory() + "imwire-stream-secret-\(UUID().uuidString).jsonl"
            try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
            defer { try? FileManager.default.removeItem(atPath: file) }
            #expect(check(lines: lines).connections.first?.messages == 2, "\(name)")
            let pcapng = CaptureConverter.pcapng(from: try CaptureFile.open(file), hidingSecrets: true)
            // Each line is a TCP segment of its own: a token cut across lines is in two packets.
            let shown = CaptureConverter.pcapng(from: try CaptureFile.open(file))
            let stars = ["whole": 12, "split": 8, "three": 4][name] ?? 0
            #expect(shown.firstRange(of: Array(token.utf8.prefix(stars))) != nil, "\(name)")
            // Each part of the token, in whichever line it is, and the stars in its place.
            let bytes = Array(token.utf8)
            for start in 0...(bytes.count - 4) {
                let part = Array(bytes[start..<(start + 4)])
                #expect(
                    pcapng.firstRange(of: part) == nil,
                    "\(name): \(String(decoding: part, as: UTF8.self)) in the pcapng")
            }
            #expect(pcapng.firstRange(of: Array(String(repeating: "*", count: stars).utf8)) != nil, "\(name)")
            // Nothing but the token is masked: the client id and user name are there.
            #expect(
                pcapng.firstRange(of: Array("00a0737-5b9f".utf8)) != nil
                    && pcapng.firstRange(of: Array("u1001".utf8)) != nil)
            // And the pcapng still reads as the transcript does.
            let copy = NSTemporaryDirectory() + "imwire-stream-secret-\(UUID().uuidString).pcapng"
            try Data(pcapng).write(to: URL(fileURLWithPath: copy))
            defer { try? FileManager.default.removeItem(atPath: copy) }
            #expect(try check(copy).connections.first?.messages == 2, "\(name)")
            let hidden = try Self.transcript(file, hiding: true).joined(separator: "\n")
            for form in Self.forms(token) { #expect(!hidden.contains(form), "\(name): \(form) in the transcript") }
        }
        // A CONNECT the connection's close cuts short: the transport hands it out at the close,
        // which masks the line that holds it (all of it: the packet does not read).
        let cut = [open, stream(0.1, "send", Array(connect.dropLast(4))), #"{"type":"close","conn":"m","t":0.2}"#]
        let file = NSTemporaryDirectory() + "imwire-stream-secret-\(UUID().uuidString).jsonl"
        try Data(cut.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(
            CaptureConverter.pcapng(from: try CaptureFile.open(file)).firstRange(of: Array(token.utf8.prefix(8))) != nil
        )
        #expect(
            CaptureConverter.pcapng(from: try CaptureFile.open(file), hidingSecrets: true).firstRange(
                of: Array(token.utf8.prefix(8))) == nil)
    }

    /// `imwire decode`: a login's credential is replaced in the parts' JSON and everywhere in
    /// the envelope, the other fields kept.
    @Test func decodeHidesTheCredentialsOfALogin() throws {
        let password = "5f4dcc3b5aa765d61d8327deb882cf99"
        let login = #"42["login",{"username":"alice","password":"\#(password)","version":"2.5.0","rid":102}]"#
        let jmessage = JMessageCanonicalCodec().decode(Array(login.utf8), as: CanonicalInput(binary: false))
        let token = "imtoken-3b1f"
        let connect = MQTTPacketEncoder.encode(
            .connect(MQTTConnect(keepAlive: 300, clientID: "c1", username: "u1001", password: Array(token.utf8))))
        let mqtt = MQTTCanonicalCodec().decode(connect + [0xc0, 0x00], as: CanonicalInput(binary: true))
        for (decoding, secret, kept) in [(jmessage, password, "alice"), (mqtt, token, "u1001")] {
            let shown = JSONWriter.string(decoding.envelope)
            #expect(Self.forms(secret).contains { shown.contains($0) } && shown.contains(kept))
            let hidden = SecretRedaction.redact(decoding)
            let texts =
                [JSONWriter.string(hidden.envelope)] + hidden.parts.compactMap(\.decoded).map { JSONWriter.string($0) }
            for text in texts {
                for form in Self.forms(secret) { #expect(!text.contains(form), "\(form) in \(text)") }
            }
            #expect(
                texts[0].contains(SecretRedaction.mark) && texts[1].contains(SecretRedaction.mark)
                    && texts[0].contains(kept))
            #expect(hidden.parts.count == decoding.parts.count && hidden.status == decoding.status)
        }
    }
}

/// LeanCloud's session signature `s` and session token `st` in everything IMWire writes of a
/// session: what `imwire show` prints (text and `--format json`), the live `--messages` lines
/// and the reports (`SecretRedactionTests.expectHidden`), `imwire decode` and `imwire convert`
/// (transcript and pcapng), in each of the three encodings; each kept with `--show-secrets`.
@Suite struct LeanCloudSecretPathsTests {
    static let signature = LeanCloudFormattingTests.signature
    static let sessionToken = LeanCloudFormattingTests.sessionToken
    static let newToken = "st-1f2e3d4c5b6a79880716253443526170"

    /// session/open (signed, with a session token) and session/opened (a new one).
    static func commands() -> [(dir: String, command: LCGenericCommand)] {
        var opened = LCGenericCommand()
        opened.cmd = .session
        opened.op = .opened
        opened.peerID = "alice"
        opened.i = 1
        opened.sessionMessage.st = newToken
        opened.sessionMessage.stTtl = 17280
        return [("send", LeanCloudFormattingTests.sessionOpen()), ("receive", opened)]
    }

    /// The frames as a transcript gives them in `subprotocol`'s encoding.
    static func frames(_ subprotocol: String) -> [(dir: String, text: String)] {
        commands().map { dir, command in
            let bytes = LeanCloudBinary.encode(command)
            switch subprotocol {
            case "lc.json.3": return (dir, LeanCloudJSON.encode(command))
            case "lc.proto2base64.3": return (dir, Base64.encode(bytes))
            default: return (dir, "hex:" + Hex.encode(bytes))
            }
        }
    }

    static let subprotocols = ["lc.protobuf2.3", "lc.json.3", "lc.proto2base64.3"]

    @Test(arguments: subprotocols)
    func showAndTheReportsHideThem(_ subprotocol: String) throws {
        let (hidden, shown) = try SecretRedactionTests.expectHidden(
            [Self.signature, Self.sessionToken, Self.newToken], in: Self.frames(subprotocol), subprotocol: subprotocol)
        #expect(hidden.messages.count == 2 && hidden.messages.allSatisfy { $0.canonicalJSON != nil })
        #expect(shown.messages.map(\.summary) == ["session/open i=1", "session/opened i=1"])
        #expect(hidden.all.contains("nonce-17") && hidden.all.contains("app-id-3"))
    }

    @Test(arguments: subprotocols)
    func decodeHidesThem(_ subprotocol: String) throws {
        let encoding = try #require(LeanCloudSubprotocol(subprotocol)).encoding
        for (_, command) in Self.commands() {
            let codec = LeanCloudCanonicalCodec(encoding: encoding)
            let bytes = LeanCloudCodec(encoding: encoding).encode(command)
            let decoding = codec.decode(bytes, as: CanonicalInput(binary: encoding == .protobuf))
            let secrets = [Self.signature, Self.sessionToken, Self.newToken]
            let shown = JSONWriter.string(decoding.envelope)
            #expect(secrets.contains { shown.contains($0) })
            let hidden =
                [JSONWriter.string(SecretRedaction.redact(decoding).envelope)]
                + SecretRedaction.redact(decoding).parts.compactMap(\.decoded).map { JSONWriter.string($0) }
            for text in hidden {
                for secret in secrets { #expect(!text.contains(secret), "\(secret) in \(text)") }
                #expect(text.contains(SecretRedaction.mark) && text.contains("alice"))
            }
        }
    }

    /// The transcript as a file: an open line naming the subprotocol, then the frames.
    static func transcriptFile(_ subprotocol: String) throws -> String {
        var lines = [
            #"""
            {"type":"open","conn":"lc","t":0,"client":"10.0.0.1:5000",\#
            "server":"10.0.0.2:443","subprotocol":"\#(subprotocol)"}
            """#
        ]
        for (index, frame) in frames(subprotocol).enumerated() {
            var line = JSONObject()
            line.append("conn", "lc")
            line.append("t", .number(JSONNumber(index + 1)))
            line.append("dir", .string(frame.dir))
            if frame.text.hasPrefix("hex:") {
                line.append("hex", .string(String(frame.text.dropFirst(4))))
            } else {
                line.append("text", .string(frame.text))
            }
            lines.append(JSONWriter.string(.object(line)))
        }
        let file = NSTemporaryDirectory() + "imwire-lc-secret-\(UUID().uuidString).jsonl"
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    @Test(arguments: subprotocols)
    func convertHidesThem(_ subprotocol: String) throws {
        let file = try Self.transcriptFile(subprotocol)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let secrets = [Self.signature, Self.sessionToken, Self.newToken]
        let transcripts = try [true, false].map {
            try ConvertSecretsTests.transcript(file, hiding: $0).joined(separator: "\n")
        }
        var pcapngs: [String] = []
        for hiding in [true, false] {
            let copy = NSTemporaryDirectory() + "imwire-lc-secret-\(UUID().uuidString).pcapng"
            try Data(CaptureConverter.pcapng(from: try CaptureFile.open(file), hidingSecrets: hiding)).write(
                to: URL(fileURLWithPath: copy))
            defer { try? FileManager.default.removeItem(atPath: copy) }
            pcapngs.append(try ConvertSecretsTests.transcript(copy, hiding: false).joined(separator: "\n"))
            #expect(try check(copy).connections.map(\.messages) == [2])
        }
        for (hidden, shown) in [(transcripts[0], transcripts[1]), (pcapngs[0], pcapngs[1])] {
            for secret in secrets {
                let texts = [secret, Hex.encode(Array(secret.utf8))]
                // In base64 frames the secrets are base64 text: SecretRedactionTests.aSecretInABase64FrameIsHidden.
                if subprotocol != "lc.proto2base64.3" {
                    #expect(texts.contains { shown.contains($0) }, "\(secret) not in the recording")
                }
                for text in texts { #expect(!hidden.contains(text), "\(secret) in \(hidden)") }
            }
            #expect(hidden.contains("2a2a2a2a") || hidden.contains("****"))
        }
    }
}
