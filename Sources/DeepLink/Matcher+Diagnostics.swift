extension Matcher {
    /// Static analysis of the route table: identical patterns (an error) and patterns shadowed by earlier ones (a
    /// warning), each naming both patterns and pages (``PatternDiagnostic/route`` and
    /// ``PatternDiagnostic/earlierRoute`` give their indices).
    ///
    /// Two patterns are identical when they have the same shape: the same literals, parameter types and catch-all
    /// at each segment, and the same query keys with the same types (names do not matter). A later pattern is
    /// shadowed when every link it matches is taken by an earlier one: either it has the path shape of the earlier
    /// one and every link it matches also satisfies the earlier one's query bindings, or the two part where each has
    /// a typed parameter, every value of the later one's type converts to the earlier one's (an enum's cases all
    /// cases of the earlier enum; an `Int` under a `Double`), the earlier is tried first, and from there on every
    /// segment the later pattern accepts the earlier one accepts too.
    public func diagnostics() -> [PatternDiagnostic] {
        var out: [PatternDiagnostic] = []
        var firstByShape: [RouteShape: Int] = [:]
        var byPath: [[ShapeElement]: [Int]] = [:]
        var shapes: [RouteShape] = []
        shapes.reserveCapacity(routes.count)
        let ignoresCase = policy.caseInsensitivePaths
        for route in routes { shapes.append(RouteShape(route, ignoringCase: ignoresCase)) }
        let enums = EnumBranches(shapes)
        for (index, route) in routes.enumerated() {
            let shape = shapes[index]
            if let earlier = firstByShape[shape] {
                out.append(
                    PatternDiagnostic(
                        kind: .identical, route: index, earlierRoute: earlier,
                        message: "pattern '\(route.pattern)' of \(route.page) has the same shape as "
                            + "'\(routes[earlier].pattern)' of \(routes[earlier].page); remove one or make them differ")
                )
                continue
            }
            firstByShape[shape] = index
            if route.pattern.optionalName != nil {
                // The path without the optional segment is a shape of this pattern too.
                let short = RouteShape(route, withoutOptional: true, ignoringCase: ignoresCase)
                if let earlier = firstByShape[short] {
                    out.append(
                        PatternDiagnostic(
                            kind: .shadowed, route: index, earlierRoute: earlier,
                            message: "pattern '\(route.pattern)' of \(route.page) never matches a link without its "
                                + "optional segment: '\(routes[earlier].pattern)' of \(routes[earlier].page) takes "
                                + "those; declare it first or drop the '?'"))
                } else {
                    firstByShape[short] = index
                }
            }
            defer { byPath[shape.path, default: []].append(index) }
            if let earlier = byPath[shape.path, default: []].first(where: { shadows($0, index) }) {
                out.append(
                    PatternDiagnostic(
                        kind: .shadowed, route: index, earlierRoute: earlier,
                        message: "pattern '\(route.pattern)' of \(route.page) never matches: "
                            + "'\(routes[earlier].pattern)' of \(routes[earlier].page) takes every link it matches; "
                            + "declare it first or make it more specific"))
                continue
            }
            if let (earlier, position) = enums.shadowing(index, shapes: shapes, matcher: self) {
                let wider = shapes[earlier].path[position]
                let later = shape.path[position]
                out.append(
                    PatternDiagnostic(
                        kind: .shadowed, route: index, earlierRoute: earlier,
                        message: "pattern '\(route.pattern)' of \(route.page) never matches: "
                            + "'\(routes[earlier].pattern)' of \(routes[earlier].page) takes every link it matches, "
                            + "because \(EnumBranches.covering(wider, later)), which is tried first; "
                            + "make the patterns differ by a literal segment"))
            }
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
    /// A part-literal segment: its prefix, its parameters' types with the separators between them, its suffix.
    case part(prefix: String, types: [ParameterType], separators: [String], suffix: String)

    /// `prefix{Type}sep{Type}suffix`, for messages.
    var partText: String {
        guard case .part(let prefix, let types, let separators, let suffix) = self else { return "" }
        var text = prefix
        for (k, type) in types.enumerated() { text += "{\(type)}" + (k < separators.count ? separators[k] : "") }
        return text + suffix
    }

    /// A branch of the trie that takes some segments and not others, in route order: a typed parameter or a
    /// part-literal segment.
    var isConditional: Bool {
        switch self {
        case .parameter(let type): return type.isTyped
        case .part: return true
        case .literal, .catchAll: return false
        }
    }
}

/// What decides which links a pattern matches, without parameter names.
struct RouteShape: Hashable {
    struct QueryKey: Hashable {
        let key: String
        let type: ParameterType
    }

    let path: [ShapeElement]
    let query: Set<QueryKey>

    /// The shape of `route`; `withoutOptional`, of its path without its optional last segment; `ignoringCase`, with
    /// literal text's ASCII letters made small.
    init(_ route: Route, withoutOptional: Bool = false, ignoringCase: Bool = false) {
        let fold = { (text: String) in ignoringCase ? asciiLowercased(text) : text }
        let declaration = route.declaration
        let segments = withoutOptional ? route.pattern.segmentsWithoutOptional ?? [] : route.pattern.segments
        path = segments.map {
            switch $0 {
            case .literal(let text): return .literal(fold(text))
            case .parameter(let name): return .parameter(declaration.parameter(name)?.type ?? .string)
            case .catchAll(let name): return .catchAll(declaration.parameter(name)?.type ?? .string)
            case .part(let prefix, let names, let separators, let suffix):
                return .part(
                    prefix: fold(prefix), types: names.map { declaration.parameter($0)?.type ?? .string },
                    separators: separators.map(fold), suffix: fold(suffix))
            }
        }
        query = Set(
            route.pattern.query.map { QueryKey(key: $0.key, type: declaration.parameter($0.name)?.type ?? .string) })
    }
}

/// Routes that have a typed parameter, grouped by the path before it, for finding patterns shadowed through types
/// whose values overlap (`/p/{s}` with `Sort` before `/p/{o}` with `Order`, both `[price, rating]`; `/p/{x}` with
/// `Double` before `/p/{n}` with `Int`).
struct EnumBranches {
    /// Path prefix up to an enum position (exclusive) → the routes with an enum there, in declaration order.
    var byPrefix: [[ShapeElement]: [Int]] = [:]
    /// Path prefix up to and including an enum position → the first route through it: the matcher tries the
    /// typed branches of a segment in that order.
    var firstThrough: [[ShapeElement]: Int] = [:]

    init(_ shapes: [RouteShape]) {
        for (index, shape) in shapes.enumerated() {
            for (position, element) in shape.path.enumerated() where element.isConditional {
                byPrefix[Array(shape.path[..<position]), default: []].append(index)
                let through = Array(shape.path[...position])
                if firstThrough[through] == nil { firstThrough[through] = index }
            }
        }
    }

    /// An earlier route that takes every link route `later` matches, parting from it at an enum parameter, and
    /// that position.
    func shadowing(_ later: Int, shapes: [RouteShape], matcher: Matcher) -> (Int, Int)? {
        let l = shapes[later].path
        for (position, element) in l.enumerated() where element.isConditional {
            let prefix = Array(l[..<position])
            for earlier in byPrefix[prefix] ?? [] {
                guard earlier < later else { break }
                let e = shapes[earlier].path
                guard e.count == l.count, position < e.count, e[position] != element,
                    EnumBranches.accepts(e[position], element),
                    let first = firstThrough[Array(e[...position])], let own = firstThrough[Array(l[...position])],
                    first < own,
                    zip(e[(position + 1)...], l[(position + 1)...]).allSatisfy(EnumBranches.accepts),
                    matcher.shadows(earlier, later)
                else { continue }
                return (earlier, position)
            }
        }
        return nil
    }

    /// Why every segment `narrow` takes `wide` takes too, for the shadowing message.
    static func covering(_ wide: ShapeElement, _ narrow: ShapeElement) -> String {
        switch (wide, narrow) {
        case (.parameter(let wide), .parameter(let narrow)):
            if case .enumeration = narrow { return "every case of \(narrow) is also a case of \(wide)" }
            return "every \(narrow) is also a \(wide)"
        case (.part, .part):
            return "every segment '\(narrow.partText)' takes is also taken by '\(wide.partText)'"
        default:
            return "every segment the later one takes is also taken by the earlier one"
        }
    }

    /// True when every segment `later` accepts is accepted by `earlier` at the same position.
    static func accepts(_ earlier: ShapeElement, _ later: ShapeElement) -> Bool {
        if earlier == later { return true }
        switch (earlier, later) {
        case (.parameter(.string), .literal), (.parameter(.string), .parameter):
            return true
        case (.parameter(let type), .literal(let text)):
            return type.convert(Substring(text)) != nil
        case (.parameter(.enumeration(_, let wide)), .parameter(.enumeration(_, let narrow))):
            return narrow.allSatisfy(wide.contains)
        case (.parameter(.double), .parameter(.int)):
            return true
        case (.part(let p1, let t1, let m1, let s1), .part(let p2, let t2, let m2, let s2)):
            // `p1{t1}s1` takes `p2{…}s2` when its text starts and ends the same way and whatever lies between
            // converts: always for a String, else only for the same text around a type that covers the other's.
            // With separators, only the same text (so the same split) around types each covering the other's.
            guard p2.hasPrefix(p1), s2.hasSuffix(s1) else { return false }
            if t1 == [.string] { return true }
            return p1 == p2 && s1 == s2 && m1 == m2 && t1.count == t2.count
                && zip(t1, t2).allSatisfy { accepts(.parameter($0), .parameter($1)) }
        default:
            return false
        }
    }
}
