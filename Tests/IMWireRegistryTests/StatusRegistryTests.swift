import IMWireCore
import IMWireRegistry
import Testing

@Suite struct StatusRegistryTests {
    let registry = StatusRegistry.standard

    @Test func everyVendorWithTablesIsIndexed() {
        #expect(registry.vendors == Dialects.standard.all.map(\.dialect))
        #expect(registry.rows.count == registry.tables.map(\.rows.count).reduce(0, +))
    }

    @Test func codeTablesClassifyEveryRow() {
        for table in registry.tables where table.kind == .codes {
            for row in table.rows {
                #expect(row.codeClass != .enumValue, "\(table.vendor) \(table.name) \(row.number) has no class")
            }
        }
    }

    @Test func localCodesNeverClaimToTravel() {
        for row in registry.rows where row.codeClass == .clientLocal {
            #expect(!row.travel.isOnTheWire, "\(row.vendor) \(row.table) \(row.number)")
        }
    }

    @Test func rowsAreWellFormed() {
        for row in registry.rows {
            #expect(!row.meaning.isEmpty && !row.sources.isEmpty, "\(row.vendor) \(row.table) \(row.number)")
            if let original = row.original {
                #expect(
                    original.unicodeScalars.contains { $0.value > 0x7f },
                    "\(row.table) \(row.number): original is English")
            }
        }
    }

    @Test func code417HasEveryNIMMeaningAndNoOtherVendors() {
        let meanings = registry.meanings(of: 417)
        #expect(Set(meanings.map(\.vendor)) == [.nim])
        #expect(
            meanings.map(\.table) == [
                "NIMRemoteErrorCode", "NIMResCode", "web-error", "status-page", "NIMAVRoomServerErrorCode",
            ])
        let merged = registry.mostCautiousAdvice(417, vendor: .nim)
        #expect(merged?.advice == .stop)
        #expect(merged?.rows.map(\.table) == ["NIMResCode"])
    }

    @Test func lookupByVendorTableAndNumber() throws {
        guard case .known(let rows) = try #require(registry.lookup(.jmessage, "server", 803005)) else {
            Issue.record("803005 unknown")
            return
        }
        #expect(rows.map(\.codeClass) == [.notMember])
        #expect(registry.lookup(.leancloud, "no-such-table", 1) == nil)
    }

    @Test func unknownNumbersGetTheirRangeAndNeighboursNeverAMeaning() throws {
        guard case .unknown(let unknown) = try #require(registry.lookup(.jmessage, "server", 803013)) else {
            Issue.record("803013 should be unknown")
            return
        }
        #expect(unknown.range?.label == "send message")
        #expect(unknown.below?.number == 803012)
        #expect(unknown.above?.number == 805001)
        #expect(
            unknown.description.hasPrefix(
                "803013 is unknown in jmessage server; declared range 803000–803999 send message"))
    }

    @Test func explainReportsUnknownOnlyWhereATableCoversTheNumber() {
        let explanation = registry.explain(4119, vendor: .leancloud)
        #expect(!explanation.isKnown)
        #expect(explanation.unknown.map(\.table) == ["im-error"])
        #expect(explanation.unknown.first?.range?.label == "session")
        #expect(registry.explain(4111).meanings.map(\.table) == ["im-error"])
        #expect(registry.explain(-999).unknown.isEmpty)
        // NIM declares every number above 10000 client-defined: an open-ended range, reported as such.
        let huge = registry.explain(123_456_789).unknown
        #expect(huge.map(\.table) == ["NIMResCode"])
        #expect(huge.first?.range?.upper == nil)
        #expect(huge.first?.below?.number == 20007)
    }

    @Test func declaredRangesWinOverTablesThatMerelySpanTheNumber() {
        // android spans 0…871506 because of its success row; only tables that declare 803xxx speak.
        #expect(registry.explain(803013, vendor: .jmessage).unknown.map(\.table) == ["server", "JMSGTcpErrorCode"])
        // Without any declared range, the tables whose known numbers span it are reported.
        #expect(registry.explain(4_500, vendor: .leancloud).unknown.map(\.table) == ["im-error"])
        #expect(registry.explain(8_999, vendor: .leancloud).unknown.isEmpty)
    }

    @Test func explainWithinOneTableReportsThatTable() {
        let explanation = registry.explain(7, vendor: .leancloud, table: "AVIMClientStatus")
        #expect(explanation.unknown.map(\.table) == ["AVIMClientStatus"])
        #expect(explanation.unknown.first?.below?.number == 6)
    }
}

@Suite struct Yun2winInTheRegistryTests {
    @Test func explainsTheIssueExamples() {
        let registry = StatusRegistry.standard
        let kicked = registry.meanings(of: 10, vendor: .yun2win)
        #expect(kicked.map(\.table) == ["ConnectionReturnCode"])
        #expect(kicked.first?.advice == .stop)
        let resync = registry.meanings(of: 27, vendor: .yun2win)
        #expect(resync.first?.meaning.contains("update its session members") == true)
        #expect(resync.first?.travel == .publish)
    }
}
