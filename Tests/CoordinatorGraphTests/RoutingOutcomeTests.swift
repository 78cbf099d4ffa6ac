import CoordinatorGraph
import DeepLink
import JSON
import Testing

/// Rules 1 to 3 of the payload contract (docs/payloads.md) on `config/shop.yaml`: a push without a link is `opened`
/// or `silent`, a refused link is skipped with its reason and the app falls back, an identifier is a category.
@Suite struct RoutingOutcomeTests {
    let t0 = Timestamp(millisecondsSince1970: 1_714_566_896_789)

    static func reading(
        _ payload: String, graph: Graph, headers: [(String, String)] = [], explain: Bool = false
    ) throws -> PayloadReading {
        try PayloadReader(options: graph.payloadOptions).read(
            bytes: Array(payload.utf8), headers: try PushHeaders(headers), explain: explain)
    }

    func decide(
        _ payload: String, graph: Graph, from state: ResolvedState? = nil, headers: [(String, String)] = [],
        explain: Bool = false
    ) throws -> Resolution {
        let reading = try Self.reading(payload, graph: graph, headers: headers, explain: explain)
        let target = try graph.target(for: reading, explain: explain).get()
        return try Resolver(graph: graph).decide(
            target, from: state, now: t0, metadata: DecisionMetadata(id: "d1", source: target.source), explain: explain)
    }

    /// An alert whose link routes to the cart.
    static let cart = #"{"aps": {"alert": "Your cart"}, "deeplink": "shop://cart"}"#

    /// The state after a routed decision to the cart, to start the page-less decisions from.
    func stateInTheCart(_ graph: Graph) throws -> (state: ResolvedState, device: DeviceState) {
        let routed = try decide(Self.cart, graph: graph)
        #expect(routed.decision.outcome == .routed)
        let device = routed.state
        return (routed.take().state, device)
    }

