import DeepLink
import Testing

@Suite struct MatcherExplainTests {
    @Test func traceNamesTheCandidateAndWhyItWasRejected() {
        let match = shopMatcher.match("shop://account/orders/abc", explain: true)
        #expect(match.error?.code == .noMatch)
        #expect(match.trace.first == "link scheme 'shop' path /account/orders/abc")
        #expect(match.trace.contains("/account/orders/{id}: 'abc' is not an Int"))
        #expect(match.trace.last == "no match: no pattern matches 'shop://account/orders/abc'")
    }

    @Test func traceEndsWithTheWinner() {
        let match = shopMatcher.match("https://shop.example.com/offers/SUMMER", explain: true)
        #expect(match.trace.first == "link host 'shop.example.com' path /offers/SUMMER")
        #expect(match.trace.last == "/offers/{id}: matched cart.offer(id: \"SUMMER\")")
    }

    @Test func traceIsEmptyWithoutExplain() {
        #expect(shopMatcher.match("shop://account/orders/abc").trace.isEmpty)
        #expect(shopMatcher.match("http://x").trace.isEmpty)
    }

    @Test func traceTellsWhyALinkWasRejected() {
        let match = shopMatcher.match("http://shop.example.com/cart", explain: true)
        #expect(
            match.trace == [
                "link rejected: schemeNotAllowed: 'http:' links are not accepted; universal links use 'https:'"
            ])
    }

    @Test func traceNamesQueryMismatches() {
        let match = shopMatcher.match("shop://catalog/shoes?sort=cheapest", explain: true)
        #expect(
            match.trace.contains(
                "/catalog/{slug}?page={page}&sort={sort}: query 'sort': 'cheapest' is not a case of Sort (price, rating)"
            ))
    }

    @Test func traceNamesTheExpectedLiterals() {
        let match = shopMatcher.match("shop://nowhere", explain: true)
        #expect(
            match.trace.contains { $0.hasPrefix("segment 1 'nowhere' is no literal here (expected 'account', 'cart'") })
    }

    @Test func traceNamesBacktrackingAndMissingQueryKeys() {
        let m = Matcher(
            routes: makeRoutes([
                ("a.edit", "edit(id: Int)", "/a/{id}/edit"),
                ("a.view", "view(slug: String)", "/a/{slug}/view"),
                ("s.search", "search(text: String)", "/s?q={text}"),
            ]), policy: shopPolicy)
        let backtracked = m.match("/a/42/view", explain: true)
        #expect(backtracked.trace.contains("segment 3 'view' is no literal here (expected 'edit')"))
        #expect(backtracked.trace.last == "/a/{slug}/view: matched a.view(slug: \"42\")")
        let missing = m.match("/s", explain: true)
        #expect(missing.trace.contains("/s?q={text}: the query has no 'q' and 'text' has no default"))
        let short = m.match("/a/1", explain: true)
        #expect(short.trace.contains("/a/{id}/edit: the link ends after 2 segment(s)"))
    }

    @Test func explainDoesNotChangeTheOutcome() {
        for link in ["shop://offers/X", "shop://catalog/a?page=2", "shop://help/a/b", "shop://x", "ftp://x"] {
            let plain = shopMatcher.match(link)
            let explained = shopMatcher.match(link, explain: true)
            #expect(plain.page == explained.page)
            #expect(plain.error == explained.error)
            #expect(plain.routeIndex == explained.routeIndex)
        }
    }
}
