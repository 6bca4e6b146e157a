import IMWire
import IMWireServe
import Testing

@testable import IMWireFuzzTargets

/// Every input the fuzzers ever broke (Fuzz/FailCases/<target>/), and every fixture as a seed,
/// replayed through the same invariants the fuzz targets check.
@Suite struct FailCaseReplayTests {
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    @Test(arguments: FuzzTarget.allCases)
    func failCasesStayFixed(target: FuzzTarget) throws {
        let folder = "\(Self.root)/Fuzz/FailCases/\(target.rawValue)"
        for path in Directory.files(under: folder, suffix: "")
        where !(path.split(separator: "/").last ?? "").hasPrefix(".") {
            let violations = target.run(try FileByteSource.readAll(path: path))
            #expect(violations.isEmpty, "\(path): \(violations)")
        }
    }

    @Test func fixtureInputsKeepTheInvariants() throws {
        var count = 0
        for path in Directory.files(under: "\(Self.root)/Fixtures/leancloud/command", suffix: ".json") {
            let fixture = try Fixture(path: path)
            let input = try fixture.input()
            let target: FuzzTarget = fixture.encoding == "protobuf" ? .leancloudBinary : .leancloudText
            let flags: UInt8 = fixture.encoding == "json" ? 0b0100 : 0
            for data in [input, [0, flags] + input] {
                #expect(target.run(data).isEmpty, "\(path)")
            }
            if fixture.encoding == "protobuf" {
                #expect(FuzzTarget.leancloudDifferential.run(input).isEmpty, "\(path)")
            }
            count += 1
        }
        #expect(count > 100)
    }

    /// The WebSocket fixtures' byte streams, each direction in every option of the stream and
    /// differential targets (the same inputs `seeds.py` gives the fuzzers).
    @Test func webSocketFixturesKeepTheInvariants() throws {
        var count = 0
        for path in Directory.files(under: "\(Self.root)/Fixtures/websocket", suffix: ".json") {
            let fixture = try Fixture(path: path)
            let given = fixture.object["input"]
            if fixture.layer == "handshake" {
                let request = Array((given?["request"]?.stringValue ?? "").utf8)
                let response = Array((given?["response"]?.stringValue ?? "").utf8)
                #expect(FuzzTarget.webSocketHandshake.run(request + response).isEmpty, "\(path)")
                #expect(FuzzTarget.webSocketHandshake.run([0, 0b0100] + request).isEmpty, "\(path)")
                continue
            }
            // permessage-deflate as the fixture negotiated it (extra bits 0-1: 1 defaults, 2 no
            // context takeover), without and with tight limits.
            let offer = given?["permessage_deflate"]?.stringValue
            let extra: UInt8 = offer == nil ? 0 : (offer?.contains("no_context_takeover") == true ? 2 : 1)
            for (direction, key) in [(UInt8(0), "client_hex"), (1, "server_hex")] {
                let bytes = try Hex.decode(given?[key]?.stringValue ?? "")
                guard !bytes.isEmpty else { continue }
                for tight: UInt8 in [0, 2] {
                    let data = [0, tight | direction << 2 | extra << 4] + bytes
                    #expect(FuzzTarget.webSocket.run(data).isEmpty, "\(path) \(key) tight \(tight)")
                }
                #expect(FuzzTarget.webSocketDifferential.run([0, direction << 2] + bytes).isEmpty, "\(path)")
            }
            count += 1
        }
        #expect(count > 300)
    }

