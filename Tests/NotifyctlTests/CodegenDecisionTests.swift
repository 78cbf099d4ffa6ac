import Foundation
import JSON
import NotifyctlCore
import Testing

/// The generated `NotifydDecision`, compiled with `swiftc` in Swift 6 mode: it reads decisions of every outcome,
/// including `opened` and `silent` (hand-written here: their page is null), applies their steps in order, and refuses
/// a decision naming what the app's code does not declare with an error that names it and where it is.
///
/// That it reads the running daemon's decisions, and applies the very steps `notifyctl` prints, is
/// Tests/integration/test_codegen_decisions.py; this suite compiles the same driver,
/// Tests/integration/decision_driver.swift.
@Suite(.serialized, .enabled(if: SwiftToolchain.swiftc != nil, "needs swiftc (set SWIFTC or put it on PATH)"))
struct CodegenDecisionTests {
    static let offer = ["activate app", "start main in app", "selectTab main → cart", "start cart in main"]

    /// The offline resolver's decision for `link` on config/shop.yaml, as one line of JSON.
    static func offline(_ link: String) throws -> String {
        let run = Fixtures.run(["resolve", "--offline", "config/shop.yaml", "--json", link])
        try #require(run.status == .success, "\(run.errors)")
        return try JSON.parse(run.output).serialized
    }

