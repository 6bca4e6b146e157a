import IMWireCapture
import IMWireCore
import IMWireJMessage
import IMWireNIM
import IMWireSocketIO

/// Fixture layers of the two socket.io dialects.
/// NIM: `socketio` (a socket.io 0.9 message), `handshake` (the 0.9 handshake body), `packet` (a NIM packet
/// in one, with `direction`), `sessions` (connections of {t, dir, text} events through the tracker).
/// JMessage: `engineio` (an engine.io message, text or `bytes_hex` with `"frame": "binary"`),
/// `event` (a JMessage event, with `direction`), `signature` (c_init), `sessions`.
enum SocketIOFixtures {
    static func direction(_ fixture: Fixture) throws(IMWireError) -> Direction? {
        try Yun2winFixtures.direction(fixture)
    }

    /// A malformed fixture may leave `decoded` out: then only its findings are compared.
    static func compareDecoded(_ actual: JSONValue?, _ fixture: Fixture) -> [String] {
        if !fixture.expected.isEmpty, fixture.object["decoded"] == nil { return [] }
        return MQTTFixtures.compareDecoded(actual, fixture)
    }

    // MARK: NIM

    static func verifyV09(_ fixture: Fixture) throws(IMWireError) -> [String] {
        let input = try fixture.input()
        let decoded = SocketIO09Decoder.decode(input)
        var problems = FixtureVerifier.compare(decoded.findings, fixture.expected)
        let json: JSONValue? =
            decoded.packets.isEmpty ? nil : ["packets": .array(decoded.packets.map(SocketIOCanonicalJSON.encode))]
        problems += compareDecoded(json, fixture)
        if fixture.expected.isEmpty, let decoded = fixture.decoded, !decoded.isNull {
            problems += FixtureVerifier.reencodes(input) { () throws(IMWireError) in
                try NIMCanonicalCodec().encode(decoded)
            }
        }
        return problems
    }

    /// A socket.io 0.9 handshake body (`GET /socket.io/1/` → `sid:heartbeat:close:transports`).
    static func verifyHandshake09(_ fixture: Fixture) throws(IMWireError) -> [String] {
        let input = try fixture.input()
        let (handshake, findings) = SocketIO09Handshake.decode(input)
        var problems = FixtureVerifier.compare(findings, fixture.expected)
        problems += compareDecoded(handshake?.json, fixture)
        if fixture.expected.isEmpty, let handshake, Array(handshake.encoded.utf8) != input {
            problems.append("re-encoded \(handshake.encoded)")
        }
        return problems
    }

    static func verifyNIMPacket(_ fixture: Fixture) throws(IMWireError) -> [String] {
        let input = try fixture.input()
        let message = NIMCodec.decode(input, direction: try direction(fixture))
        var problems = FixtureVerifier.compare(message.findings, fixture.expected)
        problems += compareDecoded(message.items.isEmpty ? nil : NIMCanonicalJSON.encode(message), fixture)
        if fixture.expected.isEmpty, let decoded = fixture.decoded, !decoded.isNull {
            problems += FixtureVerifier.reencodes(input) { () throws(IMWireError) in
                try NIMCanonicalCodec().encode(decoded)
            }
        }
        return problems
    }

    /// `input.connections[{events: [{t, dir, text | hex}], end}]`, run in order.
    static func events(_ fixture: Fixture) throws(IMWireError) -> [(
        events: [(Int64, Direction, [UInt8], Bool)], end: Int64?
    )] {
        guard let connections = fixture.object["input"]?["connections"]?.arrayValue else {
            throw IMWireError(
                .fixtureFormat, "sessions need input.connections[{events[{t, dir, text|hex}], end}]", path: fixture.path
            )
        }
        var result: [(events: [(Int64, Direction, [UInt8], Bool)], end: Int64?)] = []
        for (index, connection) in connections.enumerated() {
            var list: [(Int64, Direction, [UInt8], Bool)] = []
            for event in connection["events"]?.arrayValue ?? [] {
                guard let time = event["t"]?.numberValue.flatMap(TranscriptLine.microseconds),
                    let way = event["dir"]?.stringValue.flatMap(Direction.init(rawValue:))
                else {
                    throw IMWireError(
                        .fixtureFormat, "connection \(index): an event needs t and dir", path: fixture.path)
                }
                if let text = event["text"]?.stringValue {
                    list.append((time, way, Array(text.utf8), false))
                } else if let hex = event["hex"]?.stringValue, let bytes = try? Hex.decode(hex) {
                    list.append((time, way, bytes, true))
                } else {
                    throw IMWireError(
                        .fixtureFormat, "connection \(index): an event needs text or hex", path: fixture.path)
                }
            }
            result.append((list, connection["end"]?.numberValue.flatMap(TranscriptLine.microseconds)))
        }
        return result
    }

