import CoordinatorGraph
import DeepLink
import Foundation
import JSON
import NotifyctlCore
import RouterContract
import Testing
import Varlink

/// `replay --config CANDIDATE` against a fake daemon whose history holds decisions made on config/shop.yaml.
@Suite struct ReplayCommandTests {
    static let shop: Graph = {
        let bytes = try! FixtureFiles(files: [:]).read("config/shop.yaml")
        return try! ConfigLoader.load(bytes, file: "shop.yaml").get().graph
    }()

    /// The candidate: `/promo/{id}` moved to catalog.product, and the cart page behind login.
    static let candidate = try! DiffCommandTests.shop(
        (DiffCommandTests.offers, #""offer(id: String)": /offers/{id}"#),
        (DiffCommandTests.product, #""product(id: String)": [/products/{id}, "/promo/{id}"]"#),
        ("      cart: /cart\n", "      cart: { path: /cart, requires: [session] }\n"))

    /// A device on the catalog tab; `conditions` satisfied, and `catalog` replaced by `stack` when given (a
    /// coordinator the graph does not have).
    static func state(conditions: [String], stack: String = "catalog") throws -> JSON {
        let json = try JSON.parse(
            #"""
            {"path": ["app", "main", "\#(stack)"], "started": ["app", "main", "\#(stack)"],
             "tabs": {"main": "\#(stack)"},
             "stacks": {"\#(stack)": [{"id": "catalog.home", "arguments": {}, "description": "catalog.home"}]},
             "conditions": \#(JSON.array(conditions.map(JSON.string)).serialized), "pending": null}
            """#)
        if stack == "catalog" { _ = try DeviceState(json: json, graph: shop) }
        return json
    }

    /// The decision the daemon made for `link` from `source`, as it stores it.
    static func stored(
        _ link: String, device: String,
        source: DecisionSource = DecisionSource(format: "link", field: "link", link: nil),
        state: JSON? = nil
    ) throws -> JSON {
        let from = try state.map { json throws in try DeviceState(json: json, graph: shop) }
        var decision = try OfflineRouter(graph: shop).replay(
            source, link: link, state: from, id: "01a22f9d-d8e9-7080-89a2-2dba45032d13", now: Fixtures.now)
        decision.device = device
        return decision.json
    }

    static func entry(_ decision: JSON, _ startedFrom: String, _ state: JSON = .null) -> JSON {
        ["decision": decision, "startedFrom": .string(startedFrom), "state": state]
    }

    /// The history, newest first, in two pages: decisions whose outcome does not change, and those that do.
    static func history() throws -> [[JSON]] {
        let session = try state(conditions: ["session"])
        let nothing = try state(conditions: [])
        var category = try #require(try stored("shop://offers/SUMMER", device: "d-category").objectValue)
        category["source"] = ["format": "apns", "field": "aps.category", "link": nil]
        var resumed = try #require(try stored("shop://account", device: "d-resumed", state: session).objectValue)
        resumed["outcome"] = "resumed"
        resumed["source"] = nil
        let apns = DecisionSource(format: "apns", field: "deeplink", link: nil)
        return [
            [
                entry(try stored("shop://cart", device: "d-session", state: session), "state", session),
                entry(try stored("shop://cart", device: "d-new"), "coldStart"),
                entry(try stored("shop://promo/X", device: "d-old"), "unknown"),
                entry(.object(category), "coldStart"),
            ],
            [
                entry(.object(resumed), "unknown"),
                entry(
                    try stored("shop://cart", device: "d-gone", state: nothing), "state",
                    try state(conditions: [], stack: "wishlist")),
                entry(try stored("shop://offers/SUMMER", device: "d-apns", source: apns), "coldStart"),
            ],
        ]
    }

    static func router(pages: [[JSON]]) -> FakeRouter {
        let router = FakeRouter()
        router.replies["GetGraph"] = .success(["graph": shop.json])
        router.queued["ListHistory"] = pages.enumerated().map { index, entries in
            ["entries": .array(entries), "next": index + 1 < pages.count ? .int(17 - index) : .null]
        }
        return router
    }

    static func run(_ arguments: [String], router: FakeRouter) -> Run {
        Fixtures.run(["replay", "--config", "next.yaml"] + arguments, files: ["next.yaml": candidate], router: router)
    }

    @Test func onlyTheDecisionsTheCandidateSendsElsewhereAreListedAndEveryOneIsCounted() throws {
        let router = Self.router(pages: try Self.history())
        let run = Self.run([], router: router)
        #expect(run.status == .failure, "changes end with 1: \(run.errors)")
        #expect(run.errors.isEmpty)
        #expect(
            run.output == """
                pattern moved (1)
                  shop://promo/X  link
                    01a22f9d-d8e9-7080-89a2-2dba45032d13 · device d-old · 2025-06-01T12:00:00.000Z · from a cold start (its state was not recorded)
                    - routed  cart.offer(id: "X")  app › main › cart
                    + routed  catalog.product(id: "X")  app › main › catalog

                gate added (2)
                  shop://cart  link
                    01a22f9d-d8e9-7080-89a2-2dba45032d13 · device d-gone · 2025-06-01T12:00:00.000Z · from a cold start (its state does not fit the candidate)
                    - routed  cart.cart  app › main › cart
                    + gated   cart.cart  app › main › cart  gate login for session
                  shop://cart  link
                    01a22f9d-d8e9-7080-89a2-2dba45032d13 · device d-new · 2025-06-01T12:00:00.000Z · from a cold start, as it was
                    - routed  cart.cart  app › main › cart
                    + gated   cart.cart  app › main › cart  gate login for session

                3 of 5 decisions replayed would change with next.yaml: 1 pattern moved, 2 gate added
                replayed: 1 from the state the device had, 2 from a cold start, as they were (a new device, or none named), 1 from a cold start (state not recorded), 1 from a cold start (state does not fit the candidate)
                not replayed: 1 made when a flow finished (the gated decision before is replayed) or stored without their link, 1 chosen by a category (payloads are not stored)

                """)
        let calls = router.calls.filter { $0.method == RouterInterface.method("ListHistory") }
        #expect(calls.map(\.parameters) == [["limit": 1000], ["limit": 1000, "before": 17]])
    }

    @Test func theJSONNamesEachDecisionAndHowItWasReplayed() throws {
        let run = Self.run(["--json"], router: Self.router(pages: try Self.history()))
        #expect(run.status == .failure)
        let changes = try #require(try JSON.parse(run.output).arrayValue)
        // In the order the decisions were made: the history is read newest first.
        #expect(changes.map { $0["device"] } == ["d-gone", "d-old", "d-new"])
        #expect(changes.map { $0["replayedFrom"] } == ["stateDoesNotFit", "stateUnknown", "coldStart"])
        let gated = changes[2]
        #expect(gated["kind"] == "gate-added")
        #expect(gated["decision"] == "01a22f9d-d8e9-7080-89a2-2dba45032d13")
        #expect(gated["source"] == ["format": "link", "field": "link", "link": "shop://cart"])
        #expect(gated["after"]?["gate"]?["coordinator"] == "login")
    }

    @Test func limitSinceAndDeviceAreSentAndTheLimitIsKept() throws {
        let router = Self.router(pages: try Self.history())
        let run = Self.run(["--limit", "3", "--since", "24h", "--device", "d-new"], router: router)
        #expect(run.status == .failure)
        let calls = router.calls.filter { $0.method == RouterInterface.method("ListHistory") }
        #expect(
            calls.map(\.parameters) == [
                ["limit": 3, "device": "d-new", "since": "2025-05-31T12:00:00.000Z"]
            ])
        #expect(run.output.contains("2 of 3 decisions replayed would change"))
    }

    @Test(arguments: [
        ("2026-12-01T08:00:00Z", "2026-12-01T08:00:00.000Z"), ("2026-12-01", "2026-12-01T00:00:00.000Z"),
        ("90m", "2025-06-01T10:30:00.000Z"), ("7d", "2025-05-25T12:00:00.000Z"),
    ])
    func sinceReadsTimesDatesAndTimesAgo(_ text: String, _ sent: String) throws {
        let router = Self.router(pages: [])
        router.replies["ListHistory"] = .success(["entries": [], "next": nil])
        let run = Self.run(["--since", text], router: router)
        #expect(run.status == .success)
        #expect(router.calls.last?.parameters["since"] == .string(sent))
    }

    @Test func anEmptyHistorySaysWhyThereIsNothingToReplay() {
        let router = Self.router(pages: [])
        router.replies["ListHistory"] = .success(["entries": [], "next": nil])
        let run = Self.run([], router: router)
        #expect(run.status == .success)
        #expect(run.output.hasPrefix("no stored decisions to replay: "))
    }

    @Test func whatStopsTheComparisonEndsWithTwo() throws {
        let missing = Fixtures.run(["replay"])
        #expect(missing.status == .usage)
        #expect(
            missing.errors.hasPrefix("notifyctl: error: 'replay' needs the config under review: --config NEW_CONFIG\n"))

        let badSince = Self.run(["--since", "yesterday"], router: Self.router(pages: []))
        #expect(badSince.status == .usage)

        let older = Self.router(pages: [])
        older.replies["ListHistory"] = .failure(.reply(.methodNotFound(RouterInterface.method("ListHistory"))))
        let run = Self.run([], router: older)
        #expect(run.status == .usage)
        #expect(run.errors.contains("notifyctl: note: this notifyd is older than notifyctl"))

        let down = FakeRouter()
        down.connectError = .connectFailed(
            path: "/run/notifyd/notifyd.sock", SystemCallError(call: "connect", errno: 2))
        #expect(Self.run([], router: down).status == .usage)

        let broken = Fixtures.run(
            ["replay", "--config", "broken.yaml"], files: ["broken.yaml": OfflineCommandTests.broken],
            router: Self.router(pages: []))
        #expect(broken.status == .usage)
        #expect(broken.errors.contains(" [unknown-key]\n"))
    }
}
