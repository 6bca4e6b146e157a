import IMWire
import Testing

@Suite struct SpecGeneratorTests {
    @Test func renderReplacesABlockAndKeepsTheProse() throws {
        let text = "intro\n<!-- BEGIN GENERATED: rules -->\nstale\n<!-- END GENERATED: rules -->\noutro"
        let rendered = try SpecGenerator.render(text)
        #expect(rendered.hasPrefix("intro\n<!-- BEGIN GENERATED: rules -->\n| rule | severity |"))
        #expect(rendered.hasSuffix("\n<!-- END GENERATED: rules -->\noutro"))
        #expect(!rendered.contains("stale"))
        #expect(try SpecGenerator.render(rendered) == rendered)
    }

    @Test func anUnknownBlockIsAnError() {
        #expect(throws: IMWireError(.specRender, "unknown generated block no-such-block")) {
            try SpecGenerator.render("<!-- BEGIN GENERATED: no-such-block -->\n<!-- END GENERATED: no-such-block -->")
        }
    }

    @Test func aBlockWithoutItsEndIsAnError() {
        #expect(throws: IMWireError(.specRender, "block rules has no matching END marker")) {
            try SpecGenerator.render("<!-- BEGIN GENERATED: rules -->\ntext")
        }
    }

    @Test func theLeanCloudErrorTableIsGeneratedFromTheCode() throws {
        let generate = try #require(SpecGenerator.blocks["leancloud-error-codes"])
        let block = generate()
        #expect(block.contains("| 4111 | `SESSION_CONFLICT` |"))
        #expect(block.split(separator: "\n").count == LeanCloudStatusCodes.imErrors.count + 2)
    }
}
