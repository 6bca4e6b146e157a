import IMWire
import Testing

/// `imwire rules ID` and `imwire explain ID`: one rule in full, found from anywhere.
@Suite struct RuleDescriptionTests {
    @Test func everyRuleHasAnExampleInTheRepository() {
        let missing = RuleCatalog.all.filter { RuleExample.find($0.id, root: repositoryRoot) == nil }.map(\.id.rawValue)
        #expect(missing.isEmpty, "no fixture, sample capture or trigger for \(missing)")
    }

    @Test func aSampleCaptureIsTheExampleWhenOneReportsTheRule() throws {
        let rule = try #require(RuleCatalog.rule(named: "lc.missing-ack"))
        let description = RuleDescription(rule, root: repositoryRoot)
        #expect(description.example?.command == "imwire check Fixtures/captures/leancloud-broken.jsonl")
        #expect(description.text.hasPrefix("LC.MISSING-ACK  (warning)"))
        #expect(description.text.contains("specified: \(rule.specRef)"))
    }

    @Test func aRuleOnlyATestTriggersPointsAtTheTrigger() throws {
        let rule = try #require(RuleCatalog.rule(named: "WS.SERVER-FRAME-MASKED"))
        let location = try #require(RuleExample.find(rule.id, root: repositoryRoot)?.location)
        #expect(location.hasPrefix("Tests/IMWireConformanceTests/RuleTriggers.swift:"))
        let line = try #require(Int(location.split(separator: ":").last ?? ""))
        let source = try #require(try? readText("Tests/IMWireConformanceTests/RuleTriggers.swift"))
        #expect(
            source.split(separator: "\n", omittingEmptySubsequences: false)[line - 1].contains(
                "\"WS.SERVER-FRAME-MASKED\""))
    }

    @Test func anUnknownIDNamesItsFamily() {
        #expect(RuleCatalog.rule(named: "LC.NOPE") == nil)
        #expect(RuleCatalog.unknown("lc.nope").contains("LC.MISSING-ACK"))
        #expect(RuleCatalog.unknown("nope") == "no rule nope; imwire rules lists them")
    }

    @Test func thePackageRootIsFoundFromInsideIt() {
        #expect(PackageRoot.isRoot(repositoryRoot))
        #expect(PackageRoot.enclosingRoot(of: repositoryRoot + "/Spec/status-codes") == repositoryRoot)
        #expect(PackageRoot.enclosingRoot(of: "/proc") == nil)
    }

    @Test func referencesAreReadAsLinksIntoSpec() {
        let links = SpecReferences.links(in: "Spec/websocket.md#frame-header (RSV bits), Spec/http.md; RFC 6455")
        #expect(links.map(\.description) == ["Spec/websocket.md#frame-header", "Spec/http.md"])
        #expect(
            SpecReferences.anchors(inMarkdown: "<a id=\"x-1\"></a>\n### 4.2 Session: open, close\n").isSuperset(of: [
                "x-1", "42-session-open-close",
            ]))
    }
}

/// Every finding explains itself from the repository: each rule's reference names a page of
/// `Spec/` and an anchor that page defines, and the section there has a heading.
@Suite struct SpecReferenceTests {
    @Test func everyRuleReferenceResolvesInsideTheRepository() {
        let problems = SpecReferences.problems(RuleCatalog.all, root: repositoryRoot) {
            try? readText(String($0.dropFirst(repositoryRoot.count + 1)))
        }
        #expect(problems.isEmpty, "\(problems.prefix(20))")
    }

    @Test func everyReferencedSectionHasAHeading() {
        for rule in RuleCatalog.all {
            for (link, heading) in RuleDescription(rule, root: repositoryRoot).sections {
                #expect(heading?.isEmpty == false, "\(rule.id): \(link) has no heading after its anchor")
            }
        }
    }

    @Test func aMissingAnchorIsReported() {
        let rule = Rule(
            "TEST.X", .error, layer: .capture, summary: "", specRef: "Spec/websocket.md#no-such-anchor, Spec/nope.md")
        let problems = SpecReferences.problems([rule], root: repositoryRoot) {
            try? readText(String($0.dropFirst(repositoryRoot.count + 1)))
        }
        #expect(
            problems == [
                "TEST.X: Spec/websocket.md has no anchor #no-such-anchor", "TEST.X: Spec/nope.md does not exist",
            ])
    }
}
