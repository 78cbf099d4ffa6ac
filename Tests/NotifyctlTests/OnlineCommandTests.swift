import Glibc
import JSON
import NotifyctlCore
import RouterContract
import Testing
import Varlink

/// The daemon commands against a fake daemon: what they call, what they print, how they fail.
@Suite struct OnlineCommandTests {
    static let decisionReply: JSONObject = {
        guard case .object(let decision) = try? JSON.parse(DecisionPrinterTests.routed) else { return [:] }
        return ["decision": .object(decision)]
    }()

    static let payload = #"{"aps": {"alert": "hi"}, "deeplink": "shop://offers/SUMMER"}"#

    @Test func sendRoutesThePayloadWithDeviceAndDryRun() throws {
        let router = FakeRouter()
        router.replies["Route"] = .success(Self.decisionReply)
        let run = Fixtures.run(
            ["send", "p.json", "--device", "ipad-7", "--dry-run", "--format", "apns"], files: ["p.json": Self.payload],
            router: router)
        #expect(run.status == .success)
        let call = try #require(router.calls.first)
        #expect(call.method == "io.notifyd.Router.Route")
        #expect(call.parameters["payload"] == (try JSON.parse(Self.payload)))
        #expect(call.parameters["device"] == "ipad-7")
        #expect(call.parameters["dryRun"] == true)
        #expect(call.parameters["format"] == "apns")
        #expect(call.parameters["explain"] == nil)
        #expect(run.output.hasPrefix("routed  cart.offer(id: \"SUMMER\")\n"))
    }

    @Test func sendOfALinkFileResolvesTheLink() throws {
        let router = FakeRouter()
        router.replies["Resolve"] = .success(Self.decisionReply)
        let run = Fixtures.run(["send", "link.txt"], files: ["link.txt": "shop://offers/SUMMER\n"], router: router)
        #expect(run.status == .success)
        #expect(router.calls.first?.method == "io.notifyd.Router.Resolve")
        #expect(router.calls.first?.parameters == ["link": "shop://offers/SUMMER"])
    }

    @Test func sendOfBrokenJSONSaysWhere() {
        let run = Fixtures.run(["send", "bad.json"], files: ["bad.json": "{\n  \"aps\": {,\n}"])
        #expect(run.status == .failure)
        #expect(run.errors.hasPrefix("notifyctl: error: bad.json:2:11: invalid JSON: "))
    }

    @Test func resolveAndExplainAskForTheTrace() throws {
        let router = FakeRouter()
        router.replies["Resolve"] = .success(Self.decisionReply)
        router.replies["Route"] = .success(Self.decisionReply)
        _ = Fixtures.run(["resolve", "shop://cart"], router: router)
        _ = Fixtures.run(["explain", "shop://cart"], router: router)
        _ = Fixtures.run(["explain", "p.json"], files: ["p.json": Self.payload], router: router)
        #expect(router.calls.map(\.method) == ["Resolve", "Resolve", "Route"].map(RouterInterface.method))
        #expect(router.calls[0].parameters == ["link": "shop://cart"])
        #expect(router.calls[1].parameters == ["link": "shop://cart", "explain": true])
        #expect(router.calls[2].parameters["explain"] == true)
    }

    @Test func jsonPrintsTheDecisionObjectPretty() throws {
        let router = FakeRouter()
        router.replies["GetDecision"] = .success(Self.decisionReply)
        let run = Fixtures.run(["decision", "5f0c", "--json"], router: router)
        #expect(run.status == .success)
        let decision = try #require(Self.decisionReply["decision"])
        #expect(run.output == decision.prettyPrinted() + "\n")
        #expect(router.calls.first?.parameters == ["id": "5f0c"])
    }

    @Test(arguments: [["send", "p.json"], ["resolve", "shop://offers/SUMMER"], ["explain", "shop://offers/SUMMER"]])
    func routingWithJSONPrintsTheDecisionObjectItself(arguments: [String]) throws {
        let router = FakeRouter()
        router.replies["Route"] = .success(Self.decisionReply)
        router.replies["Resolve"] = .success(Self.decisionReply)
        let run = Fixtures.run(arguments + ["--json"], files: ["p.json": Self.payload], router: router)
        #expect(run.status == .success)
        let printed = try JSON.parse(run.output)
        #expect(printed == Self.decisionReply["decision"])
        #expect(printed["outcome"] == "routed")
    }

