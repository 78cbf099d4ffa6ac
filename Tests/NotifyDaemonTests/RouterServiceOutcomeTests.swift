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

    /// Rule 7: a call nested past the limit gets a typed error whenever its method can be read.
    @Test func aCallNestedPastTheLimitGetsATypedErrorNamingWhatWentTooDeep() throws {
        let f = try Fixture()
        let deep = String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
        func answer(_ frame: String) throws -> (answered: Bool, replies: [JSON]) {
            let head = try #require(
                Array(frame.utf8).withUnsafeBytes { VarlinkCallHead(tooDeep: $0, maxDepth: 64) }, "\(frame)")
            let answered = f.service.answerTooDeep(head, from: f.connection, outbox: Outbox())
            f.service.pipeline.endBatch()
            #expect(f.settle())
            return (answered, try f.replies())
        }
        let route = try answer(
            #"{"method":"io.notifyd.Router.Route","parameters":{"device":"d","payload":{"a":"# + deep + "}}}")
        #expect(route.answered)
        #expect(route.replies.first?["error"] == "io.notifyd.Router.InvalidPayload")
        #expect(route.replies.first?["parameters"]?["field"] == "$")
        let reason = route.replies.first?["parameters"]?["reason"]?.stringValue ?? ""
        #expect(reason.hasPrefix("the payload is nested deeper than 64 levels at byte "), "\(reason)")
        #expect(f.entries().contains { $0.event == .payloadRejected && $0.message.contains("nested deeper") })

        let headers = try answer(#"{"method":"io.notifyd.Router.Route","parameters":{"headers":"# + deep + "}}")
        #expect(headers.replies.first?["error"] == "org.varlink.service.InvalidParameter")
        #expect(headers.replies.first?["parameters"]?["parameter"] == "headers")
        let unknown = try answer(#"{"method":"io.notifyd.Router.Nope","parameters":{"x":"# + deep + "}}")
        #expect(unknown.replies.first?["error"] == "org.varlink.service.MethodNotFound")
        let oneway = try answer(
            #"{"method":"io.notifyd.Router.Route","parameters":{"payload":"# + deep + #"},"oneway":true}"#)
        #expect(oneway.answered && oneway.replies.isEmpty)
        // Nesting outside the parameters cannot be put down to one of them: the server closes the connection.
        let outside = try answer(#"{"method":"io.notifyd.Router.Route","more":"# + deep + "}")
        #expect(!outside.answered && outside.replies.isEmpty)
    }
}
