import Foundation
import JSON
import NotifyctlCore
import Testing

/// `notifyctl graph CONFIG --format dot|mermaid|tree` on config/shop.yaml.
@Suite struct GraphRenderTests {
    @Test(arguments: [("tree", "graph-shop-tree.txt"), ("dot", "graph-shop.dot"), ("mermaid", "graph-shop.mmd")])
    func eachFormatMatchesItsGolden(format: String, golden: String) {
        let run = Fixtures.run(["graph", "config/shop.yaml", "--format", format])
        #expect(run.status == .success)
        #expect(run.errors.isEmpty)
        Fixtures.expectGolden(run.output, golden)
    }

    @Test func treeIsTheDefaultFormat() {
        let tree = Fixtures.run(["graph", "config/shop.yaml", "--format", "tree"]).output
        #expect(Fixtures.run(["graph", "config/shop.yaml"]).output == tree)
    }

    @Test func treeIsColouredOnlyOnATerminal() {
        let plain = Fixtures.run(["graph", "config/shop.yaml"]).output
        #expect(!plain.contains("\u{1B}["))
        let terminal = Terminal(outputIsTerminal: true, errorIsTerminal: true, colourAllowed: true)
        let coloured = Fixtures.run(["graph", "config/shop.yaml"], terminal: terminal).output
        #expect(coloured.contains("\u{1B}[36m"))
        #expect(coloured.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression) == plain)
        let noColour = Terminal(outputIsTerminal: true, errorIsTerminal: true, colourAllowed: false)
        #expect(Fixtures.run(["graph", "config/shop.yaml"], terminal: noColour).output == plain)
    }

    @Test func treeShowsKindsRelationsPagesGatesAndProviders() {
        let tree = Fixtures.run(["graph", "config/shop.yaml"]).output
        let lines = tree.split(separator: "\n").map(String.init)
        #expect(
            lines.first == "Shop  schemes shop · hosts shop.example.com, *.shop.example.com · fallback catalog.home")
        #expect(lines.contains("app  app"))
        #expect(lines.contains { $0.hasSuffix("catalog  stack  tab · root") })
        #expect(lines.contains { $0.contains("deals  stack  starts  requires session, member") })
        #expect(
            lines.contains { $0.contains("checkout") && $0.contains("/cart/checkout  requires session · back cart") })
        #expect(lines.contains { $0.contains("login  modal  presents  provides session") })
        // payment runs under cart and account: drawn once, referred to the second time.
        #expect(lines.filter { $0.contains("payment  modal  presents  requires session") }.count == 1)
        #expect(lines.contains { $0.contains("payment  modal  presents  (drawn above)") })
        #expect(lines.contains { $0.hasPrefix("├─ session") && $0.contains("provided by login") })
    }

    @Test func jsonPrintsTheGraphAsGetGraphDoes() throws {
        let run = Fixtures.run(["graph", "config/shop.yaml", "--json"])
        #expect(run.status == .success)
        let json = try JSON.parse(run.output)
        let coordinators = try #require(json["coordinators"]?.arrayValue)
        #expect(coordinators.count == 10)
        #expect(coordinators.first?["name"] == "app")
    }

    @Test func dotDrawsGatesFromGatedPagesToTheirProviders() {
        let dot = Fixtures.run(["graph", "config/shop.yaml", "--format", "dot"]).output
        #expect(dot.contains(#""cart":"p_checkout" -> "login" [style=dashed"#))
        #expect(dot.contains(#""deals" -> "membership" [style=dashed"#))
        #expect(dot.contains(#""main" -> "catalog" [label="tab · root", style=bold];"#))
        #expect(dot.contains(#""app" -> "login" [label="presents", arrowhead=empty];"#))
        #expect(
            dot.contains("<FONT FACE=\"Courier\">category(slug: String, page: Int = 1, sort: Sort = .price)</FONT>"))
    }

    @Test func mermaidIdsCannotClashWithMermaidWords() {
        let text = """
            version: 1
            app: {name: "A \\"quoted\\" <app>", schemes: [x]}
            coordinators:
              app: {kind: app, children: [end], root: end}
              end:
                kind: stack
                pages: {home: "/a|b"}
            """
        let run = Fixtures.run(["graph", "end.yaml", "--format", "mermaid"], files: ["end.yaml": text])
        #expect(run.status == .success, "\(run.errors)")
        #expect(run.output.contains("    c_app ==>|root| c_end\n"))
        #expect(run.output.contains("%% A #quot;quoted#quot; #lt;app#gt;: coordinator graph"))
        #expect(run.output.contains("<code>home</code> /a#124;b"))
    }

    @Test func theCommittedPictureSourceIsCurrent() throws {
        let committed = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("docs/shop-graph.dot"), encoding: .utf8)
        #expect(
            committed == Fixtures.run(["graph", "config/shop.yaml", "--format", "dot"]).output,
            "regenerate: notifyctl graph config/shop.yaml --format dot > docs/shop-graph.dot && dot -Tpng docs/shop-graph.dot -o docs/shop-graph.png"
        )
    }

    @Test(.enabled(if: GraphRenderTests.graphviz != nil, "needs Graphviz's dot"))
    func graphvizAcceptsTheDotOutput() throws {
        let dot = Fixtures.run(["graph", "config/shop.yaml", "--format", "dot"]).output
        let directory = try SwiftToolchain.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("graph.dot")
        try Data(dot.utf8).write(to: input)
        let result = try SwiftToolchain.run(try #require(Self.graphviz), ["-Tsvg", input.path], in: directory)
        #expect(result.status == 0)
        #expect(result.errors.isEmpty, "dot warned: \(result.errors)")
        #expect(result.output.contains("<svg"))
    }

    static let graphviz: String? = ["/usr/bin/dot", "/usr/local/bin/dot"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
}
