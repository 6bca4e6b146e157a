import IMWireCore
import IMWireJMessage
import Testing

@Suite struct JMessageStatusCodesTests {
    func table(_ name: String) throws -> StatusTable {
        try #require(JMessageStatusCodes.tables.first { $0.name == name })
    }

    @Test func everyRowBelongsToItsTableAndNamesAreUnique() {
        let names = JMessageStatusCodes.tables.map(\.name)
        #expect(Set(names).count == names.count)
        for table in JMessageStatusCodes.tables {
            #expect(!table.rows.isEmpty, "\(table.name) is empty")
            #expect(table.rows.allSatisfy { $0.vendor == .jmessage && $0.table == table.name }, "\(table.name)")
        }
    }

    @Test func sendMessageCodesAreComplete() throws {
        let send = try table("server").rows.filter { (803000...803999).contains($0.number) }
        #expect(send.map(\.number) == Array(803001...803012))
        #expect(try table("server").range(containing: 803013)?.label == "send message")
    }

    @Test(arguments: [
        (Int64(803004), CodeClass.notFound), (803005, .notMember), (803010, .rateLimited), (801004, .fatalCredentials),
        (801007, .fatalConflict), (898010, .reauthenticate), (800009, .serverError),
    ])
    func serverClasses(number: Int64, codeClass: CodeClass) throws {
        #expect(try table("server").rows(number).first?.codeClass == codeClass)
    }

    @Test func theIOSHeaderAddsCodesTheDocLacks() throws {
        #expect(try table("server").rows(856003).isEmpty)
        #expect(try table("JMSGTcpErrorCode").rows(856003).first?.name == "kJMSGErrorTcpGroupApplyRepeat")
        #expect(try table("server").rows(898005).isEmpty)
        #expect(try table("JMSGHttpErrorCode").rows(898005).first?.name == "kJMSGErrorHttpUidInvalid")
    }

    @Test func platformRangesDoNotOverlapByAccident() throws {
        #expect(try table("jmrtc-ios").rows.map(\.number) == Array(871001...871008))
        #expect(try table("android").rows.allSatisfy { $0.number == 0 || $0.number >= 871101 })
        #expect(try table("JMSGSDKErrorCode").rows.allSatisfy { (860000...869999).contains($0.number) })
    }

    @Test func loginStatusChangeReasons() throws {
        let reasons = try table("JMSGLoginStatusChangeEventType").rows
        #expect(reasons.map(\.number) == [1, 2, 70, 40, 10001, 10002])
        #expect(reasons.map(\.advice) == [.stop, .stop, .refreshCredentials, .none, .stop, .stop])
    }

    @Test(arguments: [
        ("JMSGContentType", Array(Int64(0)...9)), ("JMSGMessageStatus", Array(Int64(0)...8)),
        ("JMSGConversationType", [1, 2, 3]),
    ])
    func enumValues(name: String, values: [Int64]) throws {
        #expect(try table(name).rows.map(\.number) == values)
    }

    @Test func webEventTypesThatForceALogout() throws {
        let events = try table("web-event-type")
        #expect(events.rows.count == 27)
        #expect(events.rows.filter { $0.advice == .stop }.map(\.number) == [1, 2])
    }
}
