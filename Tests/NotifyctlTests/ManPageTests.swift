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
