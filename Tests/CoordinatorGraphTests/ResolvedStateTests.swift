import CoordinatorGraph
import DeepLink
import JSON
import Testing

/// A state kept as the resolver holds it (``ResolvedState``) routes, names and spells itself as its ``DeviceState``.
@Suite struct ResolvedStateTests {
    typealias S = Shop

    /// Pages across four stacks and two presented coordinators, a gate, a resumed page and a dismissal.
    static let pages: [(Page, Decision.Outcome)] = [
        (
            S.p("catalog.category", ["slug": .string("a \"b\"\n"), "page": .int(-1), "sort": .enumCase("rating")]),
            .routed
        ),
        (S.p("cart.offer", ["id": .string("é😀")]), .routed),
        (S.p("account.order", ["id": .int(3)]), .routed),
        (S.p("magazine.read", ["slug": .string("x")]), .routed),
        (S.p("deals.deal", ["id": .string("d")]), .routed),
        (S.p("payment.pay", ["order": .int(9)]), .routed),
        (S.p("cart.checkout"), .routed),
        (S.p("share.share", ["id": .string("s")]), .routed),
        (S.p("catalog.home"), .resumed),
    ]

    /// Each page resolved from the device state and from the resolved state: the same decisions, the same states.
    @Test func resolvingFromAResolvedStateMatchesResolvingFromItsDeviceState() throws {
        try Self.walk(Self.pages)
        #expect(try S.state(after: Self.pages.map(\.0)).stacks.count >= 3, "the walk keeps several stacks")
    }

    /// The same, along the resolver's journeys there and back.
    @Test(arguments: ResolverApplyTests.journeys)
    func journeysFromResolvedStatesMatchJourneysByName(pages: [Page]) throws {
        try Self.walk((pages + pages.reversed()).map { ($0, .routed) })
    }

    static func walk(_ pages: [(Page, Decision.Outcome)]) throws {
        var named: DeviceState? = nil
        var resolved: ResolvedState? = nil
        for (step, (page, outcome)) in pages.enumerated() {
            let byName = try S.resolver.resolve(
                page, state: named, now: S.t0, outcome: outcome, metadata: S.metadata("d\(step)"))
            let (decision, next) = try S.resolver.resolve(
                page, from: resolved, now: S.t0, outcome: outcome, metadata: S.metadata("d\(step)")
            ).take()
            #expect(decision == byName.decision, "step \(step): \(page)")
            #expect(next.state == byName.state, "step \(step): \(page)")
            #expect(next.pending == byName.state.pending, "step \(step): \(page)")
            named = byName.state
            resolved = next
        }
    }

    /// The text written from the indices is the device state's, byte for byte: `tabs` and `stacks` sorted by name
    /// whatever the order of their coordinators in the graph, names escaped, a pending page and foreign names.
    @Test func resolvedStateIsWrittenAsItsDeviceState() throws {
        var states = [DeviceState.initial]
        var resolved: [ResolvedState] = [S.resolver.resolved(.initial)]
        var state: DeviceState? = DeviceState(conditions: ["session"])
        var current = S.resolver.resolved(state!)
        for (step, (page, outcome)) in Self.pages.enumerated() {
            let resolution = try S.resolver.resolve(
                page, from: current, now: S.t0, outcome: outcome, metadata: S.metadata("d\(step)"))
            state = resolution.state
            current = resolution.take().state
            states.append(state!)
            resolved.append(current)
        }
        let gated = try S.resolve(S.p("magazine.article", ["slug": .string("x")]), nil).state
        #expect(gated.pending != nil)
        states.append(gated)
        resolved.append(S.resolver.resolved(gated))
        let foreign = DeviceState(
            path: ["app", "gone \"tab\""], started: ["app", "gone \"tab\""],
            tabs: ["zz": "gone \"tab\"", "main": "cart"],
            stacks: ["gone \"tab\"": [S.p("cart.cart")], "cart": [S.p("cart.cart")]])
        states.append(foreign)
        resolved.append(S.resolver.resolved(foreign))
        #expect(states.contains { $0.stacks.count >= 3 && $0.tabs.count >= 1 })
        for (state, resolved) in zip(states, resolved) {
            let written = JSONText(writing: resolved, capacity: 16).bytes
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: state.jsonText.bytes, as: UTF8.self))
            #expect(resolved.state == state)
        }
    }

    /// A state held by another resolver (an earlier config) is named and looked up again, and routes the same.
    @Test func aStateOfAnotherResolverIsReadByName() throws {
        // The same coordinators declared in reverse order: every index differs.
        let earlier = Resolver(graph: Graph(app: S.graph.app, coordinators: S.coordinators.reversed()))
        let kept = try earlier.resolve(
            S.p("account.order", ["id": .int(3)]), from: nil, now: S.t0, metadata: S.metadata()
        ).take().state
        let page = S.p("cart.offer", ["id": .string("x")])
        let fromKept = try S.resolver.resolve(page, from: kept, now: S.t0, metadata: S.metadata("d2"))
        let fromName = try S.resolver.resolve(page, state: kept.state, now: S.t0, metadata: S.metadata("d2"))
        #expect(fromKept == fromName)
        #expect(kept.resolver === earlier)
        #expect(fromKept.take().state.resolver === S.resolver)
    }
}
