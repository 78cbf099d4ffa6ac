// The resolver benchmark: decisions per second on config/shop.yaml and on a generated graph of 1,000 coordinators
// and 10,000 pages, for devices never seen (cold start), for devices with a short history, and for one device that
// roams the whole graph. Prints medians over several rounds, in thread CPU time (the machine is shared) with the
// wall-clock rate beside it. Rates count resolved decisions only; resolutions that throw are counted apart, printed,
// and make the run fail (exit status 1), so that a broken resolver cannot look fast.

import CoordinatorGraph
import DeepLink
import Foundation

/// `notifyd-bench resolver [--config PATH] [--rounds N] [--decisions N]`: resolver decisions per second.
func runResolverBenchmark(arguments: [String]) {
    var configPath = "config/shop.yaml"
    var rounds = 7
    var decisions = 20_000
    var i = 0
    while i < arguments.count {
        let value = i + 1 < arguments.count ? arguments[i + 1] : ""
        switch arguments[i] {
        case "--config": configPath = value
        case "--rounds": rounds = max(1, Int(value) ?? rounds)
        case "--decisions": decisions = max(1, Int(value) ?? decisions)
        default:
            print("usage: notifyd-bench resolver [--config PATH] [--rounds N] [--decisions N]")
            return
        }
        i += 2
    }

    var graphs: [(name: String, graph: Graph)] = []
    if let data = FileManager.default.contents(atPath: configPath) {
        switch ConfigLoader.load([UInt8](data), file: configPath) {
        case .success(let loaded): graphs.append(("shop.yaml", loaded.graph))
        case .failure(let error): print("\(configPath) did not load, skipped:\n\(error)")
        }
    } else {
        print("\(configPath) not found (run from the package root or pass --config), skipped")
    }
    graphs.append(
        ("generated", GeneratedResolverGraph.make(tabs: 9, stacksPerTab: 10, substacksPerStack: 9, modals: 90)))

    print("resolver: \(rounds) rounds of \(decisions) decisions, medians")
    print(
        "graph".padding(toLength: 11, withPad: " ", startingAt: 0) + " coord  pages  scenario       "
            + "decisions/s (CPU)  µs/decision  decisions/s (wall)  steps/decision  failed")
    var failures: [String] = []
    for (name, graph) in graphs {
        let resolver = Resolver(graph: graph)
        let pages = resolverSamplePages(graph)
        let allConditions = Array(Set(graph.coordinators.flatMap(\.provides))).sorted()
        for scenario in ResolverScenario.allCases {
            var cpuRates: [Double] = []
            var wallRates: [Double] = []
            var steps = 0
            var failed = 0
            var note: String?
            for _ in 0..<rounds {
                let run = measureResolver(
                    scenario, resolver: resolver, pages: pages, count: decisions, conditions: allConditions)
                let resolved = Double(decisions - run.failed)
                cpuRates.append(resolved / run.cpuSeconds)
                wallRates.append(resolved / run.wallSeconds)
                steps = run.steps
                failed = run.failed
                if let error = run.firstError, note == nil {
                    note = "\(name), \(scenario.rawValue): \(run.failed) of \(decisions) failed; first: \(error)"
                }
            }
            if let note { failures.append(note) }
            cpuRates.sort()
            wallRates.sort()
            let median = cpuRates[cpuRates.count / 2]
            let row =
                name.padding(toLength: 11, withPad: " ", startingAt: 0)
                + String(graph.coordinators.count).leftPadded(6)
                + String(pages.count).leftPadded(7) + "  "
                + scenario.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)
                + String(Int(median)).leftPadded(19)
                + String(format: "%13.2f", 1_000_000 / median)
                + String(Int(wallRates[wallRates.count / 2])).leftPadded(20)
                + String(format: "%16.1f", Double(steps) / Double(max(1, decisions - failed)))
                + String(failed).leftPadded(8)
            print(row)
        }
    }
    if !failures.isEmpty {
        print("resolutions failed:")
        for line in failures { print("  " + line) }
        exit(1)
    }
}

/// What the device looks like when a decision is made.
private enum ResolverScenario: String, CaseIterable {
    /// A device never seen: state `nil`, no condition satisfied (gated pages present their provider).
    case cold = "cold start"
    /// Devices with every condition satisfied and a history of up to 16 decisions (the state carries over, and
    /// starts afresh every 16 decisions).
    case warm = "with state"
    /// One device whose state carries over from every decision to the next: it ends up with most of the graph
    /// started, so this measures the cost of a large state (copied once per decision).
    case roaming = "roaming"
}

/// Resolves `count` pages (cycling through `pages`); returns the thread CPU and wall seconds, the total number of
/// steps of the resolved decisions, how many resolutions threw, and the first error.
private func measureResolver(
    _ scenario: ResolverScenario, resolver: Resolver, pages: [Page], count: Int, conditions: [String]
) -> (cpuSeconds: Double, wallSeconds: Double, steps: Int, failed: Int, firstError: String?) {
    let clock = ContinuousClock()
    let now = Timestamp(millisecondsSince1970: 1_714_566_896_789)
    let metadata = DecisionMetadata(id: "bench", device: "bench")
    let fresh = DeviceState(conditions: conditions)
    var state = fresh
    var steps = 0
    var failed = 0
    var firstError: String?
    let cpuStart = threadCPUSeconds()
    let elapsed = clock.measure {
        for n in 0..<count {
            let page = pages[n % pages.count]
            if scenario == .warm, n % 16 == 0 { state = fresh }
            do {
                let r = try resolver.resolve(page, state: scenario == .cold ? nil : state, now: now, metadata: metadata)
                steps &+= r.decision.steps.count
                if scenario != .cold { state = r.state }
            } catch {
                failed += 1
                if firstError == nil { firstError = "\(page): \(error)" }
            }
        }
    }
    let cpu = threadCPUSeconds() - cpuStart
    let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return (cpu, wall, steps, failed, firstError)
}

