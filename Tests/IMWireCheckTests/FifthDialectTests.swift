import Foundation
import IMWire
import IMWireTestSupport
import Testing

/// A fifth dialect, defined and registered here only: "echo", a toy text protocol over WebSocket
/// (subprotocol `echo.v1`) in which the client sends `ping N` and the server answers `pong N`.
/// Nothing in IMWire's modules or its CLI names it: the checker reads it because the test hands
/// the checker a registration table that has it (`CheckOptions.dialects`).
enum EchoDialect {
    static let echo = Dialect("echo")
    static let malformed = Rule(
        "ECHO.MALFORMED", .error, layer: .command, dialect: echo,
        summary: "A message that is neither `ping N` nor `pong N`.",
        specRef: "Tests/IMWireCheckTests/FifthDialectTests.swift")
    static let unanswered = Rule(
        "ECHO.UNANSWERED", .warning, layer: .session, dialect: echo,
        summary: "A ping without its pong when the connection ends.",
        specRef: "Tests/IMWireCheckTests/FifthDialectTests.swift")

    static let definition = DialectDefinition(
        dialect: echo, title: "Echo (a test dialect)", specPage: "Tests/IMWireCheckTests/FifthDialectTests.swift",
        rules: [malformed, unanswered], statusTables: [], policies: [], defaultPolicy: nil,
        claimsSubprotocol: { $0 == "echo.v1" },
        recognisesFirstMessage: { message, _ in message.payload.starts(with: Array("ping ".utf8)) },
        makeConnection: { _ in EchoConnection() }, canonicalCodec: EchoCodec.definition)
}

/// The echo dialect's canonical codec: `ping N` is `{"ping": N}`, `pong N` `{"pong": N}`; with an
/// option of its own, the case of the words it writes.
struct EchoCodec: CanonicalCodec {
    var upper: Bool

    static let definition = CanonicalCodecDefinition(
        name: EchoDialect.echo.rawValue,
        options: [
            CanonicalCodecOption(
                "echo-case", values: ["lower", "upper"], default: "lower", help: "the case of the words written.")
        ],
        jsonForm: #"{"ping": N} or {"pong": N}."#, unit: { _ in .textFrame },
        make: { EchoCodec(upper: $0["echo-case"] == "upper") })

    func decode(_ bytes: [UInt8], as input: CanonicalInput) -> CanonicalDecoding {
        let words = String(decoding: bytes, as: UTF8.self).lowercased().split(separator: " ")
        guard words.count == 2, ["ping", "pong"].contains(words[0]), let number = Int(words[1]) else {
            let finding = EchoDialect.malformed.finding("expected `ping N` or `pong N`", at: 0)
            return CanonicalDecoding(
                parts: [.init(decoded: nil, findings: [finding])], envelope: ["findings": .array([finding.json()])])
        }
        let json = JSONValue.object(
            JSONObject([JSONObject.Member(key: String(words[0]), value: .number(JSONNumber(number)))]))
        return CanonicalDecoding(parts: [.init(decoded: json, findings: [])], envelope: ["decoded": json])
    }

    func encode(_ json: JSONValue) throws(IMWireError) -> CanonicalEncoded {
        guard let member = json.objectValue?.members.first, json.objectValue?.count == 1,
            let number = member.value.int64Value
        else {
            throw IMWireError(.canonicalJSON, #"expected {"ping": N} or {"pong": N}"#)
        }
        return CanonicalEncoded(
            bytes: Array("\(upper ? member.key.uppercased() : member.key) \(number)".utf8), binary: false)
    }
}

/// One echo connection: each ping waits for the pong of its number.
final class EchoConnection: DialectConnection {
    let dialect = EchoDialect.echo
    var sessionFacts = SessionFacts()
    private var unanswered: [Int: (frame: Int, time: Int64)] = [:]

    func observe(_ message: WireMessage, timeMicros: Int64, frameIndex: Int) -> DialectObservation {
        let words = String(decoding: message.payload, as: UTF8.self).split(separator: " ")
        let expected = message.direction == .send ? "ping" : "pong"
        guard words.count == 2, words[0] == expected, let number = Int(words[1]) else {
            let finding = located(
                EchoDialect.malformed.finding("expected `\(expected) N`", at: 0), frameIndex, timeMicros,
                message.direction)
            return DialectObservation(findings: [finding])
        }
        if message.direction == .send {
            unanswered[number] = (frameIndex, timeMicros)
        } else {
            unanswered[number] = nil
        }
        return DialectObservation(findings: [], summary: "\(expected) \(number)")
    }

