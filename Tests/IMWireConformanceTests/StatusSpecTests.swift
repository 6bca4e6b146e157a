import IMWireConformance
import IMWireCore
import Testing

@Suite struct StatusSpecTests {
    @Test func everyRegistryVendorHasASpecFileAndBlock() {
        for vendor in [Dialect.leancloud, .nim, .jmessage] {
            #expect(SpecGenerator.files.contains("Spec/status-codes/\(vendor.rawValue).md"))
            #expect(SpecGenerator.blocks["status-codes-\(vendor.rawValue)"] != nil)
        }
        #expect(SpecGenerator.blocks["leancloud-error-codes"] != nil)
    }

    @Test func renderFillsAStatusBlockAndLeavesProseAlone() throws {
        let text =
            "intro\n<!-- BEGIN GENERATED: status-codes-nim -->\nold\n<!-- END GENERATED: status-codes-nim -->\noutro"
        let rendered = try SpecGenerator.render(text)
        #expect(rendered.hasPrefix("intro\n<!-- BEGIN GENERATED: status-codes-nim -->\n### `NIMRemoteErrorCode`"))
        #expect(rendered.hasSuffix("<!-- END GENERATED: status-codes-nim -->\noutro"))
        #expect(!rendered.contains("\nold\n"))
        #expect(rendered.contains("| 417 | `kNIMResExist` |"))
        #expect(rendered.contains("invalid-request; at login fatal-conflict"))
        #expect(try SpecGenerator.render(rendered) == rendered)
    }
}
