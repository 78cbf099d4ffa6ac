import Foundation
import Glibc
import JSON
import NotifyctlCore
import RouterContract
import Testing
import Varlink

/// How errors read: the sentence first and the error's name after it as text; one object on standard output with
/// `--json` (exit 1, usage mistakes exit 2).
@Suite struct ErrorOutputTests {
    static let payload = #"{"aps": {"alert": "hi"}, "deeplink": "shop://offers/SUMMER"}"#

    /// A `NoRoute` reply as the daemon sends it with the reasons of each refused candidate.
    static let refused = VarlinkError(
        RouterInterface.method("NoRoute"),
        parameters: [
            "link": "http://shop.example.com/cart",
            "reasons": ["link: 'http:' links are not accepted; universal links use 'https:'"],
        ])

    @Test func explainThroughTheDaemonPrintsTheReasonsOfARefusedLinkAsItsTrace() throws {
        let router = FakeRouter()
        router.replies["Resolve"] = .failure(.reply(Self.refused))
        let run = Fixtures.run(["explain", "--dry-run", "http://shop.example.com/cart"], router: router)
        #expect(run.status == .failure)
        #expect(run.output.isEmpty)
        #expect(
            run.errors == """
                notifyctl: error: no page for 'http://shop.example.com/cart' [io.notifyd.Router.NoRoute]
                notifyctl: trace:
                  link: 'http:' links are not accepted; universal links use 'https:'

                """)

