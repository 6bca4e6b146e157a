import IMWireCore
import IMWireIO
import IMWireRegistry

/// A suite of the testee protocol (`Spec/conformance.md`): one wire format a testee may implement.
public enum ConformanceSuite: String, Sendable, CaseIterable, Comparable {
    case leancloudBinary = "leancloud.binary"
    case leancloudBase64 = "leancloud.base64"
    case leancloudJSON = "leancloud.json"
    case websocketFrames = "websocket.frames"
    case websocketDeflate = "websocket.permessage-deflate"
    case mqtt31 = "mqtt.3.1"
    case mqtt311 = "mqtt.3.1.1"
    case socketIO09 = "socketio.0.9"
    case engineIO3 = "engineio.3"
    case nim
    case jmessage
    case yun2win

    /// Whether the suite's units are text (given and answered as `text`), not bytes (`hex`): its
    /// codec reads text frames.
    package var isText: Bool {
        guard let (name, options) = codec(JSONObject()) else { return false }
        return (try? Dialects.standard.codec(named: name)?.unit(options)) == .textFrame
    }

    public static func < (lhs: ConformanceSuite, rhs: ConformanceSuite) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }

    /// The canonical codec of the registration table that reads (and writes) the suite's units:
    /// its name and its options, those of a request's `options` included (`version`, `secret`);
    /// nil for the WebSocket suites, which no codec reads.
    func codec(_ request: JSONObject) -> (name: String, options: [String: String])? {
        switch self {
        case .leancloudBinary: ("leancloud", ["encoding": "protobuf"])
        case .leancloudBase64: ("leancloud", ["encoding": "base64"])
        case .leancloudJSON: ("leancloud", ["encoding": "json"])
        case .mqtt31: ("mqtt", ["mqtt-version": "3.1"])
        case .mqtt311: ("mqtt", ["mqtt-version": "3.1.1"])
        case .socketIO09: ("socketio.0.9", [:])
        case .engineIO3: ("engineio.3", [:])
        case .nim: ("nim", [:])
        case .jmessage: ("jmessage", request["secret"]?.stringValue.map { ["secret": $0] } ?? [:])
        case .yun2win: ("yun2win", request["version"]?.stringValue.map { ["mqtt-version": $0] } ?? [:])
        case .websocketFrames, .websocketDeflate: nil
        }
    }
}

/// One conformance case: a request to send a testee and what a conforming answer is. Made from
/// a golden fixture (`ConformanceCases.load`); a clean fixture gives a decode case and, where the
/// suite has an encoder, an encode case and a round-trip (`both`) case; a fixture with findings
/// gives a decode case that must be rejected.
public struct ConformanceCase: Sendable {
    /// What the testee is asked to do.
    public enum Operation: String, Sendable {
        /// Bytes in, canonical JSON out.
        case decode
        /// Canonical JSON in, bytes out.
        case encode
        /// Bytes in, the canonical JSON and its encoding back out: a round trip in one request.
        case both
        /// The name's spelling in test names (`Decode`, `Encode`, `Both`).
        public var title: String {
            switch self {
            case .decode: "Decode"
            case .encode: "Encode"
            case .both: "Both"
            }
        }
    }

    /// The request's input.
    public enum Input: Sendable, Equatable {
        case hex([UInt8])
        case text(String)
        case value(JSONValue)
    }

    /// What a conforming testee answers.
    public enum Expectation: Sendable, Equatable {
        /// `ok` with this canonical JSON value.
        case value(JSONValue)
        /// `ok` with these bytes (`asJSON`: compared as JSON documents, for lc.json).
        case bytes([UInt8], asJSON: Bool)
        /// `rejected`; a rejection's rule and offset should match one of these findings.
        case rejected([Fixture.ExpectedFinding])
        /// `ok` with this value and, encoded back, the input's own bytes.
        case roundTrip(JSONValue, [UInt8], asJSON: Bool)
    }

    /// The fixture's path below `Fixtures/` without `.json`, e.g. `mqtt/packet/connect-minimal`.
    public let id: String
    public let suite: ConformanceSuite
    public let operation: Operation
    public let input: Input
    /// The request's `options` (role, direction, version, extension parameters, limits, strict).
    public let options: JSONObject
    public let expectation: Expectation
    /// The fixture's description.
    public let comment: String

    /// The name of the case's Required test, e.g. `Required.mqtt.3.1.1.Decode.mqtt/packet/x`.
    public var requiredName: String { "Required.\(suite.rawValue).\(operation.title).\(id)" }

    /// The name of its Recommended test (the rejection's offset and rule), when it has one: an
    /// expected rejection with at least one offset.
    public var recommendedName: String? {
        guard case .rejected(let findings) = expectation, findings.contains(where: { $0.offset != nil }) else {
            return nil
        }
        return "Recommended.\(suite.rawValue).\(operation.title).\(id).Offset"
    }

    /// The request for this case (`Spec/conformance.md`), with the request id given.
    public func request(id requestID: Int) -> JSONValue {
        var object = JSONObject()
        object.append("protocol", .number(JSONNumber(TesteeProtocol.version)))
        object.append("id", .number(JSONNumber(requestID)))
        object.append("suite", .string(suite.rawValue))
        object.append("case", .string(id))
        object.append("operation", .string(operation.rawValue))
        switch input {
        case .hex(let bytes): object.append("input", ["hex": .string(Hex.encode(bytes))])
        case .text(let text): object.append("input", ["text": .string(text)])
        case .value(let value): object.append("input", ["value": value])
        }
        object.append("options", .object(options))
        return .object(object)
    }
}

