import CoordinatorGraph
import DeepLink
import Testing

@Suite struct ResolverApplyTests {
    typealias S = Shop

    func decision(_ steps: [Step], outcome: Decision.Outcome = .routed, pending: Pending? = nil) -> Decision {
        Decision(
            id: "a", outcome: outcome, page: S.p("catalog.home"), path: ["app"], steps: steps, pending: pending,
            createdAt: S.t0)
    }

    /// Sequences of pages resolved one after the other from a new device, with and without a session.
    static let journeys: [[Page]] = [
        [S.p("cart.offer", ["id": .string("A")]), S.p("catalog.home"), S.p("cart.checkout")],
        [S.p("account.order", ["id": .int(1)]), S.p("payment.pay", ["order": .int(1)]), S.p("account.orders")],
        [S.p("payment.pay", ["order": .int(2)]), S.p("share.share", ["id": .string("s")]), S.p("cart.cart")],
        [S.p("onboarding.done"), S.p("magazine.comments", ["slug": .string("c")]), S.p("vip.lounge")],
        [
            S.p("catalog.filters", ["slug": .string("f"), "sort": .enumCase("price")]), S.p("login.login"),
            S.p("catalog.home"),
        ],
    ]

    @Test(arguments: journeys, [[String](), ["session"], ["session", "premium"]])
    func applyingEachDecisionToItsStateGivesTheResolvedState(pages: [Page], conditions: [String]) throws {
        var state: DeviceState? = conditions.isEmpty ? nil : DeviceState(conditions: conditions)
        for page in pages {
            let r = try S.resolver.resolve(page, state: state, now: S.t0, metadata: S.metadata())
            #expect(S.resolver.apply(r.decision, to: state) == r.state, "\(page)")
            #expect(r.state.path.first == "app")
            #expect(r.state.path.allSatisfy(r.state.started.contains))
            if r.decision.outcome != .gated {
                #expect(r.state.path.last == page.id.coordinator)
                #expect(r.state.stack(of: page.id.coordinator).last == page)
            }
            state = r.state
        }
    }

    @Test func startAndPresentCutTheVisiblePathAboveTheParent() {
        let state = DeviceState(
            path: ["app", "main", "cart"], started: ["app", "main", "cart"], tabs: ["main": "cart"])
        let next = S.resolver.apply(
            decision([Step(.activate, "app"), Step(.present, "payment", parent: "main")]), to: state)
        #expect(next.path == ["app", "main", "payment"])
        #expect(next.started == ["app", "main", "cart", "payment"])
    }

    @Test func dismissStopsTheCoordinatorAndEverythingAboveIt() {
        let state = DeviceState(
            path: ["app", "main", "cart", "payment", "login"], started: ["app", "main", "cart", "payment", "login"],
            stacks: ["payment": [S.p("payment.pay", ["order": .int(1)])], "cart": [S.p("cart.cart")]])
        let next = S.resolver.apply(decision([Step(.dismiss, "payment")]), to: state)
        #expect(next.path == ["app", "main", "cart"])
        #expect(next.started == ["app", "main", "cart"])
        #expect(next.stacks == ["cart": [S.p("cart.cart")]])
    }

    @Test func presentedCoordinatorLeavingTheVisiblePathStops() {
        let state = DeviceState(
            path: ["app", "main", "cart", "payment"], started: ["app", "main", "cart", "payment", "catalog"],
            tabs: ["main": "cart"])
        let next = S.resolver.apply(decision([Step(.selectTab, "main", child: "catalog")]), to: state)
        #expect(next.path == ["app", "main"])
        #expect(next.tabs == ["main": "catalog"])
        #expect(!next.isStarted("payment"))
        #expect(next.isStarted("cart"))
    }

    @Test func activateBringsAStartedCoordinatorAboveItsVisibleParent() {
        let state = DeviceState(path: ["app", "main", "cart"], started: ["app", "main", "cart", "account"])
        let next = S.resolver.apply(
            decision([Step(.selectTab, "main", child: "account"), Step(.activate, "account")]), to: state)
        #expect(next.path == ["app", "main", "account"])
    }

    @Test func stackStepsEditThePageStack() {
        let a = S.p("cart.offer", ["id": .string("A")])
        let b = S.p("cart.offer", ["id": .string("B")])
        let steps = [
            Step(.setRoot, "cart", page: S.p("cart.cart")), Step(.push, "cart", page: a), Step(.push, "cart", page: b),
            Step(.popTo, "cart", page: a), Step(.display, "cart", page: a), Step(.display, "cart", page: b),
        ]
        let next = S.resolver.apply(decision(steps), to: DeviceState(path: ["app"], started: ["app"]))
        #expect(next.stack(of: "cart") == [S.p("cart.cart"), a, b])
    }

    @Test func gatedDecisionSetsThePendingPageAndResumedClearsIt() {
        let pending = Pending(page: S.p("cart.checkout"), gate: "login", condition: "session", expiresAt: S.t0)
        let present = [Step(.activate, "app"), Step(.present, "login", parent: "app")]
        let gated = S.resolver.apply(decision(present, outcome: .gated, pending: pending), to: nil)
        #expect(gated.pending == pending)
        let resumed = S.resolver.apply(decision([Step(.activate, "app")], outcome: .resumed), to: gated)
        #expect(resumed.pending == nil)
        let routedAway = S.resolver.apply(decision([Step(.dismiss, "login")]), to: gated)
        #expect(routedAway.pending == nil)
    }
}
