import CoordinatorGraph
import DeepLink

extension SwiftGenerator {
    /// `enum AppLink`: a case per coordinator with pages, parsing and printing links through the tables.
    func appLink(_ namespaces: [Namespace]) -> String {
        let a = access
        var out = """
            /// Every page of the app: one case per coordinator with pages, wrapping that coordinator's `Page`.
            ///
            /// `AppLink(url:)` is the page notifyd routes a link to; `url` is the page's canonical link, as notifyd
            /// prints it; `description` is notifyd's description of the page (`cart.offer(id: "SUMMER")`).
            \(a)enum AppLink: Hashable, Sendable, CustomStringConvertible {

            """
        for namespace in namespaces {
            let coordinator = namespace.coordinator
            out += "    /// A page of `\(coordinator.name)` (\(coordinator.kind.rawValue)).\n"
            out += "    case \(namespace.caseName)(\(namespace.typeName).Page)\n"
        }
        out += """

                /// The page a link opens, or nil when it opens none (an unknown scheme or host, no matching pattern,
                /// a value that does not convert to its parameter's type, a malformed escape).
                \(a)init?(url: URL) {
                    self.init(link: url.absoluteString)
                }

                /// The page a link opens: a custom-scheme link, an https link to a configured host, or a bare path.
                \(a)init?(link: String) {
                    guard let (page, values) = Routing.match(link) else { return nil }
                    self.init(routing: page, values)
                }

                /// The page with this id (`cart.offer`, as notifyd's decisions name it) and arguments written as in
                /// links (`["id": "SUMMER"]`); labels left out take their defaults. Nil for an unknown page or label,
                /// a missing argument, or a value that does not convert to its parameter's type.
                \(a)init?(id: String, arguments: [String: String] = [:]) {
                    self.init(id: id, argumentLists: arguments.mapValues { [$0] })
                }

                /// The page with this id and arguments written as in links, each as a list: a list parameter's
                /// items in order (`["tags": ["a", "b"]]`), one item for any other parameter.
                \(a)init?(id: String, argumentLists: [String: [String]]) {
                    guard let (page, values) = Routing.page(id: id, arguments: argumentLists) else { return nil }
                    self.init(routing: page, values)
                }

                /// The page's id: `coordinator.case`, as in notifyd's decisions (`cart.offer`).
                \(a)var id: String {
                    Routing.pages[routing.page].id
                }

                /// The page's canonical link, exactly as notifyd prints it; nil when no pattern of the page can carry
                /// its arguments (a page without links, an empty value where the path needs a segment).
                \(a)var link: String? {
                    let (page, values) = routing
                    return Routing.link(page: page, values: values)
                }

                /// ``link`` as a URL.
                \(a)var url: URL? {
                    link.flatMap { URL(string: $0) }
                }

                /// The page as notifyd describes it: `cart.offer(id: "SUMMER")`.
                \(a)var description: String {
                    let (page, values) = routing
                    return Routing.describe(page: page, values: values)
                }

            """
        if let fallback = graph.app.fallback, case .success(let page) = graph.page(for: fallback),
            let expression = pageExpression(page, namespaces)
        {
            out += """

                    /// The page notifyd opens when a notification's link matches no pattern (`app.fallback`).
                    \(a)static var fallback: AppLink { \(expression) }

                """
        }
        out += """

                /// The page's index in the tables and its arguments in declaration order.
                fileprivate var routing: (page: Int, values: [Routing.Value]) {
                    switch self {

            """
        for namespace in namespaces {
            out += "        case .\(namespace.caseName)(let page): return page.routing\n"
        }
        if namespaces.isEmpty { out += "        default: return (0, [])\n" }
        out += """
                    }
                }

                /// The page at `page` in the tables with `values`; nil when they do not fit (never for a match).
                fileprivate init?(routing page: Int, _ v: [Routing.Value]) {
                    guard Routing.pages.indices.contains(page), v.count == Routing.pages[page].kinds.count else {
                        return nil
                    }
                    switch page {

            """
        for namespace in namespaces {
            for (offset, definition) in namespace.coordinator.pages.enumerated() {
                out += construction(definition, index: namespace.firstPage + offset, namespace)
            }
        }
        out += """
                    default: return nil
                    }
                }
            }

            """
        return out
    }

    /// One `case N:` of `init?(routing:_:)`.
    func construction(_ definition: PageDefinition, index: Int, _ namespace: Namespace) -> String {
        let parameters = definition.declaration.parameters
        let name = SwiftNames.identifier(definition.declaration.name)
        guard !parameters.isEmpty else {
            return "        case \(index): self = .\(namespace.caseName)(.\(name))\n"
        }
        let bindings = parameters.enumerated().map { k, parameter in
            "let a\(k) = \(extraction(parameter.type, "v[\(k)]"))"
        }
        let arguments = parameters.enumerated().map { k, parameter in "\(SwiftNames.label(parameter.label)): a\(k)" }
        var out = "        case \(index):\n"
        let guardLine = "guard " + bindings.joined(separator: ", ")
        if 12 + guardLine.count + " else { return nil }".count <= 120 {
            out += "            " + guardLine + " else { return nil }\n"
        } else {
            out += wrap(guardLine, indent: 12) + "            else { return nil }\n"
        }
        out += wrap(
            "self = .\(namespace.caseName)(.\(name)(" + arguments.joined(separator: ", ") + "))", indent: 12)
        return out
    }

