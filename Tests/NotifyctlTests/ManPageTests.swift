import Foundation
import NotifyctlCore
import Testing

/// man/notifyctl.1 and man/notifyd.8: every command and option documented, and valid roff.
@Suite struct ManPageTests {
    static func page(_ name: String) throws -> String {
        try String(contentsOf: Fixtures.repository.appendingPathComponent("man/\(name)"), encoding: .utf8)
    }

    @Test func notifyctlPageDocumentsEveryCommandAndOption() throws {
        let page = try Self.page("notifyctl.1")
        for command in Notifyctl.commands {
            let name = command.name.replacingOccurrences(of: "-", with: "\\-")
            #expect(
                page.contains("\\fB\(name)\\fR") || page.contains("\\fB\(name) ") || page.contains(".B \(name)\n")
                    || page.contains(".BI \(name) "),
                "man/notifyctl.1 does not document '\(command.name)'")
            for option in command.acceptedOptions {
                let spelled = "\\-\\-" + option.name.replacingOccurrences(of: "-", with: "\\-")
                #expect(page.contains(spelled), "man/notifyctl.1 does not mention --\(option.name) of \(command.name)")
            }
        }
    }

    @Test func notifydPageDocumentsEveryOption() throws {
        let page = try Self.page("notifyd.8")
        let settings = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("Sources/NotifyDaemon/Settings.swift"),
            encoding: .utf8)
        let options = settings.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "case \"--") else { return nil }
            let rest = line[start.upperBound...]
            return rest.prefix { $0 != "\"" }.description
        }
        #expect(options.count >= 10)
        for option in options {
            let spelled = "\\-\\-" + option.replacingOccurrences(of: "-", with: "\\-")
            #expect(page.contains(spelled), "man/notifyd.8 does not document --\(option)")
        }
    }

    static let groff: String? = ["/usr/bin/groff"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The page as `man` shows it, as plain text on lines long enough that nothing wraps.
    static func rendered(_ name: String) throws -> String {
        let directory = try SwiftToolchain.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = Fixtures.repository.appendingPathComponent("man/\(name)").path
        let result = try SwiftToolchain.run(
            try #require(Self.groff), ["-man", "-Tutf8", "-P-cbou", "-rLL=300n", path], in: directory)
        try #require(result.status == 0, "groff failed: \(result.errors)")
        return result.output
    }

    /// Each command's heading, as rendered, is one whole line with every option and argument of the command; a
    /// heading that runs over two source lines ends up half in the description.
    @Test(.enabled(if: ManPageTests.groff != nil, "needs groff"))
    func everyCommandHeadingRendersWholeOnItsOwnLine() throws {
        let text = try Self.rendered("notifyctl.1")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "COMMANDS"))
        let end = try #require(lines.firstIndex(of: "EXIT STATUS"))
        let headings = lines[start..<end].filter { $0.hasPrefix("       ") && !$0.hasPrefix("        ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        for command in Notifyctl.commands {
            let matching = headings.filter { $0 == command.name || $0.hasPrefix(command.name + " ") }
            try #require(matching.count == 1, "\(matching.count) headings for \(command.name): \(matching)")
            let heading = matching[0]
            for option in command.options {
                let spellings = ["--" + option.name] + (option.short.map { ["-\($0)"] } ?? [])
                #expect(
                    spellings.contains { heading.contains($0 + " ") || heading.contains($0 + "]") },
                    "the heading of \(command.name) lacks --\(option.name): '\(heading)'")
            }
            for argument in command.arguments {
                let shown = argument.name == "LANGUAGE" ? "swift" : argument.name
                #expect(heading.contains(shown), "the heading of \(command.name) lacks \(shown): '\(heading)'")
            }
        }
    }

    @Test(.enabled(if: ManPageTests.groff != nil, "needs groff"))
    func formatListsEveryPayloadFormat() throws {
        guard case .choice(_, let formats) = OptionSpec.format.value else {
            Issue.record("--format is not a choice")
            return
        }
        let text = try Self.rendered("notifyctl.1").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("(" + formats.joined(separator: ", ") + ")"), "man/notifyctl.1 lists other formats")
    }

    @Test(.enabled(if: ManPageTests.groff != nil, "needs groff"), arguments: ["notifyctl.1", "notifyd.8"])
    func pagesRenderWithoutWarnings(_ name: String) throws {
        let directory = try SwiftToolchain.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = Fixtures.repository.appendingPathComponent("man/\(name)").path
        let result = try SwiftToolchain.run(
            try #require(Self.groff), ["-man", "-Tutf8", "-ww", "-z", path], in: directory)
        #expect(result.status == 0)
        #expect(result.errors.isEmpty, "groff warned about \(name): \(result.errors)")
    }
}