    func finish(atMicros timeMicros: Int64?, frameIndex: Int) -> [Finding] {
        unanswered.sorted { $0.key < $1.key }.map { number, ping in
            located(EchoDialect.unanswered.finding("ping \(number) has no pong"), ping.frame, ping.time, .send)
        }
    }

    private func located(_ finding: Finding, _ frame: Int, _ time: Int64, _ direction: Direction) -> Finding {
        var finding = finding
        finding.location.frameIndex = frame
        finding.location.time = time
        finding.location.direction = direction
        return finding
    }
}

@Suite struct FifthDialectTests {
    static let transcript = [
        #"{"type": "open", "conn": "e1", "t": 0, "subprotocol": "echo.v1", "url": "ws://127.0.0.1:9000/echo"}"#,
        #"{"conn": "e1", "t": 0.1, "dir": "send", "text": "ping 1"}"#,
        #"{"conn": "e1", "t": 0.2, "dir": "receive", "text": "pong 1"}"#,
        #"{"conn": "e1", "t": 0.3, "dir": "send", "text": "hello"}"#,
        #"{"conn": "e1", "t": 0.4, "dir": "send", "text": "ping 2"}"#,
        #"{"type": "close", "conn": "e1", "t": 0.5, "code": 1000, "by": "client"}"#,
    ]
    static let withEcho: CheckOptions = {
        var options = CheckOptions()
        options.dialects = Dialects.standard.adding(EchoDialect.definition)
        return options
    }()

    /// The transcript as a file, then the library's `imwire check` of it.
    private func checked(_ lines: [String], options: CheckOptions, asPcapng: Bool = false) throws -> CheckReport {
        let path = NSTemporaryDirectory() + "imwire-echo-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try TextFile.write(lines.joined(separator: "\n") + "\n", to: path)
        guard asPcapng else { return try Checker.check(path: path, options: options) }
        // The same connection as TCP packets: the dialect is found from the upgrade's subprotocol.
        let pcapng = path + ".pcapng"
        defer { try? FileManager.default.removeItem(atPath: pcapng) }
        try TextFile.write(CaptureConverter.pcapng(from: try CaptureFile.open(path)), to: pcapng)
        return try Checker.check(path: pcapng, options: options)
    }

    @Test func aRegisteredDialectIsCheckedByItsOwnRules() throws {
        let report = try checked(Self.transcript, options: Self.withEcho)
        #expect(report.connections.map(\.dialect) == [EchoDialect.echo])
        #expect(report.summary() == ["e1#3 ECHO.MALFORMED", "e1#4 ECHO.UNANSWERED"])
        let malformed = try #require(report.connections[0].findings.first { $0.ruleID == EchoDialect.malformed.id })
        #expect(malformed.offset == 0 && malformed.location.line == 4)
        // The absence points at the ping that was never answered, on its transcript line.
        let unanswered = try #require(report.connections[0].findings.first { $0.ruleID == EchoDialect.unanswered.id })
        #expect(unanswered.location.line == 5 && unanswered.message == "ping 2 has no pong")
    }

    @Test func withoutItsRegistrationTheConnectionIsUnknown() throws {
        let report = try checked(Self.transcript, options: CheckOptions())
        #expect(report.summary() == ["e1#1 CHECK.UNKNOWN-DIALECT"])
    }

    @Test func itsConnectionsAreFoundInPacketCaptures() throws {
        let report = try checked(Self.transcript, options: Self.withEcho, asPcapng: true)
        #expect(report.connections.map(\.dialect) == [EchoDialect.echo])
        #expect(report.summary().map { $0.split(separator: " ")[1] } == ["ECHO.MALFORMED", "ECHO.UNANSWERED"])
    }

