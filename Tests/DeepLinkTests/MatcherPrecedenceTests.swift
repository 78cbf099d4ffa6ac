import DeepLink
import Foundation
import Testing

@Suite struct MatcherPrecedenceTests {
    let policy = LinkPolicy(schemes: ["shop"], hosts: ["shop.example.com"])

    func matcher(_ rows: [(String, String, String)]) -> Matcher { Matcher(routes: makeRoutes(rows), policy: policy) }

    @Test func shopLinksOpenTheirPages() {
        #expect(shopMatcher.match("shop://offers/SUMMER").page == page("cart.offer", [("id", .string("SUMMER"))]))
        #expect(shopMatcher.match("shop://promo/SUMMER").page == page("cart.offer", [("id", .string("SUMMER"))]))
        #expect(shopMatcher.match("https://shop.example.com/cart/checkout").page == page("cart.checkout"))
        #expect(shopMatcher.match("shop://catalog").page == page("catalog.home"))
        #expect(shopMatcher.match("shop://account/orders/42").page == page("account.order", [("id", .int(42))]))
        #expect(shopMatcher.match("shop://account/orders").page == page("account.orders"))
        let match = shopMatcher.match("shop://offers/SUMMER")
        #expect(match.routeIndex == 5)
        #expect(match.pattern?.text == "/offers/{id}")
        #expect(match.trace.isEmpty)
    }

    @Test func literalBeatsTypedBeatsStringBeatsCatchAll() {
        let m = matcher([
            ("p.rest", "rest(path: String)", "/products/{path...}"),
            ("p.slug", "slug(slug: String)", "/products/{slug}"),
            ("p.byID", "byID(id: Int)", "/products/{id}"),
            ("p.new", "new", "/products/new"),
        ])
        #expect(m.match("/products/new").page == page("p.new"))
        #expect(m.match("/products/42").page == page("p.byID", [("id", .int(42))]))
        #expect(m.match("/products/-7").page == page("p.byID", [("id", .int(-7))]))
        #expect(m.match("/products/shoes").page == page("p.slug", [("slug", .string("shoes"))]))
        #expect(m.match("/products/a/b/c").page == page("p.rest", [("path", .string("a/b/c"))]))
    }

