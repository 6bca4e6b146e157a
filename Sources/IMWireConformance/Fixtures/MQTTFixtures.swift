import IMWireCapture
import IMWireCore
import IMWireMQTT
import IMWireYun2win

/// MQTT fixture layer `packet`: one packet, read under the version in `encoding` (`3.1`, `3.1.1`,
/// or absent: from the CONNECT, else 3.1.1). The bytes must give exactly one packet, the same
/// when fed one byte at a time, and a clean fixture re-encodes to its input.
enum MQTTFixtures {
    static func version(_ fixture: Fixture) throws(IMWireError) -> MQTTVersion? {
        guard let name = fixture.encoding else { return nil }
        guard let version = MQTTVersion(rawValue: name) else {
            throw IMWireError(.fixtureFormat, "encoding must be 3.1 or 3.1.1", path: fixture.path)
        }
        return version
    }

    static func verifyPacket(_ fixture: Fixture) throws(IMWireError) -> [String] {
        let input = try fixture.input()
        let options = MQTTDecodeOptions(version: try version(fixture))
        let whole = MQTTStreamDecoder.decodeAll(input, options: options)
        var problems: [String] = []
        var bytewise = MQTTStreamDecoder(options: options)
        var pieces: [MQTTDecodedPacket] = []
        for byte in input { pieces += bytewise.feed([byte]) }
        pieces += bytewise.finish()
        if pieces != whole { problems.append("fed one byte at a time, the decoder gives a different result") }
        guard whole.count == 1 else { return problems + ["expected one packet, decoded \(whole.count)"] }
        let decoded = whole[0]
        problems += FixtureVerifier.compare(decoded.findings, fixture.expected)
        problems += compareDecoded(decoded.packet.map(MQTTCanonicalJSON.encode), fixture)
        if fixture.expected.isEmpty { problems += roundTrip(fixture.decoded, input) }
        return problems
    }

    /// `decoded` must match (null when nothing decodes); a clean fixture must have one.
    static func compareDecoded(_ actual: JSONValue?, _ fixture: Fixture) -> [String] {
        let expected = fixture.decoded ?? .null
        if fixture.expected.isEmpty, expected.isNull { return ["a clean fixture needs `decoded`"] }
        let value = actual ?? .null
        return value.semanticallyEquals(expected) ? [] : ["decoded \(value), expected \(expected)"]
    }

    /// The canonical MQTT JSON encodes back to the input bytes.
    static func roundTrip(_ json: JSONValue?, _ input: [UInt8]) -> [String] {
        guard let json, !json.isNull else { return [] }
        return FixtureVerifier.reencodes(input) { () throws(IMWireError) in
            try MQTTCanonicalCodec().encode(json)
        }
    }
}

/// yun2win fixture layers: `packet` (MQTT bytes of one direction, `direction` send or receive),
/// `payload` (a PUBLISH payload as text), `gate` (`encoding` request or reply), and `sessions`
/// (connections of (time, direction, hex) events run through the tracker, kicks carried from one
/// connection to the next).
enum Yun2winFixtures {
    static func direction(_ fixture: Fixture) throws(IMWireError) -> Direction? {
        guard let name = fixture.object["direction"]?.stringValue else { return nil }
        guard let direction = Direction(rawValue: name) else {
            throw IMWireError(.fixtureFormat, "direction must be send or receive", path: fixture.path)
        }
        return direction
    }

    static func verifyPacket(_ fixture: Fixture) throws(IMWireError) -> [String] {
        let input = try fixture.input()
        let version = try MQTTFixtures.version(fixture)
        let way = try direction(fixture)
        let whole = Yun2winCodec.decodeAll(input, direction: way, version: version)
        var problems: [String] = []
        var codec = Yun2winCodec(version: version)
        var pieces: [Yun2winDecodedPacket] = []
        for byte in input { pieces += codec.feed([byte], direction: way) }
        pieces += codec.finish(direction: way)
        if pieces != whole { problems.append("fed one byte at a time, the decoder gives a different result") }
        guard whole.count == 1 else { return problems + ["expected one packet, decoded \(whole.count)"] }
        let decoded = whole[0]
        problems += FixtureVerifier.compare(decoded.findings, fixture.expected)
        problems += MQTTFixtures.compareDecoded(
            decoded.packet == nil ? nil : Yun2winCanonicalJSON.encode(decoded), fixture)
        if fixture.expected.isEmpty { problems += MQTTFixtures.roundTrip(fixture.decoded?["mqtt"], input) }
        return problems
    }

    static func verifyPayload(_ fixture: Fixture) throws(IMWireError) -> [String] {
        let input = try fixture.input()
        let (message, findings) = Yun2winCodec.decodePayload(input, direction: try direction(fixture))
        var problems = FixtureVerifier.compare(findings, fixture.expected)
        problems += MQTTFixtures.compareDecoded(message.map(Yun2winCanonicalJSON.encode), fixture)
        if fixture.expected.isEmpty, let message, let original = try? JSONParser.parse(input) {
            let json: JSONValue
            switch message {
            case .command(let command, _): json = command.json
            case .server(let server, _): json = server.json
            default: json = .null
            }
            if !json.semanticallyEquals(original) { problems.append("re-encoded \(json) differs from the input") }
        }
        return problems
    }

    static func verifyGate(_ fixture: Fixture) throws(IMWireError) -> [String] {
        let input = try fixture.input()
        let decoded: JSONValue?
        let findings: [Finding]
        switch fixture.encoding {
        case "request":
            let (request, problems) = Yun2winGate.decodeRequest(input)
            decoded = request?.json
            findings = problems
        case "reply":
            let (reply, problems) = Yun2winGate.decodeReply(input)
            decoded = reply?.json
            findings = problems
        default:
            throw IMWireError(.fixtureFormat, "gate fixtures need encoding request or reply", path: fixture.path)
        }
        return FixtureVerifier.compare(findings, fixture.expected) + MQTTFixtures.compareDecoded(decoded, fixture)
    }

    static func verifySessions(_ fixture: Fixture) throws(IMWireError) -> [String] {
        guard let connections = fixture.object["input"]?["connections"]?.arrayValue else {
            throw IMWireError(
                .fixtureFormat, "sessions need input.connections[{events[{t, dir, hex}], end}]", path: fixture.path)
        }
        var kicked: Set<String> = []
        var findings: [Finding] = []
        for (index, connection) in connections.enumerated() {
            guard let events = connection["events"]?.arrayValue else {
                throw IMWireError(.fixtureFormat, "connection \(index) has no events", path: fixture.path)
            }
            let session = Yun2winConnection(kickedUIDs: kicked)
            for (frame, event) in events.enumerated() {
                guard let time = event["t"]?.numberValue.flatMap(TranscriptLine.microseconds),
                    let way = event["dir"]?.stringValue.flatMap(Direction.init(rawValue:)),
                    let hex = event["hex"]?.stringValue, let bytes = try? Hex.decode(hex)
                else {
                    throw IMWireError(
                        .fixtureFormat, "connection \(index) event \(frame) needs t, dir, hex", path: fixture.path)
                }
                findings +=
                    session.observe(bytes, direction: way, timeMicros: time, frameIndex: frame).observation.findings
            }
            let end = connection["end"]?.numberValue.flatMap(TranscriptLine.microseconds)
            findings += session.finish(atMicros: end, frameIndex: events.count)
            kicked = session.kickedUIDs
        }
        return FixtureVerifier.compare(findings, fixture.expected)
    }
}
