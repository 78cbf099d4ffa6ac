import NotifyctlCore
import Testing

/// `--app NAME`: the short form of the template units' socket, `/run/notifyd/NAME.sock`.
@Suite struct AppOptionTests {
    @Test(arguments: [["--app", "shop", "stats"], ["stats", "--app", "shop"], ["stats", "--app=shop"]])
    func appIsTheSocketOfItsTemplateInstance(arguments: [String]) {
        let router = FakeRouter()
        router.replies["GetStats"] = .success(["stats": ["requests": 1]])
        let run = Fixtures.run(arguments, router: router, environment: ["NOTIFYD_SOCKET": "/elsewhere.sock"])
        #expect(run.status == .success)
        #expect(router.connectedSockets == ["/run/notifyd/shop.sock"])
    }

    @Test func socketAndAppTogetherAreAUsageMistake() {
        let run = Fixtures.run(["--socket", "/s.sock", "--app", "shop", "stats"])
        #expect(run.status == .usage)
        #expect(
            run.errors.hasPrefix("notifyctl: error: '--socket' and '--app' both name the daemon's socket; give one\n"))
    }

    @Test(arguments: ["", "../etc", "a/b", ".hidden"])
    func anAppNameIsAPlainName(name: String) {
        let run = Fixtures.run(["--app", name, "stats"])
        #expect(run.status == .usage)
        #expect(run.errors.contains("'--app' takes the name of an app"))
    }

    @Test func offlineCommandsRefuseApp() {
        let run = Fixtures.run(["validate", "config/shop.yaml", "--app", "shop"])
        #expect(run.status == .usage)
        #expect(run.errors.hasPrefix("notifyctl: error: 'validate' works without the daemon and does not take '--app'"))
    }

    @Test func everyDaemonCommandsHelpOffersApp() {
        for command in Notifyctl.commands where command.group == .daemon {
            #expect(Fixtures.run([command.name, "--help"]).output.contains("  --app NAME "), "\(command.name)")
        }
    }

    /// Each command's help says what its `--json` prints: no two commands describe different outputs alike.
    @Test func eachCommandsHelpSaysWhatItsJSONPrints() {
        for command in Notifyctl.commands {
            let help = Fixtures.run([command.name, "--help"]).output
            let line = help.split(separator: "\n").first { $0.hasPrefix("  --json ") }
            #expect(line?.hasSuffix(command.jsonHelp) == true, "\(command.name): \(line ?? "no --json line")")
        }
        #expect(Notifyctl.commands.map(\.jsonHelp).allSatisfy { !$0.isEmpty })
        #expect(Fixtures.run(["finish", "--help"]).output.contains("{resumed"))
        #expect(Fixtures.run(["state", "--help"]).output.contains("{state"))
    }
}
