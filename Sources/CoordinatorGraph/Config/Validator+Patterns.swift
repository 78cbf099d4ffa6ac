import DeepLink

extension Validator {
    /// Each pattern's names fit its case's labels and types; no two patterns are identical, and none is
    /// fully shadowed by an earlier one (the matcher's own diagnostics, placed at the later pattern).
    mutating func checkPatterns() {
        var routes: [Route] = []
        var locations: [SourceLocation] = []
        for c in draft.coordinators {
            for page in c.pages {
                guard let declaration = page.declaration else { continue }
                let id = PageID(coordinator: c.name.value, name: page.name)
                for p in page.patterns {
                    let problems = p.pattern.check(against: declaration)
                    for problem in problems {
                        error(Validator.code(for: problem), at: p.location.advanced(by: problem.offset), problem.reason)
                    }
                    if problems.isEmpty {
                        for problem in p.pattern.ambiguousSplits(against: declaration) {
                            warning("ambiguous-split", at: p.location.advanced(by: problem.offset), problem.reason)
                        }
                        routes.append(Route(page: id, declaration: declaration, pattern: p.pattern))
                        locations.append(p.location)
                    }
                }
            }
        }
        let policy = LinkPolicy(
            schemes: draft.app?.schemes.map(\.value) ?? [], hosts: draft.app?.hosts.map(\.value) ?? [],
            caseInsensitivePaths: draft.app?.caseInsensitivePaths ?? false)
        for d in Matcher(routes: routes, policy: policy).diagnostics() {
            guard locations.indices.contains(d.route), locations.indices.contains(d.earlierRoute) else { continue }
            let message = "\(d.message) (the earlier pattern is at \(locations[d.earlierRoute]))"
            switch d.kind {
            case .identical: error("duplicate-pattern", at: locations[d.route], message)
            case .shadowed: warning("shadowed-pattern", at: locations[d.route], message)
            }
        }
    }

    static func code(for problem: PatternError) -> String {
        switch problem.code {
        case .unknownLabel: return "pattern-unknown-parameter"
        case .unboundLabel: return "pattern-unbound-parameter"
        case .typeMismatch: return "pattern-parameter-type"
        default: return "invalid-pattern"
        }
    }
}