        let json = Fixtures.run(["explain", "--dry-run", "--json", "http://shop.example.com/cart"], router: router)
        #expect(json.status == .failure)
        #expect(json.errors.isEmpty)
        let error = try JSON.parse(json.output)
        #expect(error["error"] == "io.notifyd.Router.NoRoute")
        #expect(error["parameters"] == .object(Self.refused.parameters))
        #expect(error["message"] == "no page for 'http://shop.example.com/cart'")
        #expect(error["trace"] == ["link: 'http:' links are not accepted; universal links use 'https:'"])
    }

    @Test func explainThroughADaemonThatSendsNoReasonsSaysHowToTraceTheLink() {
        let router = FakeRouter()
        // An older notifyd: NoRoute with its link only.
        router.replies["Resolve"] = .failure(
            .reply(VarlinkError("io.notifyd.Router.NoRoute", parameters: ["link": "ftp://x"])))
        let run = Fixtures.run(["explain", "ftp://x"], router: router)
        #expect(run.status == .failure)
        #expect(run.errors.contains("[io.notifyd.Router.NoRoute]\nnotifyctl: note: this notifyd sends no reasons"))
        #expect(run.errors.contains("'notifyctl explain --offline CONFIG LINK'"))
    }

    @Test func resolveListsTheReasonsUnderTheSentence() {
        let router = FakeRouter()
        router.replies["Resolve"] = .failure(.reply(Self.refused))
        let run = Fixtures.run(["resolve", "http://shop.example.com/cart"], router: router)
        #expect(
            run.errors.hasPrefix(
                """
                notifyctl: error: no page for 'http://shop.example.com/cart' [io.notifyd.Router.NoRoute]
                  link: 'http:' links are not accepted; universal links use 'https:'

                """))
    }

    /// A file that is neither JSON nor one line that reads as a link is not sent: the error says where the JSON
    /// went wrong.
    @Test(arguments: [
        ("not json at all {", "bad.json:1:1: invalid JSON: "),
        ("{\"aps\": {\"alert\": \"x\"},\n  deeplink: 1}", "bad.json:2:3: invalid JSON: "),
        ("shop://offers/SUMMER\nshop://offers/WINTER\n", "bad.json:1:1: invalid JSON: "),
        ("offers/SUMMER", "bad.json:1:1: invalid JSON: "),
    ])
    func aFileThatIsNotJSONNorALinkIsRefusedWithWhere(text: String, message: String) throws {
        let router = FakeRouter()
        let run = Fixtures.run(["send", "bad.json"], files: ["bad.json": text], router: router)
        #expect(run.status == .failure)
        #expect(router.calls.isEmpty, "nothing is sent")
        #expect(run.errors.hasPrefix("notifyctl: error: " + message), "\(run.errors)")
        #expect(run.errors.contains("note: a payload file holds one JSON object"))

        let json = Fixtures.run(["send", "--json", "bad.json"], files: ["bad.json": text], router: router)
        let error = try JSON.parse(json.output)
        #expect(error["error"] == "notifyctl.InvalidInput")
        #expect(error["parameters"]?["file"] == "bad.json")
        #expect(error["parameters"]?["line"]?.intValue == Int(message.split(separator: ":")[1]))
    }

    @Test(arguments: [
        "shop://offers/SUMMER\n", "  https://shop.example.com/cart  \n", "/offers/SUMMER", "\"shop://x\"",
    ])
    func aFileOfOneLinkIsResolved(text: String) throws {
        let router = FakeRouter()
        router.replies["Resolve"] = .success(OnlineCommandTests.decisionReply)
        let run = Fixtures.run(["send", "link.txt"], files: ["link.txt": text], router: router)
        #expect(run.status == .success, "\(run.errors)")
        #expect(router.calls.first?.method == RouterInterface.method("Resolve"))
    }

    @Test func anUnknownCoordinatorNamesTheNearestThatCanFinish() throws {
        let router = FakeRouter()
        router.replies["FlowFinished"] = .failure(
            .reply(
                .invalidName(
                    parameter: "coordinator", value: "logn", reason: "no coordinator 'logn' in the graph",
                    suggestion: "login")))
        let run = Fixtures.run(["finish", "ipad-7", "logn"], router: router)
        #expect(run.status == .failure)
        #expect(
            run.errors
                == "notifyctl: error: no coordinator 'logn' in the graph (did you mean 'login'?) "
                + "[io.notifyd.Router.InvalidParameter]\n")
        let json = try JSON.parse(Fixtures.run(["--json", "finish", "ipad-7", "logn"], router: router).output)
        #expect(json["parameters"]?["suggestion"] == "login")
        #expect(json["message"] == "no coordinator 'logn' in the graph (did you mean 'login'?)")
    }

    @Test(arguments: [
        ([], "'login' is not presented on this device, so it cannot finish; no flow that can finish is presented"),
        (["membership"], "'login' is not presented on this device, so it cannot finish; presented: membership"),
    ])
    func notPresentedSaysWhatIsPresented(presented: [String], message: String) {
        let router = FakeRouter()
        router.replies["FlowFinished"] = .failure(.reply(.notPresented(coordinator: "login", presented: presented)))
        let run = Fixtures.run(["finish", "ipad-7", "login"], router: router)
        #expect(run.errors == "notifyctl: error: \(message) [io.notifyd.Router.NotPresented]\n")
    }

    /// With `--json`, every error is one object on standard output, nothing on standard error: the daemon's with
    /// its parameters as they came, notifyctl's own with its name, and usage mistakes with exit status 2.
    @Test func jsonErrorsAreObjectsOnStandardOutput() throws {
        let router = FakeRouter()
        router.replies["GetDecision"] = .failure(.reply(.decisionNotFound(id: "nope")))
        let reply = Fixtures.run(["--json", "decision", "nope"], router: router)
        #expect(reply.status == .failure)
        #expect(reply.errors.isEmpty)
        #expect(
            try JSON.parse(reply.output) == [
                "error": "io.notifyd.Router.DecisionNotFound", "parameters": ["id": "nope"],
                "message": "no decision 'nope' in the history",
            ])

        let usage = Fixtures.run(["history", "--limit", "many", "--json"])
        #expect(usage.status == .usage)
        #expect(usage.errors.isEmpty)
        #expect(
            try JSON.parse(usage.output) == [
                "error": "notifyctl.UsageError", "parameters": ["command": "history"],
                "message": "'--limit' expects a whole number of at least 1, not 'many'",
            ])
        let unknown = try JSON.parse(Fixtures.run(["--json", "sned"]).output)
        #expect(unknown["parameters"] == ["command": nil])

        router.connectError = .connectFailed(path: "/tmp/none.sock", SystemCallError(call: "connect", errno: ENOENT))
        let down = Fixtures.run(["--json", "--socket", "/tmp/none.sock", "stats"], router: router)
        #expect(down.status == .failure)
        let error = try JSON.parse(down.output)
        #expect(error["error"] == "notifyctl.NotRunning")
        #expect(error["parameters"] == ["socket": "/tmp/none.sock"])

        let unreadable = try JSON.parse(Fixtures.run(["--json", "send", "missing.json"]).output)
        #expect(unreadable["error"] == "notifyctl.CannotRead")
        #expect(unreadable["parameters"] == ["path": "missing.json", "reason": "no such file"])
    }

    @Test func jsonAfterTheOptionsEndIsAnArgument() {
        let run = Fixtures.run(["resolve", "--", "--json"])
        #expect(run.status == .failure)
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix("notifyctl: error: "))
    }

    @Test func aSocketPathThatIsAFileSaysSo() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("notifyctl-not-a-socket-\(getpid())")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let router = FakeRouter()
        router.connectError = .connectFailed(path: file.path, SystemCallError(call: "connect", errno: ECONNREFUSED))
        let run = Fixtures.run(["stats", "--socket", file.path], router: router)
        #expect(run.status == .failure)
        #expect(
            run.errors.hasPrefix(
                "notifyctl: error: \(file.path) is a regular file, not a socket: pass the socket notifyd listens on\n"))
        let json = try JSON.parse(Fixtures.run(["--json", "stats", "--socket", file.path], router: router).output)
        #expect(json["error"] == "notifyctl.NotASocket")
        #expect(json["parameters"] == ["socket": .string(file.path), "kind": "a regular file"])
    }

    @Test func aReplyNotifyctlDoesNotKnowReadsAsItsParameters() {
        let router = FakeRouter()
        router.replies["GetStats"] = .failure(.reply(VarlinkError("io.notifyd.Router.Newer", parameters: ["why": "x"])))
        let run = Fixtures.run(["stats"], router: router)
        #expect(run.errors == "notifyctl: error: notifyd answered with an error: why: x [io.notifyd.Router.Newer]\n")
    }
}
