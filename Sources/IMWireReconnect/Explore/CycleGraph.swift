/// The part of an explored state graph that could hold a reconnect storm: transitions by
/// events that are not external, each with the time it costs (a timer's delay; 0 for an answer
/// to the machine's own attempt), and whether it reconnects. `cyclesFaster(than:)` finds the
/// cycles through a reconnecting transition that cost less than a bound in all.
struct CycleGraph {
    struct Edge {
        let from: Int32
        let to: Int32
        let cost: Int64
        let event: Int32
        let reconnects: Bool
    }

    /// A cycle from `start` back to it: the events in order and what they cost together.
    struct Cycle {
        let start: Int32
        let events: [Int32]
        let cost: Int64
    }

    private(set) var edges: [Edge] = []

    mutating func add(from: Int32, to: Int32, cost: Int64, event: Int32, reconnects: Bool) {
        edges.append(Edge(from: from, to: to, cost: cost, event: event, reconnects: reconnects))
    }

    /// Up to `limit` cycles, each through a different reconnecting edge, that cost less than
    /// `bound` (a cost of 0 is always too fast). `nodes` is the number of node ids.
    func cyclesFaster(than bound: Int64, nodes: Int, limit: Int) -> [Cycle] {
        guard limit > 0, edges.contains(where: \.reconnects) else { return [] }
        // Outgoing edges per node.
        var outgoing = [[Int]](repeating: [], count: nodes)
        for (number, edge) in edges.enumerated() where edge.cost < max(bound, 1) {
            outgoing[Int(edge.from)].append(number)
        }
        let component = stronglyConnectedComponents(nodes: nodes, outgoing: outgoing)
        var found: [Cycle] = []
        for edge in edges where edge.reconnects && edge.cost < max(bound, 1) {
            guard component[Int(edge.from)] == component[Int(edge.to)] else { continue }
            // The cheapest way back from the edge's end to its start, within the component.
            guard
                let back = cheapestPath(
                    from: edge.to, to: edge.from, within: component[Int(edge.from)], component: component,
                    outgoing: outgoing, budget: max(bound, 1) - edge.cost)
            else { continue }
            let cost = edge.cost + back.reduce(0) { $0 + edges[$1].cost }
            guard cost < max(bound, 1) else { continue }
            found.append(Cycle(start: edge.from, events: [edge.event] + back.map { edges[$0].event }, cost: cost))
            if found.count >= limit { break }
        }
        return found
    }

    /// Tarjan's algorithm without recursion: the component number of every node.
    private func stronglyConnectedComponents(nodes: Int, outgoing: [[Int]]) -> [Int32] {
        var index = [Int32](repeating: -1, count: nodes)
        var low = [Int32](repeating: 0, count: nodes)
        var onStack = [Bool](repeating: false, count: nodes)
        var component = [Int32](repeating: -1, count: nodes)
        var stack: [Int32] = []
        var counter: Int32 = 0
        var components: Int32 = 0
        for root in 0..<nodes where index[root] < 0 && !outgoing[root].isEmpty {
            // (node, next outgoing position)
            var work: [(Int, Int)] = [(root, 0)]
            index[root] = counter
            low[root] = counter
            counter += 1
            stack.append(Int32(root))
            onStack[root] = true
            while let (node, position) = work.last {
                if position < outgoing[node].count {
                    work[work.count - 1].1 += 1
                    let next = Int(edges[outgoing[node][position]].to)
                    if index[next] < 0 {
                        index[next] = counter
                        low[next] = counter
                        counter += 1
                        stack.append(Int32(next))
                        onStack[next] = true
                        work.append((next, 0))
                    } else if onStack[next] {
                        low[node] = min(low[node], index[next])
                    }
                } else {
                    work.removeLast()
                    if let parent = work.last?.0 { low[parent] = min(low[parent], low[node]) }
                    if low[node] == index[node] {
                        while let top = stack.popLast() {
                            onStack[Int(top)] = false
                            component[Int(top)] = components
                            if Int(top) == node { break }
                        }
                        components += 1
                    }
                }
            }
        }
        return component
    }

    /// Dijkstra from `start` to `goal` inside one component, giving up at `budget`: the edge
    /// numbers of the cheapest path, or nil.
    private func cheapestPath(
        from start: Int32, to goal: Int32, within wanted: Int32, component: [Int32],
        outgoing: [[Int]], budget: Int64
    ) -> [Int]? {
        if start == goal { return [] }
        var best: [Int32: Int64] = [start: 0]
        var via: [Int32: Int] = [:]
        var queue: [(cost: Int64, node: Int32)] = [(0, start)]
        while !queue.isEmpty {
            let position = queue.indices.min { queue[$0].cost < queue[$1].cost } ?? 0
            let (cost, node) = queue.remove(at: position)
            guard cost == best[node], cost < budget else { continue }
            if node == goal {
                var path: [Int] = []
                var current = goal
                while current != start, let edge = via[current] {
                    path.append(edge)
                    current = edges[edge].from
                }
                return path.reversed()
            }
            for number in outgoing[Int(node)] {
                let edge = edges[number]
                guard component[Int(edge.to)] == wanted else { continue }
                let next = cost + edge.cost
                if next < budget, next < best[edge.to] ?? .max {
                    best[edge.to] = next
                    via[edge.to] = number
                    queue.append((next, edge.to))
                }
            }
        }
        return nil
    }
}
