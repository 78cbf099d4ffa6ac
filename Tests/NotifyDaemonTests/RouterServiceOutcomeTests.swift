import JSON
import Testing
import Varlink

@testable import NotifyDaemon

/// Rules 1, 2 and 4 of the payload contract through the daemon's decide, journal, store and stats path: `opened` and
/// `silent` decisions, a refused link's fallback, the transport headers.
@Suite struct RouterServiceOutcomeTests {
    typealias Fixture = RouterServiceTests.Fixture

    static let cart: JSON = ["aps": ["alert": "Your cart"], "deeplink": "shop://cart"]

    @Test func anOpenedDecisionIsJournaledCountedAndStoredWithoutChangingTheDevicesState() throws {
        let f = try Fixture()
        _ = try f.call("Route", ["device": "d", "payload": Self.cart])
        let before = try f.call("GetState", ["device": "d"])
        let reply = try f.call(
            "Route",
            ["device": "d", "payload": ["aps": ["alert": "Shipped"]], "headers": ["apns-topic": "com.example.shop"]])
        let decision = try #require(reply["parameters"]?["decision"])
        #expect(decision["outcome"] == "opened")
        #expect(decision["page"] == .null)
        #expect(decision["steps"] == .array([]))
        #expect(decision["source"]?["topic"] == "com.example.shop")
        #expect(try f.call("GetState", ["device": "d"]) == before)

        let id = try #require(decision["id"]?.stringValue)
        #expect(try f.call("GetDecision", ["id": .string(id)])["parameters"]?["decision"] == decision)
        let listed = try f.call("ListDecisions", ["device": "d"])["parameters"]?["decisions"]?.arrayValue
        #expect(listed?.first?["outcome"] == "opened")

        let made = try #require(f.entries().last { $0.event == .decisionMade })
        let fields = Dictionary(made.fields.map { ($0.0, $0.1) }, uniquingKeysWith: { a, _ in a })
        #expect(fields[JournalField.outcome] == "opened")
        #expect(fields[JournalField.topic] == "com.example.shop")
        #expect(fields[JournalField.page] == nil && fields[JournalField.path] == nil)
        #expect(made.message.hasPrefix("opened for d"), "\(made.message)")
        #expect(f.service.statsJSON()["outcomes"] == ["opened": 1, "routed": 1])
    }

    @Test func aBackgroundPushIsSilentAndLeavesNoState() throws {
        let f = try Fixture()
        let reply = try f.call(
            "Route", ["device": "d", "payload": Self.cart, "headers": ["apns-push-type": "background"]])
        #expect(reply["parameters"]?["decision"]?["outcome"] == "silent")
        #expect(reply["parameters"]?["decision"]?["source"]?["field"] == "headers.apns-push-type")
        #expect(try f.call("GetState", ["device": "d"])["parameters"]?["state"] == .null)
        #expect(f.service.statsJSON()["outcomes"] == ["silent": 1])
    }

    @Test func aHeaderValueTheServiceRefusesIsInvalidPayloadNamingTheHeader() throws {
        let f = try Fixture()
        let reply = try f.call("Route", ["payload": Self.cart, "headers": ["apns-push-type": "telegram"]])
        #expect(reply["error"] == "io.notifyd.Router.InvalidPayload")
        #expect(reply["parameters"]?["field"] == "headers.apns-push-type")
        #expect(f.entries().contains { $0.event == .payloadRejected })
    }

    @Test func aRefusedLinkFallsBackWithItsReasonAndWithoutAFallbackNoRouteCarriesIt() throws {
        let f = try Fixture()
        let payload: JSON = ["aps": ["alert": "x"], "deeplink": "http://shop.example.com/cart"]
        let reply = try f.call("Route", ["payload": payload, "dryRun": true])
        let decision = try #require(reply["parameters"]?["decision"])
        #expect(decision["outcome"] == "fallback")
        let warnings = try #require(decision["warnings"]?.arrayValue)
        #expect(warnings.count == 1)
        #expect(warnings.first?.stringValue?.hasPrefix("deeplink: 'http://shop.example.com/cart' is refused: ") == true)

        let noFallback = try RouterServiceTests.Fixture.shopConfig().replacingOccurrences(
            of: "  fallback: catalog.home\n", with: "")
        try f.directory.write(Array(noFallback.utf8), to: "notifyd.yaml")
        #expect(try f.call("Reload")["error"] == nil)
        let refused = try f.call("Route", ["payload": payload, "dryRun": true])
        #expect(refused["error"] == "io.notifyd.Router.NoRoute")
        #expect(refused["parameters"]?["link"] == "http://shop.example.com/cart")
        #expect(refused["parameters"]?["reasons"] == .array(warnings))
    }
}