    @Test func errorReplyLeadsWithTheSentenceThenTheName() {
        let router = FakeRouter()
        router.replies["Resolve"] = .failure(
            .reply(.noRoute(link: "shop://nowhere", reasons: ["link: no pattern matches 'shop://nowhere'"])))
        let run = Fixtures.run(["resolve", "shop://nowhere"], router: router)
        #expect(run.status == .failure)
        #expect(
            run.errors == """
                notifyctl: error: no page for 'shop://nowhere' [io.notifyd.Router.NoRoute]
                  link: no pattern matches 'shop://nowhere'
                notifyctl: note: 'notifyctl explain --dry-run' with the same link or payload shows every pattern tried

                """)
    }

    @Test func invalidPayloadSaysWhereAndWhy() {
        let router = FakeRouter()
        router.replies["Route"] = .failure(.reply(.invalidPayload(reason: "expected an integer", field: "aps.badge")))
        let run = Fixtures.run(["send", "p.json"], files: ["p.json": Self.payload], router: router)
        #expect(
            run.errors
                == "notifyctl: error: invalid payload at aps.badge: expected an integer [io.notifyd.Router.InvalidPayload]\n"
        )
    }

    @Test func configInvalidListsEveryErrorAndNamesTheFileToValidate() {
        let router = FakeRouter()
        router.replies["Reload"] = .failure(
            .reply(
                .configInvalid(
                    errors: ["shop.yaml:3:1: error: a", "shop.yaml:9:5: error: b"], config: "/etc/notifyd/shop.yaml")))
        let run = Fixtures.run(["reload"], router: router)
        #expect(run.status == .failure)
        #expect(
            run.errors == """
                notifyctl: error: notifyd refused the new configuration (2 problems) and keeps serving the loaded one [io.notifyd.Router.ConfigInvalid]
                  shop.yaml:3:1: error: a
                  shop.yaml:9:5: error: b
                notifyctl: note: 'notifyctl validate /etc/notifyd/shop.yaml' shows the same findings without the daemon

                """)
    }

    @Test func daemonNotRunningNamesTheSocketAndHowToStartIt() {
        let router = FakeRouter()
        router.connectError = .connectFailed(
            path: "/tmp/none.sock", SystemCallError(call: "connect", errno: ENOENT))
        let run = Fixtures.run(["stats"], router: router, environment: ["NOTIFYD_SOCKET": "/tmp/none.sock"])
        #expect(run.status == .failure)
        #expect(router.connectedSockets == ["/tmp/none.sock"])
        #expect(run.errors.hasPrefix("notifyctl: error: notifyd is not running at /tmp/none.sock: no such file"))
        #expect(run.errors.contains("make run"))
        #expect(run.errors.contains("systemctl start notifyd.socket"))
    }

    @Test func monitorPrintsEachDecisionAsItArrives() throws {
        let router = FakeRouter()
        router.streamed = [Self.decisionReply, Self.decisionReply]
        let run = Fixtures.run(["monitor"], router: router)
        #expect(run.status == .success)
        #expect(router.calls.first?.streaming == true)
        #expect(router.calls.first?.method == "io.notifyd.Router.Monitor")
        #expect(run.output.components(separatedBy: "routed  cart.offer").count == 3)

        let lines = Fixtures.run(["monitor", "--json"], router: router).output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(try JSON.parse(String(lines[0])) == Self.decisionReply["decision"])
    }

    @Test func historyPrintsATableOrSaysThereIsNone() throws {
        let router = FakeRouter()
        router.replies["ListDecisions"] = .success(["decisions": [Self.decisionReply["decision"]!]])
        let run = Fixtures.run(["history", "--device", "ipad-7", "--limit", "2"], router: router)
        #expect(router.calls.first?.parameters == ["device": "ipad-7", "limit": 2])
        #expect(run.output.hasPrefix("ID "))
        #expect(run.output.contains("routed   cart.offer(id: \"SUMMER\")"))

        router.replies["ListDecisions"] = .success(["decisions": []])
        #expect(Fixtures.run(["history", "--device", "tv"], router: router).output == "no decisions for device 'tv'\n")
    }

    static let state: JSON = [
        "path": ["app", "main", "cart"], "started": ["app", "main", "catalog", "cart"], "tabs": ["main": "cart"],
        "stacks": [
            "catalog": [["id": "catalog.home", "arguments": [:], "description": "catalog.home"]],
            "cart": [
                ["id": "cart.cart", "arguments": [:], "description": "cart.cart"],
                ["id": "cart.checkout", "arguments": [:], "description": "cart.checkout"],
            ],
        ],
        "conditions": ["session"],
        "pending": [
            "page": ["id": "account.order", "arguments": ["id": 42], "description": "account.order(id: 42)"],
            "gate": "login", "condition": "session", "expiresAt": "2025-06-01T12:15:00.000Z",
        ],
    ]

    @Test func statePrintsATree() {
        let router = FakeRouter()
        router.replies["GetState"] = .success(["state": Self.state])
        let run = Fixtures.run(["state", "ipad-7"], router: router)
        Fixtures.expectGolden(run.output, "state.txt")

        router.replies["GetState"] = .success(["state": nil])
        #expect(Fixtures.run(["state", "new"], router: router).output.hasPrefix("device 'new' has no state"))
    }

    @Test func finishPrintsTheResumedDecisionThenTheState() throws {
        let router = FakeRouter()
        let resumed = try JSON.parse(DecisionPrinterTests.resumed)
        router.replies["FlowFinished"] = .success(["resumed": resumed, "state": Self.state, "dropped": nil])
        let run = Fixtures.run(["finish", "tv-1", "login"], router: router)
        #expect(router.calls.first?.parameters == ["device": "tv-1", "coordinator": "login"])
        #expect(run.output.hasPrefix("resumed  account.order(id: 4711)\n"))
        #expect(run.output.contains("\ndevice tv-1\n"))

        router.replies["FlowFinished"] = .success(["resumed": nil, "state": Self.state, "dropped": "it expired"])
        #expect(
            Fixtures.run(["finish", "tv-1", "login"], router: router).output.hasPrefix(
                "no pending page resumed: it expired\n"))
    }

    /// `--json finish` prints all that `finish` prints: the resumed decision (or null), the state and why nothing
    /// resumed.
    @Test func finishWithJSONPrintsTheWholeReply() throws {
        let router = FakeRouter()
        let resumed = try JSON.parse(DecisionPrinterTests.resumed)
        let reply: JSONObject = ["resumed": resumed, "state": Self.state, "dropped": nil]
        router.replies["FlowFinished"] = .success(reply)
        #expect(
            try JSON.parse(Fixtures.run(["finish", "tv-1", "login", "--json"], router: router).output) == .object(reply)
        )

        router.replies["FlowFinished"] = .success(["resumed": nil, "state": Self.state, "dropped": "it expired"])
        let run = Fixtures.run(["finish", "tv-1", "login", "--json"], router: router)
        #expect(run.status == .success)
        let printed = try JSON.parse(run.output)
        #expect(printed["resumed"] == .null)
        #expect(printed["state"] == Self.state)
        #expect(printed["dropped"] == "it expired")
    }

    @Test func statsInfoAndReloadPrintTheirReplies() {
        let router = FakeRouter()
        router.replies["GetStats"] = .success([
            "stats": [
                "requests": 12, "decisions": 12, "outcomes": ["routed": 10, "gated": 2],
                "latencyMicroseconds": ["p50": 12.5],
            ]
        ])
        router.replies["org.varlink.service.GetInfo"] = .success([
            "vendor": "notifyd", "product": "notifyd", "version": "0.1.0", "url": "https://example.com",
            "interfaces": ["org.varlink.service", "io.notifyd.Router"],
        ])
        router.replies["Reload"] = .success(["generation": 3, "warnings": ["shop.yaml:4:3: warning: shadowed"]])
        #expect(
            Fixtures.run(["stats"], router: router).output == """
                notifyd
                ├─ requests   12
                ├─ decisions  12: routed 10, gated 2
                ├─ formats    none
                ├─ errors     none
                ├─ latency    p50 12.5 µs
                └─ store      none: state is kept in memory

                """)
        let info = Fixtures.run(["info", "--socket", "/s.sock"], router: router).output
        #expect(info.hasPrefix("notifyd 0.1.0\n"))
        #expect(info.contains("interfaces  org.varlink.service, io.notifyd.Router\n"))
        #expect(info.contains("└─ socket      /s.sock\n"))
        #expect(
            Fixtures.run(["reload"], router: router).output
                == "reloaded: configuration generation 3\nwarning: shop.yaml:4:3: warning: shadowed\n")
    }
}
