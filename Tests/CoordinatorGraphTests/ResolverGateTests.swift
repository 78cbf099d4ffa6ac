import CoordinatorGraph
import DeepLink
import Testing

@Suite struct ResolverGateTests {
    typealias S = Shop

    func finish(
        _ coordinator: String, _ state: DeviceState, at now: Timestamp = S.t0.adding(seconds: 60)
    ) throws
        -> FlowFinishedResult
    {
        let result = try S.resolver.flowFinished(coordinator, state: state, now: now, metadata: S.metadata("d2"))
        if let decision = result.decision {
            #expect(decision.steps == result.steps)
            var satisfied = state
            for c in S.graph.coordinator(coordinator)?.provides ?? [] where !satisfied.isSatisfied(c) {
                satisfied.conditions.append(c)
            }
            #expect(S.resolver.apply(decision, to: satisfied) == result.state)
        }
        return result
    }

    @Test func gatedPageOnColdStartPresentsLoginOverItsContextAndBecomesPending() throws {
        let checkout = S.p("cart.checkout")
        let r = try S.resolve(checkout, nil)
        #expect(r.decision.outcome == .gated)
        #expect(r.decision.path == ["app", "main", "cart"])
        #expect(
            r.decision.lines == [
                "activate app", "start main in app", "selectTab main cart", "start cart in main",
                "setRoot cart cart.cart",
                "present login over cart", "display login login.login",
            ])
        let pending = Pending(page: checkout, gate: "login", condition: "session", expiresAt: S.t0.adding(seconds: 600))
        #expect(r.decision.pending == pending)
        #expect(r.state.pending == pending)
        #expect(r.state.path == ["app", "main", "cart", "login"])
    }

    @Test func gatedPageResumesAfterLogin() throws {
        let gated = try S.resolve(S.p("cart.checkout"), nil).state
        let result = try finish("login", gated)
        #expect(result.status == .resumed)
        let decision = try #require(result.decision)
        #expect(decision.outcome == .resumed)
        #expect(decision.id == "d2")
        #expect(decision.page == S.p("cart.checkout"))
        #expect(decision.lines == ["activate app", "dismiss login", "display cart cart.checkout"])
        #expect(decision.pending == nil)
        #expect(result.state.conditions == ["session"])
        #expect(result.state.pending == nil)
        #expect(result.state.path == ["app", "main", "cart"])
        #expect(result.state.stack(of: "cart") == [S.p("cart.cart"), S.p("cart.checkout")])
        #expect(!result.state.isStarted("login"))
    }

    @Test func gatedCoordinatorPresentsLoginBeforeEnteringIt() throws {
        let order = S.p("account.order", ["id": .int(5)])
        let r = try S.resolve(order, nil)
        #expect(
            r.decision.lines == [
                "activate app", "start main in app", "present login over main", "display login login.login",
            ])
        #expect(!r.state.isStarted("account"))
        let resumed = try #require(try finish("login", r.state).decision)
        #expect(
            resumed.lines == [
                "activate app", "dismiss login", "selectTab main account", "start account in main",
                "setRoot account account.profile", "push account account.orders",
                "display account account.order(id: 5)",
            ])
    }

    @Test func pageGatedByItsCoordinatorOnAColdStartResumesAsThatColdStartWouldRouteIt() throws {
        // With the session from the start, a cold start builds profile › orders › order; gated by account and
        // resumed after login, the device must end up the same way.
        let order = S.p("account.order", ["id": .int(5)])
        let direct = try S.resolve(order, DeviceState(conditions: ["session"]))
        let gated = try S.resolve(order, nil)
        let result = try finish("login", gated.state)
        let resumed = try #require(result.decision)
        #expect(resumed.outcome == .resumed)
        #expect(Array(resumed.lines.dropFirst(2)) == Array(direct.decision.lines.dropFirst(2)))
        #expect(result.state == direct.state)
    }

    @Test func pageGatedOnAKnownDeviceResumesWithTheMinimalDiff() throws {
        // The device shows the cart: the account tab, started on resume, gets the back chain only, as it would
        // with the session already there.
        let state = try S.state(after: [S.p("cart.offer", ["id": .string("A")])])
        let order = S.p("account.order", ["id": .int(5)])
        let gated = try S.resolve(order, state)
        #expect(gated.decision.lines == ["activate app", "present login over cart", "display login login.login"])
        let resumed = try #require(try finish("login", gated.state).decision)
        #expect(
            resumed.lines == [
                "activate app", "dismiss login", "selectTab main account", "start account in main",
                "setRoot account account.orders", "display account account.order(id: 5)",
            ])
        var withSession = state
        withSession.conditions = ["session"]
        #expect(
            Array(try S.resolve(order, withSession).decision.lines.dropFirst())
                == Array(resumed.lines.dropFirst(2)))
    }

    @Test func gateIsPresentedOverTheCurrentTopOfAKnownDevice() throws {
        let state = try S.state(after: [S.p("catalog.home")])
        let r = try S.resolve(S.p("cart.checkout"), state)
        #expect(
            r.decision.lines == [
                "activate app", "selectTab main cart", "start cart in main", "present login over cart",
                "display login login.login",
            ])
    }

    @Test func chainedGatesPresentLoginThenThePaywallThenThePage() throws {
        let article = S.p("magazine.article", ["slug": .string("x")])
        let first = try S.resolve(article, nil)
        #expect(first.decision.pending?.gate == "login")
        #expect(first.decision.pending?.condition == "session")
        #expect(
            first.decision.lines == [
                "activate app", "start main in app", "selectTab main magazine", "start magazine in main",
                "setRoot magazine magazine.home", "present login over magazine", "display login login.login",
            ])

        let second = try finish("login", first.state, at: S.t0.adding(seconds: 100))
        #expect(second.status == .gated)
        let paywall = try #require(second.decision)
        #expect(paywall.outcome == .gated)
        #expect(
            paywall.lines == [
                "activate app", "dismiss login", "present paywall over magazine", "display paywall paywall.offer",
            ])
        #expect(
            paywall.pending
                == Pending(
                    page: article, gate: "paywall", condition: "premium", expiresAt: S.t0.adding(seconds: 100 + 600)))
        #expect(second.state.pending == paywall.pending)

        let third = try finish("paywall", second.state, at: S.t0.adding(seconds: 200))
        #expect(third.status == .resumed)
        #expect(
            third.decision?.lines == [
                "activate app", "dismiss paywall", #"display magazine magazine.article(slug: "x")"#,
            ])
        #expect(third.state.conditions == ["session", "premium"])
        #expect(third.state.pending == nil)
    }

    @Test func providerThatNeedsAnotherConditionComesAfterItsOwnProvider() throws {
        // vip requires premium; its provider (paywall) requires session, which login provides.
        let lounge = S.p("vip.lounge")
        let first = try S.resolve(lounge, nil)
        #expect(first.decision.pending?.gate == "login")
        #expect(first.decision.pending?.condition == "session")
        let second = try finish("login", first.state)
        // The paywall's only parent (magazine) is not visible: it is reached first.
        #expect(
            second.decision?.lines == [
                "activate app", "dismiss login", "selectTab main magazine", "start magazine in main",
                "setRoot magazine magazine.home", "present paywall over magazine", "display paywall paywall.offer",
            ])
        let third = try finish("paywall", second.state)
        #expect(
            third.decision?.lines == [
                "activate app", "dismiss paywall", "selectTab main vip", "start vip in main", "display vip vip.lounge",
            ])
    }

    @Test func expiredPendingPageIsDroppedWhenTheFlowFinishes() throws {
        let gated = try S.resolve(S.p("cart.checkout"), nil)
        let result = try finish("login", gated.state, at: S.t0.adding(seconds: 600))
        #expect(result.status == .expired)
        #expect(result.decision == nil)
        #expect(result.expired == gated.decision.pending)
        #expect(result.state.pending == nil)
        #expect(result.state.conditions == ["session"])
        #expect(result.steps.map(\.description) == ["activate app", "dismiss login"])

        let justInTime = try finish(
            "login", gated.state, at: Timestamp(millisecondsSince1970: S.t0.millisecondsSince1970 + 599_999))
        #expect(justInTime.status == .resumed)
    }

    @Test func newerGatedPageReplacesTheOlderPendingOne() throws {
        let first = try S.resolve(S.p("cart.checkout"), nil)
        let order = S.p("account.order", ["id": .int(5)])
        let second = try S.resolve(order, first.state, at: S.t0.adding(seconds: 30))
        #expect(second.decision.outcome == .gated)
        #expect(second.decision.lines == ["activate app", "activate login"])
        #expect(second.state.pending?.page == order)
        #expect(second.state.pending?.expiresAt == S.t0.adding(seconds: 630))
        let trace = try #require(
            try S.resolve(order, first.state, at: S.t0.adding(seconds: 30), explain: true).decision.trace)
        #expect(trace.contains("pending account.order(id: 5) replaces pending cart.checkout"))

        let resumed = try finish("login", second.state)
        #expect(resumed.decision?.page == order)
        #expect(
            resumed.decision?.lines == [
                "activate app", "dismiss login", "selectTab main account", "start account in main",
                "setRoot account account.orders", "display account account.order(id: 5)",
            ])
    }

    @Test func routingAwayDismissesTheGateAndDropsThePendingPage() throws {
        let gated = try S.resolve(S.p("cart.checkout"), nil)
        let r = try S.resolve(S.p("catalog.home"), gated.state)
        #expect(
            r.decision.lines == [
                "activate app", "dismiss login", "selectTab main catalog", "start catalog in main",
                "display catalog catalog.home",
            ])
        #expect(r.state.pending == nil)
    }

    @Test func finishingAnUnrelatedFlowKeepsThePendingPage() throws {
        var state = try S.resolve(S.p("cart.checkout"), nil).state
        state.path.append("onboarding")
        state.started.append("onboarding")
        let result = try finish("onboarding", state)
        #expect(result.status == .stillWaiting)
        #expect(result.decision == nil)
        #expect(result.state.pending?.page == S.p("cart.checkout"))
        #expect(result.state.conditions == ["onboarded"])
        #expect(result.state.path == ["app", "main", "cart", "login"])
    }

    @Test func finishingWithNothingPendingOnlyDismisses() throws {
        let state = try S.state(after: [S.p("onboarding.welcome")])
        let result = try finish("onboarding", state)
        #expect(result.status == .nothingPending)
        #expect(result.decision == nil)
        #expect(result.steps.map(\.description) == ["activate app", "dismiss onboarding"])
        #expect(result.state.path == ["app"])
        #expect(result.state.conditions == ["onboarded"])
    }

    @Test func gatedFallbackPageIsReportedAsGated() throws {
        let r = try S.resolve(S.p("account.profile"), nil, outcome: .fallback)
        #expect(r.decision.outcome == .gated)
    }

    @Test func satisfiedConditionsAreNotGatedAgain() throws {
        let r = try S.resolve(S.p("cart.checkout"), DeviceState(conditions: ["session"]))
        #expect(r.decision.outcome == .routed)
        #expect(r.decision.pending == nil)
    }

    @Test(arguments: [
        ("nowhere", ResolveError.Code.unknownCoordinator),
        ("cart", .providesNothing),
        ("login", .notStarted),
    ])
    func finishingAFlowThatCannotFinishIsATypedError(coordinator: String, code: ResolveError.Code) throws {
        let state = try S.state(after: [S.p("cart.cart")])
        do {
            _ = try S.resolver.flowFinished(coordinator, state: state, now: S.t0, metadata: S.metadata())
            Issue.record("expected \(code)")
        } catch {
            #expect(error.code == code)
            #expect(error.subject == coordinator)
        }
    }
}
