import Foundation
import NotifyctlCore
import Testing

/// `notifyctl codegen swift`: the generated file for config/shop.yaml, its options, and configs it refuses.
@Suite struct CodegenGoldenTests {
    @Test func shopConfigGeneratesItsGoldenFile() {
        let run = Fixtures.run(["codegen", "swift", "config/shop.yaml"])
        #expect(run.status == .success)
        #expect(run.errors.isEmpty)
        Fixtures.expectGolden(run.output, "codegen-shop.swift")
    }

    @Test func generationIsStable() {
        let first = Fixtures.run(["codegen", "swift", "config/shop.yaml"]).output
        let second = Fixtures.run(["codegen", "swift", "config/shop.yaml"]).output
        #expect(first == second)
    }

    @Test func shopFileDeclaresEveryCoordinatorsPagesAndTheTypes() {
        let output = Fixtures.run(["codegen", "swift", "config/shop.yaml"]).output
        for expected in [
            "enum Sort: String, CaseIterable, Hashable, Sendable {",
            "enum CartCoordinatorPages {",
            "case offer(id: String)",
            "case category(slug: String, page: Int = 1, sort: Sort = .price)",
            "case orders(archived: Bool = false)",
            "case deal(id: UUID)",
            "case cart(CartCoordinatorPages.Page)",
            "static var fallback: AppLink { .catalog(.home) }",
            "init?(url: URL)",
        ] {
            #expect(output.contains(expected), "missing: \(expected)")
        }
        #expect(!output.contains("AppCoordinatorPages"), "a coordinator without pages gets no Page enum")
        #expect(!output.contains("MainCoordinatorPages"))
    }

    @Test func extensionsLayoutExtendsTheAppsCoordinatorsAndPublicDeclaresPublic() {
        let run = Fixtures.run(["codegen", "swift", "config/shop.yaml", "--layout", "extensions", "--public"])
        #expect(run.status == .success)
        #expect(run.output.contains("extension CartCoordinator {\n"))
        #expect(run.output.contains("    public enum Page: Hashable, Sendable, CustomStringConvertible {"))
        #expect(run.output.contains("public enum AppLink: Hashable, Sendable, CustomStringConvertible {"))
        #expect(run.output.contains("    case cart(CartCoordinator.Page)"))
        #expect(run.output.contains("public init?(url: URL)"))
        #expect(run.output.contains("fileprivate enum Routing {"), "the tables stay private")
        #expect(!run.output.contains("CartCoordinatorPages"))
    }

