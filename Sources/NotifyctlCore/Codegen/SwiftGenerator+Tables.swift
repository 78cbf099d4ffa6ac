import CoordinatorGraph
import DeepLink

extension SwiftGenerator {
    /// `AppLink.Routing`: the policy, the enums, every page and every pattern, in the daemon's route order.
    func tables(types: [(name: String, cases: [String])]) -> String {
        let policy = graph.matcher.policy
        let enumIndex = Dictionary(uniqueKeysWithValues: types.enumerated().map { ($1.name, $0) })
        var pageIndex: [PageID: Int] = [:]
        var pages: [PageDefinition] = []
        for coordinator in graph.coordinators {
            for page in coordinator.pages {
                pageIndex[page.id] = pages.count
                pages.append(page)
            }
        }
        var out = """
            // MARK: - Link tables (from the config)

            extension AppLink {
                /// The allowed schemes and hosts, every page and every pattern, in the order notifyd declares them.
                fileprivate enum Routing {
                    static let schemes: [String] = \(stringArray(policy.schemes))
                    static let hosts: [String] = \(stringArray(policy.hosts))
                    static let maximumLength = \(policy.maximumLength)
                    static let caseInsensitivePaths = \(policy.caseInsensitivePaths)

            """
        out += "        static let enums: [[String]] = ["
        if types.isEmpty {
            out += "]\n"
        } else {
            out += "\n"
            for type in types {
                out += "            // \(type.name)\n"
                // swift-format wants no trailing comma after a lone element.
                out += wrap(stringArray(type.cases) + (types.count == 1 ? "" : ","), indent: 12)
            }
            out += "        ]\n"
        }
        out += "        static let pages = makePages()\n"
        out += "        static let routes = makeRoutes()\n\n"
        out += "        /// Every page in declaration order: its id, labels, parameter types and defaults.\n"
        out += "        static func makePages() -> [PageInfo] {\n"
        out += "            var pages: [PageInfo] = []\n"
        out += "            pages.reserveCapacity(\(pages.count))\n"
        for (index, page) in pages.enumerated() {
            let parameters = page.declaration.parameters
            let labels = stringArray(parameters.map(\.label))
            let kinds = "[" + parameters.map { kind($0.type, enumIndex) }.joined(separator: ", ") + "]"
            let defaults = "[" + parameters.map { defaultValue($0.defaultValue) }.joined(separator: ", ") + "]"
            out += "            // \(index): \(page.id.coordinator).\(page.declaration)\n"
            out += call(
                "pages.append(PageInfo",
                [
                    "id: \(SwiftNames.stringLiteral(page.id.description))", "labels: \(labels)", "kinds: \(kinds)",
                    "defaults: \(defaults)",
                ], close: "))", indent: 12)
        }
        out += "            return pages\n        }\n\n"
        out +=
            "        /// Every pattern in declaration order (the order notifyd breaks ties in): its page's index, its path\n"
        out += "        /// segments (parameters by their index in the page's labels) and its query bindings.\n"
        out += "        static func makeRoutes() -> [Route] {\n"
        out += "            var routes: [Route] = []\n"
        out += "            routes.reserveCapacity(\(graph.matcher.routes.count))\n"
        for route in graph.matcher.routes {
            guard let page = pageIndex[route.page] else { continue }
            let labels = route.declaration.parameters.map(\.label)
            let path = route.pattern.segments.map { segment -> String in
                switch segment {
                case .literal(let text): return ".literal(\(SwiftNames.stringLiteral(text)))"
                case .parameter(let name): return ".parameter(\(labels.firstIndex(of: name) ?? -1))"
                case .catchAll(let name): return ".catchAll(\(labels.firstIndex(of: name) ?? -1))"
                case .part(let prefix, let names, let separators, let suffix):
                    let ks = names.map { String(labels.firstIndex(of: $0) ?? -1) }.joined(separator: ", ")
                    let seps = separators.map(SwiftNames.stringLiteral).joined(separator: ", ")
                    return ".part(\(SwiftNames.stringLiteral(prefix)), [\(ks)], [\(seps)], "
                        + "\(SwiftNames.stringLiteral(suffix)))"
                }
            }
            let query = route.pattern.query.map {
                "Binding(key: \(SwiftNames.stringLiteral($0.key)), parameter: \(labels.firstIndex(of: $0.name) ?? -1))"
            }
            out += "            // \(route.page): \(SwiftNames.comment(route.pattern.text))\n"
            var arguments = [
                "page: \(page)", "path: [\(path.joined(separator: ", "))]", "query: [\(query.joined(separator: ", "))]",
            ]
            if route.pattern.optionalName != nil { arguments.append("optionalLast: true") }
            out += call("routes.append(Route", arguments, close: "))", indent: 12)
        }
        out += "            return routes\n        }\n"
        out += """
                }
            }

            """
        return out
    }

    /// `outer(Name(a, b, c))` on one line when it fits in 120 columns, else broken the way swift-format breaks it:
    /// `outer(`, then `Name(` four columns further in, then the arguments packed another four columns in.
    func call(_ head: String, _ arguments: [String], close: String, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        let single = pad + head + "(" + arguments.joined(separator: ", ") + close
        guard single.count > 120 else { return single + "\n" }
        let parts = head.split(separator: "(", maxSplits: 1).map(String.init)
        var out = pad + parts[0] + "(\n"
        out += pad + "    " + (parts.count > 1 ? parts[1] : "") + "(\n"
        var line = ""
        for (index, argument) in arguments.enumerated() {
            let piece = argument + (index == arguments.count - 1 ? close : ",")
            if !line.isEmpty, indent + 8 + line.count + 1 + piece.count > 120 {
                out += wrap(line, indent: indent + 8)
                line = ""
            }
            line += line.isEmpty ? piece : " " + piece
        }
        return out + wrap(line, indent: indent + 8)
    }

    func stringArray(_ strings: [String]) -> String {
        "[" + strings.map(SwiftNames.stringLiteral).joined(separator: ", ") + "]"
    }

    func kind(_ type: ParameterType, _ enumIndex: [String: Int]) -> String {
        switch type {
        case .string: return ".string"
        case .int: return ".int"
        case .double: return ".double"
        case .bool: return ".bool"
        case .uuid: return ".uuid"
        case .enumeration(let name, _): return ".enumeration(\(enumIndex[name] ?? -1))"
        case .list(let element): return ".list(\(kind(element, enumIndex)))"
        }
    }

    func defaultValue(_ value: Value?) -> String {
        guard let value else { return "nil" }
        return routingLiteral(value)
    }

    /// A value as a `Routing.Value` expression: `.string("all")`, `.list([.int(1)])`.
    func routingLiteral(_ value: Value) -> String {
        switch value {
        case .string(let s): return ".string(\(SwiftNames.stringLiteral(s)))"
        case .int(let i): return ".int(\(i))"
        case .double(let d): return ".double(\(d))"
        case .bool(let b): return ".bool(\(b))"
        case .uuid(let u): return ".uuid(UUID(uuidString: \(SwiftNames.stringLiteral(u.uuidString)))!)"
        case .enumCase(let c): return ".enumCase(\(SwiftNames.stringLiteral(c)))"
        case .list(let items): return ".list([" + items.map(routingLiteral).joined(separator: ", ") + "])"
        }
    }
}
