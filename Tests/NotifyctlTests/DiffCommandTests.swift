import CoordinatorGraph
import DeepLink
import Foundation
import JSON
import NotifyctlCore
import Testing

/// `diff CURRENT CANDIDATE`: config/shop.yaml against copies of it with one change each, as a reviewer would make.
@Suite struct DiffCommandTests {
    /// config/shop.yaml with each `(old, new)` replaced; each `old` must occur exactly once.
    static func shop(_ edits: (String, String)...) throws -> String {
        let url = Fixtures.repository.appendingPathComponent("config/shop.yaml")
        var text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        for (old, new) in edits {
            try #require(text.components(separatedBy: old).count == 2, "config/shop.yaml holds '\(old)' once")
            text = text.replacingOccurrences(of: old, with: new)
        }
        return text
    }

    static let offers = #""offer(id: String)": ["/offers/{id}", "/promo/{id}"]"#
    static let product = #""product(id: String)": /products/{id}"#

    /// The edits of each scenario, and the kind it must be reported as, with a link it must list.
    static let scenarios: [(name: String, edits: [(String, String)], kind: ChangeKind, link: String)] = [
        (
            "moved pattern",
            [
                (offers, #""offer(id: String)": /offers/{id}"#),
                (product, #""product(id: String)": [/products/{id}, "/promo/{id}"]"#),
            ],
            .patternMoved, "shop://promo/example"
        ),
        (
            "renamed page",
            [
                (offers, #""deal(id: String)": ["/offers/{id}", "/promo/{id}"]"#),
                (#"SUMMER_SALE: 'cart.offer(id: "SUMMER")'"#, #"SUMMER_SALE: 'cart.deal(id: "SUMMER")'"#),
            ],
            .pageRenamed, "shop://offers/example"
        ),
        (
            "added requires", [("      cart: /cart\n", "      cart: { path: /cart, requires: [session] }\n")],
            .gateAdded,
            "https://shop.example.com/cart"
        ),
        (
            "changed fallback", [("fallback: catalog.home", "fallback: cart.cart")], .fallbackChanged,
            "shop://notifyd-diff/no-such-page"
        ),
        (
            "removed host", [(#"hosts: [shop.example.com, "*.shop.example.com"]"#, "hosts: [shop.example.com]")],
            .hostRemoved, "https://www.shop.example.com/cart"
        ),
    ]

    @Test func identicalConfigsChangeNothing() {
        let run = Fixtures.run(["diff", "config/shop.yaml", "config/shop.yaml"])
        #expect(run.status == .success)
        #expect(run.errors.isEmpty)
        #expect(run.output.hasPrefix("no change: the "))
        #expect(run.output.hasSuffix(" links and categories route the same with both configs\n"))
        let json = Fixtures.run(["diff", "config/shop.yaml", "config/shop.yaml", "--json"])
        #expect(json.status == .success)
        #expect(json.output == "[]\n")
    }

    @Test(arguments: 0..<scenarios.count)
    func eachChangeIsReportedWithItsKind(_ index: Int) throws {
        let scenario = Self.scenarios[index]
        var text = try Self.shop()
        for (old, new) in scenario.edits { text = try Self.shop(edits: text, old, new) }
        let run = Fixtures.run(["diff", "config/shop.yaml", "next.yaml", "--json"], files: ["next.yaml": text])
        #expect(run.status == .failure, "\(scenario.name): a change ends with 1")
        let changes = try #require(try JSON.parse(run.output).arrayValue)
        let kinds = Set(changes.compactMap { $0["kind"]?.stringValue })
        #expect(kinds == [scenario.kind.rawValue], "\(scenario.name): \(kinds)")
        let listed = changes.first { $0["link"]?.stringValue == scenario.link }
        #expect(listed != nil, "\(scenario.name): \(scenario.link) is not listed")

        let plain = Fixtures.run(["diff", "config/shop.yaml", "next.yaml"], files: ["next.yaml": text])
        #expect(plain.output.hasPrefix(scenario.kind.title + " (\(changes.count))\n  "))
        #expect(plain.output.contains("\n  \(scenario.link)\n    - "))
        #expect(plain.output.hasSuffix(": \(changes.count) \(scenario.kind.title)\n"))
    }

    /// `shop(...)` on a text already edited.
    static func shop(edits text: String, _ old: String, _ new: String) throws -> String {
        try #require(text.components(separatedBy: old).count == 2, "the config holds '\(old)' once")
        return text.replacingOccurrences(of: old, with: new)
    }

    @Test func aChangeShowsWhereTheLinkLedAndLeads() throws {
        let text = try Self.shop(("      cart: /cart\n", "      cart: { path: /cart, requires: [session] }\n"))
        let run = Fixtures.run(
            ["diff", "config/shop.yaml", "next.yaml", "--links", "links.txt"],
            files: ["next.yaml": text, "links.txt": "shop://cart\n\n# a comment\nshop://cart\n shop://offers/A \n"])
        #expect(run.status == .failure)
        #expect(
            run.output == """
                gate added (2)
                  shop://cart  ×2
                    - routed  cart.cart  app › main › cart
                    + gated   cart.cart  app › main › cart  gate login for session

                2 of 3 links change with next.yaml: 2 gate added

                """)
        let json = try JSON.parse(
            Fixtures.run(
                ["diff", "config/shop.yaml", "next.yaml", "--links", "links.txt", "--json"],
                files: ["next.yaml": text, "links.txt": "shop://cart\nshop://cart\n"]
            ).output)
        let change = try #require(json.arrayValue?.first)
        #expect(change["changed"] == ["outcome", "gate"])
        #expect(change["count"] == 2)
        #expect(change["before"]?["outcome"] == "routed" && change["before"]?["gate"] == .null)
        #expect(change["after"]?["gate"] == ["coordinator": "login", "condition": "session"])
        #expect(change["after"]?["page"]?["id"] == "cart.cart")
    }

    /// Without a fallback page, a link whose host is no longer allowed is refused, and the refusal says why.
    @Test func aRefusedLinkSaysWhy() throws {
        let text = try Self.shop(
            (#"hosts: [shop.example.com, "*.shop.example.com"]"#, "hosts: [shop.example.com]"),
            ("  fallback: catalog.home\n", ""))
        let run = Fixtures.run(
            ["diff", "config/shop.yaml", "next.yaml", "--links", "-"],
            files: ["next.yaml": text, "-": "https://m.shop.example.com/cart\n"])
        #expect(run.status == .failure)
        #expect(run.output.hasPrefix("host removed (1)\n  https://m.shop.example.com/cart\n"))
        #expect(
            run.output.contains(
                "\n    + refused  link: 'https://m.shop.example.com/cart' is refused: host 'm.shop.example.com' is not allowed; allowed: "
            ))
    }

    @Test func anInvalidCandidateEndsWithTwoAndItsFindingsAsValidatePrintsThem() throws {
        let run = Fixtures.run(
            ["diff", "config/shop.yaml", "broken.yaml"], files: ["broken.yaml": OfflineCommandTests.broken])
        #expect(run.status == .usage)
        #expect(run.output.isEmpty)
        let validate = Fixtures.run(["validate", "broken.yaml"], files: ["broken.yaml": OfflineCommandTests.broken])
        let findings = validate.output.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
        #expect(run.errors.hasPrefix("notifyctl: error: broken.yaml: the config has "))
        #expect(run.errors.contains("\n" + findings + "\n"), "\(run.errors)")

        let json = Fixtures.run(
            ["diff", "config/shop.yaml", "broken.yaml", "--json"], files: ["broken.yaml": OfflineCommandTests.broken])
        #expect(json.status == .usage)
        #expect(try JSON.parse(json.output)["error"] == "notifyctl.ConfigInvalid")
    }

    @Test func anUnreadableLinksFileOrAMissingArgumentEndsWithTwo() {
        let missing = Fixtures.run(["diff", "config/shop.yaml", "config/shop.yaml", "--links", "nope.txt"])
        #expect(missing.status == .usage)
        #expect(missing.errors == "notifyctl: error: cannot read 'nope.txt': no such file\n")
        let usage = Fixtures.run(["diff", "config/shop.yaml"])
        #expect(usage.status == .usage)
        #expect(usage.errors.hasPrefix("notifyctl: error: 'diff' needs NEW_CONFIG\n"))
    }

    @Test func diffNeedsNoDaemon() {
        let run = Fixtures.run(["diff", "--socket", "/tmp/x.sock", "config/shop.yaml", "config/shop.yaml"])
        #expect(run.status == .usage)
        #expect(run.errors.hasPrefix("notifyctl: error: 'diff' works without the daemon"))
    }
}
