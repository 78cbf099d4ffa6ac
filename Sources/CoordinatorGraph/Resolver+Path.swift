extension Resolver {
    /// The coordinators from the root to `coordinator` a page there would be routed through on a device in
    /// `state` (`nil`: never seen), or `nil` when it is not declared or cannot be reached from the root.
    ///
    /// See ``Resolver`` for how a parent is chosen among several.
    public func path(to coordinator: String, state: DeviceState?) -> [String]? {
        guard let target = coordinatorIndex(coordinator) else { return nil }
        var walk = Walk.starting(from: state.map(navigationState) ?? NavigationState(), explain: false)
        return path(to: target, walk: &walk)?.map { names[$0] }
    }

    /// The path from the root to `target` as indices, choosing parents by (visible nearest the top, started,
    /// shortest, declared first). Allocates nothing for a path of up to eight coordinators (an ``IndexList``).
    func path(to target: Int, walk: inout Walk) -> IndexList? {
        if let forced = forcedPaths[target] {
            walk.visits += forced.count - 1  // one parent weighed at each level, as weighedPath would
            return forced
        }
        return weighedPath(to: target, walk: &walk)
    }

    /// ``path(to:walk:)`` with each coordinator's parents weighed on the walk's state, also where only one can be
    /// chosen.
    func weighedPath(to target: Int, walk: inout Walk) -> IndexList? {
        guard depths[target] >= 0 else { return nil }
        var reversed = IndexList()
        reversed.append(target)
        var current = target
        while current != rootIndex {
            let parents = parentIndices[current]
            var best = -1
            var bestRank = (tier: Int.max, order: Int.max, position: Int.max)
            for (position, parent) in parents.enumerated() where depths[parent] >= 0 && !reversed.contains(parent) {
                walk.visits += 1
                let rank: (tier: Int, order: Int, position: Int)
                if let visible = walk.state.path.lastIndex(of: parent) {
                    rank = (0, -visible, position)
                } else if walk.state.isStarted(parent) {
                    rank = (1, depths[parent], position)
                } else {
                    rank = (2, depths[parent], position)
                }
                if rank < bestRank {
                    best = parent
                    bestRank = rank
                }
            }
            guard best >= 0 else {
                walk.note("parents of \(names[current]) loop back: using the shortest path")
                return shortestPath(to: target)
            }
            if parents.count > 1, walk.trace != nil {
                let reason: String
                switch bestRank.tier {
                case 0: reason = "visible, nearest the top"
                case 1: reason = "started"
                default: reason = "shortest path, then declaration order"
                }
                let list = parents.map { names[$0] }.joined(separator: ", ")
                walk.note("\(names[current]) has parents \(list): chose \(names[best]) (\(reason))")
            }
            reversed.append(best)
            current = best
        }
        return IndexList(reversed.reversed())
    }

    /// Each coordinator's path from `root` when each coordinator on the way up has exactly one parent reachable from
    /// the root (``forcedPaths``): what ``path(to:walk:)`` chooses from any state. `nil` when a coordinator on the way
    /// has several such parents, when the coordinator is unreachable, or when the path is longer than an
    /// ``IndexList`` holds without allocating (such a graph is weighed on each walk, as before: its paths would
    /// take memory growing with the depth for each coordinator).
    ///
    /// A coordinator's only reachable parent is one level nearer the root, so its path is its parent's and itself,
    /// and cannot loop: made in order of depth, each path extends one made before.
    static func forcedPaths(root: Int, parents: [[Int]], depths: [Int]) -> [IndexList?] {
        var paths = [IndexList?](repeating: nil, count: parents.count)
        let reachable = parents.indices.filter { depths[$0] >= 0 }.sorted { depths[$0] < depths[$1] }
        for coordinator in reachable {
            if coordinator == root {
                paths[coordinator] = IndexList([root])
                continue
            }
            var reachableParents = parents[coordinator].lazy.filter { depths[$0] >= 0 }.makeIterator()
            guard let only = reachableParents.next(), reachableParents.next() == nil,
                var path = paths[only], path.count < IndexList.inlineCapacity
            else { continue }
            path.append(coordinator)
            paths[coordinator] = path
        }
        return paths
    }

    /// The shortest path (parents one level nearer the root, first declared), which cannot loop.
    func shortestPath(to target: Int) -> IndexList? {
        guard depths[target] >= 0 else { return nil }
        var reversed = IndexList()
        reversed.append(target)
        var current = target
        while current != rootIndex {
            guard let parent = parentIndices[current].first(where: { depths[$0] == depths[current] - 1 }) else {
                return nil
            }
            reversed.append(parent)
            current = parent
        }
        return IndexList(reversed.reversed())
    }
}
