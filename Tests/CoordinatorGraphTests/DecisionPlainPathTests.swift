import CoordinatorGraph
import DeepLink
import JSON
import Testing

/// A path written from the bytes the resolver keeps of its coordinators' names, for journal lines: only when every
/// name is an ASCII identifier and the path is kept as the resolver's indices.
@Suite struct DecisionPlainPathTests {
    private static func written(_ decision: Decision) -> String {
        var out = ByteWriter()
        decision.writePlainPath(separator: UInt8(ascii: "/"), into: &out)
        return out.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    @Test func aResolversPathIsWrittenByNameFromItsBytes() throws {
        for (page, path) in [
            (Shop.p("cart.offer", ["id": .string("SUMMER")]), "app/main/cart"),
            (Shop.p("catalog.home"), "app/main/catalog"),
            (Shop.p("payment.pay", ["order": .int(12)]), "app/payment"),
        ] {
            let decision = try Shop.resolve(page, nil).decision
            #expect(decision.pathIsPlain)
            #expect(Self.written(decision) == path)
            #expect(decision.path.joined(separator: "/") == path)
        }
    }

    @Test func aPathKeptByNameIsNotPlain() throws {
        var decision = try Shop.resolve(Shop.p("catalog.home"), nil).decision
        #expect(decision.pathIsPlain)
        decision.path = ["app", "main", "catalog"]  // kept by name from now on
        #expect(!decision.pathIsPlain)
        let built = Decision(
            id: "d", outcome: .routed, page: Shop.p("catalog.home"), path: ["app"], steps: [],
            createdAt: Timestamp(millisecondsSince1970: 0))
        #expect(!built.pathIsPlain)
    }

    @Test func aGraphWithANameThatIsNotAnASCIIIdentifierKeepsItsPathsByName() throws {
        let here = SourceLocation(file: "plain.swift", line: 1, column: 1)
        let page = PageDefinition(
            id: PageID(coordinator: "bücher", name: "home"), declaration: CaseDeclaration(name: "home", parameters: []),
            patterns: [], requires: [], back: nil, location: here)
        let graph = Graph(
            app: AppSettings(name: "Books", schemes: ["books"], hosts: [], fallback: nil),
            coordinators: [
                Coordinator(name: "app", kind: .app, children: ["bücher"], root: "bücher", location: here),
                Coordinator(name: "bücher", kind: .stack, pages: [page], location: here),
            ])
        let resolver = Resolver(graph: graph)
        let decision = try resolver.resolve(
            Page(id: PageID(coordinator: "bücher", name: "home"), arguments: []), state: nil,
            now: Timestamp(millisecondsSince1970: 0), metadata: DecisionMetadata(id: "d")
        ).decision
        #expect(decision.path == ["app", "bücher"])
        #expect(!decision.pathIsPlain)
    }
}
