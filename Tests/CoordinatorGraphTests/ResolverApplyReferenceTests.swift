import DeepLink
import JSON
import Testing

@testable import CoordinatorGraph

/// The resolver walks states with coordinators as indices; these tests hold it to the documented meaning of each
/// step, written here over names (``Resolver/apply(_:to:)``'s contract), on random steps and states, names the
/// graph does not declare included.
@Suite struct ResolverApplyReferenceTests {
    typealias S = Shop

    /// ``Resolver/apply(_:to:)``'s contract, step by step, on a ``DeviceState`` keyed by names.
    struct Reference {
        let graph: Graph

        func isPresented(_ name: String) -> Bool {
            graph.coordinators.first { $0.name == name }?.kind.isPresented ?? false
        }

        func apply(_ decision: Decision, to state: DeviceState?) -> DeviceState {
            var next = state ?? .initial
            for step in decision.steps { apply(step, to: &next) }
            switch decision.outcome {
            case .gated: next.pending = decision.pending
            case .resumed: next.pending = nil
            case .routed, .fallback, .opened, .silent: break
            }
            if let pending = next.pending, !next.isStarted(pending.gate) { next.pending = nil }
            return next
        }

        func apply(_ step: Step, to state: inout DeviceState) {
            let name = step.coordinator
            switch step.action {
            case .activate:
                if name == "app" || state.path.isEmpty {
                    if state.path.first != name { cut(&state, keeping: 0, root: name) }
                } else if let j = state.path.firstIndex(of: name) {
                    cut(&state, keeping: j + 1)
                } else {
                    let parents = graph.coordinators.contains { $0.name == name } ? graph.parents(of: name) : []
                    if let j = state.path.lastIndex(where: parents.contains) { cut(&state, keeping: j + 1) }
                    state.path.append(name)
                }
                if !state.started.contains(name) { state.started.append(name) }
            case .start, .present:
                if let j = state.path.firstIndex(of: name) { stop(&state, from: j) }
                if let parent = step.parent, let j = state.path.lastIndex(of: parent) { cut(&state, keeping: j + 1) }
                if !state.started.contains(name) { state.started.append(name) }
                state.stacks[name] = nil
                state.tabs[name] = nil
                state.path.append(name)
            case .selectTab:
                if let child = step.child { state.tabs[name] = child }
                if let j = state.path.firstIndex(of: name) { cut(&state, keeping: j + 1) }
            case .dismiss:
                if let j = state.path.firstIndex(of: name) { stop(&state, from: j) } else { stopOne(name, &state) }
            case .setRoot:
                if let page = step.pageValue { state.stacks[name] = [page] }
            case .push:
                if let page = step.pageValue { state.stacks[name, default: []].append(page) }
            case .popTo:
                if let page = step.pageValue, var stack = state.stacks[name], let j = stack.lastIndex(of: page) {
                    stack.removeLast(stack.count - j - 1)
                    state.stacks[name] = stack
                }
            case .display:
                if let page = step.pageValue, state.stacks[name]?.last != page {
                    state.stacks[name, default: []].append(page)
                }
            }
        }

        func cut(_ state: inout DeviceState, keeping count: Int, root: String? = nil) {
            guard count < state.path.count || root != nil else { return }
            let kept = min(count, state.path.count)
            for name in state.path[kept...] where isPresented(name) { stopOne(name, &state) }
            state.path.removeLast(state.path.count - kept)
            if let root { state.path = [root] }
        }

        func stop(_ state: inout DeviceState, from index: Int) {
            for name in state.path[index...] { stopOne(name, &state) }
            state.path.removeLast(state.path.count - index)
        }

        func stopOne(_ name: String, _ state: inout DeviceState) {
            state.started.removeAll { $0 == name }
            state.stacks[name] = nil
            state.tabs[name] = nil
        }
    }

