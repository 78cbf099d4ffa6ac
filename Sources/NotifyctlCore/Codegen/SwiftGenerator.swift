import CoordinatorGraph
import DeepLink

/// Generates the Swift an app needs to speak its graph's links: the `types:` enums, one `Page` enum per coordinator,
/// and `AppLink`, which parses links and prints canonical links exactly as notifyd's matcher does.
///
/// The output is one self-contained file that imports only Foundation. It is stable: the same config gives the
/// same bytes, so it can be checked in and diffed. `docs/codegen.md` shows how an app uses it.
public struct SwiftGenerator: Sendable {
    /// Where each coordinator's `Page` enum is declared.
    public enum Layout: String, Sendable, Hashable, CaseIterable {
        /// In a caseless namespace enum per coordinator: `enum CartCoordinatorPages { enum Page { … } }`. The file
        /// compiles on its own.
        case namespaces
        /// In an extension of the app's own coordinator type: `extension CartCoordinator { enum Page { … } }`. The
        /// app must declare `CartCoordinator` (any class, struct or enum).
        case extensions
    }

    /// How to generate.
    public struct Options: Sendable, Hashable {
        /// Where the `Page` enums go.
        public var layout: Layout
        /// True to declare everything `public` (for a separate module); internal otherwise.
        public var isPublic: Bool
        /// The config's file name, named in the header comment (no directories, so the output does not depend on
        /// where the command ran).
        public var sourceName: String

        /// Options from their parts.
        public init(layout: Layout = .namespaces, isPublic: Bool = false, sourceName: String) {
            self.layout = layout
            self.isPublic = isPublic
            self.sourceName = sourceName
        }
    }

    /// The graph to generate for.
    public let graph: Graph
    /// How to generate.
    public let options: Options

    /// A generator for `graph`.
    public init(graph: Graph, options: Options) {
        self.graph = graph
        self.options = options
    }

    /// The name of the generated file when written to a directory.
    public static let fileName = "AppLink.swift"

    /// Names the generated code refers to (`URL`, `String`, `AppLink`, `Routing`, …): no `types:` enum,
    /// coordinator or page may have one of them, since it would hide what the code means.
    public static var reservedNames: Set<String> { SwiftNames.reservedTypeNames }

    /// One coordinator with pages, with its Swift names and the index of its first page in the page table.
    struct Namespace {
        let coordinator: Coordinator
        /// `CartCoordinatorPages` or `CartCoordinator`.
        let typeName: String
        /// The `AppLink` case: the coordinator's name.
        let caseName: String
        let firstPage: Int
    }

    /// The whole file.
    ///
    /// - Throws: ``CodegenError`` when a config name cannot become Swift (a coordinator named `self`, a type that
    ///   hides one the generated code uses, two coordinators whose type names collide).
    public func generate() throws(CodegenError) -> String {
        let namespaces = try makeNamespaces()
        let types = try enumTypes()
        var out = header()
        out += "import Foundation\n"
        if !types.isEmpty {
            out += "\n// MARK: - Types\n"
            for (name, cases) in types { out += "\n" + enumType(name, cases) }
        }
        out += "\n// MARK: - Pages\n"
        for namespace in namespaces { out += "\n" + pageEnum(namespace) }
        out += "\n// MARK: - AppLink\n\n" + appLink(namespaces)
        for namespace in namespaces { out += "\n" + pageExtension(namespace) }
        out += "\n" + (try decisions())
        out += "\n" + tables(types: types)
        out += "\n" + Self.runtime
        return out
    }

    // MARK: - Names

    var access: String { options.isPublic ? "public " : "" }

