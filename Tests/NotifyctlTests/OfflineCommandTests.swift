import CoordinatorGraph
import Foundation
import JSON
import NotifyctlCore
import Testing

/// `validate`, and `resolve`/`explain` with `--offline` on config/shop.yaml.
@Suite struct OfflineCommandTests {
    static let broken = """
        version: 1
        app:
          name: Shop
          schemes: [shop]
          fallback: catalog.nowhere
        coordinators:
          app:
            kind: app
            children: [main]
            root: main
          main:
            kinds: stack
            pages:
              home: /home
              item(id: Int): /items/{name}
        """

    @Test func validatePrintsEveryFindingCompilerStyle() throws {
        let run = Fixtures.run(["validate", "broken.yaml"], files: ["broken.yaml": Self.broken])
        #expect(run.status == .failure)
        let lines = run.output.split(separator: "\n")
        #expect(lines.count >= 3, "expected several findings and a summary")
        for line in lines.dropLast() {
            #expect(line.hasPrefix("broken.yaml:"), "not compiler style: \(line)")
            #expect(line.contains(": error: ") || line.contains(": warning: "), "no severity: \(line)")
        }
        #expect(run.output.contains("broken.yaml:12:5: error: "), "the unknown key 'kinds' is reported where it is")
        #expect(lines.last?.hasPrefix("broken.yaml: ") == true)
        #expect(lines.last?.contains(" errors, ") == true)
        Fixtures.expectGolden(run.output, "validate-broken.txt")
    }

    @Test func validateJSONListsFindings() throws {
        let run = Fixtures.run(["validate", "broken.yaml", "--json"], files: ["broken.yaml": Self.broken])
        #expect(run.status == .failure)
        let json = try JSON.parse(run.output)
        #expect(json["valid"] == false)
        let findings = try #require(json["findings"]?.arrayValue)
        #expect(json["errors"]?.intValue == findings.count { $0["severity"] == "error" })
        let first = try #require(findings.first)
        #expect(first["file"] == "broken.yaml")
        #expect(first["line"]?.intValue != nil && first["column"]?.intValue != nil)
        #expect(first["code"]?.stringValue?.isEmpty == false)
    }

    @Test func validateAcceptsTheShopConfig() {
        let run = Fixtures.run(["validate", "config/shop.yaml"])
        #expect(run.status == .success)
        #expect(run.output.hasSuffix("config/shop.yaml: valid: 10 coordinators, 20 pages, 0 warnings\n"))
    }

    @Test func validateOfAMissingFileFails() {
        let run = Fixtures.run(["validate", "nope.yaml"])
        #expect(run.status == .failure)
        #expect(run.errors == "notifyctl: error: cannot read 'nope.yaml': no such file\n")
    }

    @Test func offlineResolveIsTheColdStartDecision() throws {
        let run = Fixtures.run(["resolve", "--offline", "config/shop.yaml", "shop://offers/SUMMER"])
        #expect(run.status == .success)
        #expect(run.errors.isEmpty)
        Fixtures.expectGolden(run.output, "offline-resolve-offer.txt")
    }

    @Test func offlineResolveOfAGatedPageShowsThePendingPage() throws {
        let run = Fixtures.run([
            "resolve", "--offline", "config/shop.yaml", "https://shop.example.com/account/orders/42",
        ])
        #expect(run.status == .success)
        Fixtures.expectGolden(run.output, "offline-resolve-gated.txt")
    }

    @Test func offlineJSONIsTheDecisionObjectTheGraphAccepts() throws {
        let run = Fixtures.run(["resolve", "--offline", "config/shop.yaml", "shop://cart/checkout", "--json"])
        #expect(run.status == .success)
        let printed = try JSON.parse(run.output)
        let loaded = try ConfigLoader.load(try FixtureFiles(files: [:]).read("config/shop.yaml"), file: "shop.yaml")
            .get()
        let decision = try Decision(json: printed, graph: loaded.graph)
        #expect(decision.page?.id.description == "cart.checkout")
        #expect(decision.outcome == .gated)
        #expect(decision.device == nil)
        #expect(decision.source == DecisionSource(format: "link", field: "link", link: "shop://cart/checkout"))
        #expect(decision.createdAt == Fixtures.now)
        #expect(decision.id == "00000000-0000-4000-8000-000000000001")
    }

