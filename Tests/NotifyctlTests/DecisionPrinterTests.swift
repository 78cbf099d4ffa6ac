import CoordinatorGraph
import Foundation
import JSON
import NotifyctlCore
import Testing

@Suite struct DecisionPrinterTests {
    static let routed = """
        {"id": "5f0c7e1e-0000-4000-8000-000000000001", "device": "ipad-7", "outcome": "routed",
         "source": {"format": "apns", "field": "deeplink", "link": "shop://offers/SUMMER"},
         "page": {"id": "cart.offer", "arguments": {"id": "SUMMER"}, "description": "cart.offer(id: \\"SUMMER\\")"},
         "path": ["app", "main", "cart"],
         "steps": [
           {"action": "activate", "coordinator": "app"},
           {"action": "selectTab", "coordinator": "main", "child": "cart"},
           {"action": "start", "coordinator": "cart", "parent": "main"},
           {"action": "display", "coordinator": "cart", "page": "cart.offer(id: \\"SUMMER\\")"}
         ],
         "pending": null, "createdAt": "2025-06-01T12:00:00.000Z"}
        """

    static let gated = """
        {"id": "5f0c7e1e-0000-4000-8000-000000000002", "device": "ipad-7", "outcome": "gated",
         "source": {"format": "apns", "field": "aps.category", "link": null},
         "page": {"id": "account.order", "arguments": {"id": 4711}, "description": "account.order(id: 4711)"},
         "path": ["app", "main", "account"],
         "steps": [
           {"action": "activate", "coordinator": "app"},
           {"action": "start", "coordinator": "main", "parent": "app"},
           {"action": "present", "coordinator": "login", "parent": "main"},
           {"action": "display", "coordinator": "login", "page": "login.login"}
         ],
         "pending": {"page": {"id": "account.order", "arguments": {"id": 4711}, "description": "account.order(id: 4711)"},
                     "gate": "login", "condition": "session", "expiresAt": "2025-06-01T12:15:00.000Z"},
         "createdAt": "2025-06-01T12:00:00.000Z"}
        """

    static let fallbackExplained = """
        {"id": "5f0c7e1e-0000-4000-8000-000000000003", "device": null, "outcome": "fallback",
         "source": {"format": "link", "field": "$", "link": "shop://nowhere"},
         "page": {"id": "catalog.home", "arguments": {}, "description": "catalog.home"},
         "path": ["app", "main", "catalog"],
         "steps": [
           {"action": "activate", "coordinator": "app"}, {"action": "start", "coordinator": "main", "parent": "app"},
           {"action": "selectTab", "coordinator": "main", "child": "catalog"},
           {"action": "start", "coordinator": "catalog", "parent": "main"},
           {"action": "display", "coordinator": "catalog", "page": "catalog.home"},
           {"action": "push", "coordinator": "catalog", "page": "catalog.home"},
           {"action": "popTo", "coordinator": "catalog", "page": "catalog.home"},
           {"action": "setRoot", "coordinator": "catalog", "page": "catalog.home"},
           {"action": "dismiss", "coordinator": "payment"},
           {"action": "display", "coordinator": "catalog", "page": "catalog.home"}
         ],
         "pending": null,
         "trace": ["$: link 'shop://nowhere'", "  no pattern matches /nowhere", "no candidate matched: fallback catalog.home"],
         "createdAt": "2025-06-01T12:00:00.000Z"}
        """

    static let resumed = """
        {"id": "5f0c7e1e-0000-4000-8000-000000000004", "device": "tv-1", "outcome": "resumed", "source": null,
         "page": {"id": "account.order", "arguments": {"id": 4711}, "description": "account.order(id: 4711)"},
         "path": ["app", "main", "account"],
         "steps": [{"action": "dismiss", "coordinator": "login"}, {"action": "display", "coordinator": "account",
                    "page": "account.order(id: 4711)"}],
         "pending": null, "trace": [], "createdAt": "2025-06-01T12:01:00.000Z"}
        """

    static let opened = """
        {"id": "5f0c7e1e-0000-4000-8000-000000000005", "device": "ipad-7", "outcome": "opened",
         "source": {"format": "apns", "field": "aps.alert", "link": null, "topic": "com.example.shop"},
         "page": null, "path": [], "steps": [], "pending": null, "createdAt": "2025-06-01T12:02:00.000Z"}
        """

    static let silent = """
        {"id": "5f0c7e1e-0000-4000-8000-000000000006", "device": "ipad-7", "outcome": "silent",
         "source": {"format": "apns", "field": "headers.apns-push-type", "link": null},
         "page": null, "path": [], "steps": [], "pending": null,
         "warnings": ["deeplink: not followed: the push never navigates"], "createdAt": "2025-06-01T12:03:00.000Z"}
        """

