import JSON
import RouterContract
import Testing

@testable import Varlink

@Suite struct ParameterValidationTests {
    let router = RouterInterface.interface

    static let page: JSON = [
        "id": "cart.offer", "arguments": ["id": "SUMMER"], "description": "cart.offer(id: \"SUMMER\")",
    ]

    static let decision: JSON = [
        "id": "5f0c7e1e-0000-4000-8000-000000000000", "device": "ipad-7", "outcome": "gated",
        "source": ["format": "apns", "field": "deeplink", "link": "shop://offers/SUMMER"],
        "page": page,
        "path": ["app", "main", "cart"],
        "steps": [
            ["action": "activate", "coordinator": "app"],
            ["action": "selectTab", "coordinator": "main", "child": "cart"],
            ["action": "present", "coordinator": "login", "parent": "app"],
            ["action": "display", "coordinator": "login", "page": "login.login"],
        ],
        "pending": ["page": page, "gate": "login", "condition": "session", "expiresAt": "2025-01-01T00:00:00.000Z"],
        "createdAt": "2025-01-01T00:00:00Z",
    ]

    static let state: JSON = [
        "path": ["app", "main", "cart"], "started": ["app", "main", "cart"], "tabs": ["main": "cart"],
        "stacks": ["cart": [page]], "conditions": [], "pending": nil,
    ]

    @Test(
        arguments: [
            (["payload": ["aps": [:]]], "Route"),
            (["payload": [:], "device": "d", "dryRun": true, "explain": false, "format": "apns"], "Route"),
            (["payload": [:], "device": nil, "dryRun": nil], "Route"),
            (["link": "shop://cart"], "Resolve"),
            (["device": "d", "limit": 10], "ListDecisions"),
            (["limit": 10.0], "ListDecisions"),
            ([:], "ListDecisions"),
            (["device": "d", "state": state], "SetState"),
            ([:], "Monitor"),
        ] as [(JSONObject, String)])
    func validParametersPass(parameters: JSONObject, method: String) throws {
        try router.validate(parameters: parameters, for: method)
    }

    @Test(
        arguments: [
            ([:], "Route", "payload", "missing field"),
            (["payload": "x"], "Route", "payload", "expected an object, found string"),
            (["payload": [:], "device": 7], "Route", "device", "expected a string, found number"),
            (["payload": [:], "dryRun": "yes"], "Route", "dryRun", "expected a boolean"),
            (["payload": [:], "verbose": true], "Route", "verbose", "unknown field"),
            (["link": nil], "Resolve", "link", "expected a string, found null"),
            (["limit": 1.5], "ListDecisions", "limit", "expected an integer"),
            (["limit": "10"], "ListDecisions", "limit", "expected an integer, found string"),
            (["extra": 1], "Monitor", "extra", "expected no fields"),
            (["device": "d"], "SetState", "state", "missing field \"state\""),
            (["device": "d", "state": ["path": []]], "SetState", "state", "missing field \"started\""),
        ] as [(JSONObject, String, String, String)])
    func invalidParametersNameTheParameter(
        parameters: JSONObject, method: String, parameter: String, reason: String
    )
        throws
    {
        let declared = try #require(router.method(named: method))
        let violation = #expect(throws: ParameterViolation.self) {
            try router.validate(parameters: parameters, for: declared)
        }
        #expect(violation?.parameter == parameter)
        #expect(violation?.reason.contains(reason) == true, "\(violation?.reason ?? "")")
        let error = #expect(throws: VarlinkError.self) { try router.validate(parameters: parameters, for: method) }
        #expect(error == .invalidParameter(parameter))
    }

    @Test func nestedViolationsGiveTheirPath() throws {
        var state = try #require(Self.state.objectValue)
        state["stacks"] = ["cart": [["id": "cart.offer", "arguments": [:], "description": 3]]]
        let setState = try #require(router.method(named: "SetState"))
        let violation = #expect(throws: ParameterViolation.self) {
            try router.validate(parameters: ["device": "d", "state": .object(state)], for: setState)
        }
        #expect(violation?.parameter == "state")
        #expect(violation?.path == "state.stacks.cart[0].description")
    }

    @Test func enumValuesAreChecked() throws {
        var decision = try #require(Self.decision.objectValue)
        decision["outcome"] = "teleported"
        let route = try #require(router.method(named: "Route"))
        let violation = #expect(throws: ParameterViolation.self) {
            try router.validate(reply: ["decision": .object(decision)], for: route)
        }
        #expect(violation?.path == "decision.outcome")
        #expect(violation?.reason.contains("not one of: routed, gated, fallback, resumed") == true)
    }

    @Test func theAgreedDecisionShapeIsAValidRouteReply() throws {
        let route = try #require(router.method(named: "Route"))
        try router.validate(reply: ["decision": Self.decision], for: route)
        var explained = try #require(Self.decision.objectValue)
        explained["trace"] = ["tried shop://offers/{id}"]
        explained["source"] = nil
        try router.validate(reply: ["decision": .object(explained)], for: route)
    }

    @Test func anUnknownMethodIsMethodNotFound() {
        let error = #expect(throws: VarlinkError.self) { try router.validate(parameters: [:], for: "Teleport") }
        #expect(error == .methodNotFound("io.notifyd.Router.Teleport"))
    }

    @Test func routerErrorConstructorsMatchTheirDeclarations() throws {
        let errors: [VarlinkError] = [
            .invalidPayload(reason: "r", field: "f"), .noRoute(link: "l", reasons: ["r"]), .unknownPage("p"),
            .unknownDevice("d"),
            .decisionNotFound(id: "i"), .payloadTooLarge(size: 2, max: 1),
            .configInvalid(errors: ["e"], config: "c.yaml"),
            .rateLimited(retryAfterMs: 5), .invalidState(reason: "r", field: "f"),
            .notPresented(coordinator: "c", presented: ["p"]),
            .invalidName(parameter: "coordinator", value: "x", reason: "r", suggestion: "y"),
            .invalidName(parameter: "coordinator", value: "x", reason: "r", suggestion: nil),
            .providesNothing(coordinator: "c", reason: "r"), .stateNotSaved(reason: "r"), .stateUnreadable(reason: "r"),
        ]
        #expect(Set(errors.map(\.name)).count == router.errors.count)
        for error in errors {
            let name = try #require(error.name.split(separator: ".").last)
            let declaration = try #require(router.error(named: name), "\(error.name) is not declared")
            #expect(declaration.qualifiedName == error.name)
            try router.validate(errorParameters: error.parameters, for: declaration)
        }
    }

    @Test func standardErrorsMatchTheServiceInterface() throws {
        let service = VarlinkServiceInterface.interface
        let errors: [VarlinkError] = [
            .interfaceNotFound("i"), .methodNotFound("m"), .methodNotImplemented("m"), .invalidParameter("p"),
            .permissionDenied, .expectedMore,
        ]
        for error in errors {
            let name = try #require(error.name.split(separator: ".").last)
            let declaration = try #require(service.error(named: name), "\(error.name) is not declared")
            #expect(declaration.qualifiedName == error.name)
            try service.validate(errorParameters: error.parameters, for: declaration)
        }
    }
}