    @Test func offlineExplainOfAPayloadHasSourceAndTrace() throws {
        let run = Fixtures.run(["explain", "--offline", "config/shop.yaml", "examples/payloads/apns-category.json"])
        #expect(run.status == .success)
        #expect(run.output.hasPrefix("gated  account.order(id: 4711)\n"))
        #expect(run.output.contains("├─ source    apns · aps.category\n"))
        #expect(run.output.contains("├─ trace\n"))
        Fixtures.expectGolden(run.output, "offline-explain-apns-category.txt")
    }

    @Test(arguments: [
        "examples/payloads/apns-offer.json", "examples/payloads/fcm-v1.json", "examples/payloads/fcm-legacy.json",
        "examples/payloads/ntfy.json", "examples/payloads/gotify.json", "examples/payloads/link.txt",
    ])
    func everyExamplePayloadRoutesOffline(_ path: String) {
        let run = Fixtures.run(["send", "--offline", "config/shop.yaml", path])
        #expect(run.status == .success, "\(run.errors)")
        #expect(!run.output.hasPrefix("fallback"), "\(path) should match a pattern")
    }

    @Test func offlineUnmatchedLinkFallsBack() {
        let run = Fixtures.run(["resolve", "--offline", "config/shop.yaml", "shop://nowhere"])
        #expect(run.status == .success)
        #expect(run.output.hasPrefix("fallback  catalog.home\n"))
    }