    @Test func everyTypedParameterBeatsString() {
        let m = matcher([
            ("p.slug", "slug(slug: String)", "/t/{slug}"),
            ("p.flag", "flag(on: Bool)", "/t/{on}"),
            ("p.sorted", "sorted(by: Sort)", "/t/{by}"),
            ("p.ticket", "ticket(id: UUID)", "/t/{id}"),
        ])
        let uuid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        #expect(m.match("/t/true").page == page("p.flag", [("on", .bool(true))]))
        #expect(m.match("/t/rating").page == page("p.sorted", [("by", .enumCase("rating"))]))
        #expect(
            m.match("/t/\(uuid.lowercased())").page == page("p.ticket", [("id", .uuid(PageUUID(uuidString: uuid)!))]))
        #expect(m.match("/t/True").page == page("p.slug", [("slug", .string("True"))]))
        #expect(m.match("/t/\(uuid.dropLast())").page?.id == PageID("p.slug"))
    }

    @Test func catchAllNeedsAtLeastOneSegment() {
        let m = matcher([("h.article", "article(path: String)", "/help/{path...}"), ("h.index", "index", "/help")])
        #expect(m.match("/help").page == page("h.index"))
        #expect(m.match("/help/").page == page("h.index"))
        #expect(m.match("/help/a").page == page("h.article", [("path", .string("a"))]))
        #expect(m.match("/help/a%2Fb/c").page == page("h.article", [("path", .string("a/b/c"))]))
    }

    @Test func rootPatternMatchesTheEmptyPath() {
        let m = matcher([("a.home", "home", "/")])
        #expect(m.match("shop://").page == page("a.home"))
        #expect(m.match("https://shop.example.com/").page == page("a.home"))
        #expect(m.match("/x").error?.code == .noMatch)
    }

    @Test func sameShapeTiesGoToDeclarationOrder() {
        let m = matcher([("a.first", "first(x: String)", "/a/{x}"), ("a.second", "second(y: String)", "/a/{y}")])
        #expect(m.match("/a/1").page?.id == PageID("a.first"))
        #expect(m.match("/a/1").routeIndex == 0)
    }

    @Test func typedEdgesAreTriedInDeclarationOrder() {
        let m = matcher([("a.sorted", "sorted(by: Sort)", "/a/{by}"), ("a.count", "count(n: Int)", "/a/{n}")])
        #expect(m.match("/a/price").page?.id == PageID("a.sorted"))
        #expect(m.match("/a/3").page?.id == PageID("a.count"))
    }

    @Test func precedenceIsDecidedSegmentBySegmentFromTheLeft() {
        let m = matcher([
            ("a.section", "section(name: String)", "/{name}/new"),
            ("a.post", "post(slug: String)", "/blog/{slug}"),
        ])
        #expect(m.match("/blog/new").page == page("a.post", [("slug", .string("new"))]))
        #expect(m.match("/news/new").page == page("a.section", [("name", .string("news"))]))
    }

    @Test func failedConversionBacktracksToTheNextAlternative() {
        let m = matcher([
            ("a.edit", "edit(id: Int)", "/a/{id}/edit"),
            ("a.view", "view(slug: String)", "/a/{slug}/view"),
        ])
        #expect(m.match("/a/42/view").page == page("a.view", [("slug", .string("42"))]))
        #expect(m.match("/a/42/edit").page == page("a.edit", [("id", .int(42))]))
        #expect(m.match("/a/x/edit").error?.code == .noMatch)
    }

    @Test func literalThatLeadsNowhereFallsBackToAParameter() {
        let m = matcher([("a.special", "special", "/a/new/x"), ("a.item", "item(id: String)", "/a/{id}")])
        #expect(m.match("/a/new").page == page("a.item", [("id", .string("new"))]))
    }

    @Test(arguments: [
        "shop://account/orders/abc", "shop://account/orders/99999999999999999999", "shop://account/orders/4.2",
    ])
    func parameterThatDoesNotConvertIsNoMatch(link: String) {
        let error = shopMatcher.match(link).error
        #expect(error?.code == .noMatch)
        #expect(error?.reason == "no pattern matches '\(link)'")
    }

    @Test func queryBindingsAreOrderFreeWithDefaults() {
        let category = { (page: Int, sort: String) in
            DeepLink.Page(
                id: PageID("catalog.category")!,
                arguments: [
                    .init(label: "slug", value: .string("shoes")), .init(label: "page", value: .int(page)),
                    .init(label: "sort", value: .enumCase(sort)),
                ])
        }
        #expect(shopMatcher.match("shop://catalog/shoes").page == category(1, "price"))
        #expect(shopMatcher.match("shop://catalog/shoes?page=3").page == category(3, "price"))
        #expect(shopMatcher.match("shop://catalog/shoes?sort=rating&page=2").page == category(2, "rating"))
        #expect(shopMatcher.match("shop://catalog/shoes?page=2&sort=rating").page == category(2, "rating"))
        #expect(shopMatcher.match("shop://catalog/shoes?utm_source=push&page=2").page == category(2, "price"))
        #expect(shopMatcher.match("shop://catalog/shoes?page=2&page=5").page == category(2, "price"))
    }

    @Test func queryValueThatDoesNotConvertIsNoMatch() {
        #expect(shopMatcher.match("shop://catalog/shoes?page=two").error?.code == .noMatch)
        #expect(shopMatcher.match("shop://catalog/shoes?sort=cheapest").error?.code == .noMatch)
    }

    @Test func queryMismatchTriesTheNextRouteOfTheSameShape() {
        let m = matcher([
            ("s.byNumber", "byNumber(n: Int)", "/s?q={n}"),
            ("s.byText", "byText(text: String)", "/s?q={text}"),
        ])
        #expect(m.match("/s?q=12").page == page("s.byNumber", [("n", .int(12))]))
        #expect(m.match("/s?q=twelve").page == page("s.byText", [("text", .string("twelve"))]))
        #expect(m.match("/s").error?.code == .noMatch)
    }

    @Test func requiredQueryLabelMustBePresent() {
        let m = matcher([("s.search", "search(text: String, page: Int = 1)", "/search?q={text}&p={page}")])
        #expect(m.match("/search?q=a+b").page == page("s.search", [("text", .string("a b")), ("page", .int(1))]))
        #expect(m.match("/search?p=2").error?.code == .noMatch)
        #expect(m.match("/search?q=").page == page("s.search", [("text", .string("")), ("page", .int(1))]))
    }

    @Test func unboundLabelTakesItsDefault() {
        let m = matcher([("c.category", "category(slug: String, page: Int = 1)", "/c/{slug}")])
        #expect(m.match("/c/x?page=9").page == page("c.category", [("slug", .string("x")), ("page", .int(1))]))
    }

    @Test func routesThatTheValidatorWouldRejectNeverMatchWhereALabelIsMissing() {
        let m = matcher([("a.broken", "broken(id: String)", "/a/{other}"), ("a.ok", "ok", "/a/{x}/y")])
        #expect(m.match("/a/1").error?.code == .noMatch)
        #expect(m.match("/a/1/y").page == page("a.ok"))
    }

    @Test func rejectedLinksKeepTheirErrorCode() {
        #expect(shopMatcher.match("http://shop.example.com/cart").error?.code == .schemeNotAllowed)
        #expect(shopMatcher.match("https://evil.com/cart").error?.code == .hostNotAllowed)
        #expect(shopMatcher.match("shop://cart%zz").error?.code == .malformed)
        #expect(shopMatcher.match("shop://nowhere").error?.code == .noMatch)
    }

    @Test func wildcardHostLinksMatch() {
        let m = Matcher(
            routes: makeRoutes([("cart.cart", "cart", "/cart")]),
            policy: LinkPolicy(schemes: [], hosts: ["*.shop.example.com"]))
        #expect(m.match("https://eu.shop.example.com/cart").page == page("cart.cart"))
        #expect(m.match("https://shop.example.com/cart").error?.code == .hostNotAllowed)
    }

    @Test func matchingAParsedLinkGivesTheSamePage() throws {
        let link = try Link.parse("shop://catalog/running%20shoes?sort=rating", policy: shopPolicy)
        #expect(shopMatcher.match(link).page == shopMatcher.match("shop://catalog/running%20shoes?sort=rating").page)
    }

    @Test func longLiteralsAndManyRoutesMatchExactly() {
        var rows: [(String, String, String)] = []
        for i in 0..<2_000 {
            rows.append(("s\(i).long", "long", "/section-with-a-long-name-\(i)/and-another-long-literal"))
            rows.append(("s\(i).item", "item(id: Int)", "/section-with-a-long-name-\(i)/items/{id}"))
        }
        let m = matcher(rows)
        for i in stride(from: 0, to: 2_000, by: 97) {
            #expect(m.match("/section-with-a-long-name-\(i)/and-another-long-literal").page?.id == PageID("s\(i).long"))
            #expect(m.match("/section-with-a-long-name-\(i)/items/\(i)").page == page("s\(i).item", [("id", .int(i))]))
            #expect(m.match("/section-with-a-long-name-\(i)/and-another-long-literaL").error?.code == .noMatch)
        }
        #expect(m.match("/section-with-a-long-name-2000/items/1").error?.code == .noMatch)
    }

    @Test func emptyMatcherMatchesNothing() {
        let m = Matcher(routes: [], policy: policy)
        #expect(m.match("/a").error?.code == .noMatch)
        #expect(m.match("/").error?.code == .noMatch)
        #expect(m.diagnostics().isEmpty)
    }
}
