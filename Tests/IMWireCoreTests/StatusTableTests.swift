import IMWireCore
import Testing

@Suite struct StatusTableTests {
    static let sample = StatusTable(
        .nim, "sample", title: "Sample", kind: .codes, source: "a header", travel: .message,
        ranges: [CodeRange(800, 899, "team", source: "s"), CodeRange(800, 809, "team basics", source: "s")]
    ) { row in
        [
            row(
                416, "Frequently", "Rate limited", .rateLimited,
                wait: WaitHint(field: "r[0]", unit: .seconds, scope: "that command")),
            row(
                417, "Exist", "Already exists", .invalidRequest, original: "对象已经存在",
                atLogin: .fatalConflict),
            row(801, "A", "first", .invalidRequest, sources: "another file", travel: .clientLocal),
            row(801, "B", "second meaning of the same number", .invalidRequest),
        ]
    }

    @Test func rowsInheritTheTableAndItsDefaults() throws {
        let row = try #require(Self.sample.rows(416).first)
        #expect(row.vendor == .nim)
        #expect(row.table == "sample")
        #expect(row.sources == "a header")
        #expect(row.travel == .message)
        #expect(row.confidence == .confirmed)
        #expect(row.wait?.unit == .seconds)
    }

    @Test func rowsCanOverrideSourcesAndTravel() throws {
        let row = try #require(Self.sample.rows(801).first)
        #expect(row.sources == "another file")
        #expect(row.travel == .clientLocal)
    }

    @Test func aNumberDefinedTwiceKeepsBothRows() {
        #expect(Self.sample.rows(801).map(\.name) == ["A", "B"])
    }

    @Test func theNarrowestDeclaredRangeWins() {
        #expect(Self.sample.range(containing: 805)?.label == "team basics")
        #expect(Self.sample.range(containing: 850)?.label == "team")
        #expect(Self.sample.range(containing: 900) == nil)
    }

    @Test func anOpenEndedRangeHasNoUpperBound() {
        let range = CodeRange(10000, nil, "client-defined", source: "s")
        #expect(range.contains(10000) && range.contains(.max) && !range.contains(9999))
        #expect(range.description == "10000 and above client-defined")
        #expect(CodeRange(803000, 803999, "send message", source: "s").description == "803000–803999 send message")
        let table = StatusTable(
            .nim, "t", title: "T", kind: .codes, source: "s", travel: .message,
            ranges: [range, CodeRange(13001, 13006, "chatroom", source: "s")]
        ) { _ in [] }
        #expect(table.range(containing: 13002)?.label == "chatroom")
        #expect(table.range(containing: 20000)?.label == "client-defined")
    }

    @Test func enumRowsWithoutAClassAreEnumValues() {
        let table = StatusTable(.leancloud, "e", title: "E", kind: .enumeration, source: "h", travel: .sdkEnum) { row in
            [row(0, "None", "nothing")]
        }
        #expect(table.rows.map(\.codeClass) == [.enumValue])
        #expect(table.rows.map(\.advice) == [ReconnectAdvice.none])
    }

    @Test func loginMeaningDecidesTheAdvice() throws {
        let row = try #require(Self.sample.rows(417).first)
        #expect(row.codeClass.advice == .none)
        #expect(row.advice == .stop)
    }

    @Test func theClassGivesTheAdvice() {
        #expect(
            CodeClass.allCases.allSatisfy { codeClass in
                StatusCode(.nim, "t", 1, "", "m", sources: "s", travel: .message, codeClass: codeClass).advice
                    == codeClass.advice
            })
    }

    @Test func adviceIsOrderedByCaution() {
        #expect(ReconnectAdvice.allCases.sorted() == [.none, .reconnectNow, .backOff, .refreshCredentials, .stop])
        #expect(ReconnectAdvice.allCases.max() == .stop)
    }

    @Test func onlyPeersSendOnTheWireCodes() {
        #expect(Travel.message.isOnTheWire)
        #expect(Travel.closeCode.isOnTheWire)
        #expect(!Travel.clientLocal.isOnTheWire)
        #expect(!Travel.sdkEnum.isOnTheWire)
    }
}