    func makeNamespaces() throws(CodegenError) -> [Namespace] {
        var out: [Namespace] = []
        var typeNames: [String: String] = [:]
        var index = 0
        for coordinator in graph.coordinators where !coordinator.pages.isEmpty {
            let name = coordinator.name
            try checkCoordinatorName(name)
            for page in coordinator.pages where SwiftNames.reservedTypeNames.contains(page.declaration.name) {
                let page = page.declaration.name
                throw CodegenError(
                    code: .unusableName,
                    message: "page '\(name).\(page)' would become a case of its Page enum and hide the Swift name "
                        + "'\(page)' that the generated code uses; rename the page")
            }
            if name == "fallback", graph.app.fallback != nil {
                throw CodegenError(
                    code: .nameCollision,
                    message: "coordinator 'fallback' would make AppLink.fallback ambiguous with the app's fallback "
                        + "page; rename the coordinator")
            }
            let base = SwiftNames.pascalCase(name) + "Coordinator"
            let typeName = options.layout == .namespaces ? base + "Pages" : base
            if let other = typeNames[typeName] {
                throw CodegenError(
                    code: .nameCollision,
                    message: "coordinators '\(other)' and '\(name)' both become the Swift type '\(typeName)'; "
                        + "rename one of them")
            }
            typeNames[typeName] = name
            if graph.types[typeName] != nil {
                throw CodegenError(
                    code: .nameCollision,
                    message: "the type '\(typeName)' under types: has the name generated for coordinator '\(name)'; "
                        + "rename the type")
            }
            out.append(
                Namespace(
                    coordinator: coordinator, typeName: typeName, caseName: SwiftNames.identifier(name),
                    firstPage: index))
            index += coordinator.pages.count
        }
        return out
    }

    /// Refuses a coordinator name that cannot be a case of `AppLink` and `NotifydCoordinator`.
    func checkCoordinatorName(_ name: String) throws(CodegenError) {
        if SwiftNames.unusable.contains(name) {
            throw CodegenError(
                code: .unusableName,
                message: "coordinator '\(name)' cannot be a case of AppLink in Swift; rename the coordinator")
        }
        if SwiftNames.reservedTypeNames.contains(name) {
            throw CodegenError(
                code: .unusableName,
                message: "coordinator '\(name)' would become the case AppLink.\(name) and hide the Swift name "
                    + "'\(name)' that the generated code uses; rename the coordinator")
        }
    }

    /// The `types:` enums sorted by name, checked for names Swift or the generated code cannot use.
    func enumTypes() throws(CodegenError) -> [(name: String, cases: [String])] {
        let sorted = graph.types.keys.sorted()
        for name in sorted {
            if SwiftNames.reservedTypeNames.contains(name) || SwiftNames.unusable.contains(name) {
                throw CodegenError(
                    code: .unusableName,
                    message: "the type '\(name)' under types: would hide a Swift type the generated code uses; "
                        + "rename it")
            }
            for c in graph.types[name] ?? [] where SwiftNames.unusable.contains(c) || c == "rawValue" || c == "allCases"
            {
                throw CodegenError(
                    code: .unusableName, message: "'\(c)' of type '\(name)' cannot be a Swift enum case; rename it")
            }
        }
        return sorted.map { ($0, graph.types[$0] ?? []) }
    }

    // MARK: - Declarations

    func header() -> String {
        let schemes = graph.matcher.policy.schemes.map(SwiftNames.comment)
        let hosts = graph.matcher.policy.hosts.map(SwiftNames.comment)
        return """
            // \(Self.fileName): generated by `notifyctl codegen swift` from \(SwiftNames.comment(options.sourceName)). \
            Do not edit;
            // change the config and generate again.
            //
            // The pages of \(SwiftNames.comment(graph.app.name)) as Swift enums, and the links that open them: \
            `AppLink(url:)` matches a
            // link exactly as notifyd does, and `AppLink.url` prints a page's canonical link. `NotifydDecision` reads
            // notifyd's decisions, and `apply(to:)` performs their steps on the app's `NotifydNavigator`.
            // Schemes: \(schemes.isEmpty ? "none" : schemes.joined(separator: ", ")). \
            Hosts (https only): \(hosts.isEmpty ? "none" : hosts.joined(separator: ", ")).


            """
    }

