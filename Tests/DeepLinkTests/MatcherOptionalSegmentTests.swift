import DeepLink
import Testing

/// Optional last path segments, `/search/{q?}`, in the spirit of React Navigation's `search/:q?` path config and
/// Android Navigation's optional arguments with a `defaultValue`: one pattern for both paths, the label taking its
/// default when the link leaves the segment out. The cases are written from their documented behaviour.
@Suite struct MatcherOptionalSegmentTests {
    let matcher = Matcher(
        routes: makeRoutes([
            ("catalog.search", "search(q: String = \"\", page: Int = 1)", "/search/{q?}?page={page}"),
            ("catalog.new", "new", "/search/new"),
            ("account.orders", "orders(year: Int = 2026)", "/orders/{year?}"),
        ]),
        policy: shopPolicy)

    func search(_ q: String = "", page: Int = 1) -> Page {
        catalogSearch(q, page)
    }

    func catalogSearch(_ q: String, _ page: Int) -> Page {
        DeepLinkTests.page("catalog.search", [("q", .string(q)), ("page", .int(page))])
    }

    @Test func theSegmentMayBeLeftOutAndTheLabelTakesItsDefault() {
        #expect(matcher.match("/search").page == search())
        #expect(matcher.match("/search/").page == search(), "a trailing slash is ignored, as everywhere")
        #expect(matcher.match("/search/shoes?page=2").page == search("shoes", page: 2))
        #expect(matcher.match("/search?page=3").page == search(page: 3))
        #expect(matcher.match("/orders").page == page("account.orders", [("year", .int(2026))]))
        #expect(matcher.match("/orders/2024").page == page("account.orders", [("year", .int(2024))]))
        #expect(matcher.match("/orders/last").page == nil, "a segment that is there must convert")
        #expect(matcher.match("/search/a/b").page == nil, "it stands for one segment at most")
    }

    @Test func aLiteralStillBeatsTheOptionalParameter() {
        #expect(matcher.match("/search/new").page == page("catalog.new"))
    }

    @Test func theSegmentAtItsDefaultIsLeftOutOfTheLink() {
        #expect(matcher.link(for: search()) == "shop://search")
        #expect(matcher.link(for: search("running shoes")) == "shop://search/running%20shoes")
        #expect(matcher.link(for: search(page: 2)) == "shop://search?page=2")
        #expect(matcher.link(for: page("account.orders", [("year", .int(2026))])) == "shop://orders")
        // `new` opens the literal page: no link of this pattern opens the search for it.
        #expect(matcher.link(for: search("new")) == nil)
        for page in [search(), search("x", page: 4), self.page("account.orders", [("year", .int(-1))])] {
            #expect(matcher.link(for: page).flatMap { matcher.match($0).page } == page)
        }
    }

    func page(_ id: String, _ arguments: [(String, Value)] = []) -> Page { DeepLinkTests.page(id, arguments) }

    @Test func oneRouteNotTwo() {
        #expect(matcher.routes.count == 3)
        #expect(matcher.match("/search").routeIndex == matcher.match("/search/x").routeIndex)
        #expect(matcher.diagnostics().isEmpty, "the two paths of one pattern are not two identical patterns")
    }

    @Test func validationFindsWhatTheShorterPathCollidesWith() {
        let later = Matcher(
            routes: makeRoutes([
                ("a.list", "list(q: String = \"\")", "/items/{q?}"), ("a.all", "all", "/items"),
            ]),
            policy: shopPolicy
        ).diagnostics()
        #expect(later.map(\.kind) == [.identical], "'/items' after '/items/{q?}' never matches")
        let earlier = Matcher(
            routes: makeRoutes([
                ("a.all", "all", "/items"), ("a.list", "list(q: String = \"\")", "/items/{q?}"),
            ]),
            policy: shopPolicy
        ).diagnostics()
        #expect(earlier.map(\.kind) == [.shadowed])
        #expect(earlier.first?.message.contains("never matches a link without its optional segment") == true)
    }

    @Test func theOptionalSegmentIsLastHasADefaultAndIsNoCatchAll() throws {
        #expect(throws: PatternError.self) { try LinkPattern.parse("/a/{q?}/b") }
        #expect(throws: PatternError.self) { try LinkPattern.parse("/a/{rest...?}") }
        #expect(throws: PatternError.self) { try LinkPattern.parse("/a?x={q?}") }
        let pattern = try LinkPattern.parse("/a/{q?}")
        #expect(pattern.optionalName == "q")
        #expect(pattern.segments == [.literal("a"), .parameter("q")])
        let declaration = try CaseDeclaration.parse("a(q: String)", types: [:])
        let problems = pattern.check(against: declaration)
        #expect(problems.map(\.code) == [.unboundLabel])
        #expect(problems.first?.reason.contains("needs a default") == true)
    }
}
