import IMWire
import Testing

/// `--rule ID=ACTION` values as actions by rule.
@Suite struct RuleOverridesTests {
    @Test func actionsByRuleTheLastWins() throws {
        let rule = try #require(RuleCatalog.all.first).id
        let other = try #require(RuleCatalog.all.last).id
        let parsed = RuleCatalog.ruleActions(["\(rule)=off", "\(other)=error", "\(rule)=warn"])
        #expect(parsed.problem == nil)
        #expect(parsed.actions == [rule: .warn, other: .error])
        #expect(RuleCatalog.ruleActions([]).actions.isEmpty)
    }

    @Test func aValueThatIsNoActionOrNoRuleIsAProblem() throws {
        let rule = try #require(RuleCatalog.all.first).id
        #expect(
            RuleCatalog.ruleActions(["\(rule)=loud"]).problem == "\(rule)=loud: expected ID=off|info|warn|error")
        #expect(RuleCatalog.ruleActions(["\(rule)"]).problem == "\(rule): expected ID=off|info|warn|error")
        let unknown = RuleCatalog.ruleActions(["\(rule)=off", "NO.SUCH-RULE=off"])
        #expect(unknown.problem == "NO.SUCH-RULE=off: unknown rule NO.SUCH-RULE (see imwire rules)")
        #expect(unknown.actions.isEmpty)
    }
}
