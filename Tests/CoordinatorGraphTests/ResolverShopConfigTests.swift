import CoordinatorGraph
import DeepLink
import Foundation
import Testing

/// The resolver on the shipped `config/shop.yaml`, loaded by the real config loader.
@Suite struct ResolverShopConfigTests {
    static let resolver: Resolver? = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/shop.yaml")
        guard let data = try? Data(contentsOf: url),
            case .success(let loaded) = ConfigLoader.load([UInt8](data), file: "shop.yaml")
        else { return nil }
        return Resolver(graph: loaded.graph)
    }()

    let t0 = Timestamp(millisecondsSince1970: 1_714_566_896_789)
    static let uuid = PageUUID(uuidString: "5F0C7E1E-0000-4000-8000-000000000001")!
    var uuid: PageUUID { Self.uuid }

    func shop() throws -> Resolver {
        try #require(Self.resolver, "config/shop.yaml did not load")
    }

    func p(_ id: String, _ arguments: KeyValuePairs<String, Value> = [:]) -> Page {
        Page(id: PageID(id)!, arguments: arguments.map { Page.Argument(label: $0.key, value: $0.value) })
    }

    func resolve(_ resolver: Resolver, _ page: Page, _ state: DeviceState?) throws -> Resolution {
        let r = try resolver.resolve(page, state: state, now: t0, metadata: DecisionMetadata(id: "s"))
        #expect(resolver.apply(r.decision, to: state) == r.state)
        return r
    }

    /// A sample value for a parameter: its default, else a value of its type.
    static func sample(_ parameter: Parameter) -> Value {
        if let value = parameter.defaultValue { return value }
        switch parameter.type {
        case .string: return .string("x")
        case .int: return .int(1)
        case .double: return .double(0.5)
        case .bool: return .bool(true)
        case .uuid: return .uuid(uuid)
        case .enumeration(_, let cases): return .enumCase(cases.first ?? "")
        case .list(let element): return .list([sample(Parameter(label: parameter.label, type: element))])
        }
    }

    @Test func everyPageOfTheShopResolvesForANewDevice() throws {
        let resolver = try shop()
        let everything = DeviceState(conditions: ["session", "member", "onboarded"])
        for coordinator in resolver.graph.coordinators {
            for definition in coordinator.pages {
                let page = Page(
                    id: definition.id,
                    arguments: definition.declaration.parameters.map {
                        Page.Argument(label: $0.label, value: Self.sample($0))
                    })
                let open = try resolve(resolver, page, everything)
                #expect(open.decision.outcome == .routed, "\(page)")
                #expect(open.decision.steps.last?.description == "display \(coordinator.name) \(page)")
                #expect(open.state.stack(of: coordinator.name).last == page)
                let cold = try resolve(resolver, page, nil)
                #expect(cold.decision.steps.first?.description == "activate app")
                #expect(cold.decision.outcome == (resolver.graph.requirements(of: page.id).isEmpty ? .routed : .gated))
            }
        }
    }

    @Test func shopPaymentHasNoAppParentSoItGoesThroughTheFirstDeclaredParent() throws {
        let resolver = try shop()
        let r = try resolve(resolver, p("payment.pay", ["order": .int(1)]), DeviceState(conditions: ["session"]))
        #expect(r.decision.path == ["app", "main", "cart", "payment"])
        #expect(
            r.decision.steps.map(\.description) == [
                "activate app", "start main in app", "selectTab main cart", "start cart in main",
                "setRoot cart cart.cart", "present payment over cart", "display payment payment.pay(order: 1)",
            ])
    }

    @Test func shopBackChainsAreSynthesizedWithDefaults() throws {
        let resolver = try shop()
        let session = DeviceState(conditions: ["session"])
        #expect(
            try resolve(resolver, p("cart.payment"), session).decision.steps.suffix(3).map(\.description) == [
                "setRoot cart cart.cart", "push cart cart.checkout", "display cart cart.payment",
            ])
        #expect(
            try resolve(resolver, p("account.order", ["id": .int(5)]), session).decision.steps.suffix(3)
                .map(\.description) == [
                    "setRoot account account.profile", "push account account.orders(archived: false)",
                    "display account account.order(id: 5)",
                ])
    }

    @Test func shopDealGoesThroughLoginThenMembershipThenOpens() throws {
        let resolver = try shop()
        let deal = p("deals.deal", ["id": .uuid(uuid)])
        let first = try resolve(resolver, deal, nil)
        #expect(first.decision.outcome == .gated)
        #expect(first.decision.path == ["app", "main", "catalog", "deals"])
        #expect(
            first.decision.steps.map(\.description) == [
                "activate app", "start main in app", "selectTab main catalog", "start catalog in main",
                "setRoot catalog catalog.home", "present login over catalog", "display login login.login",
            ])
        #expect(first.decision.pending?.expiresAt == t0.adding(seconds: 900))

        let second = try resolver.flowFinished(
            "login", state: first.state, now: t0, metadata: DecisionMetadata(id: "2"))
        #expect(second.status == .gated)
        #expect(
            second.decision?.steps.map(\.description) == [
                "activate app", "dismiss login", "present membership over catalog",
                "display membership membership.join",
            ])
        #expect(second.state.pending?.condition == "member")

        let third = try resolver.flowFinished(
            "membership", state: second.state, now: t0, metadata: DecisionMetadata(id: "3"))
        #expect(third.status == .resumed)
        #expect(
            third.decision?.steps.map(\.description) == [
                "activate app", "dismiss membership", "start deals in catalog", "setRoot deals deals.deals",
                "display deals deals.deal(id: \"5F0C7E1E-0000-4000-8000-000000000001\")",
            ])
        #expect(third.state.conditions == ["session", "member"])
    }

    @Test func shopPaymentGatedOnAColdStartHasTheCartBeneathIt() throws {
        let resolver = try shop()
        let gated = try resolve(resolver, p("payment.pay", ["order": .int(9)]), nil)
        #expect(
            gated.decision.steps.map(\.description) == [
                "activate app", "start main in app", "selectTab main cart", "start cart in main",
                "setRoot cart cart.cart", "present login over cart", "display login login.login",
            ])
        let finished = try resolver.flowFinished(
            "login", state: gated.state, now: t0, metadata: DecisionMetadata(id: "2"))
        #expect(
            finished.steps.map(\.description) == [
                "activate app", "dismiss login", "present payment over cart", "display payment payment.pay(order: 9)",
            ])
        #expect(finished.state.stack(of: "cart") == [p("cart.cart")])
        #expect(finished.state.path == ["app", "main", "cart", "payment"])
    }

    @Test func shopDealForAMemberOnAColdStartShowsTheCatalogBeneath() throws {
        let resolver = try shop()
        let r = try resolve(
            resolver, p("deals.deal", ["id": .uuid(uuid)]), DeviceState(conditions: ["session", "member"]))
        #expect(
            r.decision.steps.map(\.description) == [
                "activate app", "start main in app", "selectTab main catalog", "start catalog in main",
                "setRoot catalog catalog.home", "start deals in catalog", "setRoot deals deals.deals",
                "display deals deals.deal(id: \"5F0C7E1E-0000-4000-8000-000000000001\")",
            ])
    }

    @Test func shopLoginByItsLinkLeavesTheCartUnderItAndTheNextCartLinkOnlyDisplays() throws {
        let resolver = try shop()
        let onCart = try resolve(resolver, p("cart.cart"), nil).state
        let login = try resolve(resolver, p("login.login"), onCart)
        #expect(
            login.decision.steps.map(\.description) == [
                "activate app", "present login over cart", "display login login.login",
            ])
        let finished = try resolver.flowFinished(
            "login", state: login.state, now: t0, metadata: DecisionMetadata(id: "2"))
        let cart = try resolve(resolver, p("cart.cart"), finished.state)
        #expect(cart.decision.steps.map(\.description) == ["activate app", "display cart cart.cart"])
    }

    @Test func shopStateRoundTripsThroughJSON() throws {
        let resolver = try shop()
        var state = try resolve(
            resolver, p("catalog.category", ["slug": .string("all"), "page": .int(1), "sort": .enumCase("rating")]), nil
        )
        .state
        state = try resolve(resolver, p("deals.deal", ["id": .uuid(uuid)]), state).state
        let decoded = try DeviceState(json: state.json, graph: resolver.graph)
        #expect(decoded == state)
    }
}