    static func verifyNIMSessions(_ fixture: Fixture) throws(IMWireError) -> [String] {
        var ended: [String: String] = [:]
        var findings: [Finding] = []
        for connection in try events(fixture) {
            let session = NIMConnection(endedAccounts: ended)
            for (frame, event) in connection.events.enumerated() {
                findings +=
                    session.observe(event.2, direction: event.1, timeMicros: event.0, frameIndex: frame + 1).observation
                    .findings
            }
            findings += session.finish(atMicros: connection.end, frameIndex: connection.events.count)
            ended = session.endedAccounts
        }
        return FixtureVerifier.compare(findings, fixture.expected)
    }

    // MARK: JMessage

    static func verifyEngineIO(_ fixture: Fixture) throws(IMWireError) -> [String] {
        let input = try fixture.input()
        let binary = fixture.object["frame"]?.stringValue == "binary"
        let message = EngineIOMessage.decode(input, binaryFrame: binary)
        var problems = FixtureVerifier.compare(message.findings, fixture.expected)
        problems += compareDecoded(message.engineIO == nil ? nil : SocketIOCanonicalJSON.encode(message), fixture)
        if fixture.expected.isEmpty, let decoded = fixture.decoded {
            problems += FixtureVerifier.reencodes(input, binary: binary) { () throws(IMWireError) in
                try JMessageCanonicalCodec().encode(decoded)
            }
        }
        return problems
    }

    static func verifyJMessageEvent(_ fixture: Fixture) throws(IMWireError) -> [String] {
        let input = try fixture.input()
        let secret = fixture.object["secret"]?.stringValue
        let message = JMessageCodec.decode(input, direction: try direction(fixture), secret: secret)
        var problems = FixtureVerifier.compare(message.findings, fixture.expected)
        problems += compareDecoded(
            message.engineIO.engineIO == nil ? nil : JMessageCanonicalJSON.encode(message), fixture)
        if fixture.expected.isEmpty, let event = message.event {
            let encoded = JMessageCodec.encode(event)
            if encoded != input { problems.append("re-encoded \(String(decoding: encoded, as: UTF8.self))") }
        }
        return problems
    }

    static func verifySignature(_ fixture: Fixture) throws(IMWireError) -> [String] {
        guard let input = fixture.object["input"]?.objectValue, let appkey = input["appkey"]?.stringValue,
            let random = input["random_str"]?.stringValue,
            let timestamp = input["timestamp"].flatMap(JMessageSignatureText.text),
            let secret = input["secret"]?.stringValue, let message = fixture.object["message"]?.stringValue,
            let signature = fixture.object["signature"]?.stringValue
        else {
            throw IMWireError(
                .fixtureFormat,
                """
                signature fixtures need input{appkey, \
                timestamp, random_str, secret}, message, signature
                """, path: fixture.path)
        }
        var problems: [String] = []
        let text = JMessageSignature.message(appkey: appkey, timestamp: timestamp, randomString: random, secret: secret)
        if text != message { problems.append("message \"\(text)\", expected \"\(message)\"") }
        var payload = JSONObject()
        payload.append("appkey", .string(appkey))
        payload.append("random_str", .string(random))
        payload.append("signature", .string(signature))
        payload.append("timestamp", input["timestamp"] ?? .null)
        problems += FixtureVerifier.compare(JMessageSignature.check(payload, secret: secret, at: 0), fixture.expected)
        return problems
    }

    static func verifyJMessageSessions(_ fixture: Fixture) throws(IMWireError) -> [String] {
        let secret = fixture.object["input"]?["secret"]?.stringValue
        var findings: [Finding] = []
        for connection in try events(fixture) {
            let session = JMessageConnection(options: JMessageSessionOptions(secret: secret))
            for (frame, event) in connection.events.enumerated() {
                findings +=
                    session.observe(
                        event.2, binaryFrame: event.3, direction: event.1, timeMicros: event.0, frameIndex: frame + 1
                    ).observation
                    .findings
            }
            findings += session.finish(atMicros: connection.end, frameIndex: connection.events.count)
        }
        return FixtureVerifier.compare(findings, fixture.expected)
    }
}

/// How a JSON timestamp reads as text in the signed string.
enum JMessageSignatureText {
    static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .number(let number): number.literal
        default: nil
        }
    }
}
