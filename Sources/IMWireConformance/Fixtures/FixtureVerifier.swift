import IMWireCore
import IMWireIO
import IMWireLeanCloud

/// Checks golden fixtures against the codecs: the input decodes to `decoded`, produces exactly
/// the expected findings (rule and offset, warnings and errors; info is ignored), and, when
/// clean, `decoded` encodes back to the input.
public enum FixtureVerifier {
    /// Folders of `Fixtures/` that hold other kinds of golden files: sample captures with their
    /// expected findings, the status-code tables, and `imwire serve`'s scenarios (checked by
    /// their own tests).
    static let otherFolders = ["/captures/", "/status/", "/serve/"]

    public static func verify(directory: String) -> [FixtureResult] {
        Directory.files(under: directory, suffix: ".json")
            .filter { path in !otherFolders.contains { path.contains($0) } }
            .map(verify(path:))
    }

    public static func verify(path: String) -> FixtureResult {
        do {
            let fixture = try Fixture(path: path)
            return FixtureResult(path: path, problems: try verify(fixture))
        } catch {
            return FixtureResult(path: path, problems: ["\(error)"])
        }
    }

    /// One verifier per `dialect/layer`; each returns the problems it found (empty: verified).
    static let verifiers: [String: @Sendable (Fixture) throws -> [String]] = [
        "leancloud/command": LeanCloudFixtures.verifyCommand,
        "leancloud/rich-message": LeanCloudFixtures.verifyRichMessage,
        "leancloud/signature": LeanCloudFixtures.verifySignature,
        "mqtt/packet": MQTTFixtures.verifyPacket,
        "yun2win/packet": Yun2winFixtures.verifyPacket,
        "yun2win/payload": Yun2winFixtures.verifyPayload,
        "yun2win/gate": Yun2winFixtures.verifyGate,
        "yun2win/sessions": Yun2winFixtures.verifySessions,
        "websocket/frame": WebSocketFixtures.verifyStream,
        "websocket/message": WebSocketFixtures.verifyStream,
        "websocket/handshake": WebSocketFixtures.verifyHandshake,
        "nim/socketio": SocketIOFixtures.verifyV09,
        "nim/handshake": SocketIOFixtures.verifyHandshake09,
        "nim/packet": SocketIOFixtures.verifyNIMPacket,
        "nim/sessions": SocketIOFixtures.verifyNIMSessions,
        "jmessage/engineio": SocketIOFixtures.verifyEngineIO,
        "jmessage/event": SocketIOFixtures.verifyJMessageEvent,
        "jmessage/signature": SocketIOFixtures.verifySignature,
        "jmessage/sessions": SocketIOFixtures.verifyJMessageSessions,
        "leancloud/reconnect": ReconnectFixtures.verify,
        "nim/reconnect": ReconnectFixtures.verify,
        "jmessage/reconnect": ReconnectFixtures.verify,
        "yun2win/reconnect": ReconnectFixtures.verify,
    ]

    public static func verify(_ fixture: Fixture) throws -> [String] {
        guard let verifier = verifiers["\(fixture.dialect)/\(fixture.layer)"] else {
            return ["no verifier for dialect \(fixture.dialect), layer \(fixture.layer)"]
        }
        return try verifier(fixture)
    }

    /// Differences between the findings a codec produced and the ones the fixture expects.
    static func compare(_ findings: [Finding], _ expected: [Fixture.ExpectedFinding]) -> [String] {
        let produced = findings.filter { $0.severity >= .warning }
            .map { Fixture.ExpectedFinding(rule: $0.ruleID, offset: $0.offset) }
        var missing = expected
        var unexpected: [Fixture.ExpectedFinding] = []
        for finding in produced {
            if let index = missing.firstIndex(where: {
                $0.rule == finding.rule && ($0.offset == nil || $0.offset == finding.offset)
            }) {
                missing.remove(at: index)
            } else {
                unexpected.append(finding)
            }
        }
        var problems: [String] = []
        if !missing.isEmpty { problems.append("expected findings not produced: \(missing)") }
        if !unexpected.isEmpty {
            let detail = findings.filter { $0.severity >= .warning }.map(\.description).joined(separator: "; ")
            problems.append("unexpected findings: \(unexpected) — \(detail)")
        }
        return problems
    }

    /// A clean fixture round-trips: what `imwire encode` makes of its decoded form is the input
    /// (`asJSON`: compared as JSON, for lc.json, whose encoder writes keys in schema order), in a
    /// binary frame or not as `binary` says when the fixture says.
    static func reencodes(
        _ input: [UInt8], binary: Bool? = nil, asJSON: Bool = false,
        _ encode: () throws(IMWireError) -> CanonicalEncoded
    ) -> [String] {
        let encoded: CanonicalEncoded
        do { encoded = try encode() } catch { return ["decoded form does not encode: \(error)"] }
        let same =
            asJSON
            ? (try? JSONParser.parse(encoded.bytes)).map { parsed in
                (try? JSONParser.parse(input)).map(parsed.semanticallyEquals) ?? false
            } ?? false
            : encoded.bytes == input
        if !same { return ["re-encoded \(Hex.encode(encoded.bytes)), input \(Hex.encode(input))"] }
        if let binary, encoded.binary != binary {
            return ["re-encoded as a \(encoded.binary ? "binary" : "text") frame"]
        }
        return []
    }
}

