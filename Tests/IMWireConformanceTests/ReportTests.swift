import IMWire
import Testing

@Suite struct ReportTests {
    static func broken() throws -> CheckReport {
        var options = CheckOptions()
        options.timelineLimit = HTMLReport.timelineLimit
        return try check("Fixtures/captures/leancloud-broken.jsonl", options: options)
    }

    @Test func bytesAddUpToWhatWasCaptured() throws {
        for name in ["leancloud-broken.jsonl", "leancloud-websocket-corrupt.jsonl", "leancloud-real.pcapng", "yun2win-clean.jsonl"] {
            let report = try check("Fixtures/captures/\(name)")
            for connection in report.connections {
                let account = connection.account
                #expect(account.decoded + account.skippedTotal + account.lost == account.captured, "\(name)")
                #expect(account.captured > 0, "\(name)")
            }
        }
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

    @Test func junitHasASuitePerConnectionAndACasePerRuleFamily() throws {
        let xml = JUnitReport.render(try Self.broken(), threshold: .warning)
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"))
        #expect(xml.contains("<testsuite name=\"k1\" tests=\"8\" failures=\"2\">"))
        #expect(xml.contains("<testcase classname=\"k1\" name=\"WS\"/>"))
        #expect(xml.contains("<failure message=\"12 findings\" type=\"LC.BEFORE-SESSION-OPEN\">"))
        #expect(!xml.contains("<testcase classname=\"k1\" name=\"MQTT\""))
        let clean = JUnitReport.render(try check("Fixtures/captures/leancloud-clean.jsonl"), threshold: .warning)
        #expect(!clean.contains("<failure "))
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
        let html = HTMLReport.render(try Self.broken(), threshold: .warning)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.components(separatedBy: "<svg class=\"sequence\"").count == 3)
        #expect(html.components(separatedBy: "<g class=\"message").count == 26)
        #expect(html.contains("data-frame=\"5\"") && html.contains("LC.RESPONSE-WITHOUT-REQUEST"))
        #expect(!html.contains("<script") && !html.contains("src=\"http"))
        let escaped = HTMLReport.render(check(lines: [#"{"conn":"<b>&","dir":"send","text":"{}"}"#]), threshold: .info)
        #expect(escaped.contains("&lt;b&gt;&amp;") && !escaped.contains("<b>&"))
    }
}
