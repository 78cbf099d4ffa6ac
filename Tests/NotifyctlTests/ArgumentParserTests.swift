import NotifyctlCore
import Testing

@Suite struct ArgumentParserTests {
    let parser = ArgumentParser(commands: Notifyctl.commands)

    func invocation(_ arguments: [String]) throws -> Invocation {
        guard case .run(let invocation) = try parser.parse(arguments) else {
            Issue.record("expected a command to run for \(arguments)")
            throw NotifyctlError.usage("not a run")
        }
        return invocation
    }

    func usageError(_ arguments: [String]) -> NotifyctlError? {
        do {
            _ = try parser.parse(arguments)
            return nil
        } catch {
            return error
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var line: [String]
        var command: String
        var arguments: [String]
        var testDescription: String { line.joined(separator: " ") }
    }

    @Test(arguments: [
        Case(line: ["send", "payload.json"], command: "send", arguments: ["payload.json"]),
        Case(line: ["send", "-"], command: "send", arguments: ["-"]),
        Case(line: ["resolve", "shop://cart"], command: "resolve", arguments: ["shop://cart"]),
        Case(line: ["explain", "shop://cart"], command: "explain", arguments: ["shop://cart"]),
        Case(line: ["decision", "5f0c"], command: "decision", arguments: ["5f0c"]),
        Case(line: ["history"], command: "history", arguments: []),
        Case(line: ["state", "ipad-7"], command: "state", arguments: ["ipad-7"]),
        Case(line: ["finish", "ipad-7", "login"], command: "finish", arguments: ["ipad-7", "login"]),
        Case(line: ["monitor"], command: "monitor", arguments: []),
        Case(line: ["stats"], command: "stats", arguments: []),
        Case(line: ["reload"], command: "reload", arguments: []),
        Case(line: ["info"], command: "info", arguments: []),
        Case(line: ["validate", "config/shop.yaml"], command: "validate", arguments: ["config/shop.yaml"]),
    ])
    func eachCommandParsesItsArguments(_ item: Case) throws {
        let parsed = try invocation(item.line)
        #expect(parsed.command.name == item.command)
        #expect(parsed.arguments == item.arguments)
    }

    @Test func optionsComeBeforeOrAfterTheCommandAndBetweenArguments() throws {
        let parsed = try invocation([
            "--socket", "/tmp/n.sock", "--json", "send", "p.json", "--device=ipad", "--dry-run",
        ])
        #expect(parsed.value(.socket) == "/tmp/n.sock")
        #expect(parsed.wantsJSON)
        #expect(parsed.value(.device) == "ipad")
        #expect(parsed.isSet(.dryRun))
        #expect(parsed.arguments == ["p.json"])

        let early = try invocation(["--device", "tv-1", "--dry-run", "resolve", "shop://cart"])
        #expect(early.value(.device) == "tv-1")
        #expect(early.isSet(.dryRun))
    }

    @Test func historyTakesDeviceAndLimit() throws {
        let parsed = try invocation(["history", "--device", "ipad-7", "--limit", "5"])
        #expect(parsed.value(.device) == "ipad-7")
        #expect(parsed.integer(.limit) == 5)
    }

    @Test func offlineTakesTheConfigAsItsValue() throws {
        let resolve = try invocation(["resolve", "--offline", "config/shop.yaml", "shop://cart"])
        #expect(resolve.value(.offline) == "config/shop.yaml")
        #expect(resolve.arguments == ["shop://cart"])
        let explain = try invocation(["explain", "shop://cart", "--offline", "config/shop.yaml", "--format", "link"])
        #expect(explain.value(.offline) == "config/shop.yaml")
        #expect(explain.value(.format) == "link")
    }

    @Test(arguments: [
        ["codegen", "swift", "c.yaml", "-o", "Gen"], ["codegen", "swift", "c.yaml", "-oGen"],
        ["codegen", "-o", "Gen", "swift", "c.yaml"], ["codegen", "swift", "c.yaml", "--output=Gen"],
    ])
    func codegenOutputHasTheShortSpellingO(_ line: [String]) throws {
        let parsed = try invocation(line)
        #expect(parsed.value(.codegenOutput) == "Gen")
        #expect(parsed.arguments == ["swift", "c.yaml"])
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try invocation(["resolve", "--", "--not-an-option"])
        #expect(parsed.arguments == ["--not-an-option"])
    }

    @Test func lastRepeatedValueWins() throws {
        let parsed = try invocation(["history", "--limit", "3", "--limit", "9"])
        #expect(parsed.integer(.limit) == 9)
    }

    @Test func socketDefaultsToTheEnvironmentThenTheSystemPath() throws {
        let parsed = try invocation(["stats"])
        #expect(parsed.socketPath(environment: [:]) == "/run/notifyd/notifyd.sock")
        #expect(parsed.socketPath(environment: ["NOTIFYD_SOCKET": "/tmp/x.sock"]) == "/tmp/x.sock")
        #expect(parsed.socketPath(environment: ["NOTIFYD_SOCKET": ""]) == "/run/notifyd/notifyd.sock")
        let explicit = try invocation(["stats", "--socket", "/a.sock"])
        #expect(explicit.socketPath(environment: ["NOTIFYD_SOCKET": "/tmp/x.sock"]) == "/a.sock")
    }

    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func helpWithoutACommandIsTheOverview(_ line: [String]) throws {
        guard case .help(let command) = try parser.parse(line) else {
            Issue.record("expected help")
            return
        }
        #expect(command == nil)
    }

    @Test(arguments: [["send", "--help"], ["help", "send"], ["send", "-h", "x.json"], ["--help", "send"]])
    func helpOfACommand(_ line: [String]) throws {
        guard case .help(let command) = try parser.parse(line) else {
            Issue.record("expected help")
            return
        }
        #expect(command?.name == "send")
    }

    struct Mistake: Sendable, CustomTestStringConvertible {
        var line: [String]
        var message: String
        var testDescription: String { line.joined(separator: " ") }
    }

    @Test(arguments: [
        Mistake(line: [], message: "no command given; 'notifyctl --help' lists the commands"),
        Mistake(line: ["sned", "x.json"], message: "unknown command 'sned'; did you mean 'send'?"),
        Mistake(line: ["frobnicate"], message: "unknown command 'frobnicate'; 'notifyctl --help' lists the commands"),
        Mistake(line: ["send"], message: "'send' needs FILE|-"),
        Mistake(line: ["finish", "ipad"], message: "'finish' needs COORDINATOR"),
        Mistake(line: ["stats", "extra"], message: "unexpected argument 'extra'; 'stats' takes no arguments"),
        Mistake(
            line: ["state", "a", "b"], message: "unexpected argument 'b'; 'state' takes DEVICE"),
        Mistake(
            line: ["send", "x.json", "--devcie", "d"],
            message: "unknown option '--devcie' for 'send'; did you mean '--device'?"),
        Mistake(line: ["send", "x.json", "--device"], message: "'--device' needs a value: --device D"),
        Mistake(line: ["send", "x.json", "--device", "--json"], message: "'--device' needs a value: --device D"),
        Mistake(
            line: ["history", "--limit", "ten"], message: "'--limit' expects a whole number of at least 1, not 'ten'"),
        Mistake(line: ["history", "--limit", "0"], message: "'--limit' expects a whole number of at least 1, not '0'"),
        Mistake(
            line: ["send", "x.json", "--format", "smtp"],
            message: "'--format' expects one of apns, fcm, fcm-legacy, ntfy, gotify, webpush, expo, link, not 'smtp'"),
        Mistake(line: ["stats", "--json=yes"], message: "'--json' is a flag and takes no value"),
        Mistake(line: ["--device", "d", "stats"], message: "'stats' does not take '--device'"),
        Mistake(line: ["stats", "--dry-run"], message: "unknown option '--dry-run' for 'stats'"),
        Mistake(
            line: ["--limit", "3", "history"],
            message: "unknown option '--limit'; give it after the command, e.g. 'notifyctl history --limit'"),
        Mistake(
            line: ["send", "-x"], message: "unknown option '-x'; options are long, e.g. '--device D' (see --help)"),
        Mistake(
            line: ["send", "x.json", "-o", "out"],
            message: "unknown option '-o'; options are long, e.g. '--device D' (see --help)"),
        Mistake(
            line: ["codegen", "swift", "c.yaml", "-x"],
            message: "unknown option '-x' for 'codegen'; its short options are '-h' and '-o', the others are long "
                + "(see --help)"),
        Mistake(line: ["codegen", "swift", "c.yaml", "-o"], message: "'-o' needs a value: -o DIR"),
        Mistake(line: ["codegen", "swift", "c.yaml", "-o", "--public"], message: "'-o' needs a value: -o DIR"),
        Mistake(
            line: ["-o", "Gen", "codegen", "swift", "c.yaml"],
            message: "unknown option '-o'; give it after the command, e.g. 'notifyctl codegen -o'"),
        Mistake(line: ["send", "x.json", "-hx"], message: "'-h' is a flag and takes no value"),
        Mistake(
            line: ["validate", "c.yaml", "--socket", "/s"],
            message: "'validate' works without the daemon and does not take '--socket'"),
        Mistake(
            line: ["--socket", "/s", "graph", "c.yaml"],
            message: "'graph' works without the daemon and does not take '--socket'"),
        Mistake(
            line: ["codegen", "swift", "c.yaml", "--socket=/s"],
            message: "'codegen' works without the daemon and does not take '--socket'"),
        Mistake(
            line: ["completion", "bash", "--socket", "/s"],
            message: "'completion' works without the daemon and does not take '--socket'"),
    ])
    func mistakesAreUsageErrorsThatSayWhatWasWrong(_ mistake: Mistake) {
        let error = usageError(mistake.line)
        #expect(error?.status == .usage)
        #expect(error?.message == mistake.message)
    }
}