    /// A small deterministic generator (SplitMix64), so that a failure can be replayed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Coordinator names, two the graph does not declare among them.
    static let names = S.coordinators.map(\.name) + ["legacy", "ghost"]
    static let pages: [Page] = [
        S.p("catalog.home"), S.p("catalog.product", ["id": .string("p1")]), S.p("cart.cart"), S.p("cart.checkout"),
        S.p("cart.offer", ["id": .string("S")]), S.p("account.orders"), S.p("login.login"), S.p("deals.deals"),
    ]

    static func randomState(_ g: inout Generator) -> DeviceState {
        func some(_ count: Int) -> [String] {
            var out: [String] = []
            for _ in 0..<count {
                let name = names.randomElement(using: &g)!
                if !out.contains(name) { out.append(name) }
            }
            return out
        }
        var state = DeviceState()
        state.path = some(Int.random(in: 0...4, using: &g))
        state.started = some(Int.random(in: 0...3, using: &g))
        for name in state.path where !state.started.contains(name) { state.started.append(name) }
        for _ in 0..<Int.random(in: 0...2, using: &g) {
            state.tabs[names.randomElement(using: &g)!] = names.randomElement(using: &g)!
        }
        for _ in 0..<Int.random(in: 0...3, using: &g) {
            let stack = (0..<Int.random(in: 0...3, using: &g)).map { _ in pages.randomElement(using: &g)! }
            state.stacks[names.randomElement(using: &g)!] = stack
        }
        if Bool.random(using: &g) {
            state.pending = Pending(
                page: S.p("cart.checkout"), gate: names.randomElement(using: &g)!, condition: "session",
                expiresAt: S.t0)
        }
        return state
    }

    static func randomStep(_ g: inout Generator) -> Step {
        let action = Step.Action.allCases.randomElement(using: &g)!
        let name = names.randomElement(using: &g)!
        switch action {
        case .start, .present:
            return Step(action, name, parent: Bool.random(using: &g) ? names.randomElement(using: &g)! : nil)
        case .selectTab:
            return Step(action, name, child: names.randomElement(using: &g)!)
        case .popTo, .push, .setRoot, .display:
            return Step(action, name, page: pages.randomElement(using: &g)!)
        case .activate, .dismiss:
            return Step(action, name)
        }
    }

    @Test func applyingRandomStepsToRandomStatesFollowsTheContract() {
        var g = Generator(state: 0x5EED)
        let reference = Reference(graph: S.graph)
        for round in 0..<3_000 {
            let state = Bool.random(using: &g) ? nil : Self.randomState(&g)
            let steps = (0..<Int.random(in: 1...8, using: &g)).map { _ in Self.randomStep(&g) }
            let outcome = Decision.Outcome.allCases.randomElement(using: &g)!
            let pending = Pending(
                page: S.p("cart.checkout"), gate: Self.names.randomElement(using: &g)!, condition: "session",
                expiresAt: S.t0)
            let decision = Decision(
                id: "r", outcome: outcome, page: S.p("catalog.home"), path: ["app"], steps: steps,
                pending: outcome == .gated ? pending : nil, createdAt: S.t0)
            let expected = reference.apply(decision, to: state)
            let got = S.resolver.apply(decision, to: state)
            #expect(got == expected, "round \(round): \(steps) on \(String(describing: state))")
            if got != expected { return }
        }
    }

    @Test func resolvingFromRandomStatesAgreesWithApplyingTheDecision() throws {
        var g = Generator(state: 0xC0FFEE)
        let reference = Reference(graph: S.graph)
        for round in 0..<1_000 {
            var state = Self.randomState(&g)
            if Bool.random(using: &g) { state.conditions = ["session"] }
            let page = Self.pages.randomElement(using: &g)!
            let resolution = try S.resolver.resolve(page, state: state, now: S.t0, metadata: S.metadata())
            #expect(reference.apply(resolution.decision, to: state) == resolution.state, "round \(round): \(page)")
        }
    }

