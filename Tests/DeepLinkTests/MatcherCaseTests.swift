import DeepLink
import Testing

/// Case-insensitive paths, opted into per app, in the spirit of RoutingKit's case-insensitive `TrieRouter`:
/// literal path text matches whatever the case of its ASCII letters, parameters keep the link's text. Off by
/// default. The cases are written from its documented behaviour.
@Suite struct MatcherCaseTests {
    static let rows: [(String, String, String)] = [
        ("cart.checkout", "checkout", "/Cart/checkout"),
        ("catalog.product", "product(id: String)", "/products/{id}"),
        ("catalog.sorted", "sorted(by: Sort)", "/sorted/{by}"),
        ("api.status", "status(version: Int)", "/v{version}/Status.json"),
        ("catalog.search", "search(q: String = \"\")", "/search?Q={q}"),
        ("cafe.home", "home", "/caf%C3%A9"),
    ]
    let insensitive = Matcher(
        routes: makeRoutes(rows),
        policy: LinkPolicy(schemes: ["shop"], hosts: ["shop.example.com"], caseInsensitivePaths: true))
    let sensitive = Matcher(routes: makeRoutes(rows), policy: shopPolicy)

    @Test func literalsMatchWhateverTheCaseOfTheirLetters() {
        for link in ["/cart/checkout", "/CART/CHECKOUT", "/Cart/Checkout", "/cArT/%43heckout"] {
            #expect(insensitive.match(link).page == page("cart.checkout"), "\(link)")
        }
        #expect(insensitive.match("/V2/status.JSON").page == page("api.status", [("version", .int(2))]))
        #expect(sensitive.match("/cart/checkout").page == nil, "off by default: only '/Cart/checkout' matches")
        #expect(sensitive.match("/Cart/checkout").page == page("cart.checkout"))
    }

    @Test func parametersKeepTheLinksTextAndEnumCasesAndQueryKeysStayExact() {
        #expect(insensitive.match("/PRODUCTS/AbC").page == page("catalog.product", [("id", .string("AbC"))]))
        #expect(insensitive.match("/SORTED/rating").page == page("catalog.sorted", [("by", .enumCase("rating"))]))
        #expect(insensitive.match("/sorted/Rating").page == nil)
        #expect(insensitive.match("/search?Q=x").page == page("catalog.search", [("q", .string("x"))]))
        #expect(insensitive.match("/search?q=x").page == page("catalog.search", [("q", .string(""))]))
    }

    /// Only ASCII letters fold: `É` and `é` stay two different letters.
    @Test func onlyASCIILettersFold() {
        #expect(insensitive.match("/CAF%C3%A9").page == page("cafe.home"))
        #expect(insensitive.match("/CAF%C3%89").page == nil)
    }

    @Test func linksAreWrittenAsThePatternWritesThem() {
        #expect(insensitive.link(for: page("cart.checkout")) == "shop://Cart/checkout")
        #expect(insensitive.link(for: page("api.status", [("version", .int(3))])) == "shop://v3/Status.json")
    }

    @Test func patternsThatDifferOnlyByCaseAreIdenticalWhenPathsIgnoreCase() {
        let rows = [
            ("a.one", "one", "/Cart"), ("a.two", "two", "/cart"), ("a.v", "v(n: Int)", "/V{n}"),
            ("a.w", "w(n: Int)", "/v{n}"),
        ]
        let policy = LinkPolicy(schemes: ["shop"], hosts: [], caseInsensitivePaths: true)
        #expect(
            Matcher(routes: makeRoutes(rows), policy: policy).diagnostics().map(\.kind) == [.identical, .identical])
        #expect(Matcher(routes: makeRoutes(rows), policy: shopPolicy).diagnostics().isEmpty)
    }
}