/// CPU time consumed by the calling thread, in seconds.
private func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Every page of the graph with sample arguments, in a fixed pseudo-random order.
private func resolverSamplePages(_ graph: Graph) -> [Page] {
    var pages: [Page] = []
    for coordinator in graph.coordinators {
        for definition in coordinator.pages {
            var arguments: [Page.Argument] = []
            for (n, parameter) in definition.declaration.parameters.enumerated() {
                let value: Value
                switch parameter.type {
                case .string: value = .string("v\(pages.count % 7)")
                case .int: value = .int(pages.count % 5 + n)
                case .double: value = .double(Double(pages.count % 5 + n) / 2)
                case .bool: value = .bool(pages.count % 2 == 0)
                case .uuid: value = .uuid(PageUUID(uuidString: "5F0C7E1E-0000-4000-8000-000000000001")!)
                case .enumeration(_, let cases): value = .enumCase(cases.first ?? "")
                case .list: value = .list([])
                }
                arguments.append(Page.Argument(label: parameter.label, value: value))
            }
            pages.append(Page(id: definition.id, arguments: arguments))
        }
    }
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    for index in stride(from: pages.count - 1, to: 0, by: -1) {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        pages.swapAt(index, Int(seed >> 33) % (index + 1))
    }
    return pages
}

/// A synthetic graph: `app` → `tabs` coordinators → stacks → sub-stacks, plus modals with two declared parents
/// each and a `login` provider; ten pages per stack with back chains and gates, eleven or twelve per modal.
private enum GeneratedResolverGraph {
    static let here = SourceLocation(file: "generated", line: 1, column: 1)

    static func make(tabs: Int, stacksPerTab: Int, substacksPerStack: Int, modals: Int) -> Graph {
        var coordinators: [Coordinator] = []
        let tabNames = (0..<tabs).map { "main\($0)" }
        let modalNames = (0..<modals - 1).map { "modal\($0)" }
        coordinators.append(
            Coordinator(
                name: "app", kind: .app, children: tabNames + ["login"], root: tabNames.first, location: here))
        var substacks: [String] = []
        for (t, tab) in tabNames.enumerated() {
            let stacks = (0..<stacksPerTab).map { "s\(t)_\($0)" }
            coordinators.append(
                Coordinator(name: tab, kind: .tabs, children: stacks, root: stacks.first, location: here))
            for stack in stacks {
                let children = (0..<substacksPerStack).map { "\(stack)_\($0)" }
                substacks += children
                coordinators.append(
                    Coordinator(name: stack, kind: .stack, children: children, pages: stackPages(stack), location: here)
                )
                for child in children {
                    coordinators.append(
                        Coordinator(
                            name: child, kind: .stack, requires: child.hasSuffix("_8") ? ["session"] : [],
                            pages: stackPages(child), location: here))
                }
            }
        }
        coordinators.append(
            Coordinator(
                name: "login", kind: .modal, provides: ["session"], pages: modalPages("login", count: 11),
                location: here))
        for (m, modal) in modalNames.enumerated() {
            let parents = [substacks[(m * 37) % substacks.count], substacks[(m * 101 + 5) % substacks.count]]
            coordinators.append(
                Coordinator(
                    name: modal, kind: .modal, parents: parents, pages: modalPages(modal, count: m < 10 ? 12 : 11),
                    location: here))
        }
        return Graph(
            app: AppSettings(name: "Generated", schemes: [], hosts: [], fallback: nil), coordinators: coordinators)
    }

    static func page(
        _ coordinator: String, _ name: String, _ parameters: [Parameter] = [], requires: [String] = [],
        back: String? = nil
    ) -> PageDefinition {
        PageDefinition(
            id: PageID(coordinator: coordinator, name: name),
            declaration: CaseDeclaration(name: name, parameters: parameters), patterns: [], requires: requires,
            back: back, location: here)
    }

    static func stackPages(_ c: String) -> [PageDefinition] {
        let id = Parameter(label: "id", type: .string)
        let n = Parameter(label: "n", type: .int, defaultValue: .int(1))
        return [
            page(c, "home"),
            page(c, "list", [n]),
            page(c, "item", [id], back: "list"),
            page(c, "detail", [id, n], back: "item"),
            page(c, "edit", [id], requires: ["session"], back: "detail"),
            page(c, "search", [Parameter(label: "q", type: .string)]),
            page(c, "settings", [Parameter(label: "on", type: .bool, defaultValue: .bool(false))]),
            page(c, "about"),
            page(c, "help", back: "about"),
            page(c, "share", [id], back: "item"),
        ]
    }

    static func modalPages(_ c: String, count: Int) -> [PageDefinition] {
        (0..<count).map { k in
            k == 0 ? page(c, "start") : page(c, "step\(k)", [Parameter(label: "id", type: .string)], back: "start")
        }
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
