import DeepLink
import Testing

/// Part-literal segments: literal text around one parameter in a segment, as Android Navigation's deep links allow
/// (`example.com/users/{id}.json`, `v{version}`) and as profile links write users (`@{user}`). The cases are written
/// from their documented behaviour, not copied.
@Suite struct MatcherPartLiteralTests {
    let matcher = Matcher(
        routes: makeRoutes([
            ("profile.user", "user(name: String)", "/@{name}"),
            ("api.status", "status(version: Int)", "/v{version}/status"),
            ("api.beta", "beta(tag: String)", "/v{tag}/status"),
            ("catalog.page", "page(id: Int)", "/p/{id}.html"),
            ("catalog.doc", "doc(name: String)", "/p/{name}.html"),
            ("catalog.slug", "slug(s: String)", "/p/{s}"),
            ("catalog.sale", "sale", "/p/sale.html"),
            ("catalog.sorted", "sorted(by: Sort)", "/p/{by}"),
        ]),
        policy: shopPolicy)

    @Test func theParameterIsTheTextBetweenThePrefixAndTheSuffix() {
        #expect(matcher.match("/@ann").page == page("profile.user", [("name", .string("ann"))]))
        #expect(matcher.match("/%40ann%20b").page == page("profile.user", [("name", .string("ann b"))]))
        #expect(matcher.match("/v2/status").page == page("api.status", [("version", .int(2))]))
        #expect(matcher.match("/p/42.html").page == page("catalog.page", [("id", .int(42))]))
        #expect(matcher.match("/p/about.html").page == page("catalog.doc", [("name", .string("about"))]))
    }

    /// Precedence at a segment: a literal, then part-literal segments (in declaration order), then typed
    /// parameters, then a `String` parameter.
    @Test func aLiteralBeatsAPartLiteralWhichBeatsAPlainParameter() {
        #expect(matcher.match("/p/sale.html").page == page("catalog.sale"))
        #expect(matcher.match("/p/rating.html").page == page("catalog.doc", [("name", .string("rating"))]))
        #expect(matcher.match("/p/rating").page == page("catalog.sorted", [("by", .enumCase("rating"))]))
        #expect(matcher.match("/vnext/status").page == page("api.beta", [("tag", .string("next"))]))
    }

    @Test func theTextBetweenMayNotBeEmpty() {
        #expect(matcher.match("/@").page == nil)
        #expect(matcher.match("/p/.html").page == page("catalog.slug", [("s", .string(".html"))]))
        #expect(matcher.match("/v/status").page == nil)
    }

    @Test func thePrefixAndSuffixArePrintedAroundTheValue() {
        #expect(matcher.link(for: page("profile.user", [("name", .string("ann b"))])) == "shop://@ann%20b")
        #expect(matcher.link(for: page("catalog.page", [("id", .int(7))])) == "shop://p/7.html")
        #expect(matcher.link(for: page("profile.user", [("name", .string(""))])) == nil)
        #expect(matcher.link(for: page("catalog.doc", [("name", .string("sale"))])) == nil, "the literal wins")
        for page in [page("api.status", [("version", .int(-3))]), page("api.beta", [("tag", .string("x y"))])] {
            #expect(matcher.link(for: page).flatMap { matcher.match($0).page } == page)
        }
    }

    @Test func explainSaysWhichSegmentDidNotHaveTheText() {
        let trace = matcher.match("/vx/other", explain: true).trace
        #expect(trace.contains("/v{version}/status: 'x' is not an Int"))
        let at = matcher.match("/p/x.htm", explain: true).trace
        #expect(at.contains("/p/{id}.html: 'x.htm' is not {…}.html"))
    }

    @Test func validationFindsAPartLiteralThatAnEarlierOneShadows() {
        let found = Matcher(
            routes: makeRoutes([
                ("a.any", "any(s: String)", "/v{s}"), ("a.one", "one(n: Int)", "/v1{n}"),
                ("a.same", "same(t: String)", "/v{t}"), ("a.int", "int(n: Int)", "/v{n}"),
            ]),
            policy: shopPolicy
        ).diagnostics()
        #expect(found.map(\.kind) == [.shadowed, .identical, .shadowed])
        #expect(found.map(\.route) == [1, 2, 3])
        #expect(found.first?.message.contains("every segment 'v1{Int}' takes is also taken by 'v{String}'") == true)
    }
}
