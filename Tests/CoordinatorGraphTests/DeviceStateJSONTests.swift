import CoordinatorGraph
import DeepLink
import JSON
import Testing

@Suite struct DeviceStateJSONTests {
    typealias S = Shop

    func decode(_ text: String) throws -> DeviceState {
        try DeviceState(json: try JSON.parse(text), graph: S.graph)
    }

    @Test func stateRoundTripsThroughJSONText() throws {
        var state = try S.state(
            after: [
                S.p("catalog.category", ["slug": .string("shoes"), "page": .int(1), "sort": .enumCase("rating")]),
                S.p("account.order", ["id": .int(3)]),
            ], conditions: ["session"])
        state = try S.resolve(S.p("magazine.article", ["slug": .string("x")]), state).state
        #expect(state.pending != nil)
        let text = state.json.serialized
        let decoded = try decode(text)
        #expect(decoded == state)
        #expect(decoded.json.serialized == text)
    }

    /// The byte writer the daemon stores states with spells them exactly as the JSON tree does.
    @Test func writerSpellsStatesAsTheTreeDoes() throws {
        var states = [DeviceState.initial, try S.resolve(S.p("cart.checkout"), nil).state]
        var state = try S.state(
            after: [
                S.p("catalog.category", ["slug": .string("a \"b\"\n"), "page": .int(-1), "sort": .enumCase("rating")]),
                S.p("cart.offer", ["id": .string("é😀")]), S.p("account.order", ["id": .int(3)]),
            ], conditions: ["session"])
        states.append(state)
        state = try S.resolve(S.p("magazine.article", ["slug": .string("x")]), state).state
        states.append(state)
        #expect(state.pending != nil)
        for state in states {
            let tree = JSONText(state.json).bytes
            #expect(state.jsonText.bytes == tree, "\(String(decoding: tree, as: UTF8.self))")
        }
    }

    @Test func stateJSONHasTheAgreedShape() throws {
        let state = try S.resolve(S.p("cart.checkout"), nil).state
        let json = state.json
        #expect(json.objectValue?.keys == ["path", "started", "tabs", "stacks", "conditions", "pending"])
        #expect(json["path"] == ["app", "main", "cart", "login"])
        #expect(json["tabs"] == ["main": "cart"])
        #expect(
            json["stacks"]?["cart"]
                == [["id": "cart.cart", "arguments": [:], "description": "cart.cart"]])
        #expect(json["conditions"] == [])
        #expect(json["pending"]?["gate"] == "login")
        #expect(json["pending"]?["condition"] == "session")
        #expect(json["pending"]?["expiresAt"] == "2024-05-01T12:44:56.789Z")
        #expect(DeviceState.initial.json["pending"] == .null)
    }

    @Test func absentKeysMeanAnEmptyState() throws {
        #expect(try decode("{}") == DeviceState.initial)
    }

    @Test func coordinatorsOnThePathCountAsStarted() throws {
        let state = try decode(#"{"path": ["app", "main"], "started": ["cart"]}"#)
        #expect(state.started == ["cart", "app", "main"])
    }

    @Test func pageArgumentsAreTypedAndDefaultsFilledIn() throws {
        let state = try decode(
            #"{"stacks": {"catalog": [{"id": "catalog.category", "arguments": {"slug": "x"}}]}}"#)
        #expect(
            state.stack(of: "catalog") == [
                S.p("catalog.category", ["slug": .string("x"), "page": .int(1), "sort": .enumCase("price")])
            ])
    }

    @Test(arguments: [
        (#"[]"#, JSONDecodeError.Code.wrongType, "$"),
        (#"{"colour": 1}"#, .unknownKey, "$.colour"),
        (#"{"started": "app"}"#, .wrongType, "$.started"),
        (#"{"path": ["app", "nowhere"]}"#, .unknownCoordinator, "$.path[1]"),
        (#"{"path": ["main"]}"#, .invalidValue, "$.path[0]"),
        (#"{"path": ["app", "main", "app"]}"#, .invalidValue, "$.path[2]"),
        (#"{"started": ["app", 3]}"#, .wrongType, "$.started[1]"),
        (#"{"tabs": {"main": "login"}}"#, .invalidValue, "$.tabs.main"),
        (#"{"tabs": {"cart": "cart"}}"#, .invalidValue, "$.tabs.cart"),
        (#"{"tabs": {"ghost": "cart"}}"#, .unknownCoordinator, "$.tabs.ghost"),
        (#"{"stacks": {"ghost": []}}"#, .unknownCoordinator, "$.stacks.ghost"),
        (#"{"stacks": {"cart": [{"id": "cart.nothing"}]}}"#, .unknownPage, "$.stacks.cart[0].id"),
        (#"{"stacks": {"cart": [{"id": "nothing"}]}}"#, .unknownPage, "$.stacks.cart[0].id"),
        (#"{"stacks": {"cart": [{"id": "catalog.home"}]}}"#, .invalidValue, "$.stacks.cart[0].id"),
        (#"{"stacks": {"cart": [{"id": "cart.offer"}]}}"#, .invalidArgument, "$.stacks.cart[0].arguments.id"),
        (
            #"{"stacks": {"cart": [{"id": "cart.offer", "arguments": {"id": 5}}]}}"#, .invalidArgument,
            "$.stacks.cart[0].arguments.id"
        ),
        (
            #"{"stacks": {"cart": [{"id": "cart.cart", "arguments": {"x": 1}}]}}"#, .invalidArgument,
            "$.stacks.cart[0].arguments.x"
        ),
        (#"{"stacks": {"cart": [{"id": "cart.cart", "extra": 1}]}}"#, .unknownKey, "$.stacks.cart[0].extra"),
        (#"{"conditions": [true]}"#, .wrongType, "$.conditions[0]"),
        (
            #"{"pending": {"page": {"id": "cart.checkout"}, "gate": "nope", "condition": "session", "#
                + #""expiresAt": "2024-05-01T12:00:00Z"}}"#,
            .unknownCoordinator, "$.pending.gate"
        ),
        (
            #"{"pending": {"page": {"id": "cart.checkout"}, "gate": "login", "condition": "session", "#
                + #""expiresAt": "soon"}}"#,
            .invalidTimestamp, "$.pending.expiresAt"
        ),
        (
            #"{"pending": {"page": {"id": "cart.checkout"}, "gate": "login", "expiresAt": "2024-05-01T12:00:00Z"}}"#,
            .missingKey, "$.pending.condition"
        ),
        (
            #"{"pending": {"page": {"id": "cart.gone"}, "gate": "login", "condition": "session", "#
                + #""expiresAt": "2024-05-01T12:00:00Z"}}"#,
            .unknownPage, "$.pending.page.id"
        ),
    ])
    func invalidStateIsATypedErrorNamingTheJSONPath(text: String, code: JSONDecodeError.Code, path: String) throws {
        do {
            _ = try decode(text)
            Issue.record("expected \(code) at \(path)")
        } catch let error as JSONDecodeError {
            #expect(error.code == code)
            #expect(error.path == path)
            #expect(error.description.hasPrefix(path + ": "))
        }
    }

    @Test func unknownPageErrorListsTheCoordinatorsPages() throws {
        do {
            _ = try decode(#"{"stacks": {"cart": [{"id": "cart.nothing"}]}}"#)
            Issue.record("expected an error")
        } catch let error as JSONDecodeError {
            #expect(error.message == "unknown page 'cart.nothing'; cart declares: cart, checkout, offer")
        }
    }
}
