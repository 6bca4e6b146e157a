import Foundation
import IMWire
import Testing

@Suite struct CheckerTests {
    static let open = #"{"type":"open","conn":"c","t":0,"subprotocol":"lc.protobuf2.3"}"#
    static func frame(_ t: Double, _ dir: String, _ command: String) -> String {
        let bytes = (try? LeanCloudCanonicalJSON.decode(JSONParser.parse(command))).map(LeanCloudBinary.encode) ?? []
        return #"{"conn":"c","t":\#(t),"dir":"\#(dir)","hex":"\#(Hex.encode(bytes))"}"#
    }

    /// MQTT over WebSocket: a packet may span messages (MQTT 3.1.1 §6); split the sendMessage
    /// PUBLISH of the yun2win sample in two and the checker must still decode it, as one packet.
    @Test func mqttPacketSplitAcrossWebSocketMessages() throws {
        let whole = try readText("Fixtures/captures/yun2win-clean.jsonl").split(separator: "\n").map(String.init)
        let publish = try #require(whole.firstIndex { $0.contains(#""hex": "30c001"#) })
        let hex = try #require(whole[publish].split(separator: "\"").last { $0.hasPrefix("30c001") })
        var split = whole
        split[publish] = whole[publish].replacingOccurrences(of: String(hex), with: String(hex.prefix(40)))
        split.insert(
            whole[publish].replacingOccurrences(of: String(hex), with: String(hex.dropFirst(40))), at: publish + 1)

        var options = CheckOptions()
        options.timelineLimit = 100
        let reportWhole = check(lines: whole, options: options)
        let reportSplit = check(lines: split, options: options)
        #expect(reportSplit.connections.first?.messages == (reportWhole.connections.first?.messages ?? 0) + 1)
        // the same findings; those after the split packet one message later
        let findingsWhole = reportWhole.connections.flatMap(\.findings)
        let findingsSplit = reportSplit.connections.flatMap(\.findings)
        #expect(findingsSplit.map(\.ruleID) == findingsWhole.map(\.ruleID))
        for (split, whole) in zip(findingsSplit, findingsWhole) {
            let (at, was) = (split.location.frameIndex ?? 0, whole.location.frameIndex ?? 0)
            #expect(at == was || at == was + 1, "\(split.ruleID) at \(at), \(was) in the whole transcript")
        }
        let sendMessage = reportWhole.connections.first?.timeline.first { $0.summary.contains("sendMessage") }?.summary
        #expect(sendMessage != nil)
        #expect(reportSplit.connections.first?.timeline.contains { $0.summary == sendMessage } == true)
    }

