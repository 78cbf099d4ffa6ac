import CoordinatorGraph

extension GraphRenderer {
    /// The graph as a tree from the root: each coordinator on a line with its kind, how it runs under its parent
    /// and its gates, its pages beneath it with their patterns in a column, then its child coordinators. A
    /// coordinator with several parents is drawn in full under the first and referred to under the others. A list of
    /// conditions with their providers and the gates that need them closes the tree.
    ///
    /// ```
    /// app  app
    /// ├─ main  tabs  root
    /// │  ├─ catalog  stack  tab · root
    /// │  │  │  home                 /catalog
    /// │  │  │  product(id: String)  /products/{id}
    /// ```
    public func tree(style: Style = .plain) -> String {
        var out = style.bold(graph.app.name)
        if !appSummary.isEmpty { out += "  " + style.dim(appSummary) }
        out += "\n"
        var drawn: Set<String> = []
        let root = graph.root
        out += coordinatorLine(root, relation: nil, style: style) + "\n"
        drawn.insert(root.name)
        out += subtree(root, prefix: "", drawn: &drawn, style: style)
        let unreachable = graph.coordinators.filter { !drawn.contains($0.name) }
        for coordinator in unreachable {
            out += coordinatorLine(coordinator, relation: "not under app", style: style) + "\n"
            drawn.insert(coordinator.name)
            out += subtree(coordinator, prefix: "", drawn: &drawn, style: style)
        }
        out += conditionList(style: style)
        return out
    }

    /// `catalog  stack  tab · root  requires session  provides member`.
    func coordinatorLine(_ coordinator: Coordinator, relation: String?, style: Style) -> String {
        var line = style.bold(style.name(coordinator.name)) + "  " + style.dim(coordinator.kind.rawValue)
        if let relation { line += "  " + relation }
        if !coordinator.requires.isEmpty {
            line += "  " + style.caution("requires " + coordinator.requires.joined(separator: ", "))
        }
        if !coordinator.provides.isEmpty {
            line += "  " + style.good("provides " + coordinator.provides.joined(separator: ", "))
        }
        return line
    }

    /// The pages and children of `coordinator`, each line starting with `prefix`.
    func subtree(_ coordinator: Coordinator, prefix: String, drawn: inout Set<String>, style: Style) -> String {
        var out = ""
        let children = children(of: coordinator.name).compactMap { graph.coordinator($0) }
        let pageStem = children.isEmpty ? "   " : style.dim("│") + "  "
        let width = coordinator.pages.map(\.declaration.description.count).max() ?? 0
        for page in coordinator.pages {
            let declaration = page.declaration.description
            var line = prefix + pageStem + declaration
            line += String(repeating: " ", count: width - declaration.count) + "  " + Self.patterns(page)
            let notes = Self.pageNotes(page, in: coordinator)
            if !notes.isEmpty { line += "  " + style.caution(notes) }
            out += Self.trimmingTrailingSpaces(line) + "\n"
        }
        for (index, child) in children.enumerated() {
            let isLast = index == children.count - 1
            let relation = relation(coordinator, child.name)
            out += prefix + style.dim(isLast ? "└─ " : "├─ ")
            if drawn.contains(child.name) {
                out += style.name(child.name) + "  " + style.dim(child.kind.rawValue) + "  " + relation + "  "
                out += style.dim("(drawn above)") + "\n"
                continue
            }
            drawn.insert(child.name)
            out += coordinatorLine(child, relation: relation, style: style) + "\n"
            let childPrefix = prefix + (isLast ? "   " : style.dim("│") + "  ")
            out += subtree(child, prefix: childPrefix, drawn: &drawn, style: style)
        }
        return out
    }

    /// `conditions` and a line per condition: who provides it, who requires it.
    func conditionList(style: Style) -> String {
        let conditions = self.conditions
        guard !conditions.isEmpty else { return "" }
        var out = "\n" + style.bold("conditions") + "\n"
        let width = conditions.map(\.count).max() ?? 0
        for (index, condition) in conditions.enumerated() {
            let providers = graph.providers(of: condition)
            var gated: [String] = []
            for coordinator in graph.coordinators {
                if coordinator.requires.contains(condition) { gated.append(coordinator.name) }
                for page in coordinator.pages
                where page.requires.contains(condition) && !coordinator.requires.contains(condition) {
                    gated.append(page.id.description)
                }
            }
            var line = style.dim(index == conditions.count - 1 ? "└─ " : "├─ ")
            line += style.name(condition) + String(repeating: " ", count: width - condition.count)
            line += "  provided by " + (providers.isEmpty ? "nothing" : style.good(providers.joined(separator: ", ")))
            line += "; required by " + (gated.isEmpty ? "nothing" : style.caution(gated.joined(separator: ", ")))
            out += line + "\n"
        }
        return out
    }

    static func trimmingTrailingSpaces(_ text: String) -> String {
        var text = text
        while text.last == " " { text.removeLast() }
        return text
    }
}