    @Test func aPageLessDecisionSaysWhatTheAppDoesAndPrintsNoPathOrSteps() throws {
        let opened = DecisionPrinter(style: .plain).render(try Fixtures.decision(Self.opened))
        #expect(
            opened == """
                opened  no page: the app comes forward where it is
                ├─ source    apns · aps.alert
                ├─ topic     com.example.shop
                └─ decision  5f0c7e1e-0000-4000-8000-000000000005 · device ipad-7 · 2025-06-01T12:02:00.000Z

                """)
        let silent = DecisionPrinter(style: .plain).render(try Fixtures.decision(Self.silent))
        #expect(silent.hasPrefix("silent  no page: nothing to open\n├─ source    apns · headers.apns-push-type\n"))
        #expect(silent.contains("├─ warnings\n│  deeplink: not followed: the push never navigates\n"))
        #expect(!silent.contains("path") && !silent.contains("steps"))
    }

    @Test func historyShowsADashForAPageLessDecision() throws {
        let decisions = try [Self.routed, Self.opened, Self.silent].map(Fixtures.decision)
        let lines = DecisionPrinter(style: .plain).renderList(decisions).split(separator: "\n")
        #expect(lines.count == 4, "\(lines)")
        #expect(lines[2].hasSuffix("opened   -"), "\(lines[2])")
        #expect(lines[3].hasSuffix("silent   -"), "\(lines[3])")
    }

    @Test(arguments: [
        (routed, "decision-routed.txt"), (gated, "decision-gated.txt"),
        (fallbackExplained, "decision-fallback-trace.txt"), (resumed, "decision-resumed.txt"),
    ])
    func decisionTreeMatchesGolden(_ json: String, _ golden: String) throws {
        let text = DecisionPrinter(style: .plain).render(try Fixtures.decision(json))
        Fixtures.expectGolden(text, golden)
    }

    @Test func firstLineIsOutcomeAndPage() throws {
        let text = DecisionPrinter(style: .plain).render(try Fixtures.decision(Self.gated))
        #expect(text.hasPrefix("gated  account.order(id: 4711)\n"))
        #expect(text.contains("├─ path      app › main › account\n"))
        #expect(text.contains("├─ pending   account.order(id: 4711) until 2025-06-01T12:15:00.000Z\n"))
    }

    @Test func historyIsATable() throws {
        let decisions = try [Self.routed, Self.gated, Self.fallbackExplained].map(Fixtures.decision)
        Fixtures.expectGolden(DecisionPrinter(style: .plain).renderList(decisions), "history.txt")
    }

    @Test func plainStyleWritesNoEscapes() throws {
        let text = DecisionPrinter(style: .plain).render(try Fixtures.decision(Self.routed))
        #expect(!text.contains("\u{1B}"))
    }

    @Test func colourStyleColoursTheOutcomeAndPage() throws {
        let text = DecisionPrinter(style: Style(enabled: true)).render(try Fixtures.decision(Self.routed))
        #expect(text.hasPrefix("\u{1B}[32mrouted\u{1B}[0m  \u{1B}[1mcart.offer(id: \"SUMMER\")\u{1B}[0m\n"))
    }

    @Test func controlCharactersFromPayloadsAreEscaped() throws {
        let hostile = Self.routed.replacingOccurrences(
            of: "shop://offers/SUMMER\"}", with: "shop://offers/\\u001b]0;owned\\u0007\"}")
        let text = DecisionPrinter(style: .plain).render(try Fixtures.decision(hostile))
        #expect(!text.contains("\u{1B}"))
        #expect(text.contains("shop://offers/\\u{1b}]0;owned\\u{7}"))
    }

    @Test(arguments: [
        (Step(.activate, "app"), "activate app"),
        (Step(.selectTab, "main", child: "cart"), "selectTab main → cart"),
        (Step(.start, "cart", parent: "main"), "start cart in main"),
        (Step(.present, "login", parent: "cart"), "present login over cart"),
        (Step(.dismiss, "payment"), "dismiss payment"),
        (Step(.push, "cart", page: "cart.checkout"), "push cart.checkout in cart"),
        (Step(.popTo, "cart", page: "cart.cart"), "popTo cart.cart in cart"),
        (Step(.setRoot, "cart", page: "cart.cart"), "setRoot cart.cart in cart"),
        (Step(.display, "cart", page: "cart.offer(id: \"S\")"), "display cart.offer(id: \"S\") in cart"),
    ])
    func stepsReadAsSentences(_ step: Step, _ text: String) {
        #expect(DecisionPrinter(style: .plain).step(step) == text)
    }
}

@Suite struct TerminalTests {
    @Test func colourOnlyOnATerminalWithoutNoColor() {
        #expect(Terminal.colourAllowed(environment: [:]))
        #expect(!Terminal.colourAllowed(environment: ["NO_COLOR": "1"]))
        #expect(!Terminal.colourAllowed(environment: ["NO_COLOR": ""]))
        #expect(!Terminal.colourAllowed(environment: ["TERM": "dumb"]))
        let piped = Terminal(outputIsTerminal: false, errorIsTerminal: true, colourAllowed: true)
        #expect(!piped.outputStyle.enabled)
        #expect(piped.errorStyle.enabled)
        let noColor = Terminal(outputIsTerminal: true, errorIsTerminal: true, colourAllowed: false)
        #expect(!noColor.outputStyle.enabled)
    }

    @Test func errorsAreColouredOnlyOnATerminal() {
        let coloured = Fixtures.run(
            ["sned"], terminal: Terminal(outputIsTerminal: true, errorIsTerminal: true, colourAllowed: true))
        #expect(coloured.errors.hasPrefix("notifyctl: \u{1B}[1;31merror:\u{1B}[0m unknown command"))
        #expect(!Fixtures.run(["sned"]).errors.contains("\u{1B}"))
    }
}