    @Test func ruleOverridesAndLenientMode() {
        let lines = [Self.open, Self.frame(1, "send", #"{"cmd":"conv","op":"members_joined","i":1}"#)]
        #expect(check(lines: lines).summary() == ["c#1 LC.BEFORE-SESSION-OPEN", "c#1 LC.WRONG-DIRECTION"])
        var options = CheckOptions(ruleActions: ["LC.WRONG-DIRECTION": .off, "LC.BEFORE-SESSION-OPEN": .info])
        #expect(check(lines: lines, options: options).summary().isEmpty)
        #expect(
            check(lines: lines, options: options).summary(.info) == [
                "c#1 LC.BEFORE-SESSION-OPEN", "c#1 LC.REQUEST-PENDING-AT-END",
            ])
        options = CheckOptions(lenient: true)
        let nonMinimal = #"{"conn":"c","t":1,"dir":"receive","hex":"0815 288100"}"#
        #expect(
            check(lines: [Self.open, nonMinimal]).summary() == [
                "c#1 LC.RESPONSE-WITHOUT-REQUEST", "c#1 PB.VARINT-NON-MINIMAL",
            ])
        #expect(
            check(lines: [Self.open, nonMinimal], options: options).summary() == ["c#1 LC.RESPONSE-WITHOUT-REQUEST"])
    }

    /// leancloud.md §6: a 4xxx WebSocket close code is the server's error, named like an error
    /// command (close-fatal and close-retry of the genuine JS SDK); 1000-1015 are the WebSocket's.
    @Test func leanCloudCloseCodesAreErrorReplies() throws {
        let login = [
            Self.open, Self.frame(1, "send", #"{"cmd":"session","op":"open","i":1,"appId":"a","peerId":"p"}"#),
            Self.frame(1.1, "receive", #"{"cmd":"session","op":"opened","i":1}"#),
        ]
        func close(_ code: Int) -> CheckReport {
            check(lines: login + [#"{"type":"close","conn":"c","t":3,"code":\#(code),"by":"server"}"#])
        }
        #expect(close(4103).summary() == ["c#2 LC.ERROR-REPLY"])
        let fatal = try #require(close(4103).allFindings.first)
        #expect(fatal.message.contains("4103 INVALID_LOGIN") && fatal.message.contains("stops"))
        #expect(close(4107).allFindings.first?.message.contains("reconnects") == true)
        #expect(close(1000).summary(.info).isEmpty)
        #expect(close(1006).summary(.info).isEmpty)
        #expect(
            check(lines: login + [Self.frame(2, "receive", #"{"cmd":"goaway"}"#)]).summary(.info) == ["c#3 LC.GOAWAY"])
    }

    @Test func dialectDetection() {
        let guessed = check(lines: [#"{"conn":"x","t":0,"dir":"receive","hex":"0815"}"#])
        #expect(guessed.connections.first?.dialect == .leancloud)
        #expect(guessed.summary(.info) == ["x#1 LC.GOAWAY", "x#1 CHECK.DIALECT-GUESSED"])  // 0815: cmd 21, goaway
        let unknown = check(lines: [#"{"conn":"y","dir":"send","text":"2::"}"#])
        #expect(unknown.connections.first?.dialect == nil)
        #expect(unknown.summary() == ["y#1 CHECK.UNKNOWN-DIALECT"])
        let forced = check(
            lines: [#"{"conn":"y","dir":"send","text":"{}"}"#], options: CheckOptions(dialect: .leancloud))
        #expect(forced.allFindings.isEmpty)
    }

    @Test func captureLevelProblems() {
        let report = check(lines: [
            Self.open,
            #"{"conn":"c","t":5,"dir":"receive","hex":"0815"}"#,
            #"{"conn":"c","t":4,"dir":"receive","hex":"0815"}"#,
            #"{"type":"close","conn":"c","t":6,"code":1000,"by":"server"}"#,
            #"{"conn":"c","t":7,"dir":"sideways","hex":"0815"}"#,
            #"{"conn":"c","t":7,"dir":"receive","hex":"0815","text":"x"}"#,
            #"{"conn":"c","t":"soon","dir":"receive","hex":"0815"}"#,
            #"{"conn":"c","t":8,"dir":"receive","hex":"0815"}"#,
            "[1,2]",
        ])
        #expect(report.summary().contains("c#2 CAPTURE.TIME-BACKWARDS"))
        #expect(report.summary().contains("c#3 CHECK.MESSAGE-AFTER-CLOSE"))
        #expect(
            report.captureFindings.map { "\($0.location.line ?? 0) \($0.ruleID)" } == [
                "5 CAPTURE.JSONL-BAD-FIELD", "6 CAPTURE.JSONL-BAD-FIELD", "7 CAPTURE.JSONL-BAD-FIELD",
                "9 CAPTURE.JSONL-BAD-LINE",
            ])
    }

    @Test func timesAreExactMicroseconds() throws {
        #expect(
            TranscriptLine.microseconds(try #require(JSONParser.parse("1700000000.123456").numberValue))
                == 1_700_000_000_123_456)
        #expect(TranscriptLine.microseconds(try #require(JSONParser.parse("0.1").numberValue)) == 100_000)
        #expect(TranscriptLine.microseconds(try #require(JSONParser.parse("-2.5").numberValue)) == -2_500_000)
        #expect(TranscriptLine.microseconds(try #require(JSONParser.parse("1.5e3").numberValue)) == 1_500_000_000)
        #expect(TranscriptLine.microseconds(try #require(JSONParser.parse("1e300").numberValue)) == nil)
    }

    @Test func longLinesAreSkippedWithoutBuffering() throws {
        var limits = Limits.default
        limits.maxLineLength = 64
        let path = "/tmp/imwire-long-line-\(UInt32.random(in: 0...UInt32.max)).jsonl"
        let long = #"{"conn":"c","dir":"send","text":""# + String(repeating: "x", count: 300_000) + #""}"#
        try TextFile.write(
            [Self.open, long, #"{"conn":"c","t":1,"dir":"receive","hex":"0815"}"#].joined(separator: "\n"), to: path)
        defer { unlink(path) }
        let reader = try TranscriptReader(path: path, limits: limits)
        var items: [String] = []
        while let item = reader.next() {
            switch item {
            case .event(let event): items.append("event \(event.line ?? 0)")
            case .problem(let finding): items.append("\(finding.ruleID) \(finding.location.line ?? 0)")
            case .secrets: items.append("secrets")
            }
        }
        #expect(items == ["event 1", "CAPTURE.LINE-TOO-LONG 2", "event 3"])
    }
}

@Suite struct CatalogueAndSpecTests {
    @Test func ruleIDsAreUniqueAndWellFormed() {
        let ids = RuleCatalog.all.map(\.id.rawValue)
        #expect(Set(ids).count == ids.count)
        for rule in RuleCatalog.all {
            let parts = rule.id.rawValue.split(separator: ".")
            #expect(
                parts.count == 2 && parts.allSatisfy { $0.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "-" } },
                "\(rule.id)")
            #expect(!rule.summary.isEmpty && !rule.specRef.isEmpty)
            #expect(rule.lenientSeverity <= rule.severity, "\(rule.id) is stricter when lenient")
        }
    }

    @Test(arguments: SpecGenerator.files)
    func specTablesMatchTheCode(file: String) throws {
        let current = try readText(file)
        let rendered = try SpecGenerator.render(current)
        #expect(rendered == current, "\(file) is out of date: run `swift run imwire spec --write`")
        #expect(current.contains("<!-- BEGIN GENERATED: "), "\(file) has no generated block")
    }

    @Test func everyRuleIsInTheSpec() throws {
        let rules = try readText("Spec/rules.md")
        for rule in RuleCatalog.all { #expect(rules.contains("`\(rule.id)`"), "\(rule.id)") }
    }

    @Test func everyFixtureVerifies() {
        let results = FixtureVerifier.verify(directory: "\(repositoryRoot)/Fixtures")
        #expect(results.count >= 179)
        for result in results where !result.passed { Issue.record("\(result.path): \(result.problems)") }
    }

    @Test func generatedBlocksCanBeMissingButNotUnknown() {
        #expect(throws: IMWireError(.specRender, "unknown generated block nothing")) {
            try SpecGenerator.render("<!-- BEGIN GENERATED: nothing -->\n<!-- END GENERATED: nothing -->")
        }
        #expect(throws: IMWireError(.specRender, "block rules has no matching END marker")) {
            try SpecGenerator.render("<!-- BEGIN GENERATED: rules -->\n")
        }
    }
}
