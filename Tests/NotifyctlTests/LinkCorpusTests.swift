import CoordinatorGraph
import DeepLink
import JSON
import NotifyctlCore
import Testing

/// The corpus `diff` synthesizes from config/shop.yaml.
@Suite struct LinkCorpusTests {
    static let graph = ReplayCommandTests.shop
    static let corpus = LinkCorpus.synthesized(from: [graph])
    static var links: [String] { corpus.items.compactMap(\.link) }

    @Test func everyEnumCaseAndOptionalQueryBindingIsGivenAndLeftOut() {
        for link in [
            "shop://catalog/example", "shop://catalog/example?page=42", "shop://catalog/example?sort=rating",
            "shop://catalog/example?sort=newest", "shop://account/orders", "shop://account/orders?archived=true",
        ] {
            #expect(Self.links.contains(link), "\(link) is missing")
        }
        #expect(!Self.links.contains("shop://catalog/example?sort=price"), "a default is left out, as printed")
    }

    @Test func everyPatternOfAPageAndEveryTypeIsPrinted() {
        for link in [
            "shop://offers/example", "shop://promo/example", "shop://account/orders/42",
            "shop://deals/E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "shop://info/example", "shop://pay/42",
        ] {
            #expect(Self.links.contains(link), "\(link) is missing")
        }
    }

    @Test func everySchemeAndHostGetsEachPageAndTheFallback() {
        for origin in ["shop://", "https://shop.example.com/", "https://www.shop.example.com/"] {
            #expect(Self.links.contains(origin + "cart"), "\(origin)cart")
            #expect(Self.links.contains(origin + "notifyd-diff/no-such-page"), "the fallback on \(origin)")
        }
    }

    @Test func everyCategoryIsAnAPNsPayloadWithTheKeysItsPageReads() throws {
        let categories = Self.corpus.items.compactMap { item -> (String, JSONObject)? in
            if case .category(let name, let payload) = item { return (name, payload) }
            return nil
        }
        #expect(categories.map(\.0) == Self.graph.categories.keys.sorted())
        let shipped = try #require(categories.first { $0.0 == "ORDER_SHIPPED" }?.1)
        #expect(shipped == ["aps": ["category": "ORDER_SHIPPED"], "orderId": "42"])
    }

    /// Every link the corpus holds is one the config accepts, and each is printed once.
    @Test func theConfigAcceptsEveryLinkOfItsCorpus() {
        let router = OfflineRouter(graph: Self.graph)
        #expect(Set(Self.corpus.items).count == Self.corpus.items.count)
        for item in Self.corpus.items {
            switch item {
            case .link(let link):
                #expect(throws: Never.self, "\(link)") {
                    _ = try router.resolve(link, explain: false, id: "x", now: Fixtures.now)
                }
            case .category(let name, let payload):
                let routed = try? router.route(payload, format: .apns, explain: false, id: "x", now: Fixtures.now)
                #expect(routed?.decision.outcome != .fallback, "\(name)")
            }
        }
    }

    /// A `Double` and a `Bool` parameter are printed at their example values, so that a config change involving
    /// them is reviewed by `diff`: the number in the path, a query number and Boolean left out and given.
    @Test func doublesAndBooleansArePrintedThroughEveryPattern() throws {
        let graph = try CodegenCorpus.load(text: CodegenAgreementTests.numbersConfig, file: "numbers.json")
        let links = LinkCorpus.synthesized(from: [graph]).items.compactMap(\.link)
        for link in [
            "map://at/2.5/2.5", "map://at/2.5/2.5?zoom=2.5", "map://at/2.5/2.5?labels=false", "map://t/42",
            "map://scale", "map://t/2.5",
        ] {
            #expect(links.contains(link), "\(link) is missing")
        }
    }

    /// A list parameter is printed at its default (no query item) and with two items, in order.
    @Test func listsArePrintedAsRepeatedQueryItems() throws {
        let text = CodegenAgreementTests.listsConfig.replacingOccurrences(
            of: #"["/pick?s={sorts}", "/p/{sorts}/x"]"#, with: #""/pick?s={sorts}""#)
        let graph = try CodegenCorpus.load(text: text, file: "lists.json")
        let links = LinkCorpus.synthesized(from: [graph]).items.compactMap(\.link)
        let uuid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"  // diff's example UUID
        for link in [
            "lists://search", "lists://search?tag=example&tag=example", "lists://search?size=42&size=42",
            "lists://pick", "lists://pick?s=price&s=rating", "lists://compare?id=\(uuid)&id=\(uuid)",
            "lists://compare?id=\(uuid)&id=\(uuid)&f=true&f=false",
        ] {
            #expect(links.contains(link), "\(link) is missing")
        }
    }

    /// An optional segment is printed left out (at its default) and given.
    @Test func optionalSegmentsArePrintedLeftOutAndGiven() throws {
        let text = CodegenAgreementTests.optionalConfig.replacingOccurrences(
            of: #"["/orders/{year?}", "/o/{sort?}/x"]"#, with: #""/orders/{year?}""#)
        let graph = try CodegenCorpus.load(text: text, file: "optional.json")
        let links = LinkCorpus.synthesized(from: [graph]).items.compactMap(\.link)
        for link in ["opt://search", "opt://search/example", "opt://orders", "opt://orders/42", "opt://o/price"] {
            #expect(links.contains(link), "\(link) is missing")
        }
    }

    /// An app whose paths ignore case also gets each page's first link in capitals (its query as it is); an app
    /// whose paths do not gets none, so that shop.yaml's corpus is what it was.
    @Test func caseInsensitiveAppsGetTheirLinksInCapitalsToo() throws {
        let graph = try CodegenCorpus.load(text: CodegenAgreementTests.caseConfig, file: "case.json")
        let links = LinkCorpus.synthesized(from: [graph]).items.compactMap(\.link)
        for link in [
            "case://Cart/checkout", "CASE://CART/CHECKOUT", "CASE://PRODUCTS/EXAMPLE", "CASE://V42/STATUS.JSON",
        ] {
            #expect(links.contains(link), "\(link) is missing")
        }
        #expect(!Self.links.contains("SHOP://CART"))
    }

    @Test func aLinksFileCountsRepeatsAndSkipsCommentsAndBlankLines() throws {
        let corpus = try LinkCorpus.read(Array("a\n\n# b\n a \r\nc\n".utf8), name: "f")
        #expect(corpus.items == [.link("a"), .link("c")])
        #expect(corpus.counts == [2, 1])
        #expect(corpus.total == 3)
    }
}
