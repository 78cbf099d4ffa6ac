import DeepLink
import Testing

@Suite struct MatcherSmokeTests {
    @Test func shopLinksOpenTheirPages() {
        #expect(shopMatcher.match("shop://offers/SUMMER").page == page("cart.offer", [("id", .string("SUMMER"))]))
        #expect(shopMatcher.match("https://shop.example.com/cart/checkout").page == page("cart.checkout"))
        let m = shopMatcher.match("shop://catalog/shoes?sort=rating", explain: true)
        print(m.trace)
        #expect(
            m.page
                == page("catalog.category", [("slug", .string("shoes")), ("page", .int(1)), ("sort", .enumCase("rating"))]))
        print(shopMatcher.match("shop://account/orders/abc", explain: true).trace)
        print(shopMatcher.link(for: m.page!) as Any)
    }
}
