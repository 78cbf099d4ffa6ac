import DeepLink

extension ConfigDecoder {
    static let coordinatorKeys = ["kind", "children", "root", "parents", "requires", "provides", "pages"]
    static let pageKeys = ["path", "requires", "back"]

    /// One coordinator: `name: { kind, children, root, parents, requires, provides, pages }`.
    mutating func decodeCoordinator(_ entry: ConfigNode.Entry, types: [String: [String]]) -> CoordinatorDraft {
        let name = Located(value: entry.key.text ?? "", location: entry.key.location)
        var coordinator = CoordinatorDraft(name: name)
        if !isIdentifier(name.value) {
            report(
                "invalid-name", at: name.location,
                "'\(name.value)' cannot name a coordinator; expected a name such as 'cart' (letters, digits, '_')")
        }
        let path = "coordinators.\(name.value)"
        guard
            let fields = fields(
                of: entry.value, path: path, allowed: ConfigDecoder.coordinatorKeys, required: ["kind"],
                what: "coordinator '\(name.value)'")
        else { return coordinator }
        if let n = fields["kind"], let text = string(n, path: "\(path).kind") {
            if let kind = CoordinatorKind(rawValue: text.value) {
                coordinator.kind = Located(value: kind, location: text.location)
            } else {
                let kinds = CoordinatorKind.allCases.map(\.rawValue).joined(separator: ", ")
                report("unknown-kind", at: text.location, "unknown kind '\(text.value)'; expected one of \(kinds)")
            }
        }
        if let n = fields["children"] { coordinator.children = stringList(n, path: "\(path).children") }
        if let n = fields["root"] { coordinator.root = string(n, path: "\(path).root") }
        if let n = fields["parents"] { coordinator.parents = stringList(n, path: "\(path).parents") }
        if let n = fields["requires"] { coordinator.requires = stringList(n, path: "\(path).requires") }
        if let n = fields["provides"] { coordinator.provides = stringList(n, path: "\(path).provides") }
        if let n = fields["pages"] {
            coordinator.pagesLocation = n.location
            if case .mapping = n.content {} else { coordinator.pagesMalformed = true }
            for page in entries(of: n, path: "\(path).pages", expected: "a mapping of page declarations to links") {
                coordinator.pages.append(decodePage(page, coordinator: name.value, types: types))
            }
        }
        return coordinator
    }

    /// One page: `declaration: pattern`, `declaration: [patterns]`, `declaration: { path, requires, back }`,
    /// or `declaration: []` for a page without a link.
    mutating func decodePage(_ entry: ConfigNode.Entry, coordinator: String, types: [String: [String]]) -> PageDraft {
        let text = entry.key.text ?? ""
        let name = String(text.prefix(while: { $0 != "(" }).trimmingWhitespace())
        var page = PageDraft(name: name, location: entry.key.location)
        do {
            page.declaration = try CaseDeclaration.parse(text, types: types)
        } catch {
            let code = error.code == .unknownType ? "unknown-type" : "invalid-declaration"
            report(
                code, at: entry.key.textLocation.advanced(by: error.offset), "invalid page '\(text)': \(error.reason)")
        }
        let path = "coordinators.\(coordinator).pages.\(name)"
        let value = entry.value
        switch value.content {
        case .scalar where value.isNull:
            break
        case .scalar, .sequence:
            (page.patterns, page.writtenPatterns) = patterns(value, path: path)
        case .mapping:
            guard
                let fields = fields(
                    of: value, path: path, allowed: ConfigDecoder.pageKeys, required: [],
                    what: "page '\(coordinator).\(name)'")
            else { break }
            if let n = fields["path"] { (page.patterns, page.writtenPatterns) = patterns(n, path: "\(path).path") }
            if let n = fields["requires"] { page.requires = stringList(n, path: "\(path).requires") }
            if let n = fields["back"] { page.back = string(n, path: "\(path).back") }
        }
        return page
    }

    /// One pattern or a list of them, each parsed; a pattern that does not parse is reported at the exact
    /// character.
    mutating func patterns(_ node: ConfigNode, path: String) -> (parsed: [PatternDraft], written: Int) {
        var out: [PatternDraft] = []
        let texts = stringList(node, path: path)
        for text in texts {
            do {
                out.append(PatternDraft(pattern: try LinkPattern.parse(text.value), location: text.location))
            } catch {
                report(
                    "invalid-pattern", at: text.location.advanced(by: error.offset),
                    "invalid link pattern '\(text.value)': \(error.reason)")
            }
        }
        return (out, texts.count)
    }
}
