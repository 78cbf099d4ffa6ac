/// All routes compiled into one matcher: links in, typed pages out, and pages back to canonical links.
///
/// Precedence, segment by segment from the left: a literal beats a part-literal segment (`v{version}`), which beats
/// a typed parameter (`Int`, `Double`, `Bool`, `UUID`, an enum), which beats a `String` parameter, which beats a
/// catch-all; routes of the same shape are tried in
/// declaration order. A parameter whose text does not convert to its type is no match there: the matcher backtracks
/// and tries the next alternative. Query bindings match in any order, extra query items are ignored, the first of
/// repeated keys counts, and an absent key takes the declared default (no match without one).
public struct Matcher: Sendable {
    /// Everything compiled, behind one reference so copies of a matcher are cheap.
    let table: RouteTable

    /// The routes in declaration order; ``LinkMatch/routeIndex`` indexes this array.
    public var routes: [Route] { table.routes }
    /// The accepted schemes and hosts.
    public var policy: LinkPolicy { table.policy }

    /// Compiles the routes. Routes that the validator would reject (unknown labels, unbound labels without
    /// default) compile too but never match where a label is missing.
    public init(routes: [Route], policy: LinkPolicy) {
        self.table = RouteTable(routes, policy: policy)
    }

    /// Matches a link (`shop://offers/SUMMER`, `https://shop.example.com/offers/SUMMER`, or a bare `/offers/SUMMER`)
    /// to a page. With `explain`, ``LinkMatch/trace`` tells each candidate tried and why it was rejected.
    public func match(_ link: String, explain: Bool = false) -> LinkMatch {
        if explain { return explainedMatch(link) }
        var page: Page?
        var index: Int32 = -1
        let rejected = LinkScanner.withScannedLink(link, policy: table.policy) { view in
            var noTrace: [String]?
            if let (route, restFrom) = search(node: 0, depth: 0, view, &noTrace) {
                index = route
                page = makePage(route: route, restFrom: restFrom, view)
            }
        }
        if let page { return LinkMatch(page: page, routeIndex: Int(index), table: table, trace: []) }
        return LinkMatch(result: .failure(rejected ?? LinkError.noMatch(link)))
    }

    /// ``match(_:explain:)`` with a trace.
    func explainedMatch(_ link: String) -> LinkMatch {
        var match: LinkMatch?
        let rejected = LinkScanner.withScannedLink(link, policy: table.policy) { view in
            match = self.match(view, text: link, explain: true)
        }
        if let match { return match }
        let error = rejected ?? LinkError.noMatch(link)
        return LinkMatch(result: .failure(error), trace: ["link rejected: \(error)"])
    }

    /// Matches an already parsed link to a page.
    public func match(_ link: Link, explain: Bool = false) -> LinkMatch {
        match(link.description, explain: explain)
    }

    func match(_ view: LinkView, text: String, explain: Bool) -> LinkMatch {
        var trace: [String]? = explain ? ["link \(Self.describe(view.origin)) path \(view.link)"] : nil
        if let (index, restFrom) = search(node: 0, depth: 0, view, &trace) {
            let page = makePage(route: index, restFrom: restFrom, view)
            if trace != nil { trace?.append("\(table.routes[Int(index)].pattern): matched \(page)") }
            return LinkMatch(page: page, routeIndex: Int(index), table: table, trace: trace ?? [])
        }
        let error = LinkError.noMatch(text)
        trace?.append("no match: \(error.reason)")
        return LinkMatch(result: .failure(error), trace: trace ?? [])
    }

    static func describe(_ origin: Link.Origin) -> String {
        switch origin {
        case .path: return "(bare path)"
        case .scheme(let s): return "scheme '\(s)'"
        case .host(let h): return "host '\(h)'"
        }
    }
}
