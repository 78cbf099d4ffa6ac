import CoordinatorGraph
import DeepLink
import Foundation
import Testing

@Suite struct ConfigLoaderTests {
    /// `config/shop.yaml` of this repository, found from this file's path.
    static func shopBytes() throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/shop.yaml")
        return try [UInt8](Data(contentsOf: url))
    }

    /// A refrozen config is the same config built again: every page of the shop resolves to the same decision on
    /// both, from graphs (and page definitions) that are different objects.
    @Test func refrozenConfigDecidesAsTheOriginalFromObjectsOfItsOwn() throws {
        let loaded = try ConfigLoader.load(try Self.shopBytes(), file: "shop.yaml").get()
        let copy = loaded.refrozen()
        #expect(copy.graph !== loaded.graph)
        #expect(copy.warnings == loaded.warnings)
        let (original, refrozen) = (Resolver(graph: loaded.graph), Resolver(graph: copy.graph))
        let now = Timestamp(millisecondsSince1970: 1_714_566_896_789)
        var pages = 0
        for (coordinator, other) in zip(loaded.graph.coordinators, copy.graph.coordinators) {
            #expect(coordinator.name == other.name && coordinator.children == other.children)
            for (definition, otherDefinition) in zip(coordinator.pages, other.pages) {
                #expect(definition !== otherDefinition)
                #expect(definition.id == otherDefinition.id)
                let page = Page(
                    id: definition.id,
                    arguments: definition.declaration.parameters.map {
                        Page.Argument(label: $0.label, value: $0.defaultValue ?? .string("x"))
                    })
                guard definition.declaration.parameters.allSatisfy({ $0.defaultValue != nil || $0.type == .string })
                else { continue }
                let a = try original.resolve(page, state: nil, now: now, metadata: DecisionMetadata(id: "d"))
                let b = try refrozen.resolve(page, state: nil, now: now, metadata: DecisionMetadata(id: "d"))
                #expect(a.decision.jsonText == b.decision.jsonText, "\(page)")
                pages += 1
            }
        }
        #expect(pages > 10)
        let link = [LinkCandidate(format: .link, field: "link", target: .link("shop://offers/SUMMER"))]
        #expect(
            try loaded.graph.target(for: link).get().page == copy.graph.target(for: link).get().page)
    }

    @Test func shippedShopConfigLoadsWithoutErrorsOrWarnings() throws {
        let result = ConfigLoader.load(try Self.shopBytes(), file: "shop.yaml")
        let loaded = try result.get()
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        let graph = loaded.graph
        #expect(graph.root.name == "app")
        #expect(graph.coordinator("main")?.kind == .tabs)
        #expect(graph.coordinator("main")?.children == ["catalog", "cart", "account"])
        #expect(graph.coordinator("onboarding")?.kind == .flow)
        #expect(graph.coordinator("onboarding")?.provides == ["onboarded"])
        #expect(graph.parents(of: "payment") == ["cart", "account"])
        #expect(graph.providers(of: "session") == ["login"])
        #expect(graph.providers(of: "member") == ["membership"])
        #expect(graph.requirements(of: PageID(coordinator: "deals", name: "deal")) == ["session", "member"])
        #expect(graph.requirements(of: PageID(coordinator: "cart", name: "checkout")) == ["session"])
        #expect(graph.page(PageID(coordinator: "cart", name: "checkout"))?.back == "cart")
        #expect(
            graph.page(PageID(coordinator: "cart", name: "offer"))?.patterns.map(\.text) == [
                "/offers/{id}", "/promo/{id}",
            ])
        #expect(graph.app.schemes == ["shop"])
        #expect(graph.app.hosts == ["shop.example.com", "*.shop.example.com"])
        #expect(graph.app.fallback?.description == "catalog.home")
        #expect(graph.categories["ORDER_SHIPPED"]?.description == "account.order(id: $orderId)")
        #expect(graph.linkKeys == ["deeplink", "url", "link"])
        #expect(graph.pendingExpirySeconds == 900)
        #expect(graph.types["Sort"] == ["price", "rating", "newest"])
        let category = try #require(graph.page(PageID(coordinator: "catalog", name: "category")))
        #expect(category.declaration.description == "category(slug: String, page: Int = 1, sort: Sort = .price)")
        #expect(category.location.line > 1)
    }

    @Test func designDocumentExampleLoadsAsWritten() throws {
        // docs/design.md §2, verbatim: declarations, expressions and patterns unquoted, also inside [ ] and { }.
        let yaml = """
            version: 1
            app:
              name: Shop
              schemes: [shop]                       # custom schemes: shop://cart/offer/1
              hosts: [shop.example.com]             # universal-link hosts, https only; "*.example.com" allowed
              fallback: catalog.home                # optional: page when no pattern matches
            links:
              keys: [deeplink, url, link]           # where custom payload keys carry the link (this order)
            types:
              Sort: [price, rating]                 # an enum usable as a parameter type
            categories:                             # aps.category / click_action → page; $name reads a payload key
              ORDER_SHIPPED: account.order(id: $orderId)
            coordinators:
              app:
                kind: app                           # exactly one; the root
                children: [main, login, payment]
                root: main                          # active child on cold start
              main:
                kind: tabs                          # children are tabs; switching tabs stops nothing
                children: [catalog, cart, account]
                root: catalog
              catalog:
                kind: stack                         # a navigation stack of pages
                pages:
                  home: /catalog
                  product(id: String): /products/{id}
                  category(slug: String, page: Int = 1, sort: Sort = price): /catalog/{slug}?page={page}&sort={sort}
              cart:
                kind: stack
                pages:
                  cart: /cart
                  checkout: { path: /cart/checkout, requires: [session], back: cart }
                  offer(id: String): [/offers/{id}, /promo/{id}]
              account:
                kind: stack
                requires: [session]                 # every page here needs the condition
                pages:
                  profile: /account
                  order(id: Int): { path: /account/orders/{id}, back: orders }
                  orders: /account/orders
              login:
                kind: modal                         # presented over the current context
                provides: session                   # finishing this flow satisfies `session`
                pages:
                  login: /login
              payment:
                kind: modal
                requires: [session]
                parents: [cart, account]            # reachable under several parents (also: app)
                pages:
                  pay(order: Int): /pay/{order}
            """
        let graph = try #require(ConfigTest.graph(yaml, file: "design.yaml"))
        #expect(graph.coordinators.map(\.name) == ["app", "main", "catalog", "cart", "account", "login", "payment"])
        let offer = try #require(graph.page(PageID(coordinator: "cart", name: "offer")))
        #expect(offer.patterns.map(\.text) == ["/offers/{id}", "/promo/{id}"])
        #expect(offer.location == CoordinatorGraph.SourceLocation(file: "design.yaml", line: 33, column: 7))
        let order = try #require(graph.page(PageID(coordinator: "account", name: "order")))
        #expect(order.patterns.map(\.text) == ["/account/orders/{id}"])
        #expect(order.back == "orders")
        #expect(graph.categories["ORDER_SHIPPED"] == (try PageExpression.parse("account.order(id: $orderId)")))
        #expect(graph.parents(of: "payment") == ["app", "cart", "account"])
    }

    @Test func jsonOfTheSameStructureBuildsTheSameGraph() throws {
        let yaml = """
            version: 1
            app: { name: Mini, schemes: [Mini], hosts: [Mini.Example.com], fallback: feed.home }
            links: { keys: [url], pendingExpiry: 60 }
            types: { Tab: [top, new] }
            categories: { NEW_POST: feed.post(id: $postId) }
            coordinators:
              app: { kind: app, children: [feed, login], root: feed }
              feed:
                kind: stack
                pages:
                  home(tab: Tab = top): /feed?tab={tab}
                  post(id: Int): { path: [/posts/{id}, /p/{id}], requires: [session], back: home }
              login: { kind: modal, provides: session, pages: { login: /login } }
            """
        let json = """
            {
              "version": 1,
              "app": {"name": "Mini", "schemes": ["Mini"], "hosts": ["Mini.Example.com"], "fallback": "feed.home"},
              "links": {"keys": ["url"], "pendingExpiry": 60},
              "types": {"Tab": ["top", "new"]},
              "categories": {"NEW_POST": "feed.post(id: $postId)"},
              "coordinators": {
                "app": {"kind": "app", "children": ["feed", "login"], "root": "feed"},
                "feed": {
                  "kind": "stack",
                  "pages": {
                    "home(tab: Tab = top)": "/feed?tab={tab}",
                    "post(id: Int)": {"path": ["/posts/{id}", "/p/{id}"], "requires": ["session"], "back": "home"}
                  }
                },
                "login": {"kind": "modal", "provides": "session", "pages": {"login": "/login"}}
              }
            }
            """
        let fromYAML = try #require(ConfigTest.graph(yaml, file: "mini.yaml"))
        let fromJSON = try #require(ConfigTest.graph(json, file: "mini.json"))
        for graph in [fromYAML, fromJSON] {
            #expect(graph.app.name == "Mini")
            #expect(graph.app.schemes == ["mini"])
            #expect(graph.app.hosts == ["mini.example.com"])
            #expect(graph.linkKeys == ["url"])
            #expect(graph.pendingExpirySeconds == 60)
            #expect(graph.types == ["Tab": ["top", "new"]])
        }
        #expect(describe(fromYAML) == describe(fromJSON))
        let post = try #require(fromJSON.page(PageID(coordinator: "feed", name: "post")))
        #expect(post.location == CoordinatorGraph.SourceLocation(file: "mini.json", line: 13, column: 9))
    }

    /// Everything but locations, as text.
    func describe(_ g: Graph) -> [String] {
        g.coordinators.map { c in
            "\(c.name) \(c.kind) children=\(c.children) root=\(c.root ?? "-") parents=\(c.parents) "
                + "requires=\(c.requires) provides=\(c.provides) pages="
                + c.pages.map { "\($0.declaration) \($0.patterns.map(\.text)) \($0.requires) \($0.back ?? "-")" }
                .joined(separator: "; ")
        } + [g.app.fallback?.description ?? "-"] + g.categories.map { "\($0.key)=\($0.value)" }.sorted()
    }

    @Test(arguments: [
        ("graph.json", "version: 1", ConfigFormat.json),
        ("graph.yaml", "{\"version\": 1}", ConfigFormat.yaml),
        ("graph.YML", "{}", ConfigFormat.yaml),
        ("graph.conf", "  \n {\"version\": 1}", ConfigFormat.json),
        ("graph.conf", "version: 1", ConfigFormat.yaml),
        ("-", "\u{FEFF}{}", ConfigFormat.json),
    ])
    func automaticFormatFollowsExtensionThenFirstByte(file: String, text: String, expected: ConfigFormat) {
        // A JSON syntax error names JSON, a YAML one names YAML: the reader used shows in the message.
        let findings = ConfigTest.findings(text + "\n@", file: file)
        let first = findings.first?.code ?? ""
        #expect(first == (expected == .json ? "json-syntax" : "yaml-syntax"), "\(findings)")
    }

    @Test func explicitFormatOverridesTheExtension() {
        #expect(ConfigTest.findings("{\"version\": 1,}", file: "x.yaml", format: .json).first?.code == "json-syntax")
    }

    @Test func findingPrintsLikeACompilerDiagnostic() throws {
        let error = try #require(ConfigTest.load("version: 1\nap: {}\n", file: "shop.yaml").failure)
        let first = try #require(error.findings.first)
        #expect(first.description.hasPrefix("shop.yaml:1:1: error: missing key 'app'"))
        #expect(
            error.findings.contains {
                $0.description.hasPrefix("shop.yaml:2:1: error: unknown key 'ap' in the top level")
            })
        #expect(error.description.split(separator: "\n").count == error.findings.count)
    }

    @Test func emptyTextIsAnError() {
        #expect(ConfigTest.summary("") == ["1:1 error empty-config"])
        #expect(ConfigTest.summary("# only a comment\n") == ["1:1 error empty-config"])
    }

    @Test func warningsAloneStillLoad() throws {
        let yaml =
            ConfigTest.minimal + """
                      settings: []
                      about: []

                """
        let loaded = try ConfigTest.load(yaml).get()
        #expect(
            loaded.warnings.map(ConfigTest.summary) == [
                "14:7 warning unreachable-page", "15:7 warning unreachable-page",
            ])
        #expect(loaded.graph.page(PageID(coordinator: "main", name: "about")) != nil)
    }
}

extension Result {
    /// The failure, if any.
    var failure: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
