/// The outcome of matching one link: the page or the error, which route matched, and (with `explain`) why.
public struct LinkMatch: Sendable {
    /// The page, or why there is none.
    public let result: Result<Page, LinkError>
    /// The index in ``Matcher/routes`` of the route that matched.
    public let routeIndex: Int?
    /// Where ``pattern`` comes from: looked up only when asked for, so that a match touches less memory.
    enum PatternSource: Sendable {
        case none
        case pattern(LinkPattern)
        case table(RouteTable)
    }

    let patternSource: PatternSource

    /// The pattern that matched.
    public var pattern: LinkPattern? {
        switch patternSource {
        case .none: return nil
        case .pattern(let pattern): return pattern
        case .table(let table): return routeIndex.map { table.routes[$0].pattern }
        }
    }
    /// Only with `explain`: the parsed link, each candidate tried and why it was rejected, and the winner.
    public let trace: [String]

    /// A match from its parts.
    public init(
        result: Result<Page, LinkError>, routeIndex: Int? = nil, pattern: LinkPattern? = nil, trace: [String] = []
    ) {
        self.result = result
        self.routeIndex = routeIndex
        self.patternSource = pattern.map(PatternSource.pattern) ?? .none
        self.trace = trace
    }

    init(page: Page, routeIndex: Int, table: RouteTable, trace: [String]) {
        self.result = .success(page)
        self.routeIndex = routeIndex
        self.patternSource = .table(table)
        self.trace = trace
    }

    /// The page, when the link matched.
    public var page: Page? {
        if case .success(let page) = result { return page }
        return nil
    }

    /// The error, when the link did not match.
    public var error: LinkError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}
