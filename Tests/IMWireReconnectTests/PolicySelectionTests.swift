import IMWireCore
import IMWireRegistry
import Testing

@testable import IMWireReconnect

/// `imwire check --policy`: one policy per vendor, each for its own vendor's connections, and a
/// warning for the vendors it does not fit.
@Suite struct PolicySelectionTests {
    @Test func onePolicyPerVendor() throws {
        let selection = try PolicySelection(names: ["nim-web", "leancloud-js"])
        #expect(selection.policy(for: .leancloud)?.name == "leancloud-js")
        #expect(selection.policy(for: .nim)?.name == "nim-web")
        #expect(selection.policy(for: .yun2win) == nil)
        #expect {
            try PolicySelection(names: ["leancloud-js", "leancloud-swift"])
        } throws: {
            ($0 as? IMWireError)?.code == .policySameVendor && ($0 as? IMWireError)?.field == "leancloud-swift"
        }
        #expect {
            try PolicySelection(names: ["nim-android"])
        } throws: { ($0 as? IMWireError)?.code == .policyUnknown && ($0 as? IMWireError)?.field == "nim-android" }
        #expect(try PolicySelection(names: ["nim-web", "nim-web"]).policies.count == 1)
    }

    @Test func aPolicyOfAnotherVendorIsAWarningNotASilentFallback() throws {
        let nimOnly = try PolicySelection(names: ["nim-web"])
        let warnings = nimOnly.warnings(dialects: [.leancloud])
        #expect(warnings.count == 2)
        #expect(warnings[0].contains("does not apply to the leancloud connections"))
        #expect(warnings[0].contains("leancloud-swift"))
        #expect(warnings[1].contains("nim-web was not used"))
        #expect(!warnings.joined().contains("--"), "no command-line flag in library text")
        #expect(nimOnly.warnings(dialects: [.nim]).isEmpty)
        #expect(try PolicySelection(names: []).warnings(dialects: [.leancloud, .nim]).isEmpty)
        let yun2win = nimOnly.warnings(dialects: [.nim, .yun2win])
        #expect(yun2win.count == 1 && yun2win[0].contains("client id"))
    }
}