    @Test func namesTheGraphDoesNotDeclareStayAsTheyWere() throws {
        let state = DeviceState(
            path: ["app", "main", "legacy"], started: ["app", "main", "legacy", "ghost"],
            tabs: ["main": "legacy", "ghost": "catalog"], stacks: ["legacy": [S.p("catalog.home")]])
        let resolution = try S.resolver.resolve(
            S.p("cart.offer", ["id": .string("S")]), state: state, now: S.t0, metadata: S.metadata())
        #expect(
            resolution.decision.steps.map(\.description) == [
                "activate app", "selectTab main cart", "start cart in main", "display cart cart.offer(id: \"S\")",
            ])
        let next = resolution.state
        #expect(next.path == ["app", "main", "cart"])
        #expect(next.started == ["app", "main", "legacy", "ghost", "cart"])
        #expect(next.tabs == ["main": "cart", "ghost": "catalog"])
        #expect(next.stacks == ["legacy": [S.p("catalog.home")], "cart": [S.p("cart.offer", ["id": .string("S")])]])
    }
}

/// ``IndexList`` against an array, across its inline capacity and back.
@Suite struct IndexListTests {
    @Test func behavesAsAnArrayAcrossItsInlineCapacity() {
        var g = ResolverApplyReferenceTests.Generator(state: 42)
        for _ in 0..<500 {
            var list = IndexList()
            var model: [Int] = []
            for _ in 0..<40 {
                switch Int.random(in: 0..<10, using: &g) {
                case 0..<6:
                    let value = Int.random(in: 0..<12, using: &g) * 100_003
                    list.append(value)
                    model.append(value)
                case 6, 7:
                    let k = Int.random(in: 0...model.count, using: &g)
                    list.removeLast(k)
                    model.removeLast(k)
                case 8:
                    if let value = model.randomElement(using: &g) {
                        list.removeAll(value)
                        model.removeAll { $0 == value }
                    }
                default:
                    let value = Int.random(in: 0..<12, using: &g)
                    list.replaceAll(with: value)
                    model = [value]
                }
                #expect(Array(list) == model)
                #expect(list.count == model.count)
                #expect(list.last == model.last)
                if Array(list) != model { return }
            }
        }
    }
}

/// ``TabList`` against an array of pairs, across its inline capacity and back.
@Suite struct TabListTests {
    @Test func behavesAsAnArrayOfPairsAcrossItsInlineCapacity() {
        var g = ResolverApplyReferenceTests.Generator(state: 7)
        for _ in 0..<500 {
            var list = TabList()
            var model: [(coordinator: Int, child: Int)] = []
            for _ in 0..<30 {
                switch Int.random(in: 0..<10, using: &g) {
                case 0..<5:
                    let pair = (Int.random(in: 0..<9, using: &g) * 1_000_003, Int.random(in: 0..<9, using: &g))
                    list.append(coordinator: pair.0, child: pair.1)
                    model.append(pair)
                case 5, 6:
                    if !model.isEmpty {
                        let i = Int.random(in: 0..<model.count, using: &g)
                        let child = Int.random(in: 0..<100, using: &g)
                        list.setChild(child, at: i)
                        model[i].child = child
                    }
                default:
                    if !model.isEmpty {
                        let i = Int.random(in: 0..<model.count, using: &g)
                        list.remove(at: i)
                        model.remove(at: i)
                    }
                }
                #expect(list.map(\.coordinator) == model.map(\.coordinator))
                #expect(list.map(\.child) == model.map(\.child))
                #expect(list.count == model.count)
                if list.map(\.child) != model.map(\.child) { return }
            }
        }
    }
}

/// A state the resolver made is read again by its names, and the parts no step changed are taken from it: resolving
/// from it must give what resolving from the same state built afresh gives, after changes to it, and with another
/// resolver.
@Suite struct ResolvingFromResolvedStatesTests {
    typealias S = Shop

    /// The same state, built again from its parts.
    static func fresh(_ state: DeviceState) -> DeviceState {
        DeviceState(
            path: Array(state.path), started: Array(state.started), tabs: state.tabs, stacks: state.stacks,
            conditions: state.conditions, pending: state.pending)
    }

