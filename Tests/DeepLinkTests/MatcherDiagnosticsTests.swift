import DeepLink
import Testing

@Suite struct MatcherDiagnosticsTests {
    func diagnostics(_ rows: [(String, String, String)]) -> [PatternDiagnostic] {
        Matcher(routes: makeRoutes(rows), policy: shopPolicy).diagnostics()
    }

    @Test func shopTableIsClean() {
        #expect(shopMatcher.diagnostics().isEmpty)
    }

    @Test func identicalShapesAreAnErrorNamingBothRoutes() {
        let found = diagnostics([
            ("a.one", "one(x: String)", "/a/{x}"),
            ("a.other", "other", "/b"),
            ("a.two", "two(y: String)", "/a/{y}"),
        ])
        #expect(found.count == 1)
        #expect(found.first?.kind == .identical)
        #expect(found.first?.severity == .error)
        #expect(found.first?.route == 2)
        #expect(found.first?.earlierRoute == 0)
        #expect(
            found.first?.message
                == "pattern '/a/{y}' of a.two has the same shape as '/a/{x}' of a.one; remove one or make them differ")
        #expect(found.first?.description.hasPrefix("error: ") == true)
    }

    @Test func queryKeysInAnotherOrderAreStillIdentical() {
        let found = diagnostics([
            ("a.one", "one(p: Int = 1, s: Sort = price)", "/a?p={p}&s={s}"),
            ("a.two", "two(s: Sort = price, p: Int = 1)", "/a?s={s}&p={p}"),
        ])
        #expect(found.map(\.kind) == [.identical])
    }

    @Test func differentParameterTypesAreNotIdentical() {
        #expect(diagnostics([("a.n", "n(x: Int)", "/a/{x}"), ("a.s", "s(x: String)", "/a/{x}")]).isEmpty)
        #expect(diagnostics([("a.n", "n(x: Int)", "/a/{x}"), ("a.s", "s(x: Int)", "/a/{x...}")]).isEmpty)
        #expect(diagnostics([("a.l", "l", "/a/b"), ("a.s", "s(x: String)", "/a/{x}")]).isEmpty)
    }

    @Test func laterRouteWithExtraOptionalQueryIsShadowed() {
        let found = diagnostics([
            ("a.plain", "plain", "/a"),
            ("a.tagged", "tagged(tag: String = \"\")", "/a?tag={tag}"),
        ])
        #expect(found.map(\.kind) == [.shadowed])
        #expect(found.first?.severity == .warning)
        #expect(found.first?.route == 1)
        #expect(found.first?.earlierRoute == 0)
        #expect(found.first?.message.contains("never matches") == true)
    }

    @Test func laterRouteWithRequiredTypedQueryIsShadowedByAnOptionalString() {
        let found = diagnostics([
            ("a.any", "any(q: String = \"\")", "/s?q={q}"),
            ("a.number", "number(n: Int, m: Int)", "/s?q={n}&p={m}"),
        ])
        #expect(found.map(\.kind) == [.shadowed])
    }

    @Test func typedEarlierQueryDoesNotShadowAStringOne() {
        #expect(
            diagnostics([
                ("s.byNumber", "byNumber(n: Int)", "/s?q={n}"),
                ("s.byText", "byText(text: String)", "/s?q={text}"),
            ]).isEmpty)
    }

    @Test func earlierRouteWithARequiredKeyDoesNotShadowOneWithoutIt() {
        #expect(
            diagnostics([
                ("a.tagged", "tagged(tag: String)", "/a?tag={tag}"),
                ("a.plain", "plain", "/a"),
            ]).isEmpty)
    }

    @Test func earlierTypedOptionalKeyDoesNotShadowARouteThatIgnoresIt() {
        #expect(
            diagnostics([
                ("a.paged", "paged(page: Int = 1)", "/a?page={page}"),
                ("a.plain", "plain", "/a"),
            ]).isEmpty)
    }

    // MARK: Shadowing through enums of overlapping cases

    static let enumTypes: [String: [String]] = [
        "Sort": ["price", "rating"], "Order": ["price", "rating"], "Wide": ["price", "rating", "newest"],
    ]

    func enumMatcher(_ rows: [(String, String, String)]) -> Matcher {
        Matcher(routes: makeRoutes(rows, types: Self.enumTypes), policy: shopPolicy)
    }

    @Test func enumWhoseCasesAreAllInAnEarlierEnumIsShadowed() {
        let matcher = enumMatcher([("s.x", "x(s: Sort)", "/p/{s}"), ("s.y", "y(o: Order)", "/p/{o}")])
        let found = matcher.diagnostics()
        #expect(found.map(\.kind) == [.shadowed])
        #expect(found.first?.route == 1)
        #expect(found.first?.earlierRoute == 0)
        #expect(
            found.first?.message
                == "pattern '/p/{o}' of s.y never matches: '/p/{s}' of s.x takes every link it matches, because every "
                + "case of Order is also a case of Sort, which is tried first; make the patterns differ by a literal "
                + "segment")
        // The warning is right: the later page cannot be reached.
        #expect(matcher.match("/p/price").result.map(\.id.description) == .success("s.x"))
        #expect(matcher.match("/p/rating").result.map(\.id.description) == .success("s.x"))
    }

    @Test func enumWithACaseTheEarlierOneLacksIsNotShadowed() {
        #expect(enumMatcher([("s.x", "x(s: Sort)", "/p/{s}"), ("s.y", "y(w: Wide)", "/p/{w}")]).diagnostics().isEmpty)
        let wideFirst = enumMatcher([("s.y", "y(w: Wide)", "/p/{w}"), ("s.x", "x(s: Sort)", "/p/{s}")])
        #expect(wideFirst.diagnostics().map(\.kind) == [.shadowed])
    }

    @Test func enumShadowingLooksAtTheRestOfThePath() {
        // The earlier pattern accepts everything after the enum segment: shadowed.
        let wider = enumMatcher([
            ("s.x", "x(s: Sort, rest: String)", "/p/{s}/{rest}"), ("s.y", "y(o: Order)", "/p/{o}/info"),
        ])
        #expect(wider.diagnostics().map(\.route) == [1])
        #expect(wider.match("/p/price/info").result.map(\.id.description) == .success("s.x"))
        // The earlier pattern accepts less after it: both match some links.
        let narrower = enumMatcher([
            ("s.x", "x(s: Sort)", "/p/{s}/info"), ("s.y", "y(o: Order, rest: String)", "/p/{o}/{rest}"),
        ])
        #expect(narrower.diagnostics().isEmpty)
        // Different lengths never shadow each other.
        #expect(
            enumMatcher([("s.x", "x(s: Sort)", "/p/{s}"), ("s.y", "y(o: Order, n: Int)", "/p/{o}/{n}")])
                .diagnostics().isEmpty)
    }

    @Test func enumBranchCreatedEarlierIsTriedFirst() {
        // The Order branch of /p exists before the Sort one (route 0), so /p/price tries /p/{o} (route 2) before
        // /p/{s} (route 1): route 2 is reachable and no warning is given.
        let matcher = enumMatcher([
            ("s.first", "first(o: Order)", "/p/{o}/x"), ("s.sort", "sort(s: Sort)", "/p/{s}"),
            ("s.order", "order(o: Order)", "/p/{o}"),
        ])
        #expect(matcher.diagnostics().isEmpty)
        #expect(matcher.match("/p/price").result.map(\.id.description) == .success("s.order"))
    }

    @Test func enumShadowingRespectsTheEarlierQuery() {
        #expect(
            enumMatcher([("s.x", "x(s: Sort, q: Int)", "/p/{s}?q={q}"), ("s.y", "y(o: Order)", "/p/{o}")])
                .diagnostics().isEmpty)
    }

    @Test func manyRoutesAreAnalysedQuickly() {
        var rows: [(String, String, String)] = []
        for i in 0..<5_000 { rows.append(("s\(i).item", "item(id: Int)", "/s\(i)/items/{id}")) }
        rows.append(("dup.item", "item(n: Int)", "/s4999/items/{n}"))
        let found = diagnostics(rows)
        #expect(found.map(\.route) == [5_000])
        #expect(found.map(\.earlierRoute) == [4_999])
    }
}
