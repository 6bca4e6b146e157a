import IMWire
import Testing

@testable import IMWireCheck

@Suite struct SampleCaptureTests {
    @Test func cleanSampleIsClean() throws {
        let report = try check("Fixtures/captures/leancloud-clean.jsonl")
        #expect(report.allFindings.isEmpty, "\(report.allFindings)")
        #expect(report.exitCode(threshold: .info) == 0)
        #expect(report.connections.map(\.subprotocol) == ["lc.protobuf2.3", "lc.proto2base64.3", "lc.json.3"])
        #expect(report.connections.map(\.messages) == [26, 8, 5])
    }

    @Test func brokenSampleYieldsExactlyItsExpectedFindings() throws {
        let expectedFile = try JSONParser.parse(try readText("Fixtures/captures/leancloud-broken.expected.json"))
        let expected = (expectedFile["findings"]?.arrayValue ?? []).map { item in
            """
            \(item["connection"]?.stringValue ?? "")#\(item["frame"]?.int64Value ?? 0) \
            \(item["rule"]?.stringValue ?? "")
            """
        }
        let report = try check("Fixtures/captures/leancloud-broken.jsonl")
        #expect(report.summary().sorted() == expected.sorted())
        let captureExpected = (expectedFile["captureFindings"]?.arrayValue ?? []).map {
            "line \($0["line"]?.int64Value ?? 0) \($0["rule"]?.stringValue ?? "")"
        }
        #expect(report.captureFindings.map { "line \($0.location.line ?? 0) \($0.ruleID)" } == captureExpected)
        #expect(report.exitCode(threshold: .warning) == 1)
        #expect(expected.count >= 15)
    }

    @Test(arguments: [
        "yun2win-clean", "yun2win-kicked-reconnect", "leancloud-websocket", "leancloud-websocket-corrupt",
    ])
    func samplesYieldTheirExpectedRules(name: String) throws {
        let expected = try JSONParser.parse(try readText("Fixtures/captures/\(name).expected.json"))
        let rules = (expected["rules"]?.arrayValue ?? []).compactMap(\.stringValue)
        let report = try check("Fixtures/captures/\(name).jsonl")
        #expect(report.allFindings.filter { $0.severity >= .warning }.map(\.ruleID.rawValue).sorted() == rules.sorted())
        #expect(report.connections.allSatisfy { $0.dialect == (name.hasPrefix("yun2win") ? .yun2win : .leancloud) })
    }

