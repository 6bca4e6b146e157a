import IMWireCore
import IMWireLeanCloud
import Testing

@Suite struct LeanCloudStatusCodesTests {
    @Test func theSessionTrackerAPIStillWorks() throws {
        let conflict = try #require(LeanCloudStatusCodes.imError(4111))
        #expect(conflict.name == "SESSION_CONFLICT")
        #expect(conflict.codeClass == .fatalConflict)
        #expect(LeanCloudStatusCodes.describe(4112).hasPrefix("4112 SESSION_TOKEN_EXPIRED ("))
        #expect(LeanCloudStatusCodes.describe(9999) == "9999 (not in the LeanCloud IM error table)")
        #expect(LeanCloudStatusCodes.imErrors.count == 62)
    }

    @Test func everyRowBelongsToItsTable() {
        for table in LeanCloudStatusCodes.tables {
            #expect(table.vendor == .leancloud)
            #expect(!table.rows.isEmpty, "\(table.name) is empty")
            for row in table.rows {
                #expect(row.vendor == .leancloud && row.table == table.name, "\(row.number) in \(table.name)")
            }
        }
        #expect(LeanCloudStatusCodes.all.count == LeanCloudStatusCodes.tables.map(\.rows.count).reduce(0, +))
    }

    @Test func tableNamesAreUnique() {
        let names = LeanCloudStatusCodes.tables.map(\.name)
        #expect(Set(names).count == names.count)
    }

    @Test func jsTreatsThreeCloseCodesAsFatal() {
        let stop = LeanCloudStatusCodes.closeCodes.rows.filter { $0.advice == .stop }.map(\.number)
        #expect(stop == [4100, 4103, 4110])
        let reconnect = LeanCloudStatusCodes.closeCodes.rows.filter { $0.advice == .reconnectNow }.map(\.number)
        #expect(reconnect == [0, 1001, 1006, 4107])
        #expect(LeanCloudStatusCodes.closeCodes.rows.allSatisfy { $0.travel == .closeCode })
    }

    @Test func sdkLocalCodesNeverTravel() {
        let numbers = LeanCloudStatusCodes.sdkLocal.rows.map(\.number)
        #expect(numbers == [9000, 9001, 9002, 9003, 9008, 9100, 9120, 9121, 9130, 9973, 9974, 9975, 9976, 9977])
        #expect(
            LeanCloudStatusCodes.sdkLocal.rows.allSatisfy { $0.travel == .clientLocal && $0.codeClass == .clientLocal })
    }

    @Test(arguments: [
        ("AVIMClientStatus", [0, 1, 2, 3, 4, 5, 6] as [Int64]),
        ("AVIMMessageStatus", [0, 1, 2, 3, 4, 5]),
        ("AVIMMessageIOType", [1, 2]),
        ("AVIMConversationOption", [0, 1, 2, 4]),
        ("AVIMMessageSendOption", [0, 1, 2]),
        ("AVIMMessageMediaType", [0, -1, -2, -3, -4, -5, -6, -127]),
        ("LCIMSessionConfigOptions", [1, 2, 4, 8, 16, 32, 64, 128]),
    ])
    func enumValuesMatchTheHeaders(name: String, values: [Int64]) throws {
        let table = try #require(LeanCloudStatusCodes.tables.first { $0.name == name })
        #expect(table.rows.map(\.number) == values)
        #expect(table.rows.allSatisfy { $0.codeClass == .enumValue })
    }

    @Test func onlyTheSDKTypesOfLctypeTravel() {
        let travelling = LeanCloudStatusCodes.messageMediaType.rows.filter { $0.travel == .message }.map(\.number)
        #expect(travelling == [-1, -2, -3, -4, -5, -6])
    }

    @Test func the4111And4112RowsNameTheirObjcAliases() throws {
        #expect(try #require(LeanCloudStatusCodes.imError(4111)).sources.contains("AVIMErrorCodeSessionConflict"))
        #expect(try #require(LeanCloudStatusCodes.imError(4112)).sources.contains("AVIMErrorCodeSessionTokenExpired"))
    }
}