    /// The typed value of the router's value `subject` (`v[0]`).
    func extraction(_ type: ParameterType, _ subject: String) -> String {
        switch type {
        case .string: return "\(subject).stringValue"
        case .int: return "\(subject).intValue"
        case .double: return "\(subject).doubleValue"
        case .bool: return "\(subject).boolValue"
        case .uuid: return "\(subject).uuidValue"
        // The type is named where only a type can be (after `as`): a coordinator of the same name is a case of
        // AppLink, which would hide the type in an expression.
        case .enumeration(let name, _): return "\(subject).enumeration() as \(SwiftNames.identifier(name))?"
        // In parentheses: the extraction stands in a `guard` condition, where a trailing closure cannot.
        case .list(let element): return "\(subject).list({ \(extraction(element, "$0")) })"
        }
    }

    /// The router's value of a typed argument.
    func routingValue(_ type: ParameterType, _ name: String) -> String {
        switch type {
        case .string: return ".string(\(name))"
        case .int: return ".int(\(name))"
        case .double: return ".double(\(name))"
        case .bool: return ".bool(\(name))"
        case .uuid: return ".uuid(\(name))"
        case .enumeration: return ".enumCase(\(name).rawValue)"
        case .list(let element): return ".list(\(name).map { \(routingValue(element, "$0")) })"
        }
    }

    /// A page value as a Swift expression of type `AppLink`: `.catalog(.category(slug: "all", page: 1))`.
    func pageExpression(_ page: Page, _ namespaces: [Namespace]) -> String? {
        guard let namespace = namespaces.first(where: { $0.coordinator.name == page.id.coordinator }) else {
            return nil
        }
        var text = ".\(namespace.caseName)(.\(SwiftNames.identifier(page.id.name))"
        if !page.arguments.isEmpty {
            text += "("
            text += page.arguments.map { SwiftNames.label($0.label) + ": " + SwiftNames.literal($0.value) }
                .joined(separator: ", ")
            text += ")"
        }
        return text + ")"
    }

    /// The conveniences and the `routing` of one coordinator's `Page`.
    func pageExtension(_ namespace: Namespace) -> String {
        let a = access
        let coordinator = namespace.coordinator
        var out = """
            extension \(namespace.typeName).Page {
                /// This page as an ``AppLink``.
                \(a)var appLink: AppLink { .\(namespace.caseName)(self) }

                /// The page's canonical link (see ``AppLink/url``).
                \(a)var url: URL? { appLink.url }

                /// The page as notifyd describes it (see ``AppLink/description``).
                \(a)var description: String { appLink.description }

                /// The page of `\(coordinator.name)` a link opens; nil when it opens none, or a page of another coordinator.
                \(a)init?(url: URL) {
                    guard case .\(namespace.caseName)(let page)? = AppLink(url: url) else { return nil }
                    self = page
                }

                fileprivate var routing: (page: Int, values: [AppLink.Routing.Value]) {
                    switch self {

            """
        for (offset, definition) in coordinator.pages.enumerated() {
            let index = namespace.firstPage + offset
            let parameters = definition.declaration.parameters
            let name = SwiftNames.identifier(definition.declaration.name)
            if parameters.isEmpty {
                out += "        case .\(name): return (\(index), [])\n"
                continue
            }
            let bindings = parameters.indices.map { "let a\($0)" }.joined(separator: ", ")
            let values = parameters.enumerated().map { k, p in routingValue(p.type, "a\(k)") }
            out += wrap(
                "case .\(name)(\(bindings)): return (\(index), [" + values.joined(separator: ", ") + "])", indent: 8)
        }
        out += """
                    }
                }
            }

            """
        return out
    }

    /// `line` indented by `indent` spaces, broken after commas into lines of at most 120 columns, continuation
    /// lines indented four more.
    func wrap(_ line: String, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        guard indent + line.count > 120 else { return pad + line + "\n" }
        var out = ""
        var current = pad
        for piece in Self.piecesAfterCommas(line) {
            if current.count + piece.count > 120, current.contains(where: { $0 != " " }) {
                out += Self.trimmingTrailingSpaces(current) + "\n"
                current = pad + "    " + piece.drop(while: { $0 == " " })
            } else {
                current += piece
            }
        }
        return out + current + "\n"
    }

    /// `a, b, c` → [`a,`, ` b,`, ` c`]: break points after commas outside string literals.
    static func piecesAfterCommas(_ line: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        var inString = false
        var escaped = false
        for character in line {
            current.append(character)
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
            } else if character == "\"" {
                inString = true
            } else if character == "," {
                pieces.append(current)
                current = ""
            }
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }

    static func trimmingTrailingSpaces(_ text: String) -> String {
        var text = text
        while text.last == " " { text.removeLast() }
        return text
    }
}