    @Test func rawMQTTIsRecognisedWithoutAnOpenLine() throws {
        // The first message of connection y1 is a CONNECT: the checker picks yun2win by itself.
        let lines = try readText("Fixtures/captures/yun2win-clean.jsonl").split(separator: "\n").map(String.init)
            .filter { !$0.contains(#""type": "open""#) }
        let report = check(lines: lines)
        #expect(report.connections.first?.dialect == .yun2win)
        #expect(report.summary(.info).contains("y1#1 CHECK.DIALECT-GUESSED"))
        #expect(report.summary().isEmpty)
    }

    @Test func theRecordedCaptureIsClean() throws {
        // Recorded by Tests/CrossCheck/real_capture.py: Python websockets on 127.0.0.1, dumpcap.
        let report = try check("Fixtures/captures/leancloud-real.pcapng")
        #expect(report.allFindings.filter { $0.severity >= .warning }.isEmpty, "\(report.allFindings)")
        #expect(report.connections.count == 1)
        #expect(report.connections.first?.subprotocol == "lc.protobuf2.3")
        #expect(report.connections.first?.messages == 12)
    }

    @Test func theWebSocketSampleNegotiatesLikeItsHandshake() throws {
        let report = try check("Fixtures/captures/leancloud-websocket.jsonl")
        #expect(report.connections.first?.subprotocol == "lc.protobuf2.3")
        #expect(report.connections.first?.messages == 10)
        // Any chunking of the same stream gives the same report: split every stream line in two.
        var lines: [String] = []
        for line in try readText("Fixtures/captures/leancloud-websocket.jsonl").split(separator: "\n") {
            guard let object = try JSONParser.parse(String(line)).objectValue, object["type"]?.stringValue == "stream",
                let payload = object["base64"]?.stringValue, let bytes = try? Base64.decode(payload), bytes.count > 1
            else {
                lines.append(String(line))
                continue
            }
            for part in [bytes[..<(bytes.count / 2)], bytes[(bytes.count / 2)...]] {
                var copy = object
                copy["base64"] = .string(Base64.encode(Array(part)))
                lines.append(JSONWriter.string(.object(copy)))
            }
        }
        let split = check(lines: lines)
        #expect(split.summary(.info) == report.summary(.info))
        #expect(split.connections.first?.messages == 10)
    }

    @Test func theSpecExampleChecksClean() throws {
        let spec = try readText("Spec/capture-jsonl.md")
        let block = try #require(spec.split(separator: "```jsonl\n").dropFirst().first?.split(separator: "```").first)
        let report = check(lines: block.split(separator: "\n").map(String.init))
        #expect(report.allFindings.isEmpty, "\(report.allFindings)")
        #expect(report.connections.first?.messages == 2)
    }

    @Test func reportsAreDeterministic() throws {
        let first = try check("Fixtures/captures/leancloud-broken.jsonl")
        let second = try check("Fixtures/captures/leancloud-broken.jsonl")
        #expect(TextReport.render(first, threshold: .info) == TextReport.render(second, threshold: .info))
        #expect(JSONReport.render(first, threshold: .info) == JSONReport.render(second, threshold: .info))
        let json = try JSONParser.parse(JSONReport.render(first, threshold: .warning))
        #expect(json["exitCode"]?.int64Value == 1)
        #expect(json["connections"]?.arrayValue?.count == 2)
    }
}

@Suite struct SocketIOSampleCaptureTests {
    /// The NIM and JMessage samples: every finding at `threshold` (info) and above, exactly.
    @Test(arguments: ["nim-login-sync-send-kicked", "jmessage-group-803005"])
    func samplesYieldTheirExpectedRules(name: String) throws {
        let expected = try JSONParser.parse(try readText("Fixtures/captures/\(name).expected.json"))
        let threshold = Severity(name: expected["threshold"]?.stringValue ?? "warning") ?? .warning
        let rules = (expected["rules"]?.arrayValue ?? []).compactMap(\.stringValue)
        var options = CheckOptions()
        options.dialectOptions[JMessageSessionOptions.self].secret = "master-secret-1"
        let report = try check("Fixtures/captures/\(name).jsonl", options: options)
        #expect(
            report.allFindings.filter { $0.severity >= threshold }.map(\.ruleID.rawValue).sorted() == rules.sorted())
        #expect(!rules.isEmpty)
        let dialect: Dialect = name.hasPrefix("nim") ? .nim : .jmessage
        #expect(report.connections.allSatisfy { $0.dialect == dialect })
    }

    @Test func aWrongSecretFailsTheSignature() throws {
        var options = CheckOptions()
        options.dialectOptions[JMessageSessionOptions.self].secret = "not-the-secret"
        let report = try check("Fixtures/captures/jmessage-group-803005.jsonl", options: options)
        #expect(report.summary() == ["j1#3 JM.SIGNATURE-INVALID"])
    }

    @Test func theURLNamesTheDialect() {
        #expect(
            DialectSessions.dialect(forURL: "wss://weblink.netease.im/socket.io/1/websocket/8d2f0c", in: .standard)
                == .nim)
        #expect(
            DialectSessions.dialect(
                forURL: "wss://ws.im.jiguang.cn/socket.io/?EIO=3&transport=websocket", in: .standard) == .jmessage)
        #expect(
            DialectSessions.dialect(
                forInfo: ConnectionInfo(url: "wss://x/socket.io/?EIO=3&transport=websocket"), in: .standard)
                == .jmessage)
        #expect(DialectSessions.dialect(forURL: "wss://rtm51.leancloud.cn/", in: .standard) == nil)
    }
}
