/// Mermaid state diagrams of a policy, drawn from the transitions a complete exploration of
/// the machine finds (so the diagram is the transition function, not a drawing of it).
package enum ReconnectDiagram {
    /// `stateDiagram-v2` text: one arrow per pair of phases, its label the events that move
    /// the machine along it (coded events with the reaction their code gets).
    package static func mermaid(_ policy: ReconnectPolicy) -> String {
        let report = ReconnectExplorer.explore(policy, maxDepth: 200, checkProperties: false)
        var grouped: [PhasePair: [String]] = [:]
        for edge in report.edges.sorted() {
            grouped[PhasePair(from: edge.from, to: edge.to), default: []].append(edge.label)
        }
        var lines = ["stateDiagram-v2", "    [*] --> idle"]
        for pair in grouped.keys.sorted() {
            let labels = Array(Set(grouped[pair] ?? [])).sorted()
            lines.append("    \(pair.from.rawValue) --> \(pair.to.rawValue) : \(labels.joined(separator: ", "))")
        }
        if !report.complete {
            lines.append("    %% exploration stopped at depth \(report.depth): the diagram may miss transitions")
        }
        return lines.joined(separator: "\n")
    }

    struct PhasePair: Hashable, Comparable {
        let from: Phase
        let to: Phase

        static func < (a: PhasePair, b: PhasePair) -> Bool {
            let order = Phase.allCases
            return (order.firstIndex(of: a.from) ?? 0, order.firstIndex(of: a.to) ?? 0)
                < (order.firstIndex(of: b.from) ?? 0, order.firstIndex(of: b.to) ?? 0)
        }
    }
}
