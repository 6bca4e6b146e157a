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
}
