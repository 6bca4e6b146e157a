import Foundation
import IMWire
import Testing

/// Every rule of the catalogue must be produced by something: a fixture or sample capture that
/// expects it, or one of the small triggers below. A rule nothing produces is either dead code or
/// a check that silently stopped working; `everyRuleIsProduced` names it.
///
/// The triggers are minimal inputs written from the protocol facts (RFC 6455/7692, MQTT 3.1.1,
/// engine.io 3, socket.io 0.9, pcap/pcapng drafts, Spec/*.md), one violation each.
@Suite struct RuleCoverageTests {
    // MARK: rules the fixtures already expect (verified by `fixtures verify` and the sample tests)

    /// Rule IDs named as expected findings: `expect` of every Fixtures/**/*.json (Spec/fixtures.schema.json),
    /// and `findings`, `captureFindings` and `rules` of Fixtures/captures/*.expected.json.
    static let covered: Set<String> = {
        var rules: Set<String> = []
        let root = "\(repositoryRoot)/Fixtures"
        let paths = (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []).filter {
            $0.hasSuffix(".json")
        }
        for path in paths {
            guard let json = try? JSONParser.parse(readText("Fixtures/\(path)")) else { continue }
            func named(_ value: JSONValue?) {
                if let rule = value?["rule"]?.stringValue { rules.insert(rule) }
                for item in value?.arrayValue ?? [] { named(item) }
            }
            named(json["expect"])
            if path.hasSuffix(".expected.json") {
                named(json["findings"])
                named(json["captureFindings"])
                for rule in json["rules"]?.arrayValue ?? [] { if let id = rule.stringValue { rules.insert(id) } }
            }
        }
        return rules
    }()

    // MARK: rules no input can produce

    /// Rules that are dead code, with the reason. Empty: every rule is reachable.
    static let unreachable: Set<String> = []

    /// Rules that should fire on their trigger but do not (bugs not fixed here). Empty.
    static let knownGaps: Set<String> = []

    // MARK: triggers

    struct Trigger: Sendable, CustomTestStringConvertible {
        let rule: String
        /// Where the finding must be, when the input makes it obvious: the frame of a transcript,
        /// or the byte offset in a decoder's input.
        var frame: Int?
        var offset: Int?
        let findings: @Sendable () throws -> [Finding]

        init(
            _ rule: String, frame: Int? = nil, offset: Int? = nil,
            _ findings: @escaping @Sendable () throws -> [Finding]
        ) {
            self.rule = rule
            self.frame = frame
            self.offset = offset
            self.findings = findings
        }

        var testDescription: String { rule }
    }

    static let triggers: [Trigger] =
        captureTriggers + checkTriggers + httpTriggers + compressionTriggers + webSocketTriggers + mqttTriggers
        + socketIOTriggers
        + leanCloudTriggers + yun2winTriggers + nimTriggers + jmessageTriggers + reconnectTriggers + tlsTriggers

    @Test(arguments: triggers)
    func triggerProducesItsRule(_ trigger: Trigger) throws {
        let findings = try trigger.findings()
        let matching = findings.filter { $0.ruleID.rawValue == trigger.rule }
        #expect(!matching.isEmpty, "\(trigger.rule) not among \(findings.map(\.ruleID.rawValue))")
        if let frame = trigger.frame {
            #expect(
                matching.contains { $0.location.frameIndex == frame },
                "\(trigger.rule) at frames \(matching.map { $0.location.frameIndex ?? -1 }), expected \(frame)")
        }
        if let offset = trigger.offset {
            #expect(
                matching.contains { $0.offset == offset },
                "\(trigger.rule) at offsets \(matching.map { $0.offset ?? -1 }), expected \(offset)")
        }
    }

    @Test func everyRuleIsProduced() {
        let produced = Self.covered.union(Self.triggers.map(\.rule)).union(Self.unreachable).union(Self.knownGaps)
        let missing = RuleCatalog.all.map(\.id.rawValue).filter { !produced.contains($0) }
        #expect(missing.isEmpty, "rules nothing produces: \(missing.joined(separator: " "))")
        // The tables name catalogue rules only, and a rule is triggered at most once.
        let catalogue = Set(RuleCatalog.all.map(\.id.rawValue))
        let named = Self.triggers.map(\.rule) + Array(Self.unreachable) + Array(Self.knownGaps)
        #expect(named.filter { !catalogue.contains($0) }.isEmpty)
        #expect(Set(named).count == named.count, "a rule is listed twice")
        #expect(Self.covered.count > 150, "the fixtures were not read")
    }

    @Test func triggersAreOnlyForRulesTheFixturesDoNotCover() {
        let redundant = Self.triggers.map(\.rule).filter { Self.covered.contains($0) }
        #expect(redundant.isEmpty, "covered by fixtures already: \(redundant)")
    }
}