    @Test func outputDirectoryGetsTheFileAndAnUpToDateFileIsLeftAlone() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("codegen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("Generated").path
        let first = Fixtures.run(["codegen", "swift", "config/shop.yaml", "--output", target])
        #expect(first.status == .success)
        #expect(first.output == "\(target)/AppLink.swift: written\n")
        let file = URL(fileURLWithPath: target).appendingPathComponent("AppLink.swift")
        let written = try String(contentsOf: file, encoding: .utf8)
        #expect(written == Fixtures.run(["codegen", "swift", "config/shop.yaml"]).output)
        let modified = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        let second = Fixtures.run(["codegen", "swift", "config/shop.yaml", "-o", target])
        #expect(second.output == "\(target)/AppLink.swift: up to date\n")
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date == modified)
    }

    @Test func anUnwritableOutputDirectoryFailsWithTheReason() {
        let run = Fixtures.run(["codegen", "swift", "config/shop.yaml", "--output", "/proc/notifyctl-codegen"])
        #expect(run.status == .failure)
        #expect(run.errors.contains("cannot write '/proc/notifyctl-codegen/AppLink.swift'"))
    }

    @Test func onlySwiftIsGenerated() {
        let run = Fixtures.run(["codegen", "kotlin", "config/shop.yaml"])
        #expect(run.status == .usage)
        #expect(run.errors.hasPrefix("notifyctl: error: 'codegen' generates 'swift', not 'kotlin'\n"))
    }

    @Test func aRejectedConfigGeneratesNothing() {
        let run = Fixtures.run(
            ["codegen", "swift", "broken.yaml"], files: ["broken.yaml": "version: 1\napp: {name: X}\n"])
        #expect(run.status == .failure)
        #expect(run.output.isEmpty)
        #expect(run.errors.contains("broken.yaml: the config has"))
    }

    static func config(types: String = "", coordinators: String) -> String {
        """
        version: 1
        app: {name: Names, schemes: [names]}
        \(types)
        coordinators:
          app: {kind: app, children: [main], root: main}
        \(coordinators)
        """
    }

    @Test func aCoordinatorNamedLikeASwiftSpecialWordIsReported() {
        let text = Self.config(
            coordinators:
                "  main: {kind: tabs, children: [self], root: self}\n  self:\n    kind: stack\n    pages: {home: /home}\n"
        )
        let run = Fixtures.run(["codegen", "swift", "names.yaml"], files: ["names.yaml": text])
        #expect(run.status == .failure)
        #expect(run.errors.contains("coordinator 'self' cannot be a case of AppLink in Swift; rename the coordinator"))
        #expect(run.errors.contains("codegen-unusable-name"))
    }

    @Test func aTypeThatHidesOneTheFileUsesIsReported() {
        let text = Self.config(
            types: "types: {URL: [a, b]}",
            coordinators: "  main:\n    kind: stack\n    pages: {home: /home, item(kind: URL): /items/{kind}}\n")
        let run = Fixtures.run(["codegen", "swift", "names.yaml"], files: ["names.yaml": text])
        #expect(run.status == .failure)
        #expect(run.errors.contains("the type 'URL' under types: would hide a Swift type the generated code uses"))
    }

    @Test func coordinatorsWhoseTypeNamesCollideAreReported() {
        let text = """
            version: 1
            app: {name: Names, schemes: [names]}
            coordinators:
              app: {kind: app, children: [order_history, orderHistory], root: order_history}
              order_history:
                kind: stack
                pages: {home: /a}
              orderHistory:
                kind: stack
                pages: {other: /b}
            """
        let run = Fixtures.run(["codegen", "swift", "names.yaml"], files: ["names.yaml": text])
        #expect(run.status == .failure)
        #expect(
            run.errors.contains(
                "coordinators 'order_history' and 'orderHistory' both become the Swift type 'OrderHistoryCoordinatorPages'"
            ))
    }

    @Test func aCoordinatorNamedFallbackIsReportedWhenTheAppHasAFallback() {
        let text = """
            version: 1
            app: {name: Names, schemes: [names], fallback: fallback.home}
            coordinators:
              app: {kind: app, children: [fallback], root: fallback}
              fallback:
                kind: stack
                pages: {home: /home}
            """
        let run = Fixtures.run(["codegen", "swift", "names.yaml"], files: ["names.yaml": text])
        #expect(run.status == .failure)
        #expect(run.errors.contains("coordinator 'fallback' would make AppLink.fallback ambiguous"))
    }

    @Test func outputDirectoryWithJSONSaysWhatHappened() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("codegen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = Fixtures.run(["codegen", "swift", "config/shop.yaml", "--output", directory.path, "--json"])
        #expect(run.status == .success)
        #expect(run.output == #"{"path":"\#(directory.path)/AppLink.swift","written":true}"# + "\n")
    }

    @Test func keywordsBecomeBacktickedNames() {
        let text = Self.config(
            types: "types: {Kind: [in, default, plain]}",
            coordinators: """
                  main: {kind: tabs, children: [default], root: default}
                  default:
                    kind: stack
                    pages:
                      home: /home
                      item(kind: Kind = default, inout: Int = 0): /items/{kind}?n={inout}
                """)
        let run = Fixtures.run(["codegen", "swift", "names.yaml"], files: ["names.yaml": text])
        #expect(run.status == .success, "\(run.errors)")
        #expect(run.output.contains("    case `in`\n    case `default`\n    case plain\n"))
        #expect(run.output.contains("case item(kind: Kind = .`default`, `inout`: Int = 0)"))
        #expect(run.output.contains("    case `default`(DefaultCoordinatorPages.Page)"))
    }
}
