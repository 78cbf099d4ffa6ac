import DeepLink
import Testing

@testable import CoordinatorGraph

/// Resolving looks at the coordinators on the way to the page, never at the rest of the graph: the same journey on
/// a small graph and on one with 1,000 more coordinators (the same ones on the way) visits as many coordinators and
/// gives the same decisions.
@Suite struct ResolverWorkTests {
    static let here = SourceLocation(file: "work.swift", line: 1, column: 1)

    static func page(
        _ coordinator: String, _ name: String, _ parameters: [Parameter] = [], back: String? = nil
    )
        -> PageDefinition
    {
        PageDefinition(
            id: PageID(coordinator: coordinator, name: name),
            declaration: CaseDeclaration(name: name, parameters: parameters), patterns: [], back: back,
            location: here)
    }

    /// app → main (tabs: cart, account) → …, login, and pay (parents cart, account). With `extra`: ten more tabs of
    /// 98 child stacks each, and a modal per tab with 22 parents (cart, account and 20 of the tab's stacks).
    static func graph(extra: Bool) -> Graph {
        let id = Parameter(label: "id", type: .int)
        let extraTabs = extra ? (0..<10).map { "x\($0)" } : []
        var coordinators: [Coordinator] = [
            Coordinator(name: "app", kind: .app, children: ["main", "login"], root: "main", location: here),
            Coordinator(
                name: "main", kind: .tabs, children: ["cart", "account"] + extraTabs, root: "cart", location: here),
            Coordinator(
                name: "cart", kind: .stack,
                pages: [page("cart", "cart"), page("cart", "checkout", back: "cart"), page("cart", "offer", [id])],
                location: here),
            Coordinator(
                name: "account", kind: .stack, requires: ["session"],
                pages: [
                    page("account", "profile"), page("account", "orders"),
                    page("account", "order", [id], back: "orders"),
                ],
                location: here),
            Coordinator(
                name: "login", kind: .modal, provides: ["session"], pages: [page("login", "login")], location: here),
            Coordinator(
                name: "pay", kind: .modal, parents: ["cart", "account"], pages: [page("pay", "pay", [id])],
                location: here),
        ]
        for tab in extraTabs {
            let stacks = (0..<98).map { "\(tab)_\($0)" }
            coordinators.append(
                Coordinator(name: tab, kind: .stack, children: stacks, pages: [page(tab, "home")], location: here))
            for stack in stacks {
                coordinators.append(
                    Coordinator(name: stack, kind: .stack, pages: [page(stack, "home")], location: here))
            }
            coordinators.append(
                Coordinator(
                    name: "\(tab)_modal", kind: .modal, parents: ["cart", "account"] + stacks.prefix(20),
                    pages: [page("\(tab)_modal", "sheet")], location: here))
        }
        return Graph(app: AppSettings(name: "A", schemes: [], hosts: [], fallback: nil), coordinators: coordinators)
    }

    static let small = Resolver(graph: graph(extra: false))
    static let large = Resolver(graph: graph(extra: true))

    static func p(_ id: String, _ arguments: KeyValuePairs<String, Value> = [:]) -> Page {
        Page(id: PageID(id)!, arguments: arguments.map { Page.Argument(label: $0.key, value: $0.value) })
    }

    /// A device's day: a gated cold start, login and the resumed page, a modal with two parents, a tab switch that
    /// dismisses it, and a cold start gated by a page. Returns the decisions, the last state and the visits.
    static func journey(_ resolver: Resolver) throws -> (decisions: [Decision], state: DeviceState, visits: Int) {
        let now = Timestamp(millisecondsSince1970: 1_714_566_896_789)
        let metadata = DecisionMetadata(id: "d", device: "d")
        var visits = 0
        var decisions: [Decision] = []
        func route(_ page: Page, _ state: DeviceState?) throws -> DeviceState {
            let r = try resolver.resolve(
                page, state: state, now: now, outcome: .routed, metadata: metadata, explain: false, visits: &visits)
            decisions.append(r.decision)
            return r.state
        }
        var state = try route(p("account.order", ["id": .int(4)]), nil)
        let finished = try resolver.flowFinished(
            "login", state: state, now: now, metadata: metadata, explain: false, visits: &visits)
        decisions += finished.decision.map { [$0] } ?? []
        state = try route(p("pay.pay", ["id": .int(1)]), finished.state)
        state = try route(p("cart.offer", ["id": .int(2)]), state)
        state = try route(p("cart.checkout"), nil)
        return (decisions, state, visits)
    }

    @Test func largeGraphHas1000MoreCoordinators() {
        #expect(Self.large.graph.coordinators.count - Self.small.graph.coordinators.count == 1_000)
    }

    @Test func resolvingVisitsAsManyCoordinatorsOnAGraphOf1000More() throws {
        let small = try Self.journey(Self.small)
        let large = try Self.journey(Self.large)
        #expect(small.decisions.count == 5)
        #expect(large.decisions.map(\.steps) == small.decisions.map(\.steps))
        #expect(large.state == small.state)
        #expect(small.visits > 0)
        #expect(large.visits == small.visits)
    }

    @Test func visitsGrowWithThePathAndTheDeviceState() throws {
        let now = Timestamp(millisecondsSince1970: 0)
        let metadata = DecisionMetadata(id: "d")
        func visits(_ page: Page, _ state: DeviceState?) throws -> Int {
            var count = 0
            _ = try Self.large.resolve(
                page, state: state, now: now, outcome: .routed, metadata: metadata, explain: false, visits: &count)
            return count
        }
        let session = DeviceState(conditions: ["session"])
        let tab = try visits(Self.p("cart.cart"), session)
        let modal = try visits(Self.p("pay.pay", ["id": .int(1)]), session)
        #expect(modal > tab)
        let onAccount = try Self.large.resolve(Self.p("account.profile"), state: session, now: now, metadata: metadata)
        #expect(try visits(Self.p("x0_modal.sheet"), onAccount.state) > modal)
    }
}