    @Test func offlineForeignLinkFallsBackWithTheReason() {
        let run = Fixtures.run(["resolve", "--offline", "config/shop.yaml", "https://evil.example.net/cart"])
        #expect(run.status == .success)
        #expect(run.output.hasPrefix("fallback  catalog.home\n"))
        #expect(
            run.output.contains(
                "├─ warnings\n│  link: 'https://evil.example.net/cart' is refused: host 'evil.example.net' is not "
                    + "allowed; allowed: shop.example.com, *.shop.example.com\n"), "\(run.output)")
    }

    /// config/shop.yaml without its fallback page: a refused link is then `NoRoute`.
    static func shopWithoutFallback() throws -> String {
        let shop = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("config/shop.yaml"), encoding: .utf8)
        let config = shop.replacingOccurrences(of: "  fallback: catalog.home\n", with: "")
        #expect(config != shop)
        return config
    }

    @Test func offlineForeignLinkWithoutAFallbackIsNoRouteWithTheReason() throws {
        let config = try Self.shopWithoutFallback()
        let run = Fixtures.run(
            ["resolve", "--offline", "nofallback.yaml", "https://evil.example.net/cart"],
            files: ["nofallback.yaml": config])
        #expect(run.status == .failure)
        #expect(
            run.errors == """
                notifyctl: error: no page for 'https://evil.example.net/cart' [io.notifyd.Router.NoRoute]
                  link: 'https://evil.example.net/cart' is refused: host 'evil.example.net' is not allowed; allowed: shop.example.com, *.shop.example.com
                notifyctl: note: 'notifyctl explain --dry-run' with the same link or payload shows every pattern tried

                """)
    }

    /// A refused link, explained: the trace of every candidate and why it was refused, as text and as JSON.
    @Test(arguments: [
        ("http://shop.example.com/cart", "offline-explain-refused-scheme.txt"),
        ("shop://cart/%zz", "offline-explain-refused-escape.txt"),
        ("https://evil.example.net/cart", "offline-explain-refused-host.txt"),
    ])
    func offlineExplainOfARefusedLinkPrintsTheTrace(link: String, golden: String) throws {
        let files = ["nofallback.yaml": try Self.shopWithoutFallback()]
        let run = Fixtures.run(["explain", "--offline", "nofallback.yaml", link], files: files)
        #expect(run.status == .failure)
        #expect(run.output.isEmpty)
        #expect(run.errors.contains("\nnotifyctl: trace:\n  link: link '\(link)'\n"))
        Fixtures.expectGolden(run.errors, golden)

        let json = Fixtures.run(["explain", "--offline", "nofallback.yaml", "--json", link], files: files)
        #expect(json.status == .failure)
        #expect(json.errors.isEmpty)
        let error = try JSON.parse(json.output)
        #expect(error["error"] == "io.notifyd.Router.NoRoute")
        #expect(error["parameters"]?["link"] == .string(link))
        #expect(error["parameters"]?["reasons"]?.arrayValue?.count == 1)
        let trace = try #require(error["trace"]?.arrayValue)
        #expect(trace.first == .string("link: link '\(link)'"))
        #expect(trace.last?.stringValue?.hasPrefix("link: '\(link)' is refused: ") == true)
        #expect(error["message"] == .string("no page for '\(link)'"))
    }

    @Test func offlineExplainOfARefusedPayloadTracesEveryCandidate() throws {
        let payload =
            #"{"aps": {"alert": "x"}, "deeplink": "ftp://shop.example.com/a", "url": "https://evil.example.net/b"}"#
        let run = Fixtures.run(
            ["explain", "--offline", "nofallback.yaml", "p.json"],
            files: ["p.json": payload, "nofallback.yaml": try Self.shopWithoutFallback()])
        #expect(run.status == .failure)
        #expect(run.errors.contains("  deeplink: link 'ftp://shop.example.com/a'\n"))
        #expect(run.errors.contains("  url: link 'https://evil.example.net/b'\n"))
        #expect(
            run.errors.contains(
                "  url: 'https://evil.example.net/b' is refused: host 'evil.example.net' is not allowed"),
            "\(run.errors)")
    }

    @Test func offlinePayloadWarningsArePartOfTheDecision() throws {
        let payload = #"{"aps": {"alert": "x", "thread_id": "t"}, "deeplink": "", "url": "shop://cart"}"#
        let run = Fixtures.run(["explain", "--offline", "config/shop.yaml", "p.json"], files: ["p.json": payload])
        #expect(run.status == .success)
        #expect(run.output.contains("├─ trace\n│  warning: aps.thread_id: "))
        #expect(run.output.contains("│  warning: deeplink: the link is empty; ignored\n"))
        let quiet = Fixtures.run(["send", "--offline", "config/shop.yaml", "p.json"], files: ["p.json": payload])
        #expect(quiet.errors == "")
        #expect(quiet.output.contains("├─ warnings\n│  aps.thread_id: "))
        #expect(quiet.output.contains("│  deeplink: the link is empty; ignored\n"))
        let json = Fixtures.run(
            ["send", "--offline", "config/shop.yaml", "--json", "p.json"], files: ["p.json": payload])
        let decision = try JSON.parse(json.output)
        let warnings = decision["decision"]?["warnings"] ?? decision["warnings"]
        #expect(warnings?.arrayValue?.count == 2, "\(json.output)")
    }

    @Test func strictModeRefusesLargeAPNsPayloadsAsTheDaemonDoes() {
        let padding = String(repeating: "x", count: 4_200)
        let payload = #"{"aps": {"alert": "\#(padding)"}, "deeplink": "shop://cart"}"#
        let lax = Fixtures.run(["send", "--offline", "config/shop.yaml", "p.json"], files: ["p.json": payload])
        #expect(lax.status == .success)
        let strict = Fixtures.run(
            ["send", "--offline", "config/shop.yaml", "--strict", "p.json"], files: ["p.json": payload])
        #expect(strict.status == .failure)
        #expect(
            strict.errors.hasPrefix(
                "notifyctl: error: the payload is 4245 bytes, more than the 4096 bytes accepted "
                    + "[io.notifyd.Router.PayloadTooLarge]\n"), "\(strict.errors)")
    }

    @Test func offlinePayloadErrorsAreTheDaemonsErrors() {
        let run = Fixtures.run(
            ["send", "--offline", "config/shop.yaml", "p.json"], files: ["p.json": #"{"aps": {"badge": "one"}}"#])
        #expect(run.status == .failure)
        #expect(
            run.errors.hasPrefix(
                "notifyctl: error: invalid payload at aps.badge: expected an integer, found string "
                    + "[io.notifyd.Router.InvalidPayload]"), "\(run.errors)")
    }

    @Test func offlineAlertWithoutALinkIsOpened() {
        let run = Fixtures.run(
            ["send", "--offline", "config/shop.yaml", "p.json"], files: ["p.json": #"{"aps": {"alert": "no link"}}"#])
        #expect(run.status == .success)
        #expect(
            run.output.hasPrefix("opened  no page: the app comes forward where it is\n├─ source    apns · aps.alert\n"))
        #expect(!run.output.contains("steps"))
    }

    @Test func offlineHeaderMakesABackgroundPushSilent() {
        let payload = #"{"aps": {"alert": "Hi"}, "deeplink": "shop://cart"}"#
        let run = Fixtures.run(
            [
                "send", "--offline", "config/shop.yaml", "--header", "apns-push-type: background", "--header",
                "apns-topic: com.example.shop", "p.json",
            ], files: ["p.json": payload])
        #expect(run.status == .success)
        #expect(
            run.output.hasPrefix(
                "silent  no page: nothing to open\n├─ source    apns · headers.apns-push-type\n├─ topic     com.example.shop\n"
            ),
            "\(run.output)")
    }

    @Test func offlineHeaderWithAValueTheServiceRefusesIsInvalidPayload() {
        let run = Fixtures.run(
            ["send", "--offline", "config/shop.yaml", "--header", "apns-priority: 7", "p.json"],
            files: ["p.json": #"{"aps": {"alert": "Hi"}}"#])
        #expect(run.status == .failure)
        #expect(
            run.errors.hasPrefix(
                "notifyctl: error: invalid payload at headers.apns-priority: expected 10, 5 or 1, found \"7\" "
                    + "[io.notifyd.Router.InvalidPayload]"), "\(run.errors)")
    }

    @Test func aHeaderWithoutAColonIsAUsageError() {
        let run = Fixtures.run(
            ["send", "--offline", "config/shop.yaml", "--header", "apns-push-type background", "p.json"],
            files: ["p.json": #"{"aps": {"alert": "Hi"}}"#])
        #expect(run.status == .usage)
        #expect(run.errors.contains("needs a colon between the name and the value"))
    }

    @Test func offlineRefusesADevice() {
        let run = Fixtures.run(["resolve", "--offline", "config/shop.yaml", "--device", "d", "shop://cart"])
        #expect(run.status == .usage)
        #expect(run.errors.hasPrefix("notifyctl: error: '--device' needs the daemon"))
    }

    @Test func offlineWithABrokenConfigListsItsErrors() {
        let run = Fixtures.run(
            ["resolve", "--offline", "broken.yaml", "shop://cart"], files: ["broken.yaml": Self.broken])
        #expect(run.status == .failure)
        #expect(run.errors.hasPrefix("notifyctl: error: broken.yaml: the config has "))
        #expect(run.errors.contains("\n  broken.yaml:12:5: error: "))
    }

    @Test func offlineDecisionIdsAreTimeOrderedVersion7UUIDsLikeTheDaemons() throws {
        let random = try #require(UUID(uuidString: "FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF"))
        let id = CommandContext.timeOrderedID(milliseconds: 1_748_779_200_000, random: random)
        #expect(id == "01972b5c-ee00-7fff-bfff-ffffffffffff")
        let earlier = CommandContext.timeOrderedID(milliseconds: 1_748_779_199_999)
        let later = CommandContext.timeOrderedID(milliseconds: 1_748_779_200_001)
        #expect(earlier < id && id < later)
        #expect(Array(later)[14] == "7" && "89ab".contains(Array(later)[19]))
        let standard = CommandContext.standard().makeID()
        #expect(Array(standard)[14] == "7" && UUID(uuidString: standard) != nil)
    }
}