    /// MQTT and yun2win packets, socket.io and engine.io messages from the fixtures.
    @Test func transportFixturesKeepTheInvariants() throws {
        var count = 0
        for folder in ["mqtt/packet", "yun2win/packet"] {
            for path in Directory.files(under: "\(Self.root)/Fixtures/\(folder)", suffix: ".json") {
                let bytes = try Fixture(path: path).input()
                for flags: UInt8 in [0, 0b0100, 0b1000, 0b0001_0000, 0b0010_0010] {
                    #expect(FuzzTarget.mqtt.run([0, flags] + bytes).isEmpty, "\(path) flags \(flags)")
                }
                count += 1
            }
        }
        for (folder, variant) in [
            ("nim/socketio", UInt8(0)), ("nim/packet", 0), ("jmessage/engineio", 1), ("jmessage/event", 1),
        ] {
            for path in Directory.files(under: "\(Self.root)/Fixtures/\(folder)", suffix: ".json") {
                let fixture = try Fixture(path: path)
                let bytes = try fixture.input()
                let binary: UInt8 = fixture.object["bytes_hex"] != nil && variant == 1 ? 2 : variant
                for direction: UInt8 in [0, 1, 2] {
                    #expect(FuzzTarget.socketIO.run([0, binary << 2 | direction << 4] + bytes).isEmpty, "\(path)")
                }
                count += 1
            }
        }
        #expect(count > 300)
    }

    /// Every golden reconnect trace through the ReconnectEvents target, which runs it against
    /// the policy it names: the trace as it is, and its input as JSONL (as `seeds.py` gives them).
    @Test func reconnectTracesKeepTheInvariants() throws {
        var count = 0
        for path in Directory.files(under: "\(Self.root)/Fixtures/reconnect", suffix: ".json") {
            let text = try String(decoding: FileByteSource.readAll(path: path), as: UTF8.self)
            let file = try EventFile.parse(text)
            #expect(file.policy.flatMap(ReconnectPolicies.named) != nil, "\(path)")
            var settings = JSONObject()
            settings.append("seed", .number(JSONNumber(file.seed)))
            settings.append("policy", .string(file.policy ?? ""))
            let lines =
                [JSONWriter.string(.object(settings))]
                + (file.json.objectValue?["events"]?.arrayValue ?? []).map { JSONWriter.string($0) }
            for data in [text, lines.joined(separator: "\n")] {
                #expect(FuzzTarget.reconnectEvents.run(Array(data.utf8)).isEmpty, "\(path)")
            }
            count += 1
        }
        #expect(count > 50)
    }

    @Test func sampleCaptureKeepsTheInvariants() throws {
        let bytes = try FileByteSource.readAll(path: "\(Self.root)/Fixtures/captures/leancloud-real.pcapng")
        for target in [FuzzTarget.pcapng, .captureChecker] {
            #expect(target.run(bytes).isEmpty, "\(target)")
            #expect(target.run([0, 0b0110] + bytes).isEmpty, "\(target) tight")
            #expect(target.run([0, 0b0001_0000] + bytes).isEmpty, "\(target) rendered")
        }
    }

    @Test func optionsComeFromTheLeadingBytes() {
        let input = FuzzInput([0, 0b111, 0xaa])
        #expect(input.lenient && input.variant == 1 && input.payload == [0xaa])
        #expect(input.limits.maxFrameSize == 256)
        #expect(FuzzInput([0x08, 0x15]).payload == [0x08, 0x15])
        #expect(FuzzInput([0x08, 0x15]).limits == .default)
        #expect(FuzzInput([0, 0xa0]).extra == 0xa)
        let bytes = [UInt8](1...200)
        let chunks = FuzzInput(bytes).chunks
        #expect(chunks.allSatisfy { (1...17).contains($0.count) } && Array(chunks.joined()) == bytes)
        #expect(FuzzInput(bytes).chunks == chunks)
    }

    @Test func determinismCheckCanFail() {
        let rule = Rule("TEST.X", .error, layer: .encoding, summary: "x", specRef: "x")
        #expect(sameFindings([rule.finding("a", at: 1)], [rule.finding("a", at: 1)]))
        #expect(!sameFindings([rule.finding("a", at: 1)], [rule.finding("a", at: 2)]))
    }

