import Foundation
import IMWireConformance
import IMWireCore
import IMWireRegistry
import Testing

/// Code, `Fixtures/status/<vendor>.json` and `Spec/status-codes/<vendor>.md` must agree. To
/// regenerate after changing a table: scripts/generate-status-fixtures.sh.
@Suite struct StatusDriftTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func read(_ relative: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(relative), encoding: .utf8)
    }

    @Test(arguments: StatusRegistry.standard.vendors)
    func fixtureMatchesTheCode(vendor: Dialect) throws {
        let path = "Fixtures/status/\(vendor.rawValue).json"
        let difference = firstDifference(try read(path), StatusExport.json(vendor: vendor))
        #expect(difference == nil, "\(path) is stale at \(difference ?? ""): run scripts/generate-status-fixtures.sh")
    }

    @Test(arguments: StatusRegistry.standard.vendors)
    func fixtureParsesAndHoldsEveryRow(vendor: Dialect) throws {
        let document = try JSONParser.parse(Array(try read("Fixtures/status/\(vendor.rawValue).json").utf8))
        let tables = try #require(document["tables"]?.arrayValue)
        let expected = StatusRegistry.standard.tables(of: vendor)
        #expect(tables.compactMap { $0["name"]?.stringValue } == expected.map(\.name))
        #expect(tables.map { $0["rows"]?.arrayValue?.count ?? -1 } == expected.map(\.rows.count))
    }

    @Test(arguments: StatusRegistry.standard.vendors)
    func specMatchesTheCode(vendor: Dialect) throws {
        let path = StatusSpec.file(vendor)
        let spec = try read(path)
        #expect(spec.contains("<!-- BEGIN GENERATED: \(StatusSpec.blockName(vendor)) -->"), "\(path) lacks its block")
        let difference = firstDifference(spec, try SpecGenerator.render(spec))
        #expect(difference == nil, "\(path) is stale at \(difference ?? ""): run scripts/generate-status-fixtures.sh")
    }

    @Test func fixtureSchemaListsTheSwiftEnums() throws {
        let schema = try JSONParser.parse(Array(try read("Spec/status-fixture.schema.json").utf8))
        func values(_ name: String) -> [String] {
            schema["$defs"]?[name]?["enum"]?.arrayValue?.compactMap(\.stringValue) ?? []
        }
        #expect(values("vendor") == Dialects.standard.all.map(\.dialect.rawValue))
        #expect(values("kind") == StatusTable.Kind.allCases.map(\.rawValue))
        #expect(values("class") == CodeClass.allCases.map(\.rawValue))
        #expect(values("advice") == ReconnectAdvice.allCases.map(\.rawValue))
        #expect(values("travel") == Travel.allCases.map(\.rawValue))
        #expect(values("confidence") == Confidence.allCases.map(\.rawValue))
        #expect(values("unit") == WaitHint.Unit.allCases.map(\.rawValue))
    }

    /// "line N: <file line> / <generated line>", or nil when the texts are equal.
    func firstDifference(_ file: String, _ generated: String) -> String? {
        guard file != generated else { return nil }
        let a = file.split(separator: "\n", omittingEmptySubsequences: false)
        let b = generated.split(separator: "\n", omittingEmptySubsequences: false)
        let index = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
        let line = { (lines: [Substring]) in index < lines.count ? String(lines[index].prefix(120)) : "<end>" }
        return "line \(index + 1): file \(line(a)) / code \(line(b))"
    }

    @Test func noStrayFixtureOrSpecFile() throws {
        let vendors = Set(StatusRegistry.standard.vendors.map(\.rawValue))
        let fixtures = try FileManager.default.contentsOfDirectory(
            atPath: Self.root.appendingPathComponent("Fixtures/status").path)
        #expect(Set(fixtures) == Set(vendors.map { "\($0).json" }))
        let specs = try FileManager.default.contentsOfDirectory(
            atPath: Self.root.appendingPathComponent("Spec/status-codes").path)
        #expect(Set(specs) == Set(vendors.map { "\($0).md" }))
    }
}
