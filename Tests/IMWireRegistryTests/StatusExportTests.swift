import IMWireCore
import IMWireRegistry
import Testing

@Suite struct StatusExportTests {
    static let sample = StatusRegistry(tables: [
        StatusTable(
            .nim, "t", title: "T", kind: .codes, source: "src", travel: .message,
            ranges: [CodeRange(10000, nil, "local, open-ended", source: "s")]
        ) { row in
            [
                row(
                    416, "A", "rate, \"limited\"", .rateLimited, original: "频率控制",
                    wait: WaitHint(field: "r[0]", unit: .seconds, scope: "that command")),
                row(417, "", "exists", .invalidRequest, atLogin: .fatalConflict),
            ]
        }
    ])

    @Test func jsonKeepsEveryFieldInAFixedOrder() throws {
        let text = StatusExport.json(Self.sample, vendor: .nim)
        #expect(text.hasSuffix("}\n"))
        let document = try JSONParser.parse(Array(text.utf8))
        #expect(document["generated_by"]?.stringValue == "imwire codes --format json --vendor nim")
        let table = try #require(document["tables"]?.arrayValue?.first)
        #expect(table["ranges"]?.arrayValue?.first?["upper"] == .null)
        let rows = try #require(table["rows"]?.arrayValue)
        #expect(
            rows[0].objectValue?.keys == [
                "number", "name", "meaning", "original", "class", "at_login", "advice", "travel",
                "confidence", "sources", "wait",
            ])
        #expect(rows[0]["wait"]?["unit"]?.stringValue == "seconds")
        #expect(rows[1]["at_login"]?.stringValue == "fatal-conflict")
        #expect(rows[1]["advice"]?.stringValue == "stop-and-require-user")
        #expect(text == StatusExport.json(Self.sample, vendor: .nim))
    }

    @Test func csvQuotesWhatNeedsQuoting() {
        let lines = StatusExport.csv(Self.sample.rows).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("vendor,table,number,name,meaning,original,class,at_login,advice"))
        #expect(
            lines[1] == """
                nim,t,416,A,\"rate, \
                \"\"limited\"\"\",频率控制,rate-limited,,back-off,message,CONFIRMED,src,r[0],seconds
                """)
    }

    @Test func explainTextShowsSourcesAndLoginMeaning() {
        let text = StatusExport.text(Self.sample.explain(417))
        #expect(text.hasPrefix("417: 1 meaning\n"))
        #expect(
            text.contains(
                "  class:      invalid-request; answering a login: fatal-conflict (advice: stop-and-require-user)"))
        #expect(text.contains("  source:     src"))
        let unknown = StatusExport.text(Self.sample.explain(12_345))
        #expect(unknown.hasPrefix("12345: unknown\n"))
        #expect(unknown.contains("declared range 10000 and above local, open-ended"))
        #expect(unknown.contains("nearest known: 417 below, none above"))
    }

    @Test func explainJSONSaysWhetherTheNumberIsKnown() throws {
        let known = try JSONParser.parse(Array(StatusExport.json(Self.sample.explain(416)).utf8))
        #expect(known["known"]?.boolValue == true)
        #expect(known["meanings"]?.arrayValue?.first?["table"]?.stringValue == "t")
        let unknown = try JSONParser.parse(Array(StatusExport.json(Self.sample.explain(99_999)).utf8))
        #expect(unknown["known"]?.boolValue == false)
        #expect(unknown["unknown"]?.arrayValue?.first?["below"]?.int64Value == 417)
    }
}