    @Test(arguments: ResolverApplyTests.journeys)
    func resolvingFromAStateTheResolverMadeMatchesResolvingFromItsNames(pages: [Page]) throws {
        var state: DeviceState? = nil
        for page in pages + pages.reversed() {
            let made = try S.resolver.resolve(page, state: state, now: S.t0, metadata: S.metadata())
            if let state {
                let named = try S.resolver.resolve(page, state: Self.fresh(state), now: S.t0, metadata: S.metadata())
                #expect(made.decision == named.decision)
                #expect(made.state == named.state)
            }
            state = made.state
        }
    }

    @Test func changedStatesAreReadAsChanged() throws {
        let page = S.p("cart.offer", ["id": .string("S")])
        var state = try S.resolver.resolve(page, state: nil, now: S.t0, metadata: S.metadata()).state
        state.tabs["main"] = "account"
        state = try S.resolver.resolve(page, state: state, now: S.t0, metadata: S.metadata()).state
        state.stacks["cart"] = nil
        state.path.removeLast()
        state.started.removeAll { $0 == "catalog" }
        for target in [page, S.p("catalog.home"), S.p("cart.cart")] {
            let changed = try S.resolver.resolve(target, state: state, now: S.t0, metadata: S.metadata())
            let named = try S.resolver.resolve(target, state: Self.fresh(state), now: S.t0, metadata: S.metadata())
            #expect(changed.decision == named.decision)
            #expect(changed.state == named.state)
        }
    }

    @Test func anotherResolverReadsTheStateByItsNames() throws {
        // The same coordinators declared in reverse order: every index differs.
        let reversed = Resolver(graph: Graph(app: S.graph.app, coordinators: S.coordinators.reversed()))
        let page = S.p("cart.offer", ["id": .string("S")])
        let state = try S.resolver.resolve(page, state: nil, now: S.t0, metadata: S.metadata()).state
        for target in [page, S.p("catalog.home"), S.p("account.orders")] {
            let other = try reversed.resolve(target, state: state, now: S.t0, metadata: S.metadata())
            let named = try reversed.resolve(target, state: Self.fresh(state), now: S.t0, metadata: S.metadata())
            #expect(other.decision == named.decision)
            #expect(other.state == named.state)
        }
    }
}

/// ``NameIndex`` and ``Resolver/coordinatorIndex(_:)`` against a dictionary.
@Suite struct NameIndexTests {
    /// What a dictionary of `entries` answers for `key`, as a ``NameIndex/Match`` of ASCII queries.
    static func expected(_ entries: [String: Int], _ key: String) -> NameIndex.Match {
        entries[key].map { .value($0) } ?? .absent
    }