    @Test func capturesReplayThroughTheChecker() throws {
        for name in ["leancloud-clean.jsonl", "leancloud-broken.jsonl"] {
            let bytes = try FileByteSource.readAll(path: "\(Self.root)/Fixtures/captures/\(name)")
            #expect(FuzzTarget.checker.run(bytes).isEmpty)
            #expect(FuzzTarget.checker.run([0, 0b0001_0000] + bytes).isEmpty, "rendered")
            for line in bytes.split(separator: 0x0a) { #expect(FuzzTarget.transcript.run(Array(line)).isEmpty) }
        }
    }

    /// The TLS sessions of Tests/IMWireTLSTests (real peers, their own key logs) as the TLS target's
    /// segments, as Fuzz/seeds.py writes them: with and without the RFC 8448 secrets (which they
    /// are not: nothing of theirs decrypts, their clear handshakes and accounting are checked), and
    /// RFC 8448's own records, which do decrypt.
    @Test func tlsSessionsKeepTheInvariants() throws {
        var count = 0
        for path in Directory.files(under: "\(Self.root)/Tests/IMWireTLSTests/Resources", suffix: ".chunks") {
            let blob = try FileByteSource.readAll(path: path)
            var segments: [UInt8] = []
            var index = 0
            while index + 5 <= blob.count {
                let length = blob[(index + 1)..<(index + 5)].reduce(0) { $0 << 8 | Int($1) }
                let data = Array(blob[(index + 5)..<min(blob.count, index + 5 + length)])
                for start in stride(from: 0, to: data.count, by: 0xffff) {
                    let piece = data[start..<min(data.count, start + 0xffff)]
                    segments +=
                        [blob[index] == UInt8(ascii: "c") ? 0 : 1, UInt8(piece.count >> 8), UInt8(piece.count & 0xff)]
                        + piece
                }
                index += 5 + length
            }
            for input in [segments, [0, 0b0100] + segments] { #expect(FuzzTarget.tls.run(input).isEmpty, "\(path)") }
            count += 1
        }
        #expect(count >= 10)
    }

    /// The key logs of Fixtures/captures/tls and the scenarios of Fixtures/serve (the seeds of the
    /// KeyLog and Scenario targets), and inputs each target must refuse without breaking an invariant.
    @Test func keyLogsAndScenariosKeepTheInvariants() throws {
        let keyLogs = Directory.files(under: "\(Self.root)/Fixtures/captures/tls", suffix: ".keylog")
        let scenarios = Directory.files(under: "\(Self.root)/Fixtures/serve", suffix: ".json")
        for path in keyLogs {
            #expect(FuzzTarget.keyLog.run(try FileByteSource.readAll(path: path)).isEmpty, "\(path)")
        }
        for path in scenarios {
            #expect(FuzzTarget.scenario.run(try FileByteSource.readAll(path: path)).isEmpty, "\(path)")
        }
        #expect(keyLogs.count >= 5 && scenarios.count >= 40)
        let random = String(repeating: "ab", count: 32)
        for text in [
            "# comment\r\n\nCLIENT_RANDOM \(random) \(String(repeating: "cd", count: 48))\nUNKNOWN x y z\n",
            "CLIENT_RANDOM \(random) \(String(repeating: "cd", count: 47))",  // a master secret of 47 bytes: line 1
            "\n\nCLIENT_TRAFFIC_SECRET_0 \(random)",  // one field: line 3
        ] {
            #expect(FuzzTarget.keyLog.run(Array(text.utf8)).isEmpty, "\(text)")
        }
        for text in [
            #"{"dialect": "nim", "summary": "s", "actions": [{"on": "accept", "do": "kick"}]}"#, "[]",
            #"{"dialect": "nim""#,
        ] {
            #expect(FuzzTarget.scenario.run(Array(text.utf8)).isEmpty, "\(text)")
        }
    }

    /// The round trip each target checks can fail: a scenario written back without its summary
    /// does not parse, and the target would say so.
    @Test func scenarioRoundTripCanFail() throws {
        let scenario = try Scenario.parse(
            Array(#"{"dialect": "nim", "summary": "s", "actions": []}"#.utf8), name: "x", file: "x")
        guard case .object(var object) = ScenarioFuzzing.json(scenario) else {
            Issue.record("not an object")
            return
        }
        object.members.removeAll { $0.key == "summary" }
        #expect(throws: IMWireError(.serveScenario, "\"summary\": expected a string", path: "x")) {
            try Scenario.parse(Array(JSONWriter.string(.object(object)).utf8), name: "x", file: "x")
        }
        #expect(ScenarioFuzzing.json(scenario) != .object(object))
    }

    /// The Serve target on clients of each dialect: the server answers (a router, an upgrade and
    /// a login's reply; NIM's handshake on one connection and its link on another), and the
    /// invariants hold; garbage gets a 400 and holds them too.
    @Test func serveTargetAnswersClientsOfEachDialect() throws {
        func upgrade(_ target: String, _ protocols: String = "") -> [UInt8] {
            Array(
                ("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\(protocols)\r\n")
                    .utf8)
        }
        // A masked client text frame (key 0: the payload as it is).
        func frame(_ text: String) -> [UInt8] { [0x81, 0x80 | UInt8(text.utf8.count), 0, 0, 0, 0] + Array(text.utf8) }
        func segment(_ connection: UInt8, _ bytes: [UInt8]) -> [UInt8] {
            [connection, UInt8(bytes.count >> 8), UInt8(bytes.count & 0xff)] + bytes
        }
        func answers(_ variant: UInt8, _ segments: [UInt8]) -> [Int: String] {
            #expect(FuzzTarget.serve.run([0, variant << 2] + segments).isEmpty)
            let scenario = Scenario(
                name: "clean", dialect: ServeFuzzing.dialects[Int(variant)], summary: "", actions: [],
                expectation: ScenarioExpectation())
            return (ServeFuzzing.run(scenario, ServeFuzzing.segments(segments))?.answers ?? [:]).mapValues {
                String(decoding: $0, as: UTF8.self)
            }
        }
        let route = segment(0, Array("GET /v1/route?appId=a HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        let open = segment(
            1,
            upgrade("/", "Sec-WebSocket-Protocol: lc.json.3\r\n")
                + frame(#"{"cmd":"session","op":"open","peerId":"a","i":1}"#))
        let leancloud = answers(0, route + open)
        #expect(
            leancloud[0]?.contains(#""server":"ws://127.0.0.1:80/""#) == true
                && leancloud[1]?.contains("opened") == true, "\(leancloud)")

        let handshake = segment(0, Array("GET /socket.io/1/?t=1 HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        let sid =
            answers(1, handshake)[0]?.split(separator: "\r\n").last?.split(separator: ":").first.map(String.init) ?? ""
        #expect(sid == ServeFuzzing.firstNIMSession)  // the seeds' (Fuzz/seeds.py) NIM link upgrades to it
        let login = #"3:::{"SID":2,"CID":3,"SER":1,"Q":[{"t":"Property","v":{"3":16,"19":"a","1000":"t"}}]}"#
        let nim = answers(1, handshake + segment(1, upgrade("/socket.io/1/websocket/\(sid)") + frame(login)))
        #expect(nim[1]?.contains(#""sid":2,"cid":3,"ser":1,"code":200"#) == true, "\(nim)")

        let jmessage = answers(
            2,
            segment(
                2, upgrade("/socket.io/?EIO=3&transport=websocket") + frame(#"42["login",{"username":"a","rid":1}]"#)))
        #expect(jmessage[2]?.contains(#"["ack",{"rid":1}]"#) == true, "\(jmessage)")
        let connect: [UInt8] =
            [0x10, 0x16, 0, 4] + Array("MQTT".utf8) + [4, 0xc2, 1, 0x2c, 0, 2] + Array("00".utf8) + [0, 2]
            + Array("u1".utf8) + [0, 2]
            + Array("t1".utf8)
        #expect(answers(3, segment(3, connect))[3]?.contains(#"{"returnCode":11}"#) == true)
        #expect(answers(0, segment(0, Array("\u{1}garbage".utf8)))[0]?.hasPrefix("HTTP/1.1 400 Bad Request") == true)
    }
}
