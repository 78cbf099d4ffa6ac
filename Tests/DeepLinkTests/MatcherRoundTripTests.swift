import DeepLink
import Foundation
import Testing

@Suite struct MatcherRoundTripTests {
    static let trickyStrings = [
        "SUMMER", "summer sale", "café ☕", "a/b", "100%", "a+b", "?&=#", "quote\"s", "日本語", "-", "~tilde.dot_",
        "%41", "emoji 🎉 ok", ".", "..",
    ]

    /// Every pattern of a table that covers all types, catch-all and query bindings, with awkward values.
    static let table: [(String, String, String)] =
        shopRows + [
            (
                "misc.search", "search(text: String, page: Int = 1, exact: Bool = false)",
                "/search?q={text}&p={page}&x={exact}"
            ),
            ("misc.pair", "pair(a: String, b: Int)", "/pair/{a}/{b}"),
            ("misc.sorted", "sorted(by: Sort, slug: String)", "/sorted/{by}/{slug}"),
            ("misc.root", "root", "/"),
        ]

    static let matcher = Matcher(routes: makeRoutes(table), policy: shopPolicy)

    static var pages: [Page] {
        let uuid = PageUUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        var pages: [Page] = [
            page("catalog.home"), page("cart.cart"), page("cart.checkout"), page("account.profile"),
            page("account.orders"), page("login.login"), page("misc.root"),
        ]
        for s in trickyStrings {
            pages.append(page("catalog.product", [("id", .string(s))]))
            pages.append(page("cart.offer", [("id", .string(s))]))
            pages.append(
                page("catalog.category", [("slug", .string(s)), ("page", .int(2)), ("sort", .enumCase("rating"))]))
            pages.append(page("misc.search", [("text", .string(s)), ("page", .int(1)), ("exact", .bool(true))]))
            pages.append(page("misc.pair", [("a", .string(s)), ("b", .int(-5))]))
            pages.append(page("misc.sorted", [("by", .enumCase("price")), ("slug", .string(s))]))
        }
        for n in [0, -1, 42, Int.max, Int.min] {
            pages.append(page("account.order", [("id", .int(n))]))
            pages.append(page("payment.pay", [("order", .int(n))]))
        }
        for path in ["a", "a/b", "docs/getting started/intro.md", "ü/%/+"] {
            pages.append(page("help.article", [("path", .string(path))]))
        }
        pages.append(page("tickets.ticket", [("id", .uuid(uuid)), ("open", .bool(false))]))
        pages.append(page("tickets.ticket", [("id", .uuid(uuid)), ("open", .bool(true))]))
        return pages
    }

    @Test(arguments: pages)
    func linkToPageToLinkToPageRoundTrips(page: Page) throws {
        guard let link = Self.matcher.link(for: page) else {
            // A path segment "." or ".." is resolved away, as a browser does: no link carries it in a path.
            let dotSegment = page.arguments.contains { $0.value == .string(".") || $0.value == .string("..") }
            #expect(dotSegment && page.id.name != "search", "\(page) has no link")
            return
        }
        let matched = Self.matcher.match(link)
        #expect(matched.page == page, "\(link)")
        #expect(Self.matcher.link(for: try #require(matched.page)) == link)
    }

    @Test func everyPatternIsUsedByTheRoundTrip() {
        var used = Set<Int>()
        for page in Self.pages {
            guard let link = Self.matcher.link(for: page), let index = Self.matcher.match(link).routeIndex else {
                continue
            }
            used.insert(index)
        }
        // `/promo/{id}` is the offer's second pattern: reached only when the first cannot carry the value.
        let promo = Self.matcher.routes.firstIndex { $0.pattern.text == "/promo/{id}" }
        #expect(used.union([promo!]) == Set(Self.matcher.routes.indices))
    }

    @Test func canonicalLinksUseTheFirstSchemeAndOmitDefaults() {
        let category = page(
            "catalog.category", [("slug", .string("running shoes")), ("page", .int(1)), ("sort", .enumCase("price"))])
        #expect(shopMatcher.link(for: category) == "shop://catalog/running%20shoes")
        let sorted = page(
            "catalog.category", [("slug", .string("shoes")), ("page", .int(3)), ("sort", .enumCase("rating"))])
        #expect(shopMatcher.link(for: sorted) == "shop://catalog/shoes?page=3&sort=rating")
        #expect(shopMatcher.link(for: page("cart.offer", [("id", .string("SUMMER"))])) == "shop://offers/SUMMER")
        #expect(shopMatcher.link(for: page("cart.offer", [("id", .string("a/b c"))])) == "shop://offers/a%2Fb%20c")
        #expect(shopMatcher.link(for: page("help.article", [("path", .string("a b/c"))])) == "shop://help/a%20b/c")
    }

    @Test func universalLinkWhenThereIsNoCustomScheme() {
        let https = Matcher(
            routes: makeRoutes(shopRows), policy: LinkPolicy(schemes: [], hosts: ["*.example.com", "www.example.com"]))
        #expect(https.link(for: page("cart.offer", [("id", .string("X"))])) == "https://www.example.com/offers/X")
        let bare = Matcher(routes: makeRoutes(shopRows), policy: LinkPolicy(schemes: [], hosts: ["*.example.com"]))
        #expect(bare.link(for: page("cart.offer", [("id", .string("X"))])) == "/offers/X")
        #expect(bare.link(for: page("catalog.home")) == "/catalog")
    }

    @Test func missingArgumentsTakeTheirDefaults() {
        #expect(shopMatcher.link(for: page("catalog.category", [("slug", .string("x"))])) == "shop://catalog/x")
        #expect(shopMatcher.link(for: page("catalog.product")) == nil)
    }

    @Test func unknownPagesAndWrongTypesHaveNoLink() {
        #expect(shopMatcher.link(for: page("cart.nothing")) == nil)
        #expect(shopMatcher.link(for: page("account.order", [("id", .string("abc"))])) == nil)
    }

    @Test func emptyValueFallsBackToAPatternThatCanCarryIt() {
        let m = Matcher(
            routes: makeRoutes([
                ("s.search", "search(text: String)", "/search/{text}"),
                ("s.search", "search(text: String)", "/search?q={text}"),
            ]), policy: shopPolicy)
        #expect(m.link(for: page("s.search", [("text", .string(""))])) == "shop://search?q=")
        #expect(m.link(for: page("s.search", [("text", .string("x"))])) == "shop://search/x")
    }

    @Test func valueThatALiteralRouteWouldTakeUsesTheNextPattern() {
        let m = Matcher(
            routes: makeRoutes([
                ("c.checkout", "checkout", "/cart/checkout"),
                ("c.item", "item(id: String)", "/cart/{id}"),
                ("c.item", "item(id: String)", "/item/{id}"),
            ]), policy: shopPolicy)
        #expect(m.link(for: page("c.item", [("id", .string("checkout"))])) == "shop://item/checkout")
        #expect(m.link(for: page("c.item", [("id", .string("shoes"))])) == "shop://cart/shoes")
    }
}