    /// The driver's output for `decisions`, one per line, split into its lines' fields.
    static func drive(_ decisions: [String]) throws -> [[String]] {
        let graph = try CodegenCorpus.load(path: "config/shop.yaml")
        let source = try SwiftGenerator(graph: graph, options: .init(sourceName: "shop.yaml")).generate()
        let directory = try SwiftToolchain.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let driver = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("Tests/integration/decision_driver.swift"),
            encoding: .utf8)
        let input = directory.appendingPathComponent("decisions.jsonl")
        try Data(decisions.joined(separator: "\n").utf8).write(to: input)
        let executable = try SwiftToolchain.compile(["AppLink.swift": source, "main.swift": driver], in: directory)
        let run = try SwiftToolchain.run(executable, [input.path], in: directory)
        try #require(run.status == 0, "the driver failed: \(run.errors)")
        return run.output.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
    }

    @Test func everyOutcomeDecodesAndItsStepsApplyInOrder() throws {
        let opened = #"""
            {"id": "01a2c0de-0000-7000-8000-000000000001", "device": "ipad-7", "outcome": "opened",
             "source": {"format": "apns", "field": "aps.alert", "link": null}, "page": null, "path": [], "steps": [],
             "pending": null, "createdAt": "2026-12-01T03:20:03.561Z"}
            """#
        let silent = #"""
            {"id": "01a2c0de-0000-7000-8000-000000000002", "device": null, "outcome": "silent",
             "source": {"format": "apns", "field": "aps.content-available", "link": null}, "page": null, "path": [],
             "steps": [], "pending": null, "createdAt": "2026-12-01T03:20:03.562Z"}
            """#
        let decisions = [
            try Self.offline("shop://offers/SUMMER"), try Self.offline("shop://account/orders/42"),
            try Self.offline("shop://nowhere"), try JSON.parse(opened).serialized, try JSON.parse(silent).serialized,
        ]
        let lines = try Self.drive(decisions)
        let gated = try JSON.parse(decisions[1])
        let expiry = try #require(gated["pending"]?["expiresAt"]?.stringValue)
        let milliseconds = try #require(Self.milliseconds(expiry))
        let offerSteps = Self.offer + ["setRoot cart.cart in cart", #"display cart.offer(id: "SUMMER") in cart"#]
        let gatedSteps = [
            "activate app", "start main in app", "present login over main", "display login.login in login",
        ]
        let fallbackSteps = [
            "activate app", "start main in app", "selectTab main → catalog", "start catalog in main",
            "display catalog.home in catalog",
        ]
        let pending = "account.order(id: 42) login session \(milliseconds)"
        var expected = [["decision", "routed", #"cart.offer(id: "SUMMER")"#, "app main cart", "-"]]
        expected += offerSteps.map { ["step", $0] }
        expected += [["decision", "gated", "account.order(id: 42)", "app main account", pending]]
        expected += gatedSteps.map { ["step", $0] }
        expected += [["decision", "fallback", "catalog.home", "app main catalog", "-"]]
        expected += fallbackSteps.map { ["step", $0] }
        expected += [["decision", "opened", "-", "", "-"], ["decision", "silent", "-", "", "-"]]
        #expect(lines == expected)
    }

    /// A config newer than the app, or a notifyd older than its code: each decision fails with what it names, where.
    @Test func aDecisionNamingWhatTheAppDoesNotDeclareFailsWithItsNameAndPlace() throws {
        let offer = try Self.offline("shop://offers/SUMMER")
        func edited(_ old: String, _ new: String) throws -> String {
            try #require(offer.contains(old), "the decision no longer holds \(old)")
            return offer.replacingOccurrences(of: old, with: new)
        }
        let cases: [(String, String)] = [
            (try edited(#""id":"cart.offer""#, #""id":"cart.gift""#), "$.page.id: unknown page 'cart.gift'"),
            (
                try edited(#""pageId":"cart.offer""#, #""pageId":"cart.gift""#),
                "$.steps[5].pageId: unknown page 'cart.gift'"
            ),
            (
                try edited(#""path":["app","main","cart"]"#, #""path":["app","main","gifts"]"#),
                "$.path[2]: unknown coordinator 'gifts'"
            ),
            (
                try edited(#""coordinator":"cart","parent""#, #""coordinator":"gifts","parent""#),
                "$.steps[3].coordinator: unknown coordinator 'gifts'"
            ),
            (
                try edited(#""outcome":"routed""#, #""outcome":"teleported""#),
                "$.outcome: unknown outcome 'teleported' (this code knows routed, gated, fallback, resumed, opened, silent); notifyd is newer"
            ),
            (try edited(#""action":"setRoot""#, #""action":"replace""#), "$.steps[4].action: unknown action 'replace'"),
            (
                try edited(
                    #""pageId":"cart.offer","arguments":{"id":"SUMMER"}"#,
                    #""pageId":"cart.offer","arguments":{"code":"SUMMER"}"#),
                "$.steps[5].arguments: the arguments do not fit the parameters of page 'cart.offer'"
            ),
            (
                try edited(#","pageId":"cart.offer","arguments":{"id":"SUMMER"}"#, ""),
                #"$.steps[5]: the step's page 'cart.offer(id: "SUMMER")' comes without its 'pageId' and 'arguments'"#
            ),
        ]
        let lines = try Self.drive(
            cases.map(\.0) + [try edited(#""arguments":{"id":"SUMMER"}}]"#, #""arguments":{"id":["SUMMER"]}}]"#)])
        try #require(lines.count == cases.count + 1, "\(lines)")
        for ((_, message), line) in zip(cases, lines) {
            #expect(line.first == "error", "\(line)")
            #expect(line.last?.hasPrefix(message) == true, "expected '\(message)…', got \(line)")
        }
        #expect(lines[1].last?.contains("generate it again") == true)
        #expect(
            lines.last?.first == "failed", "an argument of no JSON scalar type is a DecodingError: \(lines.last ?? [])")
    }

    /// The navigator's requirements are the steps: a conformance that leaves one out, or a `switch` over the steps
    /// that misses one, does not compile.
    @Test func theCompilerListsTheStepsAnAppDoesNotHandle() throws {
        let graph = try CodegenCorpus.load(path: "config/shop.yaml")
        let source = try SwiftGenerator(graph: graph, options: .init(sourceName: "shop.yaml")).generate()
        let directory = try SwiftToolchain.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = """
            final class Navigator: NotifydNavigator {
                func start(_ coordinator: NotifydCoordinator, in parent: NotifydCoordinator) {}
                func activate(_ coordinator: NotifydCoordinator) {}
                func selectTab(_ tab: NotifydCoordinator, in coordinator: NotifydCoordinator) {}
                func present(_ coordinator: NotifydCoordinator, over parent: NotifydCoordinator) {}
                func dismiss(_ coordinator: NotifydCoordinator) {}
                func popTo(_ page: AppLink, in coordinator: NotifydCoordinator) {}
                func push(_ page: AppLink, in coordinator: NotifydCoordinator) {}
                func setRoot(_ page: AppLink, in coordinator: NotifydCoordinator) {}
            }
            func describe(_ step: NotifydStep) -> String {
                switch step {
                case .start, .activate, .selectTab, .present, .dismiss, .popTo, .push, .setRoot: return "\\(step)"
                }
            }

            """
        for (name, text) in ["AppLink.swift": source, "main.swift": app] {
            try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        }
        let compiler = try #require(SwiftToolchain.swiftc)
        let result = try SwiftToolchain.run(
            compiler, ["-typecheck", "-swift-version", "6", "AppLink.swift", "main.swift"], in: directory)
        #expect(result.status != 0)
        #expect(
            result.errors.contains("type 'Navigator' does not conform to protocol 'NotifydNavigator'"),
            "\(result.errors)")
        #expect(result.errors.contains("display(_:in:)"), "\(result.errors)")
        #expect(result.errors.contains("switch must be exhaustive"), "\(result.errors)")
        #expect(result.errors.contains(".display"), "\(result.errors)")
    }

    /// The large graph Tests/integration/test_codegen_decisions.py runs the daemon on is the generated graph of
    /// `largeGeneratedGraphAgreesWithTheDaemonOnEveryLink` (same seed and size), kept as a file for the Python
    /// harness; `NOTIFYCTL_UPDATE_GOLDEN=1` writes it again.
    @Test func largeGraphFileIsTheGeneratedLargeGraph() throws {
        var generator = LargeGraphGenerator(seed: 0x5EED_C0DE)
        let text = generator.config(coordinators: 12, pagesPerCoordinator: 30) + "\n"
        let graph = try CodegenCorpus.load(text: text, file: "large-graph.json")
        #expect(graph.coordinators.reduce(0) { $0 + $1.pages.count } >= 300)
        Fixtures.expectGolden(text, "large-graph.json")
    }

    /// `2026-12-01T03:35:03.598Z` in milliseconds since 1970.
    static func milliseconds(_ text: String) -> Int? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text).map { Int(($0.timeIntervalSince1970 * 1000).rounded()) }
    }
}