    func enumType(_ name: String, _ cases: [String]) -> String {
        var out = "/// `\(name)`, declared under `types:`. Links spell its cases by name: "
        out += cases.map { "`\($0)`" }.joined(separator: ", ") + ".\n"
        out += "\(access)enum \(SwiftNames.identifier(name)): String, CaseIterable, Hashable, Sendable {\n"
        for c in cases { out += "    case \(SwiftNames.identifier(c))\n" }
        return out + "}\n"
    }

    func pageEnum(_ namespace: Namespace) -> String {
        let coordinator = namespace.coordinator
        var out = ""
        let indent: String
        if options.layout == .namespaces {
            out += "/// The pages of `\(coordinator.name)` (\(coordinator.kind.rawValue)).\n"
            out += "\(access)enum \(namespace.typeName) {\n"
            indent = "    "
        } else {
            out += "/// The pages of `\(coordinator.name)` (\(coordinator.kind.rawValue)).\n"
            out += "extension \(namespace.typeName) {\n"
            indent = "    "
        }
        out += indent + "/// A page of `\(coordinator.name)`: \(pageSummary(coordinator)).\n"
        out += indent + "\(access)enum Page: Hashable, Sendable, CustomStringConvertible {\n"
        for page in coordinator.pages {
            out += indent + "    /// " + caseDocumentation(page, in: coordinator) + "\n"
            out += indent + "    case " + caseDeclaration(page.declaration) + "\n"
        }
        out += indent + "}\n"
        return out + "}\n"
    }

    func pageSummary(_ coordinator: Coordinator) -> String {
        var parts: [String] = []
        if coordinator.kind == .stack, let first = coordinator.pages.first {
            parts.append("`.\(first.declaration.name)` is the root page")
        }
        if !coordinator.requires.isEmpty {
            parts.append("every page requires " + coordinator.requires.map { "`\($0)`" }.joined(separator: ", "))
        }
        if !coordinator.provides.isEmpty {
            parts.append("finishing provides " + coordinator.provides.map { "`\($0)`" }.joined(separator: ", "))
        }
        return parts.isEmpty ? "one case per declared page" : parts.joined(separator: "; ")
    }

    func caseDocumentation(_ page: PageDefinition, in coordinator: Coordinator) -> String {
        var parts: [String] = []
        if page.patterns.isEmpty {
            parts.append("No link: reached by navigating")
        } else {
            parts.append(page.patterns.map { "`\(SwiftNames.comment($0.text))`" }.joined(separator: ", "))
        }
        if !page.requires.isEmpty {
            parts.append("requires " + page.requires.map { "`\($0)`" }.joined(separator: ", "))
        }
        if let back = page.back { parts.append("back `.\(back)`") }
        return parts.joined(separator: "; ")
    }

    /// `category(slug: String, page: Int = 1, sort: Sort = .price)`.
    func caseDeclaration(_ declaration: CaseDeclaration) -> String {
        guard !declaration.parameters.isEmpty else { return SwiftNames.identifier(declaration.name) }
        let parameters = declaration.parameters.map { parameter -> String in
            var text = SwiftNames.label(parameter.label) + ": " + SwiftNames.typeName(parameter.type)
            if let value = parameter.defaultValue { text += " = " + SwiftNames.literal(value) }
            return text
        }
        return SwiftNames.identifier(declaration.name) + "(" + parameters.joined(separator: ", ") + ")"
    }
}

/// A config that cannot become Swift.
public struct CodegenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public enum Code: String, Sendable, Hashable {
        /// A name that Swift cannot use where the generated code needs it.
        case unusableName = "codegen-unusable-name"
        /// Two config names that become the same Swift name.
        case nameCollision = "codegen-name-collision"
    }

    /// The kind of problem.
    public let code: Code
    /// What was wrong and how to fix it.
    public let message: String

    /// `message [code]`.
    public var description: String { "\(message) [\(code.rawValue)]" }
}
