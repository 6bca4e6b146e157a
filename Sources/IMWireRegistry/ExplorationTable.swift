import IMWireReconnect

extension ReconnectExplorer {
    /// The depth bound of the proofs: far past the deepest level any policy needs, so each
    /// search ends because nothing new is reached, not because of the bound.
    package static let proofDepth = 200

    /// The exploration with every property checked, of every policy, made once per process
    /// (the tests and `Spec/reconnect.md` §4 read the same runs).
    package static let proofs: [String: ExplorationReport] = Dictionary(
        uniqueKeysWithValues: ReconnectPolicies.all.map { ($0.name, explore($0, maxDepth: proofDepth)) })

    /// The Spec's table of exploration sizes: per policy the (state, monitor) pairs reached,
    /// the transitions tried, the depth at which nothing new appeared, the alphabet, the cycle
    /// bound and the verdict.
    package static var sizeTable: (header: [String], rows: [[String]]) {
        (
            [
                "policy", "states", "transitions", "depth", "events × random inputs", "cycle bound", "complete",
                "violations",
            ],
            ReconnectPolicies.all.map { policy in
                let report = proofs[policy.name] ?? explore(policy, maxDepth: proofDepth)
                return [
                    "`\(policy.name)`", String(report.states), String(report.transitions), String(report.depth),
                    "\(alphabet(policy).count) × \(randoms(policy).count)",
                    DurationText.text(millis: policy.shortestRetryDelayMillis),
                    report.complete ? "yes" : "no (depth bound)", String(report.violations.count),
                ]
            }
        )
    }
}
