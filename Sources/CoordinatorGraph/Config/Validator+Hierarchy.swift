extension Validator {
    /// Every coordinator reachable from the app through `children`/`parents`, and no coordinator its own
    /// ancestor.
    mutating func checkHierarchy() {
        let edges = hierarchyEdges()
        var out: [String: [(child: String, location: SourceLocation)]] = [:]
        for e in edges { out[e.parent, default: []].append((e.child, e.location)) }
        checkCycles(out)
        guard let app = draft.coordinators.first(where: { $0.kind?.value == .app }) else { return }
        var reached: Set<String> = [app.name.value]
        var queue = [app.name.value]
        while let next = queue.popLast() {
            for e in out[next] ?? [] where reached.insert(e.child).inserted { queue.append(e.child) }
        }
        for c in draft.coordinators where !reached.contains(c.name.value) && c.kind?.value != .app {
            error(
                "unreachable-coordinator", at: c.name.location,
                "coordinator '\(c.name.value)' is unreachable from '\(app.name.value)': list it under the 'children' "
                    + "of a reachable coordinator, or give it reachable 'parents'")
        }
    }

    /// Depth-first search for back edges; each is reported once, at the reference that closes the cycle.
    private mutating func checkCycles(_ out: [String: [(child: String, location: SourceLocation)]]) {
        enum Mark { case active, done }
        var marks: [String: Mark] = [:]
        var reported: Set<String> = []
        for start in draft.coordinators.map(\.name.value) where marks[start] == nil {
            // The path of (node, index of its next edge) pairs.
            var path: [(node: String, next: Int)] = [(start, 0)]
            marks[start] = .active
            while let top = path.last {
                let edges = out[top.node] ?? []
                guard top.next < edges.count else {
                    marks[top.node] = .done
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let edge = edges[top.next]
                switch marks[edge.child] {
                case nil:
                    marks[edge.child] = .active
                    path.append((edge.child, 0))
                case .active:
                    let names = path.map(\.node)
                    let cycle = names[(names.lastIndex(of: edge.child) ?? 0)...] + [edge.child]
                    let key = "\(top.node)>\(edge.child)"
                    if reported.insert(key).inserted {
                        error(
                            "parent-cycle", at: edge.location,
                            "cycle in the coordinator hierarchy: \(cycle.joined(separator: " → ")); "
                                + "a coordinator cannot be its own ancestor")
                    }
                case .done:
                    break
                }
            }
        }
    }
}