/// LeanCloud fixture layers: `command` (protobuf, base64, json), `rich-message`, `signature`.
enum LeanCloudFixtures {
    static func verifyCommand(_ fixture: Fixture) throws(IMWireError) -> [String] {
        guard let encoding = fixture.encoding.flatMap(LeanCloudEncoding.init(rawValue:)) else {
            throw IMWireError(.fixtureFormat, "encoding must be protobuf, base64 or json", path: fixture.path)
        }
        let input = try fixture.input()
        let codec = LeanCloudCodec(encoding: encoding)
        let decoded = codec.decode(input)
        var problems = FixtureVerifier.compare(decoded.findings, fixture.expected)

        let kind = fixture.object["kind"]?.stringValue ?? "command"
        if (kind == "heartbeat") != (decoded.kind == .heartbeat) {
            problems.append("expected kind \(kind), decoded \(decoded.kind)")
        }
        let actual = decoded.command.map(LeanCloudCanonicalJSON.encode)
        if let expected = fixture.decoded, !expected.isNull {
            if let actual {
                if !actual.semanticallyEquals(expected) { problems.append("decoded \(actual), expected \(expected)") }
            } else {
                problems.append("nothing decoded, expected \(expected)")
            }
        } else if fixture.expected.isEmpty, kind == "command" {
            problems.append("a clean command fixture needs `decoded`")
        }

        if fixture.expected.isEmpty, kind == "command", let expected = fixture.decoded {
            problems += FixtureVerifier.reencodes(input, asJSON: encoding == .json) { () throws(IMWireError) in
                try LeanCloudCanonicalCodec(encoding: encoding).encode(expected)
            }
        }
        return problems
    }

    static func verifyRichMessage(_ fixture: Fixture) throws(IMWireError) -> [String] {
        guard let text = fixture.object["text"]?.stringValue else {
            throw IMWireError(.fixtureFormat, "rich-message fixtures need text", path: fixture.path)
        }
        let (message, findings) = LeanCloudRichMessage.parse(text)
        var problems = FixtureVerifier.compare(findings, fixture.expected)
        let actual = message?.typedJSON ?? .null
        let expected = fixture.decoded ?? .null
        if !actual.semanticallyEquals(expected) { problems.append("decoded \(actual), expected \(expected)") }
        // SDKs treat a null `_lc*` key as absent, so the round trip is compared without them.
        if fixture.expected.isEmpty, let message, let original = try? JSONParser.parse(text),
            !message.json.semanticallyEquals(withoutTopLevelNulls(original))
        {
            problems.append("re-encoded \(message.encoded) differs from the input")
        }
        return problems
    }

    private static func withoutTopLevelNulls(_ value: JSONValue) -> JSONValue {
        guard case .object(let object) = value else { return value }
        return .object(JSONObject(object.members.filter { !$0.value.isNull }))
    }

    static func verifySignature(_ fixture: Fixture) throws(IMWireError) -> [String] {
        let object = fixture.object
        guard let input = object["input"]?.objectValue, let appID = input["app_id"]?.stringValue,
            let key = input["master_key"]?.stringValue, let client = input["client_id"]?.stringValue,
            let actionName = input["action"]?.stringValue, let timestamp = input["timestamp"]?.int64Value,
            let nonce = input["nonce"]?.stringValue, let expectedMessage = object["message"]?.stringValue,
            let signature = object["signature"]?.stringValue
        else {
            throw IMWireError(
                .fixtureFormat,
                """
                signature fixtures need input{app_id, master_key, \
                client_id, action, timestamp, nonce}, message, signature
                """, path: fixture.path)
        }
        let members = input["members"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let conversation = input["conversation_id"]?.stringValue ?? ""
        let action: LeanCloudSignature.Action
        switch actionName {
        case "login": action = .login(clientID: client)
        case "start": action = .startConversation(clientID: client, members: members)
        case "invite", "kick":
            action = .conversationMembers(
                clientID: client, conversationID: conversation, members: members, action: actionName)
        case "conversation-block-clients", "conversation-unblock-clients":
            action = .conversationBlacklist(
                clientID: client, conversationID: conversation, members: members, action: actionName)
        default:
            action = .clientBlocksConversation(clientID: client, conversationID: conversation, action: actionName)
        }
        var problems: [String] = []
        let message = LeanCloudSignature.message(appID: appID, action: action, timestamp: timestamp, nonce: nonce)
        if message != expectedMessage { problems.append("message \"\(message)\", expected \"\(expectedMessage)\"") }
        let findings = LeanCloudSignature.verify(
            signature: signature, appID: appID, action: action, timestamp: timestamp,
            nonce: nonce, masterKey: key)
        problems += FixtureVerifier.compare(findings, fixture.expected)
        return problems
    }
}
