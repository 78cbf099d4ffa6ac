import NotifyctlCore
import Testing

/// What the process prints and returns for help and usage mistakes.
@Suite struct UsageOutputTests {
    @Test func overviewListsEveryCommandWithOneLine() {
        let run = Fixtures.run(["--help"])
        #expect(run.status == .success)
        #expect(run.errors.isEmpty)
        for command in Notifyctl.commands {
            let line = run.output.split(separator: "\n").first { $0.hasPrefix("  " + command.synopsis + " ") }
            #expect(line?.hasSuffix(command.summary) == true, "no overview line for \(command.name)")
        }
        Fixtures.expectGolden(run.output, "help-overview.txt")
    }

    @Test func everyCommandHasHelp() {
        for command in Notifyctl.commands {
            let run = Fixtures.run([command.name, "--help"])
            #expect(run.status == .success)
            #expect(run.output.hasPrefix("Usage: notifyctl \(command.name)"))
            #expect(
                run.output.contains("--socket PATH") == (command.group == .daemon),
                "only the commands that ask the daemon offer --socket (\(command.name))")
        }
    }

    @Test func sendHelpMatchesItsGolden() {
        Fixtures.expectGolden(Fixtures.run(["send", "--help"]).output, "help-send.txt")
    }

    @Test func usageMistakeExitsTwoWithTheCommandsUsage() {
        let run = Fixtures.run(["history", "--limit", "many"])
        #expect(run.status == .usage)
        #expect(run.output.isEmpty)
        #expect(
            run.errors == """
                notifyctl: error: '--limit' expects a whole number of at least 1, not 'many'
                Usage: notifyctl history [--device D] [--limit N] [--json]
                Run 'notifyctl history --help' for more.

                """)
    }

    @Test func unknownCommandExitsTwo() {
        let run = Fixtures.run(["sned"])
        #expect(run.status == .usage)
        #expect(
            run.errors == """
                notifyctl: error: unknown command 'sned'; did you mean 'send'?
                Usage: notifyctl [--socket PATH | --app NAME] [--json] COMMAND ...

                """)
    }

    @Test func codegenHelpShowsBothSpellingsOfOutput() {
        let run = Fixtures.run(["codegen", "-h"])
        let usage = "Usage: notifyctl codegen [-o DIR] [--layout L] [--public] [--json] LANGUAGE CONFIG\n"
        #expect(run.output.hasPrefix(usage))
        #expect(run.output.contains("\n  -o, --output DIR  Write AppLink.swift into DIR"))
    }

    @Test func versionPrintsTheVersion() {
        let run = Fixtures.run(["--version"])
        #expect(run.status == .success)
        #expect(run.output == "notifyctl \(Notifyctl.version)\n")
    }
}