    @Test(arguments: [0, 1, 3, 17, 1_000, 10_000])
    func findsEveryNameAndNothingElse(count: Int) throws {
        var entries: [String: Int] = [:]
        for i in 0..<count { entries[i % 2 == 0 ? "c\(i)" : "coordinator\(i)"] = i * 7 }
        entries["sixteen-byte-\(count % 10)xx"] = count * 7
        let index = try #require(NameIndex(entries))
        for (name, value) in entries { #expect(index.find(name) == .value(value), "\(name)") }
        for missing in [
            "", "c", "c1", "coordinator0", "c\(count)", "coord\(count + 1)", "123456789012345",
            "sixteen-byte-\(count % 10)x", "sixteen-byte-\(count % 10)xxx", "a-name-longer-than-sixteen-bytes",
        ] {
            #expect(index.find(missing) == Self.expected(entries, missing), "\(missing)")
        }
        #expect(index.find("c\u{301}") == .notASCII)
        #expect(index.find("\u{212A}") == .notASCII)
        #expect(index.find("a-name-longer-than-sixteen-bytes-\u{E9}") == .notASCII)
        #expect(index.find("c1\u{0}") == .absent)
    }

    @Test(arguments: [0, 1, 5, 300, 5_000])
    func findsEveryPairAndNothingElse(count: Int) throws {
        var entries: [String: Int] = [:]  // "coordinator.name" to value
        var pairs: [(first: String, second: String, value: Int)] = []
        for i in 0..<count {
            let (first, second) = ("c\(i % 37)", i % 3 == 0 ? "p\(i)" : "page-no-\(i)")
            pairs.append((first, second, i * 3))
            entries[first + "." + second] = i * 3
        }
        let index = try #require(NameIndex(pairs: pairs))
        for (first, second, expected) in pairs {
            #expect(index.find(first, second) == .value(expected), "\(first).\(second)")
        }
        // The same names paired otherwise, a pair's names swapped, a single name, and the bytes of a pair split
        // elsewhere between its two names are not pairs of the table.
        for (first, second) in [
            ("c1", "p0"), ("c0", "p1"), ("p0", "c0"), ("c0", "p37"), ("c0", ""), ("", "c0"), ("c36", "p36"),
            ("c0p", "0"), ("c", "0p0"), ("c0", "a-name-longer-than-sixteen-bytes"), ("c0\u{0}", "p0"),
        ] {
            #expect(index.find(first, second) == Self.expected(entries, first + "." + second), "\(first).\(second)")
        }
        #expect(index.find("c\u{301}", "p0") == .notASCII)
        #expect(index.find("c0", "p\u{301}") == .notASCII)
        #expect(NameIndex(pairs: [("caf\u{E9}", "home", 1)]) == nil)
        #expect(NameIndex(pairs: [("cart", "caf\u{E9}", 1)]) == nil)
    }

    /// Pages are found as the dictionary of page ids finds them, by their bytes or not.
    @Test func pageEntryFindsWhatTheDictionaryFinds() {
        let resolver = Shop.resolver
        #expect(resolver.pageIndex != nil)
        var queries = Array(resolver.pageEntries.keys)
        queries += [
            PageID(coordinator: "cart", name: "nope"), PageID(coordinator: "nope", name: "cart"),
            PageID(coordinator: "c\u{61}rt", name: "offer"), PageID(coordinator: "cart", name: "offer-longer-than-15"),
            PageID(coordinator: "ca\u{301}rt", name: "offer"), PageID(coordinator: "car", name: "toffer"),
        ]
        for id in queries {
            #expect(resolver.pageEntry(id)?.definition.id == resolver.pageEntries[id]?.definition.id, "\(id)")
            #expect(resolver.pageEntry(id)?.owner == resolver.pageEntries[id]?.owner, "\(id)")
        }
    }

    @Test func isNotBuiltUnlessEveryNameIsShortASCII() {
        #expect(NameIndex(["cart": 0, "caf\u{E9}": 1]) == nil)
        #expect(NameIndex(["cart": 0, "\u{212A}": 1]) == nil)
        #expect(NameIndex(["cart": 0, "seventeen-bytes-x": 1]) == nil)
        #expect(NameIndex(["cart": 0, "sixteen-bytes-xx": 1]) != nil)
        #expect(NameIndex(pairs: [("cart", "seventeen-bytes-x", 1)]) == nil)
    }

    /// Names are found as `String` equality finds them (canonical equivalence), by their bytes or not.
    @Test(arguments: [["K", "cart"], ["\u{E1}", "cart"], ["cart", "a-name-longer-than-fifteen-bytes"]])
    func coordinatorIndexFindsWhatADictionaryFinds(names: [String]) {
        let coordinators =
            [Coordinator(name: "app", kind: .app, children: names, root: names[0], location: Shop.here)]
            + names.map { Coordinator(name: $0, kind: .stack, pages: [Shop.page($0, "home")], location: Shop.here) }
        let resolver = Resolver(graph: Graph(app: Shop.graph.app, coordinators: coordinators))
        let entries = Dictionary(uniqueKeysWithValues: (["app"] + names).enumerated().map { ($1, $0) })
        for query in ["\u{212A}", "K", "a\u{301}", "\u{E1}", "cart", "c\u{61}rt", "ca\u{301}rt", "app", "x"] {
            #expect(resolver.coordinatorIndex(query) == entries[query], "\(query.unicodeScalars.map(\.value))")
        }
    }
}
