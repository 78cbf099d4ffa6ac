import CoordinatorGraph
import DeepLink
import Testing

/// A coordinator started on the way to a page shows its root page; modals opened by their own links are presented
/// over what is on screen, like a gate's provider.
@Suite struct ResolverRootPageTests {
    typealias S = Shop

    // MARK: Stacks on the way to the page

    @Test func coldStartGivesEveryStackOnTheWayItsRootPage() throws {
        let r = try S.resolve(S.p("deals.deal", ["id": .string("7")]), nil)
        #expect(
            r.decision.lines == [
                "activate app", "start main in app", "selectTab main catalog", "start catalog in main",
                "setRoot catalog catalog.home", "start deals in catalog", "setRoot deals deals.deals",
                #"display deals deals.deal(id: "7")"#,
            ])
        #expect(r.state.stack(of: "catalog") == [S.p("catalog.home")])
        #expect(r.state.stack(of: "deals") == [S.p("deals.deals"), S.p("deals.deal", ["id": .string("7")])])
    }

    @Test func knownDeviceStartingAStackOnTheWayGivesItItsRootPageToo() throws {
        let state = try S.state(after: [S.p("cart.cart")])
        let r = try S.resolve(S.p("deals.deal", ["id": .string("7")]), state)
        #expect(
            r.decision.lines == [
                "activate app", "selectTab main catalog", "start catalog in main", "setRoot catalog catalog.home",
                "start deals in catalog", "setRoot deals deals.deals", #"display deals deals.deal(id: "7")"#,
            ])
    }

    @Test func startedStackOnTheWayWithNoPageGetsItsRootPageWhenReused() throws {
        // A state stored before stacks on the way got their root page: catalog is started and empty.
        let state = DeviceState(
            path: ["app", "main", "cart"], started: ["app", "main", "cart", "catalog"], tabs: ["main": "cart"],
            stacks: ["cart": [S.p("cart.cart")]])
        let r = try S.resolve(S.p("deals.deals"), state)
        #expect(
            r.decision.lines == [
                "activate app", "selectTab main catalog", "activate catalog", "setRoot catalog catalog.home",
                "start deals in catalog", "display deals deals.deals",
            ])
    }

    @Test func stackOnTheWayThatShowsPagesKeepsThem() throws {
        let state = try S.state(after: [S.p("catalog.product", ["id": .string("1")]), S.p("cart.cart")])
        let r = try S.resolve(S.p("deals.deals"), state)
        #expect(
            r.decision.lines == [
                "activate app", "selectTab main catalog", "activate catalog", "start deals in catalog",
                "display deals deals.deals",
            ])
        #expect(r.state.stack(of: "catalog") == [S.p("catalog.home"), S.p("catalog.product", ["id": .string("1")])])
    }

    @Test func gateStopsAfterTheStacksOnTheWayShowTheirRootPage() throws {
        // vip requires premium: the gate's parent context is main; the paywall's path goes through magazine,
        // which shows its home page under the paywall.
        let r = try S.resolve(S.p("vip.lounge"), DeviceState(conditions: ["session"]))
        #expect(
            r.decision.lines == [
                "activate app", "start main in app", "selectTab main magazine", "start magazine in main",
                "setRoot magazine magazine.home", "present paywall over magazine", "display paywall paywall.offer",
            ])
    }

    // MARK: Modals opened by their own links

    @Test func modalOpenedByItsLinkIsPresentedOverTheCurrentTop() throws {
        let state = try S.state(after: [S.p("cart.cart")])
        let r = try S.resolve(S.p("login.login"), state)
        #expect(r.decision.path == ["app", "login"])
        #expect(r.decision.lines == ["activate app", "present login over cart", "display login login.login"])
        #expect(r.state.path == ["app", "main", "cart", "login"])
        // The trace names the modal and the top it goes over (looked up only when explaining); without it, none.
        let trace = try #require(try S.resolve(S.p("login.login"), state, explain: true).decision.trace)
        #expect(trace.contains("present login over the current top cart: it is a modal without declared parents"))
        #expect(r.decision.trace == nil)
    }

    @Test func dismissingAModalOpenedByItsLinkShowsWhatWasUnderIt() throws {
        let state = try S.state(after: [S.p("cart.cart"), S.p("login.login")])
        let finished = try S.resolver.flowFinished("login", state: state, now: S.t0, metadata: S.metadata())
        #expect(finished.steps.map(\.description) == ["activate app", "dismiss login"])
        #expect(finished.state.path == ["app", "main", "cart"])
        let r = try S.resolve(S.p("cart.cart"), finished.state)
        #expect(r.decision.lines == ["activate app", "display cart cart.cart"])
    }

    @Test func routingAwayFromAModalOpenedByItsLinkDismissesItOnly() throws {
        let state = try S.state(after: [S.p("cart.cart"), S.p("onboarding.welcome")])
        #expect(state.path == ["app", "main", "cart", "onboarding"])
        let r = try S.resolve(S.p("cart.offer", ["id": .string("A")]), state)
        #expect(r.decision.lines == ["activate app", "dismiss onboarding", #"display cart cart.offer(id: "A")"#])
    }

    @Test func modalAlreadyPresentedOverTheTopIsReused() throws {
        let state = try S.state(after: [S.p("cart.cart"), S.p("onboarding.welcome")])
        let next = try S.resolve(S.p("onboarding.privacy"), state)
        #expect(next.decision.lines == ["activate app", "display onboarding onboarding.privacy"])
        #expect(next.state.stack(of: "onboarding") == [S.p("onboarding.welcome"), S.p("onboarding.privacy")])
        let reused = try #require(try S.resolve(S.p("onboarding.privacy"), state, explain: true).decision.trace)
        #expect(reused.contains("onboarding is already presented: reuse it"))

        let covered = try S.state(after: [S.p("cart.cart"), S.p("login.login"), S.p("onboarding.welcome")])
        #expect(covered.path == ["app", "main", "cart", "login", "onboarding"])
        let back = try S.resolve(S.p("login.login"), covered)
        #expect(back.decision.lines == ["activate app", "dismiss onboarding", "display login login.login"])
        #expect(back.state.path == ["app", "main", "cart", "login"])
    }

    @Test func modalWithDeclaredParentsIsStillPresentedOverItsParent() throws {
        let state = try S.state(after: [S.p("deals.deals")])
        #expect(state.path == ["app", "main", "catalog", "deals"])
        let r = try S.resolve(S.p("share.share", ["id": .string("x")]), state)
        #expect(
            r.decision.lines == ["activate app", "present share over catalog", #"display share share.share(id: "x")"#])
    }
}
