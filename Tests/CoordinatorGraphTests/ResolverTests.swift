import CoordinatorGraph
import DeepLink
import Testing

@Suite struct ResolverTests {
    typealias S = Shop

    // MARK: Cold start

    @Test func coldStartBuildsThePathFromTheRootAndTheSynthesizedBackStack() throws {
        let r = try S.resolve(S.p("cart.offer", ["id": .string("SUMMER")]), nil)
        #expect(
            r.decision.lines == [
                "activate app", "start main in app", "selectTab main cart", "start cart in main",
                "setRoot cart cart.cart", #"display cart cart.offer(id: "SUMMER")"#,
            ])
        #expect(r.decision.outcome == .routed)
        #expect(r.decision.path == ["app", "main", "cart"])
        #expect(r.decision.pending == nil)
        #expect(r.decision.trace == nil)
        #expect(r.state.path == ["app", "main", "cart"])
        #expect(r.state.started == ["app", "main", "cart"])
        #expect(r.state.tabs == ["main": "cart"])
        #expect(r.state.stacks == ["cart": [S.p("cart.cart"), S.p("cart.offer", ["id": .string("SUMMER")])]])
        #expect(r.state.conditions.isEmpty)
    }

    @Test func coldStartToARootPageDisplaysItAlone() throws {
        let r = try S.resolve(S.p("catalog.home"), nil)
        #expect(
            r.decision.lines == [
                "activate app", "start main in app", "selectTab main catalog", "start catalog in main",
                "display catalog catalog.home",
            ])
        #expect(r.state.stacks == ["catalog": [S.p("catalog.home")]])
    }

    @Test func coldStartSynthesizesTheBackChainWithArgumentsTakenByLabel() throws {
        let r = try S.resolve(S.p("catalog.filters", ["slug": .string("shoes"), "sort": .enumCase("rating")]), nil)
        #expect(
            r.decision.lines.suffix(3) == [
                "setRoot catalog catalog.home",
                #"push catalog catalog.category(slug: "shoes", page: 1, sort: .rating)"#,
                #"display catalog catalog.filters(slug: "shoes", sort: .rating)"#,
            ])
        let comments = try S.resolve(S.p("magazine.comments", ["slug": .string("swift"), "page": .int(2)]), nil)
        #expect(
            comments.decision.lines.suffix(3) == [
                "setRoot magazine magazine.home", #"push magazine magazine.read(slug: "swift")"#,
                #"display magazine magazine.comments(slug: "swift", page: 2)"#,
            ])
    }

    @Test func modalIsPresentedOverItsParent() throws {
        let r = try S.resolve(S.p("payment.pay", ["order": .int(12)]), DeviceState(conditions: ["session"]))
        #expect(r.decision.path == ["app", "payment"])
        #expect(
            r.decision.lines == ["activate app", "present payment over app", "display payment payment.pay(order: 12)"])
        #expect(r.state.path == ["app", "payment"])
    }

    @Test func flowIsPresentedWithItsFirstStepBeneath() throws {
        let r = try S.resolve(S.p("onboarding.privacy"), nil)
        #expect(
            r.decision.lines == [
                "activate app", "present onboarding over app", "setRoot onboarding onboarding.welcome",
                "display onboarding onboarding.privacy",
            ])
    }

    // MARK: Known devices: the minimal diff

    @Test func knownDeviceStartsATabWithoutSynthesizingItsRootPage() throws {
        // docs/design.md §3's example: main is visible on the catalog tab, cart was never opened.
        let state = try S.state(after: [S.p("catalog.home")])
        let r = try S.resolve(S.p("cart.offer", ["id": .string("SUMMER")]), state)
        #expect(
            r.decision.lines == [
                "activate app", "selectTab main cart", "start cart in main", #"display cart cart.offer(id: "SUMMER")"#,
            ])
    }

    @Test func startedTabIsReusedAndKeepsItsStack() throws {
        let state = try S.state(after: [S.p("cart.offer", ["id": .string("A")]), S.p("catalog.home")])
        let r = try S.resolve(S.p("cart.offer", ["id": .string("B")]), state)
        #expect(
            r.decision.lines == [
                "activate app", "selectTab main cart", "activate cart", #"display cart cart.offer(id: "B")"#,
            ])
        #expect(
            r.state.stack(of: "cart") == [
                S.p("cart.cart"), S.p("cart.offer", ["id": .string("A")]), S.p("cart.offer", ["id": .string("B")]),
            ])
        #expect(r.state.stack(of: "catalog") == [S.p("catalog.home")])
        #expect(r.state.tabs == ["main": "cart"])
    }

    @Test func pageAlreadyOnTopOnlyNeedsDisplay() throws {
        let state = try S.state(after: [S.p("cart.offer", ["id": .string("A")])])
        let r = try S.resolve(S.p("cart.offer", ["id": .string("A")]), state)
        #expect(r.decision.lines == ["activate app", #"display cart cart.offer(id: "A")"#])
        #expect(r.state == state)
    }

    @Test func presentedModalInTheWayIsDismissedBeforePushing() throws {
        let state = try S.state(
            after: [S.p("account.profile"), S.p("payment.pay", ["order": .int(1)])], conditions: ["session"])
        #expect(state.path == ["app", "main", "account", "payment"])
        let r = try S.resolve(S.p("account.order", ["id": .int(7)]), state)
        #expect(
            r.decision.lines == [
                "activate app", "dismiss payment", "push account account.orders",
                "display account account.order(id: 7)",
            ])
        #expect(!r.state.isStarted("payment"))
        #expect(r.state.path == ["app", "main", "account"])
    }

    @Test func modalsAreDismissedTopMostFirstWhenSwitchingTabs() throws {
        let state = DeviceState(
            path: ["app", "main", "cart", "payment", "login"], started: ["app", "main", "cart", "payment", "login"],
            tabs: ["main": "cart"],
            stacks: [
                "cart": [S.p("cart.cart")], "payment": [S.p("payment.pay", ["order": .int(1)])],
                "login": [S.p("login.login")],
            ], conditions: ["session"])
        let r = try S.resolve(S.p("catalog.home"), state)
        #expect(
            r.decision.lines == [
                "activate app", "dismiss login", "dismiss payment", "selectTab main catalog", "start catalog in main",
                "display catalog catalog.home",
            ])
        #expect(r.state.started == ["app", "main", "cart", "catalog"])
        #expect(r.state.stacks.keys.sorted() == ["cart", "catalog"])
    }

    @Test func ownerVisibleUnderAChildCoordinatorIsBroughtToTheFront() throws {
        let state = try S.state(after: [S.p("deals.deal", ["id": .string("1")])])
        #expect(state.path == ["app", "main", "catalog", "deals"])
        let r = try S.resolve(S.p("catalog.product", ["id": .string("9")]), state)
        #expect(r.decision.lines == ["activate app", "activate catalog", #"display catalog catalog.product(id: "9")"#])
        #expect(r.state.path == ["app", "main", "catalog"])
        #expect(r.state.isStarted("deals"))
        let back = try S.resolve(S.p("deals.deal", ["id": .string("1")]), r.state)
        #expect(back.decision.lines == ["activate app", "activate deals", #"display deals deals.deal(id: "1")"#])
    }

    @Test func pageAlreadyInTheStackIsPoppedToInsteadOfPushedTwice() throws {
        let state = try S.state(after: [S.p("account.order", ["id": .int(3)])], conditions: ["session"])
        #expect(
            state.stack(of: "account") == [
                S.p("account.profile"), S.p("account.orders"), S.p("account.order", ["id": .int(3)]),
            ])
        let orders = try S.resolve(S.p("account.orders"), state)
        #expect(
            orders.decision.lines == ["activate app", "popTo account account.orders", "display account account.orders"])
        #expect(orders.state.stack(of: "account") == [S.p("account.profile"), S.p("account.orders")])

        let other = try S.resolve(S.p("account.order", ["id": .int(9)]), state)
        #expect(
            other.decision.lines == [
                "activate app", "popTo account account.orders", "display account account.order(id: 9)",
            ])
        #expect(other.state.stack(of: "account").count == 3)
    }

    @Test func missingBackPagesArePushedOnTopOfTheCurrentStack() throws {
        let state = try S.state(after: [S.p("catalog.category", ["slug": .string("shoes")])])
        let r = try S.resolve(S.p("catalog.reviews", ["id": .string("42")]), state)
        #expect(
            r.decision.lines == [
                "activate app", #"push catalog catalog.product(id: "42")"#,
                #"display catalog catalog.reviews(id: "42")"#,
            ])
        #expect(r.state.stack(of: "catalog").count == 4)
    }

    // MARK: Several parents

    @Test func modalWithSeveralParentsIsPresentedOverTheVisibleOne() throws {
        let onCart = try S.state(after: [S.p("cart.cart")], conditions: ["session"])
        let r = try S.resolve(S.p("payment.pay", ["order": .int(3)]), onCart)
        #expect(r.decision.path == ["app", "main", "cart", "payment"])
        #expect(
            r.decision.lines == ["activate app", "present payment over cart", "display payment payment.pay(order: 3)"])

        let onAccount = try S.state(after: [S.p("account.profile")], conditions: ["session"])
        #expect(
            try S.resolve(S.p("payment.pay", ["order": .int(3)]), onAccount).decision.path == [
                "app", "main", "account", "payment",
            ])
    }

    @Test func startedParentIsPreferredOverTheShortestWhenNoneIsVisible() throws {
        let state = try S.state(after: [S.p("account.profile"), S.p("cart.cart")], conditions: ["session"])
        let r = try S.resolve(S.p("share.share", ["id": .string("x")]), state)
        #expect(r.decision.path == ["app", "main", "account", "share"])
        #expect(
            r.decision.lines == [
                "activate app", "selectTab main account", "activate account", "present share over account",
                #"display share share.share(id: "x")"#,
            ])
    }

    @Test func coldStartTakesTheFirstDeclaredParentAmongEquals() throws {
        let r = try S.resolve(S.p("share.share", ["id": .string("x")]), nil)
        #expect(r.decision.path == ["app", "main", "catalog", "share"])
    }

    // MARK: Outcome, explain, errors

    @Test(arguments: [Decision.Outcome.routed, .fallback, .resumed])
    func routedResultReportsTheOutcomeAskedFor(outcome: Decision.Outcome) throws {
        let r = try S.resolve(S.p("catalog.home"), nil, outcome: outcome)
        #expect(r.decision.outcome == outcome)
    }

    @Test func decisionCarriesTheCallersMetadataAndTime() throws {
        let r = try S.resolve(S.p("catalog.home"), nil)
        #expect(r.decision.id == "d1")
        #expect(r.decision.device == "ipad-7")
        #expect(r.decision.source == DecisionSource(format: "link", field: "link", link: nil))
        #expect(r.decision.createdAt == S.t0)
    }

    @Test func explainTellsWhichParentWasChosenAndWhatWasReusedOrStarted() throws {
        let state = try S.state(after: [S.p("cart.cart")], conditions: ["session"])
        let trace = try #require(
            try S.resolve(S.p("payment.pay", ["order": .int(3)]), state, explain: true).decision.trace)
        #expect(trace.contains("payment has parents app, cart, account: chose cart (visible, nearest the top)"))
        #expect(trace.contains("path: app → main → cart → payment"))
        #expect(trace.contains("main: visible, kept"))

        let cold = try #require(try S.resolve(S.p("cart.checkout"), nil, explain: true).decision.trace)
        #expect(cold.contains("device not seen before: cold start, no condition satisfied"))
        #expect(cold.contains("start cart in main: not started"))
        #expect(cold.contains("gated: cart.checkout requires session, not satisfied"))
    }

    @Test func undeclaredPageIsATypedError() {
        #expect(throws: ResolveError.self) {
            try S.resolver.resolve(S.p("cart.nothing"), state: nil, now: S.t0, metadata: S.metadata())
        }
        do {
            _ = try S.resolver.resolve(S.p("cart.nothing"), state: nil, now: S.t0, metadata: S.metadata())
        } catch {
            #expect(error.code == .unknownPage)
            #expect(error.subject == "cart.nothing")
        }
    }

    @Test func unreachableOwnerAndMissingProviderAreTypedErrors() throws {
        let here = S.here
        let graph = Graph(
            app: AppSettings(name: "T", schemes: [], hosts: [], fallback: nil),
            coordinators: [
                Coordinator(name: "app", kind: .app, children: ["home"], root: "home", location: here),
                Coordinator(
                    name: "home", kind: .stack, pages: [S.page("home", "start", requires: ["paid"])], location: here),
                Coordinator(name: "orphan", kind: .stack, pages: [S.page("orphan", "lost")], location: here),
            ])
        let resolver = Resolver(graph: graph)
        do {
            _ = try resolver.resolve(S.p("orphan.lost"), state: nil, now: S.t0, metadata: S.metadata())
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .unreachable)
        }
        do {
            _ = try resolver.resolve(S.p("home.start"), state: nil, now: S.t0, metadata: S.metadata())
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .noProvider)
            #expect(error.subject == "paid")
        }
    }
}
