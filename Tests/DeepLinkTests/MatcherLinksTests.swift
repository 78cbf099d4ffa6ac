import DeepLink
import Testing

/// ``Matcher/links(for:origin:)``: a page's link through each of its patterns, from any origin.
@Suite struct MatcherLinksTests {
    @Test func everyPatternOfThePageGivesALinkInDeclarationOrder() {
        let offer = page("cart.offer", [("id", .string("SUMMER"))])
        #expect(shopMatcher.links(for: offer) == ["shop://offers/SUMMER", "shop://promo/SUMMER"])
        #expect(shopMatcher.links(for: offer).first == shopMatcher.link(for: offer), "the first is the canonical one")
    }

    @Test func eachOriginWritesTheSamePath() {
        let order = page("account.order", [("id", .int(42))])
        #expect(
            shopMatcher.links(for: order, origin: .host("m.shop.example.com")) == [
                "https://m.shop.example.com/account/orders/42"
            ])
        #expect(shopMatcher.links(for: order, origin: .path) == ["/account/orders/42"])
        #expect(shopMatcher.canonicalOrigin == .scheme("shop"))
        let hostsOnly = Matcher(
            routes: makeRoutes(shopRows), policy: LinkPolicy(schemes: [], hosts: ["*.a.com", "a.com"]))
        #expect(hostsOnly.canonicalOrigin == .host("a.com"))
    }

    @Test func defaultsAreLeftOutAndArgumentsTheLinkCannotCarryGiveNoLink() {
        let category = page("catalog.category", [("slug", .string("shoes"))])
        #expect(shopMatcher.links(for: category) == ["shop://catalog/shoes"])
        #expect(shopMatcher.links(for: page("cart.offer", [("id", .string(""))])).isEmpty)
        #expect(shopMatcher.links(for: page("nowhere.page")).isEmpty)
    }

    /// A pattern a literal route shadows still gives its link: a corpus of links wants every link that may come.
    @Test func aShadowedPatternStillGivesItsLink() {
        let matcher = Matcher(
            routes: makeRoutes([("a.new", "new", "/items/new"), ("a.item", "item(id: String)", "/items/{id}")]),
            policy: shopPolicy)
        let shadowed = page("a.item", [("id", .string("new"))])
        #expect(matcher.link(for: shadowed) == nil)
        #expect(matcher.links(for: shadowed) == ["shop://items/new"])
    }
}