    @Test func anAlertWithoutALinkIsOpenedWithNoPageNoStepsAndTheStateUnchanged() throws {
        let graph = try DecisionWarningsTests.shopGraph()
        let before = try stateInTheCart(graph)
        let opened = try decide(#"{"aps": {"alert": "Your order shipped"}}"#, graph: graph, from: before.state)
        let decision = opened.decision
        #expect(decision.outcome == .opened)
        #expect(decision.page == nil)
        #expect(decision.path.isEmpty)
        #expect(decision.steps.isEmpty)
        #expect(decision.pending == nil)
        #expect(decision.source == DecisionSource(format: "apns", field: "aps.alert", link: nil))
        #expect(opened.state == before.device)
    }

    @Test(arguments: [
        (#"{"aps": {"content-available": 1}}"#, "aps.content-available"),
        (#"{"aps": {"badge": 3}}"#, "aps.badge"),
        (#"{"message": {"token": "t", "data": {"score": "3x1"}}}"#, "message.data"),
        (#"{"aps": {"timestamp": 1168364460, "event": "update", "content-state": {"score": 1}}}"#, "aps.event"),
        (#"{"id": "x", "time": 1, "event": "keepalive", "topic": "phil_alerts"}"#, "event"),
    ])
    func nothingToTapIsSilent(payload: String, field: String) throws {
        let graph = try DecisionWarningsTests.shopGraph()
        let before = try stateInTheCart(graph)
        let silent = try decide(payload, graph: graph, from: before.state)
        #expect(silent.decision.outcome == .silent)
        #expect(silent.decision.page == nil)
        #expect(silent.decision.steps.isEmpty)
        #expect(silent.decision.source?.field == field)
        #expect(silent.state == before.device)
    }

    @Test func aLiveActivityEventIsSilentEvenWithALinkInItsAlert() throws {
        let graph = try DecisionWarningsTests.shopGraph()
        let payload = #"""
            {"aps": {"timestamp": 1, "event": "end", "content-state": {}, "alert": {"title": "Final"}},
             "deeplink": "shop://cart"}
            """#
        let silent = try decide(payload, graph: graph, explain: true)
        #expect(silent.decision.outcome == .silent)
        #expect(silent.decision.trace?.contains("deeplink: not followed") == true, "\(silent.decision.trace ?? [])")
    }

    @Test func aPushTypeHeaderThatNeverNavigatesMakesTheAlertSilentAndTheTopicIsRecorded() throws {
        let graph = try DecisionWarningsTests.shopGraph()
        let headers = [("APNs-Push-Type", "background"), ("apns-topic", "com.example.shop")]
        let silent = try decide(#"{"aps": {"alert": "Hi"}, "deeplink": "shop://cart"}"#, graph: graph, headers: headers)
        #expect(silent.decision.outcome == .silent)
        #expect(silent.decision.source?.topic == "com.example.shop")
        let alert = try decide(#"{"aps": {"alert": "Hi"}}"#, graph: graph, headers: [("apns-push-type", "alert")])
        #expect(alert.decision.outcome == .opened)
    }

    @Test func aPageLessDecisionWritesPageNullAndTheTopicAndReadsBack() throws {
        let graph = try DecisionWarningsTests.shopGraph()
        let opened = try decide(
            #"{"aps": {"alert": "Hi"}}"#, graph: graph, headers: [("apns-topic", "com.example.shop")]
        ).decision
        let json = opened.json
        #expect(json["page"] == .null)
        #expect(json["path"] == .array([]))
        #expect(json["steps"] == .array([]))
        #expect(
            json["source"]
                == .object(["format": "apns", "field": "aps.alert", "link": .null, "topic": "com.example.shop"]))
        #expect(try JSON.parse(String(decoding: opened.jsonText.bytes, as: UTF8.self)) == json)
        let read = try Decision(json: json, graph: graph)
        #expect(read.outcome == .opened)
        #expect(read.page == nil)
        #expect(read.source?.topic == "com.example.shop")
        // Without a topic the source has no `topic` key: routed decisions keep the shape they always had.
        let routed = try decide(Self.cart, graph: graph).decision
        #expect(routed.json["source"]?.objectValue?.keys.contains("topic") == false)
    }

    @Test func aNavigatingDecisionWithoutAPageIsRejectedWhenRead() throws {
        let graph = try DecisionWarningsTests.shopGraph()
        let routed = try decide(Self.cart, graph: graph).decision
        var json = try #require(routed.json.objectValue)
        json["page"] = .null
        #expect(throws: JSONDecodeError.self) { try Decision(json: .object(json), graph: graph) }
        do {
            _ = try Decision(json: .object(json))
        } catch {
            #expect(error.description.contains("a routed decision needs a page"), "\(error)")
        }
    }

    @Test func unlinkedFallbackSendsTheTapToTheFallbackPageAndErrorKeepsTheError() throws {
        let shop = try DecisionWarningsTests.shopGraph()
        let fallback = try #require(ConfigTest.graph(Self.shop(unlinked: "fallback")))
        let found = try decide(#"{"aps": {"alert": "Hi"}}"#, graph: fallback).decision
        #expect(found.outcome == .fallback)
        #expect(found.page?.description == shop.app.fallback?.description)
        #expect(found.source?.field == "aps.alert")
        // A push with nothing to tap stays silent whatever `links.unlinked` says.
        #expect(try decide(#"{"aps": {"badge": 1}}"#, graph: fallback).decision.outcome == .silent)

        let strict = try #require(ConfigTest.graph(Self.shop(unlinked: "error")))
        #expect(throws: PayloadError.self) { try Self.reading(#"{"aps": {"alert": "Hi"}}"#, graph: strict) }
        #expect(try decide(#"{"aps": {"badge": 1}}"#, graph: strict).decision.outcome == .silent)
    }

    /// `config/shop.yaml`'s text.
    static func shopText() throws -> String {
        String(decoding: try ConfigLoaderTests.shopBytes(), as: UTF8.self)
    }

    /// `config/shop.yaml`'s text with `links.unlinked` set.
    static func shop(unlinked: String) throws -> String {
        try Self.shopText().replacingFirst(
            "  unlinked: open", with: "  unlinked: \(unlinked)")
    }

    @Test func refusedCandidatesAreSkippedUntilOneRoutes() throws {
        let graph = try DecisionWarningsTests.shopGraph()
        let payload = #"{"aps": {"alert": "Hi"}, "deeplink": "http://shop.example.com/cart", "url": "shop://cart"}"#
        let decision = try decide(payload, graph: graph).decision
        #expect(decision.outcome == .routed)
        #expect(decision.source?.field == "url")
        #expect(decision.page?.description == "cart.cart")
    }

    @Test func whenEveryCandidateIsRefusedTheFallbackWarnsWithTheReasonsExplainPrintsAndNoRouteCarries() throws {
        let payload = #"""
            {"aps": {"alert": "Hi"}, "deeplink": "https://evil.com/cart", "url": "shop://cart/%zz"}
            """#
        let graph = try DecisionWarningsTests.shopGraph()
        let explained = try decide(payload, graph: graph, explain: true).decision
        #expect(explained.outcome == .fallback)
        let warnings = try #require(explained.warnings)
        #expect(warnings.count == 2)
        #expect(warnings[0].hasPrefix("deeplink: 'https://evil.com/cart' is refused: host 'evil.com' is not allowed"))
        #expect(warnings[1].hasPrefix("url: 'shop://cart/%zz' is refused: "), "\(warnings)")
        #expect(warnings[1].contains("at byte"), "\(warnings)")
        for warning in warnings {
            #expect(explained.trace?.contains(warning) == true, "explain prints '\(warning)'")
        }

        let strict = try #require(
            ConfigTest.graph(
                Self.shopText().replacingFirst(
                    "  fallback: catalog.home\n", with: "")))
        let reading = try Self.reading(payload, graph: strict)
        guard case .failure(let error) = strict.target(for: reading) else {
            Issue.record("routed without a fallback")
            return
        }
        #expect(error.reasons == warnings)
        #expect(error.link == "https://evil.com/cart")
    }

    @Test func identifiersAreLookedUpInCategoriesAndAreNeverRefusedAsLinks() throws {
        let graph = try DecisionWarningsTests.shopGraph()
        // An Android intent action in click_action: a category, not a link.
        let action =
            #"{"message": {"notification": {"title": "Sale"}, "android": {"notification": {"click_action": "TOP_RATED"}}}}"#
        let routed = try decide(action, graph: graph).decision
        #expect(routed.outcome == .routed)
        #expect(routed.page?.description == #"catalog.category(slug: "all", page: 1, sort: .rating)"#)
        #expect(routed.source?.field == "message.android.notification.click_action")
        // An identifier the app has no category for is not a refused link: the tap opens the app.
        let unknown = #"{"notification": {"title": "Hi", "click_action": "FLUTTER_NOTIFICATION_CLICK"}}"#
        let opened = try decide(unknown, graph: graph).decision
        #expect(opened.outcome == .opened)
        #expect(opened.warnings == nil)
        // A window id in target-content-id is not a link either.
        let window = #"{"aps": {"alert": "Hi", "target-content-id": "window-7"}}"#
        #expect(try decide(window, graph: graph).decision.outcome == .opened)
    }
}
