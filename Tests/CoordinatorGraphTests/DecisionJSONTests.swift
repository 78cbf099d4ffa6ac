import CoordinatorGraph
import DeepLink
import JSON
import Testing

@Suite struct DecisionJSONTests {
    typealias S = Shop

    @Test func designExampleEncodesToTheContractShape() throws {
        let state = try S.state(after: [S.p("catalog.home")])
        var decision = try S.resolve(S.p("cart.offer", ["id": .string("SUMMER")]), state).decision
        decision.source = DecisionSource(format: "apns", field: "deeplink", link: "shop://offers/SUMMER")
        let expected = try JSON.parse(
            #"""
            {
              "id": "d1",
              "device": "ipad-7",
              "outcome": "routed",
              "source": { "format": "apns", "field": "deeplink", "link": "shop://offers/SUMMER" },
              "page": {
                "id": "cart.offer", "arguments": { "id": "SUMMER" }, "description": "cart.offer(id: \"SUMMER\")"
              },
              "path": ["app", "main", "cart"],
              "steps": [
                { "action": "activate",  "coordinator": "app" },
                { "action": "selectTab", "coordinator": "main", "child": "cart" },
                { "action": "start",     "coordinator": "cart", "parent": "main" },
                {
                  "action": "display", "coordinator": "cart", "page": "cart.offer(id: \"SUMMER\")",
                  "pageId": "cart.offer", "arguments": { "id": "SUMMER" }
                }
              ],
              "pending": null,
              "createdAt": "2024-05-01T12:34:56.789Z"
            }
            """#)
        #expect(decision.json == expected)
        #expect(decision.json.serialized == expected.serialized)
    }

    @Test func traceIsWrittenOnlyWhenExplaining() throws {
        let plain = try S.resolve(S.p("catalog.home"), nil).decision
        #expect(plain.json["trace"] == nil)
        let explained = try S.resolve(S.p("catalog.home"), nil, explain: true).decision
        #expect(explained.json["trace"]?.arrayValue?.isEmpty == false)
        #expect(explained.json.objectValue?.keys.suffix(2) == ["trace", "createdAt"])
    }

    @Test func gatedDecisionCarriesThePendingPage() throws {
        let decision = try S.resolve(S.p("account.order", ["id": .int(5)]), nil).decision
        #expect(decision.json["outcome"] == "gated")
        #expect(
            decision.json["pending"]
                == [
                    "page": ["id": "account.order", "arguments": ["id": 5], "description": "account.order(id: 5)"],
                    "gate": "login", "condition": "session", "expiresAt": "2024-05-01T12:44:56.789Z",
                ])
    }

    @Test(arguments: [
        Shop.p("catalog.filters", ["slug": .string("shoes"), "sort": .enumCase("rating")]),
        Shop.p("magazine.article", ["slug": .string("a \"quoted\" slug")]),
        Shop.p("account.order", ["id": .int(42)]),
        Shop.p("cart.checkout"),
    ])
    func decisionRoundTripsWithAGraph(page: Page) throws {
        let original = try S.resolve(page, nil, explain: true).decision
        let decoded = try Decision(json: try JSON.parse(original.json.serialized), graph: S.graph)
        #expect(decoded == original)
        #expect(decoded.steps.map(\.pageValue) == original.steps.map(\.pageValue))
        #expect(S.resolver.apply(decoded, to: nil) == S.resolver.apply(original, to: nil))
    }

    /// The byte writer the daemon replies with spells every decision exactly as the JSON tree does.
    @Test(arguments: [
        (Shop.p("catalog.filters", ["slug": .string("shoes"), "sort": .enumCase("rating")]), false),
        (Shop.p("magazine.article", ["slug": .string("a \"quoted\"\\ slug\n\u{1}é€😀")]), true),
        (Shop.p("account.order", ["id": .int(-42)]), false),
        (Shop.p("account.order", ["id": .int(Int.max)]), true),
        (Shop.p("cart.checkout"), true),
        (Shop.p("cart.offer", ["id": .string("")]), false),
    ])
    func writerSpellsDecisionsAsTheTreeDoes(page: Page, explain: Bool) throws {
        // Reused from one decision to the next, as the daemon does: longer and shorter texts in turn, from a buffer
        // too small for any of them at first.
        var reused = ByteWriter(capacity: 16)
        for state in [nil, try S.state(after: [S.p("catalog.home")], conditions: ["session"])] {
            for at in [
                S.t0, Timestamp(millisecondsSince1970: 0), Timestamp(millisecondsSince1970: -62_135_596_800_001),
            ] {
                var decision = try S.resolve(page, state, at: at, explain: explain).decision
                for source in [
                    nil, DecisionSource(format: "fcm", field: "data.link", link: nil),
                    DecisionSource(format: "apns", field: "deeplink", link: "shop://x?q=\"1\""),
                ] {
                    decision.source = source
                    decision.device = source == nil ? nil : "dev\u{7f}-1"
                    let tree = JSONText(decision.json).bytes
                    #expect(decision.jsonText.bytes == tree, "\(String(decoding: tree, as: UTF8.self))")
                    #expect(decision.jsonText(reusing: &reused).bytes == tree)
                }
            }
        }
    }

    /// Each action's step, written by the byte writer, is the step's tree spelled out.
    @Test(arguments: Step.Action.allCases)
    func writerSpellsEveryActionAsTheTreeDoes(action: Step.Action) {
        for step in [
            Step(action, "cart"), Step(action, "a \"quoted\" coordinator\n", parent: "main"),
            Step(action, "main", child: "cart"), Step(action, "cart", page: #"cart.offer(id: "A")"#),
            Step(
                action, "catalog",
                page: S.p("catalog.filters", ["slug": .string("a \"b\"\n"), "sort": .enumCase("rating")])),
            Step(action, "account", page: S.p("account.order", ["id": .int(-7)])),
        ] {
            var out = ByteWriter()
            step.writeJSON(into: &out)
            #expect(out.finish() == JSONText(step.json).bytes)
        }
    }

    @Test func decisionDecodedWithoutAGraphKeepsEnumCasesAndDescriptions() throws {
        let page = S.p("catalog.filters", ["slug": .string("shoes"), "sort": .enumCase("rating")])
        let original = try S.resolve(page, nil).decision
        let decoded = try Decision(json: try JSON.parse(original.json.serialized))
        #expect(decoded.page == page)
        #expect(decoded.steps == original.steps)
        #expect(decoded.json == original.json)
    }

    /// Every page step carries its page as a value (`pageId`, `arguments`) beside its description, so a client
    /// without the graph reads the steps' pages typed, as it reads the decision's own page.
    @Test func stepPagesCarryTheirStructuredFormAndReadBackWithoutAGraph() throws {
        let page = S.p("catalog.filters", ["slug": .string("a \"b\""), "sort": .enumCase("rating")])
        let original = try S.resolve(page, nil).decision
        let steps = try #require(original.json["steps"]?.arrayValue)
        let pageSteps = steps.filter { $0["page"] != nil }
        #expect(pageSteps.count >= 2, "a cold start to a page with a back page has two page steps")
        for step in pageSteps {
            #expect(step.objectValue?.keys.suffix(3) == ["page", "pageId", "arguments"])
        }
        #expect(pageSteps.last?["pageId"] == "catalog.filters")
        #expect(pageSteps.last?["arguments"] == ["slug": "a \"b\"", "sort": "rating"])
        let decoded = try Decision(json: try JSON.parse(original.json.serialized))
        #expect(decoded.steps.map(\.pageValue) == original.steps.map(\.pageValue))
        #expect(decoded.steps.last?.pageValue == page)
    }

    /// A decision stored before steps carried their pages' structured form (the history keeps the text it was
    /// given) still reads: without a graph its steps keep their descriptions, with one they are typed from them.
    @Test func stepWithOnlyItsPageDescriptionStillReads() throws {
        let text = #"""
            {"id": "x", "outcome": "routed", "page": {"id": "account.order", "arguments": {"id": 42}}, "path": [],
             "steps": [{"action": "display", "coordinator": "account", "page": "account.order(id: 42)"}],
             "createdAt": "2024-05-01T12:00:00Z"}
            """#
        let loose = try Decision(json: try JSON.parse(text))
        #expect(loose.steps.first?.pageValue == nil)
        #expect(loose.json["steps"]?.arrayValue?.first?["pageId"] == nil, "written back as it was read")
        let typed = try Decision(json: try JSON.parse(text), graph: S.graph)
        #expect(typed.steps.first?.pageValue == S.p("account.order", ["id": .int(42)]))
    }

    @Test func decisionWithOptionalKeysAbsentDecodes() throws {
        let decoded = try Decision(
            json: [
                "id": "x", "outcome": "fallback", "page": ["id": "catalog.home"], "path": ["app"], "steps": [],
                "createdAt": "2024-05-01T12:00:00Z",
            ])
        #expect(decoded.device == nil)
        #expect(decoded.source == nil)
        #expect(decoded.pending == nil)
        #expect(decoded.trace == nil)
        #expect(decoded.outcome == .fallback)
    }

    static let at = #""createdAt": "2024-05-01T12:00:00Z""#
    static let invalidDecisions: [(String, JSONDecodeError.Code, String)] = [
        ("[]", .wrongType, "$"),
        (#"{"outcome": "routed"}"#, .missingKey, "$.id"),
        (#"{"id": "x", "outcome": "sideways"}"#, .invalidValue, "$.outcome"),
        (
            #"{"id": "x", "outcome": "routed", "page": {"id": "cart.cart"}, "path": [], "#
                + #""steps": [{"action": "fly", "coordinator": "app"}], "# + at + "}",
            .invalidValue, "$.steps[0].action"
        ),
        (
            #"{"id": "x", "outcome": "routed", "page": {"id": "cart.nothing"}, "path": [], "steps": [], "# + at + "}",
            .unknownPage, "$.page.id"
        ),
        (
            #"{"id": "x", "outcome": "routed", "page": {"id": "cart.cart"}, "path": [], "#
                + #""steps": [{"action": "push", "coordinator": "cart", "page": "cart.offer(id: 1"}], "# + at + "}",
            .invalidValue, "$.steps[0].page"
        ),
        (
            #"{"id": "x", "outcome": "routed", "page": {"id": "cart.cart"}, "path": [], "#
                + #""steps": [{"action": "push", "coordinator": "ghost"}], "# + at + "}",
            .unknownCoordinator, "$.steps[0].coordinator"
        ),
        (
            #"{"id": "x", "outcome": "routed", "page": {"id": "cart.cart"}, "path": [], "steps": [{"#
                + #""action": "push", "coordinator": "cart", "page": "cart.gift", "pageId": "cart.gift"}], "# + at
                + "}",
            .unknownPage, "$.steps[0].pageId"
        ),
        (
            #"{"id": "x", "outcome": "routed", "page": {"id": "cart.cart"}, "path": [], "steps": [{"#
                + #""action": "push", "coordinator": "cart", "page": "cart.offer(id: 1)", "pageId": "cart.offer", "#
                + #""arguments": {"id": 1}}], "# + at + "}",
            .invalidArgument, "$.steps[0].arguments.id"
        ),
        (
            #"{"id": "x", "outcome": "routed", "page": {"id": "cart.cart"}, "path": [], "steps": [{"#
                + #""action": "push", "coordinator": "cart", "page": "cart.offer(id: \"B\")", "#
                + #""pageId": "cart.offer", "arguments": {"id": "A"}}], "# + at + "}",
            .invalidValue, "$.steps[0].page"
        ),
        (
            #"{"id": "x", "outcome": "routed", "page": {"id": "cart.cart"}, "path": [], "steps": [{"#
                + #""action": "push", "coordinator": "cart", "page": "cart.cart", "arguments": {}}], "# + at + "}",
            .missingKey, "$.steps[0].pageId"
        ),
        (
            #"{"id": "x", "outcome": "routed", "page": {"id": "cart.cart"}, "path": [], "steps": [{"#
                + #""action": "push", "coordinator": "cart", "pageId": "cart.cart"}], "# + at + "}",
            .missingKey, "$.steps[0].page"
        ),
        (
            #"{"id": "x", "outcome": "routed", "page": {"id": "cart.cart"}, "path": [], "steps": [], "#
                + #""createdAt": "yesterday"}"#,
            .invalidTimestamp, "$.createdAt"
        ),
        (
            #"{"id": "x", "outcome": "routed", "page": {"id": "cart.cart"}, "path": [], "steps": [], "extra": 1, "#
                + at + "}",
            .unknownKey, "$.extra"
        ),
    ]

    @Test(arguments: invalidDecisions)
    func invalidDecisionIsATypedErrorNamingTheJSONPath(text: String, code: JSONDecodeError.Code, path: String) throws {
        let json = try JSON.parse(text)
        do {
            _ = try Decision(json: json, graph: S.graph)
            Issue.record("expected \(code) at \(path)")
        } catch {
            #expect(error.code == code)
            #expect(error.path == path)
        }
    }
}
