extension Validator {
    /// Every required condition has a provider, and no provider waits for what it provides.
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
    }
}
