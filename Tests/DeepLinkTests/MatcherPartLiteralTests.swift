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

/// Several parameters in one segment, each two separated by literal text, as Android Navigation's deep links allow
/// (`/p/{slug}-{id}.html`, `/{year}-{month}-{day}`). Each parameter but the last takes the shortest non-empty text up
/// to the first following occurrence of its separator, the last the rest; a piece that does not convert is no
/// match, without trying another split.
@Suite struct MatcherSeveralPartsTests {
    let matcher = Matcher(
        routes: makeRoutes([
            ("catalog.product", "product(slug: String, id: Int)", "/p/{slug}-{id}.html"),
            ("catalog.page", "page(name: String)", "/p/{name}.html"),
            ("news.day", "day(year: Int, month: Int, day: Int)", "/{year}-{month}-{day}"),
            ("docs.pair", "pair(a: String, b: String)", "/d/{a}_{b}"),
            ("docs.slug", "slug(s: String)", "/d/{s}"),
            ("docs.item", "item(n: Int, by: Sort)", "/i/v{n}.{by}"),
            ("docs.overlap", "overlap(a: String, b: String)", "/o/{a}aa{b}"),
        ]),
        policy: shopPolicy)

    @Test func eachParameterTakesTheTextUpToItsSeparator() {
        #expect(
            matcher.match("/p/shoes-42.html").page
                == page("catalog.product", [("slug", .string("shoes")), ("id", .int(42))]))
        #expect(
            matcher.match("/2024-05-07").page
                == page("news.day", [("year", .int(2024)), ("month", .int(5)), ("day", .int(7))]))
        #expect(matcher.match("/d/a_b").page == page("docs.pair", [("a", .string("a")), ("b", .string("b"))]))
        #expect(matcher.match("/i/v3.rating").page == page("docs.item", [("n", .int(3)), ("by", .enumCase("rating"))]))
        #expect(
            matcher.match("/d/%C3%A9_x%20y").page == page("docs.pair", [("a", .string("é")), ("b", .string("x y"))]))
    }

    /// The first occurrence of the separator ends the piece; the last parameter takes the rest, separators and all.
    @Test func theFirstOccurrenceSplitsAndTheLastTakesTheRest() {
        #expect(matcher.match("/d/a_b_c").page == page("docs.pair", [("a", .string("a")), ("b", .string("b_c"))]))
        // A piece is never empty: a separator at its start belongs to it (a negative number stays whole).
        #expect(
            matcher.match("/-1-2-3").page
                == page("news.day", [("year", .int(-1)), ("month", .int(2)), ("day", .int(3))]))
        #expect(matcher.match("/o/xaaay").page == page("docs.overlap", [("a", .string("x")), ("b", .string("ay"))]))
    }

    /// `running-shoes-42.html` splits as `running` and `shoes-42`, which is no Int: no match there, and no retry
    /// with `running-shoes` and `42`; the next candidate of the segment takes it.
    @Test func aPieceThatDoesNotConvertIsNoMatchWithoutRetrying() {
        #expect(
            matcher.match("/p/running-shoes-42.html").page
                == page("catalog.page", [("name", .string("running-shoes-42"))]))
        #expect(matcher.match("/2024-xx-07").page == nil)
        #expect(matcher.match("/2024-05").page == nil)
        #expect(matcher.match("/i/v3.5.rating").page == nil)
        #expect(matcher.match("/i/vx.rating").page == nil)
    }

    /// A part-literal segment is tried before a plain parameter of the same place; when the segment lacks a
    /// separator or a piece would be empty, the plain parameter takes it.
    @Test func precedenceAgainstAPlainParameter() {
        #expect(matcher.match("/d/ab").page == page("docs.slug", [("s", .string("ab"))]))
        #expect(matcher.match("/d/_a").page == page("docs.slug", [("s", .string("_a"))]))
        #expect(matcher.match("/d/a_").page == page("docs.slug", [("s", .string("a_"))]))
        #expect(matcher.match("/p/shoes.html").page == page("catalog.page", [("name", .string("shoes"))]))
    }

    @Test func eachValueIsPrintedWithItsSeparator() {
        let product = page("catalog.product", [("slug", .string("shoes")), ("id", .int(42))])
        #expect(matcher.link(for: product) == "shop://p/shoes-42.html")
        #expect(matcher.link(for: page("docs.pair", [("a", .string("x")), ("b", .string("y_z"))])) == "shop://d/x_y_z")
        for page in [
            product, page("news.day", [("year", .int(-1)), ("month", .int(2)), ("day", .int(3))]),
            page("docs.pair", [("a", .string("a b")), ("b", .string("_"))]),
            page("docs.overlap", [("a", .string("x")), ("b", .string("ay"))]),
        ] {
            #expect(matcher.link(for: page).flatMap { matcher.match($0).page } == page)
        }
    }

    /// A value holding its following separator would read back split elsewhere: that pattern cannot carry it, so no
    /// link is printed through it (nor listed).
    @Test func aValueHoldingItsSeparatorIsNotPrinted() {
        let shoes = page("catalog.product", [("slug", .string("running-shoes")), ("id", .int(42))])
        #expect(matcher.link(for: shoes) == nil)
        #expect(matcher.links(for: shoes).isEmpty)
        #expect(matcher.link(for: page("docs.pair", [("a", .string("x_y")), ("b", .string("z"))])) == nil)
        // `xa` then `aa`: the first `aa` starts inside the value.
        #expect(matcher.link(for: page("docs.overlap", [("a", .string("xa")), ("b", .string("y"))])) == nil)
        #expect(matcher.link(for: page("docs.pair", [("a", .string("")), ("b", .string("z"))])) == nil)
    }

    @Test func explainNamesThePieceThatDidNotConvert() {
        let trace = matcher.match("/p/x-y.html", explain: true).trace
        #expect(trace.contains("/p/{slug}-{id}.html: 'y' is not an Int"))
        let missing = matcher.match("/i/v3rating", explain: true).trace
        #expect(missing.contains("/i/v{n}.{by}: 'v3rating' is not v{…}.{…}"))
    }

    @Test func validationFindsSeveralPartsThatAnEarlierSegmentTakes() {
        let found = Matcher(
            routes: makeRoutes([
                ("a.any", "any(s: String)", "/v{s}"), ("a.two", "two(a: Int, b: Int)", "/v{a}-{b}"),
                ("a.w", "w(a: Int, b: Int)", "/w{a}-{b}"), ("a.same", "same(c: Int, d: Int)", "/w{c}-{d}"),
                ("a.dot", "dot(a: Int, b: Int)", "/w{a}.{b}"), ("a.double", "double(a: Double, b: Int)", "/x{a}-{b}"),
                ("a.int", "int(a: Int, b: Int)", "/x{a}-{b}"),
            ]),
            policy: shopPolicy
        ).diagnostics()
        #expect(found.map(\.kind) == [.shadowed, .identical, .shadowed])
        #expect(found.map(\.route) == [1, 3, 6])
        #expect(
            found.last?.message.contains("every segment 'x{Int}-{Int}' takes is also taken by 'x{Double}-{Int}'")
                == true)
    }
}