/// Turns the golden fixtures into conformance cases.
public enum ConformanceCases {
    /// Every case of the fixtures under `directory` (`Fixtures/`), sorted by suite and id, and
    /// the problems of fixtures that could not be read. Fixtures of layers no suite covers
    /// (handshakes, signatures, sessions, reconnect, rich messages, yun2win gate and payloads)
    /// give no case.
    public static func load(directory: String) -> (cases: [ConformanceCase], problems: [String]) {
        var cases: [ConformanceCase] = []
        var problems: [String] = []
        let root = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        for path in Directory.files(under: root, suffix: ".json")
        where !FixtureVerifier.otherFolders.contains(where: { path.contains($0) }) {
            let id = String(path.dropFirst(root.count + 1).dropLast(5))
            do {
                cases += try Self.cases(for: try Fixture(path: path), id: id)
            } catch {
                problems.append("\(error)")
            }
        }
        cases.sort { ($0.suite, $0.id, $0.operation.rawValue) < ($1.suite, $1.id, $1.operation.rawValue) }
        return (cases, problems)
    }

    /// The suite a fixture belongs to, or nil when no suite covers its layer.
    package static func suite(of fixture: Fixture) -> ConformanceSuite? {
        switch (fixture.dialect, fixture.layer) {
        case ("leancloud", "command"):
            switch fixture.encoding {
            case "protobuf": return .leancloudBinary
            case "base64": return .leancloudBase64
            case "json": return .leancloudJSON
            default: return nil
            }
        case ("websocket", "frame"), ("websocket", "message"):
            return fixture.object["input"]?["permessage_deflate"] == nil ? .websocketFrames : .websocketDeflate
        case ("mqtt", "packet"): return fixture.encoding == "3.1" ? .mqtt31 : .mqtt311
        case ("nim", "socketio"): return .socketIO09
        case ("nim", "packet"): return .nim
        case ("jmessage", "engineio"): return .engineIO3
        case ("jmessage", "event"): return .jmessage
        case ("yun2win", "packet"): return .yun2win
        default: return nil
        }
    }

    /// The cases of one fixture (`id`: its path below `Fixtures/` without `.json`).
    package static func cases(for fixture: Fixture, id: String) throws(IMWireError) -> [ConformanceCase] {
        guard let suite = suite(of: fixture) else { return [] }
        var options = JSONObject()
        options.append("strict", true)
        let input: ConformanceCase.Input
        let expected: JSONValue
        switch suite {
        case .websocketFrames, .websocketDeflate:
            guard let given = fixture.object["input"]?.objectValue, let hex = given["client_hex"]?.stringValue,
                let bytes = try? Hex.decode(hex)
            else { throw IMWireError(.fixtureFormat, "input needs client_hex", path: fixture.path) }
            input = .hex(bytes)
            // The testee reads what a client sent: it is the server.
            options.append("role", "server")
            if let deflate = given["permessage_deflate"] { options.append("permessage_deflate", deflate) }
            if let limits = given["limits"] { options.append("limits", limits) }
            var value = JSONObject()
            value.append("messages", fixture.decoded?["messages"] ?? .array([]))
            value.append("close_code", fixture.decoded?["close_code"] ?? .null)
            value.append("frames", fixture.decoded?["frames"] ?? .array([]))
            expected = .object(value)
        default:
            let bytes = try fixture.input()
            expected = fixture.decoded ?? .null
            // A binary engine.io frame, or text that is not UTF-8, is given as hex.
            input =
                suite.isText && fixture.object["bytes_hex"] == nil
                ? .text(String(decoding: bytes, as: UTF8.self)) : .hex(bytes)
        }
        if let frame = fixture.object["frame"]?.stringValue { options.append("frame", .string(frame)) }
        if let version = fixture.encoding, suite == .yun2win { options.append("version", .string(version)) }
        if suite == .mqtt31 || suite == .mqtt311 {
            options.append("version", .string(suite == .mqtt31 ? "3.1" : "3.1.1"))
        }
        if let direction = fixture.object["direction"]?.stringValue { options.append("direction", .string(direction)) }
        if let secret = fixture.object["secret"]?.stringValue { options.append("secret", .string(secret)) }

        let comment = fixture.description
        guard fixture.expected.isEmpty else {
            return [
                ConformanceCase(
                    id: id, suite: suite, operation: .decode, input: input, options: options,
                    expectation: .rejected(fixture.expected),
                    comment: comment)
            ]
        }
        var cases = [
            ConformanceCase(
                id: id, suite: suite, operation: .decode, input: input, options: options, expectation: .value(expected),
                comment: comment)
        ]
        let isHeartbeat = fixture.object["kind"]?.stringValue == "heartbeat"
        if encodes(suite), !isHeartbeat, !expected.isNull {
            let bytes: [UInt8]
            switch input {
            case .hex(let given): bytes = given
            case .text(let text): bytes = Array(text.utf8)
            case .value: bytes = []
            }
            cases.append(
                ConformanceCase(
                    id: id, suite: suite, operation: .encode, input: .value(expected), options: options,
                    expectation: .bytes(bytes, asJSON: suite == .leancloudJSON), comment: comment))
            cases.append(
                ConformanceCase(
                    id: id, suite: suite, operation: .both, input: input, options: options,
                    expectation: .roundTrip(expected, bytes, asJSON: suite == .leancloudJSON), comment: comment))
        }
        return cases
    }

    /// Suites with an encode operation: those whose canonical JSON IMWire encodes back to the
    /// exact bytes (WebSocket frames carry masks the canonical form leaves out; yun2win and
    /// JMessage events are encoded through their MQTT and engine.io layers).
    package static func encodes(_ suite: ConformanceSuite) -> Bool {
        switch suite {
        case .leancloudBinary, .leancloudBase64, .leancloudJSON, .mqtt31, .mqtt311, .socketIO09, .nim, .engineIO3: true
        default: false
        }
    }
}
