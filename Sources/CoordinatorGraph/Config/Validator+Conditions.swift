extension Validator {
    /// A condition required on the way to a coordinator: the condition, the coordinator whose `requires` names it,
    /// and where.
    struct Requirement {
        let condition: String
        let coordinator: String
        let location: SourceLocation
    }

    /// Every required condition has a provider, no provider waits for what it provides (itself or through a
    /// coordinator it is placed under), and no providers wait for each other.
    mutating func checkConditions() {
        var providers: [String: [String]] = [:]
        for c in draft.coordinators {
            for p in c.provides { providers[p.value, default: []].append(c.name.value) }
        }
        for c in draft.coordinators {
            let requirements = c.requires + c.pages.flatMap(\.requires)
            for r in requirements {
                guard let names = providers[r.value] else {
                    var message =
                        "no coordinator provides '\(r.value)'; add 'provides: \(r.value)' to the flow that "
                        + "satisfies it"
                    if let guess = ConfigDecoder.closest(to: r.value, in: Array(providers.keys).sorted()) {
                        message += " (or did you mean '\(guess)'?)"
                    }
                    error("unprovided-condition", at: r.location, message)
                    continue
                }
                if names.contains(c.name.value) {
                    error(
                        "self-gated", at: r.location,
                        "'\(c.name.value)' requires '\(r.value)', which only finishing '\(c.name.value)' provides; "
                            + "it could never open")
                }
            }
        }
        let unavoidable = unavoidableRequirements()
        checkProvidersUnderTheirOwnGate(unavoidable)
        checkConditionCycles(unavoidable)
    }

    /// A provider placed under a coordinator that requires what it provides: every way to it passes that gate.
    private mutating func checkProvidersUnderTheirOwnGate(_ unavoidable: [String: [Requirement]]) {
        for c in draft.coordinators {
            let name = c.name.value
            for provided in c.provides {
                guard
                    let gate = unavoidable[name]?.first(where: {
                        $0.condition == provided.value && $0.coordinator != name
                    })
                else { continue }
                error(
                    "provider-under-gate", at: provided.location,
                    "'\(name)' provides '\(provided.value)' but can only be reached through '\(gate.coordinator)', "
                        + "which requires '\(provided.value)' (at \(Validator.place(gate.location))); it could never "
                        + "open: place it where '\(provided.value)' is not required, e.g. among the children of the app"
                )
            }
        }
    }

    /// Conditions whose providers wait for each other (login requires `member` while the paywall that provides
    /// `member` requires `session`): none of them can ever be satisfied. Each cycle is reported once, at the first
    /// requirement on it, naming the others. The provider of a condition is the first declared one, as when
    /// routing.
    private mutating func checkConditionCycles(_ unavoidable: [String: [Requirement]]) {
        var firstProvider: [String: String] = [:]
        var conditions: [String] = []
        for c in draft.coordinators {
            for p in c.provides where firstProvider[p.value] == nil {
                firstProvider[p.value] = c.name.value
                conditions.append(p.value)
            }
        }
        // condition → what its provider needs, each with the requirement that says so.
        var needs: [String: [Requirement]] = [:]
        for condition in conditions {
            guard let provider = firstProvider[condition] else { continue }
            needs[condition] = (unavoidable[provider] ?? []).filter {
                $0.condition != condition && firstProvider[$0.condition] != nil
            }
        }
        var reported: Set<[String]> = []
        for start in conditions {
            guard let cycle = shortestCycle(from: start, needs: needs) else { continue }
            let key = cycle.map(\.condition).sorted()
            guard reported.insert(key).inserted else { continue }
            var parts: [String] = []
            var provided = start
            for (n, edge) in cycle.enumerated() {
                let provider = firstProvider[provided] ?? "?"
                let needing: String
                if edge.coordinator == provider {
                    needing = "'\(provider)' (which provides '\(provided)') requires '\(edge.condition)'"
                } else {
                    needing =
                        "'\(provider)' (which provides '\(provided)') is under '\(edge.coordinator)', which requires "
                        + "'\(edge.condition)'"
                }
                parts.append(n == 0 ? needing : needing + " (at \(Validator.place(edge.location)))")
                provided = edge.condition
            }
            error(
                "condition-cycle", at: cycle[0].location,
                "gates wait for each other: " + parts.joined(separator: "; ")
                    + "; none of them can ever open: drop one of these requirements")
        }
    }

    /// The shortest chain of requirements from `start` back to `start` (each edge: the provider of the condition
    /// before it needs the edge's condition), or `nil`.
    private func shortestCycle(from start: String, needs: [String: [Requirement]]) -> [Requirement]? {
        var via: [String: Requirement] = [:]
        var previous: [String: String] = [:]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            for edge in needs[current] ?? [] {
                if edge.condition == start {
                    var chain = [edge]
                    var node = current
                    while node != start, let step = via[node], let before = previous[node] {
                        chain.append(step)
                        node = before
                    }
                    return chain.reversed()
                }
                guard via[edge.condition] == nil else { continue }
                via[edge.condition] = edge
                previous[edge.condition] = current
                queue.append(edge.condition)
            }
        }
        return nil
    }

    /// For each coordinator, the conditions required on every way to it from the app: its own `requires` and those
    /// of the coordinators every way passes, root first. Coordinators in a parent cycle (reported elsewhere) get
    /// their own `requires` only.
    func unavoidableRequirements() -> [String: [Requirement]] {
        var parents: [String: [String]] = [:]
        var children: [String: [String]] = [:]
        var waiting: [String: Int] = [:]
        for edge in hierarchyEdges() where !(parents[edge.child]?.contains(edge.parent) ?? false) {
            parents[edge.child, default: []].append(edge.parent)
            children[edge.parent, default: []].append(edge.child)
            waiting[edge.child, default: 0] += 1
        }
        var result: [String: [Requirement]] = [:]
        var queue = coordinatorIndex.keys.sorted { (coordinatorIndex[$0] ?? 0) < (coordinatorIndex[$1] ?? 0) }
            .filter { waiting[$0] == nil }
        var head = 0
        while head < queue.count {
            let name = queue[head]
            head += 1
            var required: [Requirement] = []
            if let list = parents[name], let first = list.first {
                required = (result[first] ?? []).filter { r in
                    list.dropFirst().allSatisfy { p in result[p]?.contains { $0.condition == r.condition } ?? false }
                }
            }
            for r in coordinator(name)?.requires ?? [] where !required.contains(where: { $0.condition == r.value }) {
                required.append(Requirement(condition: r.value, coordinator: name, location: r.location))
            }
            result[name] = required
            for child in children[name] ?? [] {
                waiting[child, default: 1] -= 1
                if waiting[child] == 0 { queue.append(child) }
            }
        }
        for c in draft.coordinators where result[c.name.value] == nil {
            result[c.name.value] = c.requires.map {
                Requirement(condition: $0.value, coordinator: c.name.value, location: $0.location)
            }
        }
        return result
    }
}
