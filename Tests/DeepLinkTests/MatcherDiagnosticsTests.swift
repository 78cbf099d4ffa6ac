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
        #expect(found.first?.message.contains("'/a/{y}' of a.two (route 2)") == true)
        #expect(found.first?.message.contains("'/a/{x}' of a.one (route 0)") == true)
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

    @Test func manyRoutesAreAnalysedQuickly() {
        var rows: [(String, String, String)] = []
        for i in 0..<5_000 { rows.append(("s\(i).item", "item(id: Int)", "/s\(i)/items/{id}")) }
        rows.append(("dup.item", "item(n: Int)", "/s4999/items/{n}"))
        let found = diagnostics(rows)
        #expect(found.map(\.route) == [5_000])
        #expect(found.map(\.earlierRoute) == [4_999])
    }
}
