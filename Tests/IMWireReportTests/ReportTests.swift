import Foundation
import IMWire
import Testing

@testable import IMWireReport

@Suite struct ReportTests {
    static func broken() throws -> CheckReport {
        var options = CheckOptions()
        options.timelineLimit = HTMLReport.timelineLimit
        return try check("Fixtures/captures/leancloud-broken.jsonl", options: options)
    }

    /// Payload bytes per connection, counted from the transcript itself (Foundation's JSON and
    /// base64, not IMWire's readers): what the report's byte account must add up to.
    static func transcriptBytes(_ name: String) throws -> [String: Int] {
        var bytes: [String: Int] = [:]
        for line in try readText("Fixtures/captures/\(name)").split(separator: "\n") {
            // A line that is not JSON carries no bytes (leancloud-broken has one on purpose).
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
                continue
            }
            let conn = try #require(object["conn"] as? String)
            var count = 0
            if let hex = object["hex"] as? String { count = hex.filter { $0 != " " }.count / 2 }
            if let base64 = object["base64"] as? String { count = try #require(Data(base64Encoded: base64)).count }
            if let text = object["text"] as? String { count = text.utf8.count }
            if let length = object["length"] as? Int { count = length }
            bytes[conn, default: 0] += count
        }
        return bytes
    }

