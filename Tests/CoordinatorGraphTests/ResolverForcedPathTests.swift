import DeepLink
import Testing

@testable import CoordinatorGraph

/// A coordinator whose way up from it has one parent at each level gets its path from ``Resolver/forcedPaths``,
/// made when the resolver is built, instead of weighing parents on each walk: that path must be the one weighing
/// would choose from every state.
@Suite struct ResolverForcedPathTests {
    /// `definition`'s page with a sample value for each parameter (its default, else one of its type).
    static func page(_ definition: PageDefinition) -> Page {
        Page(
            id: definition.id,
            arguments: definition.declaration.parameters.map {
                Page.Argument(label: $0.label, value: ResolverShopConfigTests.sample($0))
            })
    }

    /// No state, and the state after routing each page of the graph (every `stride`-th, by id) from none and from
    /// the state before.
    static func states(_ resolver: Resolver, stride: Int) -> [DeviceState?] {
        var states: [DeviceState?] = [nil]
        var last: DeviceState?
        let definitions = resolver.graph.pagesByID.values.sorted { $0.id.description < $1.id.description }
        for (i, definition) in definitions.enumerated() where i % stride == 0 {
            let now = Timestamp(millisecondsSince1970: 1_714_566_896_789)
            for start in [nil, last] {
                guard
                    let resolution = try? resolver.resolve(
                        page(definition), state: start, now: now, metadata: DecisionMetadata(id: "f"))
                else { continue }
                states.append(resolution.state)
                last = resolution.state
            }
        }
        return states
    }

    /// Checks every forced path against weighing on each state; returns how many coordinators have one.
    static func check(_ resolver: Resolver, stride: Int = 1) -> Int {
        let states = states(resolver, stride: stride)
        #expect(states.count > 2)
        var forced = 0
        for target in resolver.names.indices {
            guard let path = resolver.forcedPaths[target] else { continue }
            forced += 1
            for state in states {
                var weighing = Walk.starting(
                    from: state.map(resolver.navigationState) ?? NavigationState(), explain: false)
                var taking = weighing
                let weighed = resolver.weighedPath(to: target, walk: &weighing)
                #expect(weighed.map(Array.init) == Array(path), "\(resolver.names[target])")
                #expect(resolver.path(to: target, walk: &taking).map(Array.init) == Array(path))
                #expect(taking.visits == weighing.visits, "\(resolver.names[target]): visits counted as weighing does")
            }
        }
        return forced
    }

    @Test func forcedPathsAreWhatWeighingChoosesFromEveryState() {
        let small = ResolverWorkTests.small
        #expect(Self.check(small) > 0)
        // Every 97th page: the small graph's and some of the thousand stacks'.
        #expect(Self.check(ResolverWorkTests.large, stride: 97) > 980)
        #expect(Self.check(Shop.resolver) > 0)
    }

    @Test func aCoordinatorWithSeveralParentsOnTheWayHasNone() throws {
        let resolver = ResolverWorkTests.large
        let cart = try #require(resolver.coordinatorIndex("cart"))
        #expect(resolver.forcedPaths[cart].map { $0.map { resolver.names[$0] } } == ["app", "main", "cart"])
        for name in ["pay", "x0_modal", "x9_modal"] {
            let index = try #require(resolver.coordinatorIndex(name))
            #expect(resolver.forcedPaths[index] == nil, "\(name) has several parents")
        }
    }

    @Test func theRootsPathIsItself() throws {
        let resolver = ResolverWorkTests.small
        let app = try #require(resolver.coordinatorIndex("app"))
        #expect(resolver.forcedPaths[app].map(Array.init) == [app])
    }

    /// app → s0 → s1 → … → s11, each the only child of the one before.
    static let chain: Resolver = {
        let here = ResolverWorkTests.here
        var coordinators = [Coordinator(name: "app", kind: .app, children: ["s0"], root: "s0", location: here)]
        for i in 0..<12 {
            coordinators.append(
                Coordinator(
                    name: "s\(i)", kind: .stack, children: i < 11 ? ["s\(i + 1)"] : [],
                    pages: [ResolverWorkTests.page("s\(i)", "home")], location: here))
        }
        return Resolver(
            graph: Graph(
                app: AppSettings(name: "C", schemes: [], hosts: [], fallback: nil), coordinators: coordinators))
    }()

    @Test func aPathLongerThanTheInlineListIsWeighedOnEachWalk() throws {
        let resolver = Self.chain
        for depth in 0..<12 {
            let index = try #require(resolver.coordinatorIndex("s\(depth)"))
            let expected = ["app"] + (0...depth).map { "s\($0)" }
            #expect(resolver.path(to: "s\(depth)", state: nil) == expected)
            if expected.count <= IndexList.inlineCapacity {
                #expect(resolver.forcedPaths[index].map { $0.map { resolver.names[$0] } } == expected)
            } else {
                #expect(resolver.forcedPaths[index] == nil, "s\(depth): \(expected.count) coordinators")
            }
        }
        #expect(Self.check(resolver) == IndexList.inlineCapacity)
    }
}
