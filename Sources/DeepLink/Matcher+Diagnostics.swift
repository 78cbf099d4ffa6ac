extension Matcher {
    /// Static analysis of the route table: identical patterns (an error) and patterns shadowed by earlier ones (a
    /// warning), each naming both route indices.
    ///
    /// Two patterns are identical when they have the same shape: the same literals, parameter types and catch-all
    /// at each segment, and the same query keys with the same types (names do not matter). A later pattern is
    /// shadowed when it has the path shape of an earlier one and every link it matches also satisfies the earlier
    /// one's query bindings, so the earlier route always wins. Because precedence goes segment by segment, patterns
    /// of different path shapes never shadow each other.
    public func diagnostics() -> [PatternDiagnostic] {
        var out: [PatternDiagnostic] = []
        var firstByShape: [RouteShape: Int] = [:]
        var byPath: [[ShapeElement]: [Int]] = [:]
        for (index, route) in routes.enumerated() {
            let shape = RouteShape(route)
            if let earlier = firstByShape[shape] {
                out.append(
                    PatternDiagnostic(
                        kind: .identical, route: index, earlierRoute: earlier,
                        message: "pattern '\(route.pattern)' of \(route.page) (route \(index)) has the same shape as "
                            + "'\(routes[earlier].pattern)' of \(routes[earlier].page) (route \(earlier)); "
                            + "remove one or make them differ"))
                continue
            }
            firstByShape[shape] = index
            for earlier in byPath[shape.path, default: []] where shadows(earlier, index) {
                out.append(
                    PatternDiagnostic(
                        kind: .shadowed, route: index, earlierRoute: earlier,
                        message: "pattern '\(route.pattern)' of \(route.page) (route \(index)) never matches: "
                            + "'\(routes[earlier].pattern)' of \(routes[earlier].page) (route \(earlier)) takes every "
                            + "link it matches; declare it first or make it more specific"))
                break
            }
            byPath[shape.path, default: []].append(index)
        }
        return out
    }

    /// True when route `earlier` (same path shape) matches every link that route `later` matches.
    func shadows(_ earlier: Int, _ later: Int) -> Bool {
        let e = routes[earlier]
        let l = routes[later]
        var laterQuery: [String: Parameter] = [:]
        for binding in l.pattern.query {
            if let parameter = l.declaration.parameter(binding.name) { laterQuery[binding.key] = parameter }
        }
        let bound = Set(e.pattern.parameterNames)
        for parameter in e.declaration.parameters where !bound.contains(parameter.label) {
            if parameter.defaultValue == nil { return false }
        }
        for binding in e.pattern.query {
            guard let parameter = e.declaration.parameter(binding.name) else { continue }
            let optional = parameter.defaultValue != nil
            if let other = laterQuery[binding.key] {
                guard parameter.type == other.type || parameter.type == .string else { return false }
                guard optional || other.defaultValue == nil else { return false }
            } else {
                guard optional, parameter.type == .string else { return false }
            }
        }
        return true
    }
}

/// One path position of a pattern's shape.
enum ShapeElement: Hashable {
    case literal(String)
    case parameter(ParameterType)
    case catchAll(ParameterType)
}

/// What decides which links a pattern matches, without parameter names.
struct RouteShape: Hashable {
    struct QueryKey: Hashable {
        let key: String
        let type: ParameterType
    }

    let path: [ShapeElement]
    let query: Set<QueryKey>

    init(_ route: Route) {
        let declaration = route.declaration
        path = route.pattern.segments.map {
            switch $0 {
            case .literal(let text): return .literal(text)
            case .parameter(let name): return .parameter(declaration.parameter(name)?.type ?? .string)
            case .catchAll(let name): return .catchAll(declaration.parameter(name)?.type ?? .string)
            }
        }
        query = Set(
            route.pattern.query.map { QueryKey(key: $0.key, type: declaration.parameter($0.name)?.type ?? .string) })
    }
}