    @Test func aConnectionThatNamesNothingIsRecognisedByItsFirstMessage() throws {
        var lines = Self.transcript
        lines[0] = #"{"type": "open", "conn": "e1", "t": 0}"#
        let report = try checked(lines, options: Self.withEcho)
        #expect(report.connections.map(\.dialect) == [EchoDialect.echo])
        #expect(report.summary(.info).first == "e1#1 CHECK.DIALECT-GUESSED")
    }

    @Test func aTranscriptMayNameItAndAnUnknownNameIsReported() throws {
        var lines = Self.transcript
        lines[0] = #"{"type": "open", "conn": "e1", "t": 0, "dialect": "echo"}"#
        #expect(try checked(lines, options: Self.withEcho).connections.map(\.dialect) == [EchoDialect.echo])
        let unknown = try checked(lines, options: CheckOptions())
        #expect(
            unknown.connections[0].findings.contains {
                $0.ruleID == "CAPTURE.JSONL-BAD-FIELD" && $0.message == #"unknown dialect "echo""#
            })
    }

    /// Its codec is in the table with it: made, with its option, and used as `imwire decode` and
    /// `imwire encode` make and use a codec (`Dialects.codec(named:)`, `makeCodec`, `unit`).
    @Test func itsCanonicalCodecIsMadeFromTheTable() throws {
        let table = Dialects.standard.adding(EchoDialect.definition)
        #expect(Dialects.standard.codec(named: "echo") == nil)
        #expect(
            table.codecs.map(\.name) == [
                "leancloud", "nim", "jmessage", "yun2win", "echo", "mqtt", "socketio.0.9", "engineio.3",
            ])
        let definition = try #require(table.codec(named: "echo"))
        #expect(try definition.unit() == .textFrame)
        let decoding = try definition.makeCodec().decode(Array("ping 7".utf8), as: CanonicalInput(binary: false))
        #expect(decoding.status == 0 && decoding.parts.map(\.decoded) == [["ping": 7]])
        #expect(try definition.makeCodec().encode(["pong": 7]).bytes == Array("pong 7".utf8))
        #expect(try definition.makeCodec(["echo-case": "upper"]).encode(["pong": 7]).bytes == Array("PONG 7".utf8))
        #expect(try definition.makeCodec().decode(Array("hello".utf8), as: CanonicalInput(binary: false)).status == 2)
        // An option's value is checked, and named with the values it takes.
        #expect {
            try definition.makeCodec(["echo-case": "title"])
        } throws: { error in
            error as? IMWireError
                == IMWireError(.codecOptionValue, "echo-case title: expected lower or upper", field: "echo-case")
        }
        #expect {
            try definition.makeCodec(["encoding": "json"])
        } throws: { error in
            (error as? IMWireError)?.code == .codecOption && (error as? IMWireError)?.field == "encoding"
        }
    }

    /// A framing without a dialect registers its codec the same way (as bare MQTT's is), after the
    /// others; one of the same name is replaced.
    @Test func aFramingCodecIsRegisteredAlone() throws {
        let framing = CanonicalCodecDefinition(
            name: "echo-lines", jsonForm: "", unit: { _ in .packets(payloadText: false) },
            make: { _ in EchoCodec(upper: true) })
        let table = Dialects.standard.adding(framing)
        #expect(table.codecs.map(\.name).suffix(2) == ["engineio.3", "echo-lines"])
        #expect(try table.codec(named: "echo-lines")?.unit() == .packets(payloadText: false))
        #expect(table.adding(framing).codecs.count == table.codecs.count)
        #expect(table.adding(EchoDialect.definition).codecs.map(\.name).contains("echo"))
    }

    @Test func theReportsCarryItsRules() throws {
        let report = try checked(Self.transcript, options: Self.withEcho)
        var sarif: [UInt8] = []
        SARIFReport.write(report, threshold: .warning, version: "test") { sarif += $0 }
        let rules =
            try JSONParser.parse(sarif)["runs"]?.arrayValue?.first?["tool"]?["driver"]?["rules"]?.arrayValue ?? []
        #expect(rules.compactMap { $0["id"]?.stringValue } == ["ECHO.MALFORMED", "ECHO.UNANSWERED"])
        var json: [UInt8] = []
        JSONReport.write(report, threshold: .warning) { json += $0 }
        #expect(try JSONParser.parse(json)["connections"]?.arrayValue?.first?["dialect"]?.stringValue == "echo")
    }
}
