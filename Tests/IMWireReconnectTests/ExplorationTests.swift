import IMWireLeanCloud
import IMWireRegistry
import Testing

@testable import IMWireReconnect

/// The properties of `Property`, proven for every policy by a complete breadth-first search of
/// every event order (see Spec/reconnect.md §4).
@Suite struct ExplorationTests {
    @Test(arguments: ReconnectPolicies.all)
    func everyPropertyHoldsInEveryReachableState(_ policy: ReconnectPolicy) throws {
        let report = try #require(ReconnectExplorer.proofs[policy.name])
        print(
            """
            exploration \(policy.name): \(report.states) states, \(report.transitions) transitions, depth \
            \(report.depth), complete \(report.complete), alphabet \(ReconnectExplorer.alphabet(policy).count) \
            events × \(ReconnectExplorer.randoms(policy).count) random inputs
            """
        )
        #expect(report.complete, "\(policy.name) did not finish within the depth bound")
        for violation in report.violations { Issue.record("\(policy.name): \(violation)") }
        #expect(report.violations.isEmpty)

        var phases: Set<Phase> = [.idle, .connecting, .authenticating, .online, .offline, .stopped]
        if policy.budget.attempts != 0 { phases.insert(.waiting) }
        if policy.route != nil { phases.insert(.resolving) }
        if policy.backgroundClosesConnection { phases.insert(.suspended) }
        let refreshes = Signal.allCases.contains { signal in
            policy.interestingCodes(signal).contains { policy.reaction(signal, $0) == .refreshCredentials }
        }
        if refreshes { phases.insert(.refreshing) }
        #expect(report.phases == phases, "\(policy.name) reached \(report.phases.map(\.rawValue).sorted())")

        let missing = policy.outputs.allOutputs.subtracting(report.outputs)
        #expect(missing.isEmpty, "\(policy.name) never shows \(missing.sorted())")
        #expect(report.stopCauses.contains(.kicked) || policy.rules.allSatisfy { $0.signal != .kick })
    }

    @Test func anExplorationCutShortSaysSo() {
        let report = ReconnectExplorer.explore(LeanCloudPolicies.swift, maxDepth: 3)
        #expect(!report.complete)
        #expect(report.depth == 3)
    }

    /// Each explored reconnect cycle costs at least the policy's shortest retry delay; the
    /// bounds themselves, typed from the reference.
    @Test func shortestRetryDelays() {
        let expected: [String: Int64] = [
            "leancloud-swift": 1000, "leancloud-js": 1000, "leancloud-java": 2000, "leancloud-csharp": 10_000,
            "nim-web": 1584,
            "jmessage-web": 1, "yun2win-web": 1000, "yun2win-android": 10_000, "yun2win-ios": 1000,
        ]
        for policy in ReconnectPolicies.all {
            #expect(policy.shortestRetryDelayMillis == expected[policy.name], "\(policy.name)")
        }
    }
}
