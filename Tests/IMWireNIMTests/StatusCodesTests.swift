import IMWireCore
import IMWireNIM
import Testing

@Suite struct NIMStatusCodesTests {
    func table(_ name: String) throws -> StatusTable {
        try #require(NIMStatusCodes.tables.first { $0.name == name })
    }

    @Test func everyRowBelongsToItsTableAndNamesAreUnique() {
        let names = NIMStatusCodes.tables.map(\.name)
        #expect(Set(names).count == names.count)
        for table in NIMStatusCodes.tables {
            #expect(!table.rows.isEmpty, "\(table.name) is empty")
            #expect(table.rows.allSatisfy { $0.vendor == .nim && $0.table == table.name }, "\(table.name)")
        }
    }

    @Test func eachSourceKeepsItsOwnMeaningOfConflictingCodes() throws {
        let server = ["NIMRemoteErrorCode", "NIMResCode", "web-error", "status-page"]
        func classes(_ number: Int64) throws -> [CodeClass?] {
            try server.map { try table($0).rows(number).first?.codeClass }
        }
        #expect(try classes(810) == [.notMember, .success, .success, .success])
        #expect(try classes(406) == [.permissionDenied, .success, .success, .permissionDenied])
        #expect(try classes(812) == [.permissionDenied, nil, .permissionDenied, .permissionDenied])
        #expect(try classes(415) == [.retry, .retry, .serverError, .retry])
        #expect(try table("web-error").rows(415).first?.original == "服务不可用/没有聊天室服务器可分配")
    }

    @Test func theWebSDKsSuccessSet() throws {
        let success = try table("web-error").rows.filter { $0.codeClass == .success && $0.original == nil }.map(
            \.number)
        #expect(success == [200, 406, 808, 810])
    }

    @Test func frequencyControlCarriesItsWaitOnTheWebLink() throws {
        let web = try #require(try table("web-error").rows(416).first)
        #expect(web.codeClass == .rateLimited)
        #expect(web.advice == .backOff)
        #expect(web.wait?.field == "r[0] of the response")
        #expect(web.wait?.unit == .seconds)
    }

    @Test func code417AtLoginMeansLogInByHand() throws {
        let c = try #require(try table("NIMResCode").rows(417).first)
        #expect(c.codeClass == .invalidRequest)
        #expect(c.atLogin == .fatalConflict)
        #expect(c.advice == .stop)
        #expect(c.sources.contains("NIMClientAPI.cs:304"))
        #expect(try table("NIMRemoteErrorCode").rows(302).first?.advice == .stop)
    }

    @Test func theTwoLoginStepEnumsAreDistinct() throws {
        #expect(try table("NIMLoginStep").rows.map(\.number) == Array(1...10))
        #expect(try table("NIMLoginStep-c").rows.map(\.number) == [0, 1, 2, 3])
    }

    @Test func nodeDefinesTwoNumbersTwice() throws {
        let resCode = try table("NIMResCode")
        #expect(resCode.rows(10404).map(\.name) == ["kNIMResRoomNotExists", "kNIMLocalResMsgFileNotExist"])
        #expect(resCode.rows(10417).map(\.travel) == [.message, .clientLocal])
        #expect(resCode.range(containing: 12345)?.upper == nil)
        #expect(resCode.range(containing: 13003)?.label == "chatroom")
    }

    @Test func chatroomCodesAre13001To13006() throws {
        let numbers = try table("status-page").rows.map(\.number).filter { (13000...13999).contains($0) }
        #expect(numbers == [13001, 13002, 13003, 13004, 13005])
        #expect(
            try table("NIMResCode").rows.filter { (13000...13999).contains($0.number) }.map(\.number) == [
                13001, 13002, 13003, 13004, 13006,
            ])
    }

    @Test func everyKickEndsTheLogin() throws {
        for name in ["NIMKickReason", "NIMKickReason-c", "NIMChatroomKickReason", "web-chatroom-kick-reason"] {
            #expect(try table(name).rows.allSatisfy { $0.advice == .stop }, "\(name)")
        }
        #expect(try table("web-kick-reason").rows.map(\.number) == [1, 2, 3, 4])
        // Web SDK 8.5.0 onKicked: silentlyKick (4) is forceDisconnect + onDisconnect(1), a reconnect
        // (Fixtures/captures/vendor-sdk/nim/nim-kick-silent); 1–3 end the session.
        #expect(try table("web-kick-reason").rows.map(\.advice) == [.stop, .stop, .stop, .reconnectNow])
    }

    @Test func enumsKeepTheSourcesSpellingAndNumbers() throws {
        #expect(try table("NIMNetCallControlType").rows(12).map(\.name) == ["NIMNetCallControlTypeFeedabck"])
        #expect(try table("NIMLogoutType").rows(1).map(\.name) == ["kNIMLogoutChangeAccout"])
        // node-nim disagrees with itself about HarmonyOS: both numbers are kept, each in its table.
        #expect(try table("NIMChatRoomClientType").rows(128).map(\.name) == ["kNIMChatRoomClientTypeHarmonyOS"])
        #expect(try table("NIMClientType").rows(65).map(\.name) == ["kNIMClientTypeHarmonyOS"])
        #expect(try table("NIMChatroomMemberType").rows.map(\.number) == [-2, -1, 0, 1, 2, 4])
        #expect(try table("NIMChatRoomNotificationId").rows.map(\.number) == Array(301...324))
        #expect(try table("NIMNotificationId").rows.count == 42)
    }

    @Test func enumTablesHoldOnlyEnumValues() {
        for table in NIMStatusCodes.tables where table.kind == .enumeration {
            #expect(table.rows.allSatisfy { $0.codeClass == .enumValue }, "\(table.name)")
        }
    }

    @Test func localErrorCodesAre1To19() throws {
        let local = try table("NIMLocalErrorCode")
        #expect(local.rows.map(\.number) == Array(1...19))
        #expect(local.rows.allSatisfy { !$0.travel.isOnTheWire })
    }
}
