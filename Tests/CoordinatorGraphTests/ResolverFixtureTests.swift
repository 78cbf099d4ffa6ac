import CoordinatorGraph
import DeepLink
import Testing

/// A shop graph built from Swift values (no patterns, so no matcher is involved), shaped like docs/design.md §2 with a
/// few additions that exercise every kind, several parents, chained gates and argument propagation.
///
/// ```
/// app (app) → main, login, onboarding, share?
///   main (tabs) → catalog, cart, account, magazine, vip
///     catalog (stack) → deals: home, product(id), reviews(id) back product, category(slug, page = 1, sort = price),
///                      filters(slug, sort) back category
///       deals (stack): deals, deal(id) back deals
///     cart (stack): cart, checkout requires session back cart, offer(id)
///     account (stack) requires session: profile, order(id: Int) back orders, orders
///     magazine (stack): home, article(slug) requires session+premium, read(slug), comments(slug, page = 1) back read
///     vip (stack) requires premium: lounge
///   login (modal) provides session: login
///   onboarding (flow) provides onboarded: welcome, privacy back welcome, done
/// payment (modal) requires session, parents [app (as child), cart, account]: pay(order: Int)
/// share (modal) parents [catalog, account]: share(id)
/// paywall (modal) provides premium, requires session, parents [magazine]: offer
/// ```
enum Shop {
    static let here = SourceLocation(file: "shop.swift", line: 1, column: 1)
    static let sortType = ParameterType.enumeration(name: "Sort", cases: ["price", "rating"])

    static func page(
        _ coordinator: String, _ name: String, _ parameters: [Parameter] = [], requires: [String] = [],
        back: String? = nil
    ) -> PageDefinition {
        PageDefinition(
            id: PageID(coordinator: coordinator, name: name),
            declaration: CaseDeclaration(name: name, parameters: parameters), patterns: [], requires: requires,
            back: back, location: here)
    }

    static func string(_ label: String) -> Parameter { Parameter(label: label, type: .string) }

    static let coordinators: [Coordinator] = [
        Coordinator(
            name: "app", kind: .app, children: ["main", "login", "onboarding", "payment"], root: "main",
            location: here),
        Coordinator(
            name: "main", kind: .tabs, children: ["catalog", "cart", "account", "magazine", "vip"], root: "catalog",
            location: here),
        Coordinator(
            name: "catalog", kind: .stack, children: ["deals"],
            pages: [
                page("catalog", "home"),
                page("catalog", "product", [string("id")]),
                page("catalog", "reviews", [string("id")], back: "product"),
                page(
                    "catalog", "category",
                    [
                        string("slug"), Parameter(label: "page", type: .int, defaultValue: .int(1)),
                        Parameter(label: "sort", type: sortType, defaultValue: .enumCase("price")),
                    ]),
                page(
                    "catalog", "filters", [string("slug"), Parameter(label: "sort", type: sortType)], back: "category"),
            ], location: here),
        Coordinator(
            name: "deals", kind: .stack,
            pages: [page("deals", "deals"), page("deals", "deal", [string("id")], back: "deals")],
            location: here),
        Coordinator(
            name: "cart", kind: .stack,
            pages: [
                page("cart", "cart"),
                page("cart", "checkout", requires: ["session"], back: "cart"),
                page("cart", "offer", [string("id")]),
            ], location: here),
        Coordinator(
            name: "account", kind: .stack, requires: ["session"],
            pages: [
                page("account", "profile"),
                page("account", "order", [Parameter(label: "id", type: .int)], back: "orders"),
                page("account", "orders"),
            ], location: here),
        Coordinator(
            name: "magazine", kind: .stack,
            pages: [
                page("magazine", "home"),
                page("magazine", "article", [string("slug")], requires: ["session", "premium"]),
                page("magazine", "read", [string("slug")]),
                page(
                    "magazine", "comments",
                    [string("slug"), Parameter(label: "page", type: .int, defaultValue: .int(1))],
                    back: "read"),
            ], location: here),
        Coordinator(name: "vip", kind: .stack, requires: ["premium"], pages: [page("vip", "lounge")], location: here),
        Coordinator(
            name: "login", kind: .modal, provides: ["session"], pages: [page("login", "login")], location: here),
        Coordinator(
            name: "onboarding", kind: .flow, provides: ["onboarded"],
            pages: [
                page("onboarding", "welcome"), page("onboarding", "privacy", back: "welcome"),
                page("onboarding", "done"),
            ],
            location: here),
        Coordinator(
            name: "payment", kind: .modal, parents: ["cart", "account"], requires: ["session"],
            pages: [page("payment", "pay", [Parameter(label: "order", type: .int)])], location: here),
        Coordinator(
            name: "share", kind: .modal, parents: ["catalog", "account"],
            pages: [page("share", "share", [string("id")])],
            location: here),
        Coordinator(
            name: "paywall", kind: .modal, parents: ["magazine"], requires: ["session"], provides: ["premium"],
            pages: [page("paywall", "offer")], location: here),
    ]

    static let graph = Graph(
        app: AppSettings(name: "Shop", schemes: ["shop"], hosts: [], fallback: nil), coordinators: coordinators)
    static let resolver = Resolver(graph: graph)

    /// `Page` from `coordinator.case` and labelled values.
    static func p(_ id: String, _ arguments: KeyValuePairs<String, Value> = [:]) -> Page {
        Page(id: PageID(id)!, arguments: arguments.map { Page.Argument(label: $0.key, value: $0.value) })
    }

    static let t0 = Timestamp(millisecondsSince1970: 1_714_566_896_789)

    static func metadata(_ id: String = "d1") -> DecisionMetadata {
        DecisionMetadata(id: id, device: "ipad-7", source: DecisionSource(format: "link", field: "link", link: nil))
    }

    /// Resolves and checks that applying the decision to the state gives the returned state.
    static func resolve(
        _ page: Page, _ state: DeviceState?, outcome: Decision.Outcome = .routed, at now: Timestamp = t0,
        explain: Bool = false
    ) throws -> Resolution {
        let resolution = try resolver.resolve(
            page, state: state, now: now, outcome: outcome, metadata: metadata(), explain: explain)
        #expect(resolver.apply(resolution.decision, to: state) == resolution.state)
        return resolution
    }

    /// The state reached by resolving `pages` in turn from a device never seen, with `conditions` satisfied.
    static func state(after pages: [Page], conditions: [String] = []) throws -> DeviceState {
        var state = DeviceState(conditions: conditions)
        for page in pages { state = try resolver.resolve(page, state: state, now: t0, metadata: metadata()).state }
        return state
    }
}

extension Decision {
    /// The steps as one-line descriptions.
    var lines: [String] { steps.map(\.description) }
}

@Suite struct ResolverFixtureTests {
    @Test func fixtureGraphReachesEveryCoordinatorFromTheRoot() {
        for coordinator in Shop.graph.coordinators {
            #expect(Shop.resolver.path(to: coordinator.name, state: nil)?.first == "app", "\(coordinator.name)")
        }
    }

    @Test func coldStartPathsAreTheShortestThenDeclaredFirst() {
        #expect(Shop.resolver.path(to: "cart", state: nil) == ["app", "main", "cart"])
        #expect(Shop.resolver.path(to: "payment", state: nil) == ["app", "payment"])
        #expect(Shop.resolver.path(to: "share", state: nil) == ["app", "main", "catalog", "share"])
        #expect(Shop.resolver.path(to: "nowhere", state: nil) == nil)
    }
}