    @Test func bytesAddUpToWhatWasCaptured() throws {
        // Messages (leancloud-broken), raw WebSocket streams with a corrupt frame, raw MQTT over TCP.
        for name in [
            "leancloud-broken.jsonl", "leancloud-websocket-corrupt.jsonl", "yun2win-clean.jsonl",
            "leancloud-reconnect.jsonl",
        ] {
            let expected = try Self.transcriptBytes(name)
            let report = try check("Fixtures/captures/\(name)")
            #expect(
                Dictionary(uniqueKeysWithValues: report.connections.map { ($0.id, $0.account.captured) }) == expected,
                "\(name)")
            for connection in report.connections {
                #expect(connection.account.decoded > 0, "\(name) \(connection.id)")
            }
        }
        // The pcapng's TCP payload bytes are compared with tshark's in Tests/CrossCheck/real_capture.py.
        // A gap: its bytes are lost, the rest of that direction is skipped with its reason.
        let lines = [
            #"{"type":"open","conn":"g","dialect":"yun2win"}"#,
            #"{"type":"stream","conn":"g","dir":"send","hex":"c000"}"#,
            #"{"type":"gap","conn":"g","dir":"send","length":7}"#,
            #"{"type":"stream","conn":"g","dir":"send","hex":"c000c000"}"#,
        ]
        let account = try #require(check(lines: lines).connections.first?.account)
        #expect(account.decoded == 2 && account.lost == 7 && account.skipped == ["after a gap in the stream": 4])
    }

    /// A connection is written member by member, not built as a tree first: the JSON read back and
    /// written again by the tree writer is the same text, with every optional member present.
    @Test func aConnectionIsWrittenAsTheTreeWriterWouldWriteIt() throws {
        var full = try #require(Self.broken().connections.first { !$0.findings.isEmpty })
        full.extensions = "permessage-deflate; client_max_window_bits=15"
        full.tls = TLSSummary(
            version: "TLS 1.3", suite: nil, serverName: "rtm.example", alpn: "http/1.1", decrypted: true, reason: "")
        full.tcpConnections = ["10.0.0.1:1-10.0.0.2:80", "10.0.0.1:2-10.0.0.2:80"]
        full.account.skipped = ["z after a gap": 3, "a handshake \"quoted\"": 12]
        var bare = full
        bare.dialect = nil
        bare.findings = []
        bare.account.skipped = [:]
        bare.tls = nil
        bare.tcpConnections = []
        bare.extensions = nil
        let connections = [full, bare]
        let report = CheckReport(
            source: "memory", firstTime: nil, connections: ConnectionReports(count: 2) { connections[$0] },
            captureFindings: [])
        let text = JSONReport.render(report, threshold: .info)
        let tree = try JSONParser.parse(text, maxDepth: 16)
        #expect(JSONWriter.pretty(tree) + "\n" == text)
        let written = try #require(tree["connections"]?.arrayValue)
        let keys = try #require(written.first?.objectValue).members.map(\.key)
        #expect(
            keys == [
                "id", "dialect", "subprotocol", "extensions", "tls", "messages", "client", "server", "tcp", "bytes",
                "findings", "droppedFindings",
            ])
        #expect(written.first?["tls"]?["suite"] == .null && written.first?["tls"]?["decrypted"] == .bool(true))
        #expect(
            written.first?["bytes"]?["skipped"]?.objectValue?.members.map(\.key) == [
                "a handshake \"quoted\"", "z after a gap",
            ])
        #expect(written.first?["findings"]?.arrayValue?.count == full.findings.count)
        #expect(written.last?["bytes"]?["skipped"] == .object(JSONObject()) && written.last?["findings"] == .array([]))
        #expect(written.last?["dialect"] == .null && written.last?["tls"] == nil)
    }

    /// Text and JSON go out a connection at a time (the CLI writes each piece as it comes), and
    /// the pieces make the same report as the whole.
    @Test func textAndJSONAreWrittenAConnectionAtATime() throws {
        let report = try check("Fixtures/captures/leancloud-reconnect.jsonl")
        #expect(report.connections.count > 2)
        for threshold in [Severity.info, .error] {
            var pieces: [[UInt8]] = []
            JSONReport.write(report, threshold: threshold) { pieces.append($0) }
            #expect(pieces.count == report.connections.count + 1)
            #expect(String(decoding: pieces.joined(), as: UTF8.self) == JSONReport.render(report, threshold: threshold))
            #expect((try? JSONSerialization.jsonObject(with: Data(pieces.joined()))) != nil)
            pieces = []
            TextReport.write(report, threshold: threshold) { pieces.append($0) }
            #expect(pieces.count == report.connections.count + 1)
            let text = String(decoding: pieces.joined(), as: UTF8.self)
            #expect(text == TextReport.render(report, threshold: threshold))
            #expect(
                text.split(separator: "\n").filter { $0.hasPrefix("connection ") }.count == report.connections.count)
            #expect(text.hasSuffix(" info\n") || text.hasSuffix("not shown)\n"))
        }
    }

    /// A WebSocket error carries the close code a conforming peer answers it with; lowered by
    /// --lenient or --rule it closes nothing, and findings of other layers have none.
    @Test func jsonFindingsCarryTheCloseCodeOfWebSocketErrors() throws {
        let corrupt = try check("Fixtures/captures/leancloud-websocket-corrupt.jsonl")
        let zlib = try #require(corrupt.allFindings.first { $0.ruleID == "ZLIB.CORRUPT-DATA" })
        #expect(JSONReport.json(zlib)["closeCode"] == .number(JSONNumber(1007)))
        var lowered = zlib
        lowered.severity = .warning
        #expect(JSONReport.json(lowered)["closeCode"] == .null)
        let lc = try #require(try Self.broken().allFindings.first { $0.ruleID == "LC.BEFORE-SESSION-OPEN" })
        #expect(JSONReport.json(lc)["closeCode"] == .null)
        let utf8 = try #require(RuleCatalog.rule("WS.INVALID-UTF8"))
        #expect(RuleCatalog.json(utf8)["closeCode"] == .number(JSONNumber(1007)))
        #expect(
            RuleCatalog.all.filter { RuleCatalog.closeCode(of: $0) != nil }.allSatisfy {
                [.websocket, .compression].contains($0.layer)
            })
    }

    @Test func junitHasASuitePerConnectionAndACasePerRuleFamily() throws {
        let xml = JUnitReport.render(try Self.broken(), threshold: .warning)
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"))
        #expect(xml.contains("<testsuite name=\"k1\" tests=\"9\" failures=\"2\">"))
        #expect(xml.contains("<testcase classname=\"k1\" name=\"WS\"/>"))
        #expect(xml.contains("<failure message=\"12 findings\" type=\"LC.BEFORE-SESSION-OPEN\">"))
        #expect(!xml.contains("<testcase classname=\"k1\" name=\"MQTT\""))
        let clean = JUnitReport.render(try check("Fixtures/captures/leancloud-clean.jsonl"), threshold: .warning)
        #expect(!clean.contains("<failure "))
    }

    /// XML 1.0 allows neither U+FFFE, U+FFFF nor most control characters, not even as
    /// references: a report naming a connection with them still parses (each is U+FFFD).
    @Test func charactersXMLForbidsAreReplacedInJUnitAndHTML() {
        let report = check(lines: [#"{"conn":"a\ufffe\uffff\u0001b","dir":"send","hex":"08"}"#])
        #expect(report.connections.map(\.id) == ["a\u{fffe}\u{ffff}\u{1}b"])
        for text in [JUnitReport.render(report, threshold: .info), HTMLReport.render(report, threshold: .info)] {
            #expect(text.contains("a\u{fffd}\u{fffd}\u{fffd}b"))
            #expect(!text.unicodeScalars.contains { $0 == "\u{fffe}" || $0 == "\u{ffff}" || $0 == "\u{1}" }, "\(text)")
        }
        #expect(Markup.escape("\t\n\r\u{d7ff}\u{e000}\u{fffd}\u{10000}") == "\t\n\r\u{d7ff}\u{e000}\u{fffd}\u{10000}")
    }

    @Test func sarifListsResultsAndTheRulesTheyUse() throws {
        let json = try JSONParser.parse(SARIFReport.render(try Self.broken(), threshold: .warning, version: "test"))
        #expect(json["version"] == "2.1.0")
        let run = try #require(json["runs"]?.arrayValue?.first)
        let results = try #require(run["results"]?.arrayValue)
        #expect(results.count == 16)
        let ruleIDs = Set(run["tool"]?["driver"]?["rules"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [])
        #expect(Set(results.compactMap { $0["ruleId"]?.stringValue }) == ruleIDs)
        #expect(results.allSatisfy { ["error", "warning", "note"].contains($0["level"]?.stringValue ?? "") })
    }

    @Test func htmlIsSelfContainedWithADiagramPerConnection() throws {
        let html = HTMLReport.render(try Self.broken(), threshold: .warning, specBase: "file:///repo/")
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.components(separatedBy: "<svg class=\"sequence\"").count == 3)
        #expect(html.components(separatedBy: "<g class=\"message").count == 26)
        #expect(html.contains("data-frame=\"5\"") && html.contains("LC.RESPONSE-WITHOUT-REQUEST"))
        #expect(
            html.components(separatedBy: "<script").count == 2 && !html.contains("src=")
                && !html.contains("href=\"http"))
        #expect(
            html.contains(
                "<a href=\"file:///repo/Spec/capture-jsonl.md#jsonl-lines\">Spec/capture-jsonl.md#jsonl-lines</a>"))
        let escaped = HTMLReport.render(check(lines: [#"{"conn":"<b>&","dir":"send","text":"{}"}"#]), threshold: .info)
        #expect(escaped.contains("&lt;b&gt;&amp;") && !escaped.contains("<b>&"))
    }

    /// 450 identical findings are one row counted ×450; the 450 messages are three pages of
    /// diagram, each message opening to its canonical JSON (none: it does not decode) and hex;
    /// the transcript's two connections of one dialect are one client's timeline.
    @Test func htmlGroupsPagesAndExpands() {
        var options = CheckOptions()
        options.timelineLimit = HTMLReport.timelineLimit
        options.timelineDetails = true
        let open = #"{"type":"open","conn":"a","t":0,"subprotocol":"lc.protobuf2.3"}"#
        let truncated = (1...450).map { #"{"conn":"a","t":\#(Double($0) / 100),"dir":"send","hex":"08"}"# }
        let second = [
            #"{"type":"open","conn":"b","t":5,"subprotocol":"lc.protobuf2.3"}"#,
            #"{"conn":"b","t":5.1,"dir":"send","hex":"080e2801"}"#,
        ]
        let html = HTMLReport.render(check(lines: [open] + truncated + second, options: options), threshold: .warning)
        #expect(html.components(separatedBy: "<tr class=\"finding error\"").count == 2)
        #expect(
            html.contains("data-rule=\"PB.TRUNCATED\" data-count=\"450\"")
                && html.contains("<td class=\"count\">×450</td>"))
        #expect(html.contains("<br>… and 400 more"))
        // Every marked frame's anchor exists, the 400 not listed too.
        #expect((1...450).allSatisfy { html.contains("id=\"c0-frame-\($0)\"") })
        #expect(html.contains("<button type=\"button\" data-page=\"2\">401–450</button>"))
        #expect(html.components(separatedBy: "<details class=\"msg\"").count == 452)
        #expect(
            html.contains("<details class=\"msg\" id=\"c1-m0\">")
                && html.contains("<pre class=\"json\">{\n  &quot;cmd&quot;: &quot;echo&quot;"))
        #expect(html.contains("<pre class=\"hex\">0000  08 0e 28 01"))
        #expect(html.components(separatedBy: "<g class=\"client-connection\"").count == 3)
    }

    @Test func hexDumpShowsOffsetsBytesAndText() {
        #expect(
            HTMLReport.hexDump(Array("ab\u{1}".utf8), total: 3) == "0000  61 62 01" + String(repeating: " ", count: 39)
                + "  ab.")
        #expect(
            HTMLReport.hexDump(Array(repeating: 0x41, count: 17), total: 600).split(separator: "\n").map(String.init)
                == [
                    "0000  " + Array(repeating: "41", count: 16).joined(separator: " ") + "  "
                        + String(repeating: "A", count: 16),
                    "0010  41" + String(repeating: " ", count: 45) + "  A", "… 583 more bytes",
                ])
    }

    /// Transcript times reach ±9e12 s, so two of them can be 65 bits apart: the text report's
    /// relative time trapped on the difference (seen while reviewing the CaptureChecker crash).
    @Test func relativeTimesAtTheEndsOfInt64() {
        #expect(TextReport.relative(Int64.max, from: Int64.min) == "+18446744073709.551s")
        #expect(TextReport.relative(Int64.min, from: Int64.max) == "-18446744073709.551s")
        #expect(TextReport.relative(1_204_000, from: nil) == "+1.204s")
        #expect(TextReport.relative(0, from: 1_204_000) == "-1.204s")
    }
}
