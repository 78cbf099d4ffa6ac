import CoordinatorGraph
import DeepLink
import Foundation
import JSON
import NotifyctlCore
import Testing

/// Config names that are also names the generated code uses: every one that codegen does not reserve must compile and
/// behave as a `types:` enum, a coordinator and a page.
extension CodegenAgreementTests {
    /// A small config with every kind of parameter, default, pattern and a fallback, so that its generated file uses
    /// every name the generator can write.
    static let namesBase: JSONObject = [
        "version": 1,
        "app": ["name": "Names", "schemes": ["names"], "hosts": ["names.example.com"], "fallback": "main.home"],
        "types": ["Sort": ["price", "rating"]],
        "coordinators": [
            "app": ["kind": "app", "children": ["main"], "root": "main"],
            "main": [
                "kind": "stack",
                "pages": [
                    "home": "/",
                    "item(id: Int, on: Bool = false, sort: Sort = price)": "/items/{id}?on={on}&sort={sort}",
                    "deal(id: UUID = \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\")": ["/deals/{id}", "/deals"],
                    "text(value: String = \"x\")": "/text/{value}",
                    "rest(path: String)": "/rest/{path...}",
                ],
            ],
        ],
    ]

    /// Every identifier in Swift source, outside comments and string literals.
    static func identifiers(in source: String) -> Set<String> {
        var names: Set<String> = []
        for line in source.split(separator: "\n") {
            var code = line.replacing(/"(\\.|[^"\\])*"/, with: "\"\"")
            if let comment = code.firstRange(of: "//") { code = code[..<comment.lowerBound] }
            for match in code.matches(of: /[A-Za-z_][A-Za-z0-9_]*/) { names.insert(String(match.output)) }
        }
        return names
    }

    /// `order_history` → `OrderHistory`, as codegen names coordinator types.
    static func pascalCase(_ name: String) -> String {
        name.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    @Test func everyNameTheGeneratedCodeUsesAndDoesNotReserveWorksAsATypeCoordinatorAndPage() throws {
        let base = Self.namesBase
        let baseGraph = try CodegenCorpus.load(text: JSON.object(base).prettyPrinted(), file: "names.json")
        let baseSource = try SwiftGenerator(graph: baseGraph, options: .init(sourceName: "names.json")).generate()
        // Names codegen refuses, or that the config language keeps for itself or the base config already declares.
        let refused: Set<String> = ["self", "Self", "Type", "Protocol", "init", "deinit", "subscript", "_", "fallback"]
        let taken: Set<String> = ["String", "Int", "Bool", "UUID", "Sort", "app", "main", "names", "typed"]
        let names = Self.identifiers(in: baseSource).subtracting(SwiftGenerator.reservedNames).subtracting(refused)
            .subtracting(taken).filter { !$0.hasSuffix("CoordinatorPages") }.sorted()
        for expected in ["UTF8", "ArraySlice", "RawRepresentable", "zip", "min", "Value", "Link", "Kind", "url"] {
            #expect(names.contains(expected), "the generated file no longer uses '\(expected)'")
        }

        var types = base["types"]?.objectValue ?? [:]
        var coordinators = base["coordinators"]?.objectValue ?? [:]
        var children: [JSON] = ["main", "names", "typed"]
        var namePages = JSONObject()
        var typedPages = JSONObject()
        var coordinatorTypes: Set<String> = []
        for (index, name) in names.enumerated() {
            types[name] = ["a", "b"]
            // Keywords cannot name a page at all (the config language refuses them).
            if (try? CaseDeclaration.parse(name, types: [:])) != nil { namePages[name] = .string("/n/\(index)") }
            typedPages["t\(index)(v: \(name) = a)"] = .string("/t/\(index)/{v}")
            // Two names with one PascalCase (`appLink`, `AppLink`) would give one Swift type: keep the first.
            if coordinatorTypes.insert(Self.pascalCase(name)).inserted {
                coordinators[name] = ["kind": "stack", "pages": ["p": .string("/c/\(index)")]]
                children.append(.string(name))
            }
        }
        coordinators["app"] = ["kind": "app", "children": .array(children), "root": "main"]
        coordinators["names"] = ["kind": "stack", "pages": .object(namePages)]
        coordinators["typed"] = ["kind": "stack", "pages": .object(typedPages)]
        var config = base
        config["types"] = .object(types)
        config["coordinators"] = .object(coordinators)
        let graph = try CodegenCorpus.load(text: JSON.object(config).prettyPrinted(), file: "names.json")
        let source = try SwiftGenerator(graph: graph, options: .init(sourceName: "names.json")).generate()
        let directory = try SwiftToolchain.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let use = "_ = AppLink(link: \"/\")?.url\n"
        try SwiftToolchain.typecheck(["AppLink.swift": source, "main.swift": use], in: directory)
    }

    /// `types:` enums named after standard-library names that the generated matcher uses (written in full there):
    /// the file compiles and agrees with the daemon.
    @Test func typesNamedLikeStandardLibraryTypesAgreeWithTheDaemon() throws {
        let text = """
            version: 1
            app: {name: Names, schemes: [names]}
            types: {UTF8: [a, b], ArraySlice: [c, d], RawRepresentable: [e], zip: [f], min: [g], uuid_t: [h]}
            coordinators:
              app: {kind: app, children: [main], root: main}
              main:
                kind: stack
                pages:
                  home: /home
                  item(k: UTF8, j: ArraySlice = d): /items/{k}?j={j}
                  other(r: RawRepresentable, z: zip, m: min, u: uuid_t, id: UUID): /other/{r}/{z}/{m}/{u}/{id}
            """
        let graph = try CodegenCorpus.load(text: text, file: "names.yaml")
        let corpus = CodegenCorpus.canonicalLinks(graph) + CodegenCorpus.mutations(graph)
        try expectAgreement(graph, corpus: corpus + ["/items/a?j=c", "/items/b", "/items/c"], minimumMatches: 20)
    }

    @Test(arguments: [
        ("types: {URL: [a, b]}", "item(k: URL): /items/{k}", "the type 'URL' under types: would hide"),
        ("", "URL: /u", "page 'main.URL' would become a case of its Page enum and hide the Swift name 'URL'"),
        ("", "AppLink: /a", "page 'main.AppLink' would become a case of its Page enum"),
    ])
    func aNameTheGeneratedCodeUsesIsReported(types: String, page: String, message: String) {
        let text = CodegenGoldenTests.config(
            types: types, coordinators: "  main:\n    kind: stack\n    pages: {home: /home, \(page)}\n")
        let run = Fixtures.run(["codegen", "swift", "names.yaml"], files: ["names.yaml": text])
        #expect(run.status == .failure)
        #expect(run.output.isEmpty)
        #expect(run.errors.contains(message), "\(run.errors)")
        #expect(run.errors.contains("codegen-unusable-name"))
    }

    @Test(arguments: ["URL", "Routing", "AppLink"])
    func aCoordinatorNamedLikeANameTheGeneratedCodeUsesIsReported(_ name: String) {
        let text = CodegenGoldenTests.config(
            coordinators: "  main: {kind: tabs, children: [\(name)], root: \(name)}\n"
                + "  \(name):\n    kind: stack\n    pages: {home: /home}\n")
        let run = Fixtures.run(["codegen", "swift", "names.yaml"], files: ["names.yaml": text])
        #expect(run.status == .failure)
        #expect(
            run.errors.contains("coordinator '\(name)' would become the case AppLink.\(name) and hide the Swift name"),
            "\(run.errors)")
    }
}
