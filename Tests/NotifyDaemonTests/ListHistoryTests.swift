import CoordinatorGraph
import JSON
import Testing
import Varlink

@testable import NotifyDaemon

/// What `notifyctl replay` reads: each stored decision with the state its device started from (`ListHistory`), and
/// the store's pages of it.
@Suite struct ListHistoryTests {
    typealias Fixture = RouterServiceTests.Fixture

    static func entries(_ reply: JSON) -> [JSON] { reply["parameters"]?["entries"]?.arrayValue ?? [] }

    /// A state the store writes as it is.
    struct Written: JSONWritable {
        let json: JSON
        func writeJSON(into out: inout ByteWriter) { json.write(into: &out) }
    }

    @Test func eachDecisionKeepsTheStateItsDeviceStartedFrom() throws {
        let f = try Fixture()
        let first = try f.call("Resolve", ["device": "ipad", "link": "shop://offers/A"])
        let between = try f.call("GetState", ["device": "ipad"])["parameters"]?["state"]
        _ = try f.call("Resolve", ["device": "ipad", "link": "shop://cart", "dryRun": true])
        _ = try f.call("Resolve", ["device": "ipad", "link": "https://shop.example.com/account/orders/42"])
        _ = try f.call("FlowFinished", ["device": "ipad", "coordinator": "login"])
        _ = try f.call("Resolve", ["link": "shop://cart"])

        let history = Self.entries(try f.call("ListHistory"))
        // Newest first; the dry run is not stored.
        #expect(history.map { $0["decision"]?["outcome"] } == ["routed", "resumed", "gated", "routed"])
        #expect(history.map { $0["startedFrom"] } == ["coldStart", "unknown", "state", "coldStart"])
        #expect(history[2]["state"] == between, "the gated decision started where the first one left the device")
        #expect(history[3]["state"] == .null && history[0]["state"] == .null && history[1]["state"] == .null)
        #expect(history[3]["decision"]?["id"] == first["parameters"]?["decision"]?["id"])
        // A Resolve decision names its link, so that it can be routed again.
        #expect(history[0]["decision"]?["source"] == ["format": "link", "field": "link", "link": "shop://cart"])
        #expect(first["parameters"]?["decision"]?["source"]?["link"] == "shop://offers/A")
    }

    @Test func theHistoryIsPagedNewestFirstAndByDevice() throws {
        let f = try Fixture()
        for i in 0..<7 {
            let device: JSON = i % 2 == 0 ? "even" : "odd"
            _ = try f.call("Resolve", ["device": device, "link": .string("shop://offers/\(i)")])
        }
        func ids(_ reply: JSON) -> [String] {
            Self.entries(reply).compactMap { $0["decision"]?["page"]?["arguments"]?["id"]?.stringValue }
        }
        let page1 = try f.call("ListHistory", ["limit": 3])
        #expect(ids(page1) == ["6", "5", "4"])
        let next = try #require(page1["parameters"]?["next"]?.intValue)
        let page2 = try f.call("ListHistory", ["limit": 3, "before": .int(next)])
        #expect(ids(page2) == ["3", "2", "1"])
        let page3 = try f.call("ListHistory", ["limit": 3, "before": page2["parameters"]?["next"] ?? .null])
        #expect(ids(page3) == ["0"])
        #expect(page3["parameters"]?["next"] == .null)

        let even = try f.call("ListHistory", ["device": "even", "limit": 2])
        #expect(ids(even) == ["6", "4"])
        let rest = try f.call("ListHistory", ["device": "even", "before": even["parameters"]?["next"] ?? .null])
        #expect(ids(rest) == ["2", "0"])
        #expect(rest["parameters"]?["next"] == .null)
    }

    @Test func sinceLeavesOutTheOlderDecisionsAndMustBeATime() throws {
        let f = try Fixture()
        _ = try f.call("Resolve", ["device": "a", "link": "shop://offers/old"])
        #expect(Self.entries(try f.call("ListHistory", ["since": "2000-01-01T00:00:00Z"])).count == 1)
        #expect(Self.entries(try f.call("ListHistory", ["since": "2999-01-01T00:00:00Z"])).isEmpty)
        #expect(Self.entries(try f.call("ListHistory", ["device": "a", "since": "2999-01-01T00:00:00Z"])).isEmpty)
        let refused = try f.call("ListHistory", ["since": "yesterday"])
        #expect(refused["error"] == "io.notifyd.Router.InvalidParameter")
        #expect(refused["parameters"]?["parameter"] == "since")
    }

    @Test func withoutAStoreNothingIsStoredToReplay() throws {
        let f = try Fixture(store: false)
        _ = try f.call("Resolve", ["device": "a", "link": "shop://offers/A"])
        let reply = try f.call("ListHistory")
        #expect(reply["parameters"] == ["entries": [], "next": nil])
    }

    @Test func aVersion3DatabaseKeepsItsDecisionsWhoseStateWasNotRecorded() throws {
        let dir = try StoreTestDirectory()
        do {
            let connection = try SQLiteConnection(path: StateStore.path(in: dir.path))
            try connection.exec(StoreSchema.migrations[0..<3].joined(), "create version 3")
            try connection.exec(
                "INSERT INTO decisions_0 (rowid, id, device, created_ms, outcome, page, decision) VALUES "
                    + "(1, 'v1', 'ipad', 1, 'routed', 'p', '{\"id\":\"v1\"}'); PRAGMA user_version=3",
                "fill version 3")
        }
        let store = try StateStore(directory: dir.path)
        #expect(try store.schemaVersion() == 4)
        let state: JSON = ["path": ["app"], "started": ["app"], "tabs": [:], "stacks": [:], "conditions": []]
        try store.commit([
            .decision(
                id: "v2", device: "ipad", createdMs: 2, outcome: "routed", page: nil, decision: JSONText(["id": "v2"]),
                stateBefore: .state(Written(json: state))),
            .decision(
                id: "v3", device: nil, createdMs: 3, outcome: "routed", page: nil, decision: JSONText(["id": "v3"]),
                stateBefore: .coldStart),
        ])
        let page = try store.replayPage(device: nil, before: nil, sinceMs: nil, limit: 10)
        #expect(page.entries.map(\.decision) == [["id": "v3"], ["id": "v2"], ["id": "v1"]])
        #expect(page.entries.map(\.stateBefore) == [.some(.null), .some(state), .none])
        #expect(page.next == nil)
        let reader = try SQLiteConnection.companion(of: store.path)
        #expect(try reader.queryText("SELECT state_before FROM decisions WHERE id = 'v3'", "read the view") == "null")
    }
}
