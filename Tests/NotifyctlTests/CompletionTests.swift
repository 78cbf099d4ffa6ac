import Foundation
import NotifyctlCore
import Testing

/// `notifyctl completion bash`: the script, and what bash completes with it.
@Suite struct CompletionTests {
    @Test func bashScriptMatchesItsGolden() {
        let run = Fixtures.run(["completion", "bash"])
        #expect(run.status == .success)
        Fixtures.expectGolden(run.output, "completion.bash")
    }

    @Test func onlyBashIsSupported() {
        let run = Fixtures.run(["completion", "fish"])
        #expect(run.status == .usage)
        #expect(run.errors.hasPrefix("notifyctl: error: 'completion' supports 'bash', not 'fish'\n"))
    }

    @Test func everyCommandAndOptionIsInTheScript() {
        let script = Fixtures.run(["completion", "bash"]).output
        for command in Notifyctl.commands {
            #expect(script.contains("        \(command.name)) echo \""), "no options line for \(command.name)")
            for option in command.acceptedOptions {
                #expect(script.contains("--\(option.name)"), "no --\(option.name) for \(command.name)")
            }
        }
    }

    static let bash: String? = ["/bin/bash", "/usr/bin/bash"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// What bash completes for the words typed so far (the last one is being completed), run in a directory
    /// holding `shop.yaml`, `notes.txt` and the folder `out`.
    static func complete(_ words: [String], before: String = "") throws -> [String] {
        let root = try SwiftToolchain.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data().write(to: directory.appendingPathComponent("shop.yaml"))
        try Data().write(to: directory.appendingPathComponent("notes.txt"))
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("out"), withIntermediateDirectories: true)
        let script = Fixtures.run(["completion", "bash"]).output
        try Data(script.utf8).write(to: root.appendingPathComponent("notifyctl.bash"))
        // Bash splits `--format=dot` into three words at '=', as readline does.
        var split: [String] = []
        for word in words {
            if let equals = word.firstIndex(of: "="), word.hasPrefix("--") {
                split += [String(word[..<equals]), "=", String(word[word.index(after: equals)...])]
                if split.last == "" { split.removeLast() }
            } else {
                split.append(word)
            }
        }
        if words.last?.hasSuffix("=") == true { split.append("") }
        let quoted = split.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let program = """
            source ../notifyctl.bash
            \(before)
            COMP_WORDS=(\(quoted.joined(separator: " ")))
            COMP_CWORD=\(split.count - 1)
            _notifyctl
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try SwiftToolchain.run(try #require(bash), ["-c", program], in: directory)
        #expect(result.status == 0, "bash failed: \(result.errors)")
        return result.output.split(separator: "\n").map(String.init).sorted()
    }

    /// `--app` completes the apps of the template units: the sockets in /run/notifyd and the configs in
    /// /etc/notifyd, without the plain units' own.
    @Test(.enabled(if: CompletionTests.bash != nil, "needs bash"))
    func appCompletesTheTemplateUnitsApps() throws {
        let root = try SwiftToolchain.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        for name in ["run/shop.sock", "run/notifyd.sock", "etc/news.yaml", "etc/shop.yaml", "etc/notifyd.yaml"] {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data().write(to: url)
        }
        let dirs = "_notifyctl_app_dirs='\(root.path)/run \(root.path)/etc'"
        #expect(try Self.complete(["notifyctl", "--app", ""], before: dirs) == ["news", "shop"])
        #expect(try Self.complete(["notifyctl", "stats", "--app", "s"], before: dirs) == ["shop"])
        #expect(try Self.complete(["notifyctl", "stats", "--app=n"], before: dirs) == ["news"])
    }

    @Test(.enabled(if: CompletionTests.bash != nil, "needs bash"))
    func bashCompletesCommandsOptionsValuesAndFiles() throws {
        #expect(try Self.complete(["notifyctl", "gr"]) == ["graph"])
        #expect(try Self.complete(["notifyctl", "co"]) == ["codegen", "completion"])
        #expect(try Self.complete(["notifyctl", "--js"]) == ["--json"])
        #expect(try Self.complete(["notifyctl", "--socket", "/tmp/x", "hi"]) == ["history"])
        #expect(try Self.complete(["notifyctl", "graph", "shop.yaml", "--format", ""]) == ["dot", "mermaid", "tree"])
        #expect(try Self.complete(["notifyctl", "graph", "shop.yaml", "--format=m"]) == ["mermaid"])
        #expect(try Self.complete(["notifyctl", "graph", "--f"]) == ["--format"])
        #expect(try Self.complete(["notifyctl", "graph", "sh"]) == ["shop.yaml"])
        #expect(try Self.complete(["notifyctl", "codegen", ""]) == ["swift"])
        #expect(try Self.complete(["notifyctl", "codegen", "swift", "s"]) == ["shop.yaml"])
        #expect(try Self.complete(["notifyctl", "codegen", "swift", "shop.yaml", "--output", ""]) == ["out"])
        #expect(try Self.complete(["notifyctl", "codegen", "swift", "shop.yaml", "-o", ""]) == ["out"])
        #expect(try Self.complete(["notifyctl", "codegen", "-o", "out", "swift", "s"]) == ["shop.yaml"])
        #expect(try Self.complete(["notifyctl", "codegen", "swift", "shop.yaml", "-"]).contains("-o"))
        #expect(try Self.complete(["notifyctl", "codegen", "swift", "shop.yaml", "--layout", "e"]) == ["extensions"])
        #expect(try Self.complete(["notifyctl", "validate", "--s"]) == [], "offline commands take no --socket")
        #expect(try Self.complete(["notifyctl", "stats", "--s"]) == ["--socket"])
        #expect(try Self.complete(["notifyctl", "completion", ""]) == ["bash"])
        #expect(try Self.complete(["notifyctl", "send", "--device", "ipad", ""]) == ["notes.txt", "out", "shop.yaml"])
        #expect(try Self.complete(["notifyctl", "send", "--format", "a"]) == ["apns"])
        #expect(try Self.complete(["notifyctl", "resolve", "--offline", "s"]) == ["shop.yaml"])
        #expect(try Self.complete(["notifyctl", "resolve", "shop://"]) == [])
        #expect(try Self.complete(["notifyctl", "help", "va"]) == ["validate"])
    }
}
