extension Validator {
    /// One `app`; per kind: roots among children, tabs and apps with children and no pages, stacks and
    /// flows with pages; known children and parents.
    mutating func checkStructure() {
        let apps = draft.coordinators.filter { $0.kind?.value == .app }
        // A coordinator whose kind did not decode may be the app: that is reported already.
        if apps.isEmpty, let at = draft.coordinatorsLocation, draft.coordinators.allSatisfy({ $0.kind != nil }) {
            error(
                "missing-app", at: at,
                "no coordinator has 'kind: app'; declare exactly one, the root of the graph")
        }
        for extra in apps.dropFirst() {
            error(
                "multiple-apps", at: extra.kind?.location ?? extra.name.location,
                "a second coordinator of kind app; '\(apps[0].name.value)' is already the root "
                    + "(declared at \(Validator.place(apps[0].name.location)))")
        }
        let childrenByParent = declaredChildren()
        for c in draft.coordinators {
            checkReferences(c)
            guard let kind = c.kind?.value else { continue }
            let name = c.name.value
            switch kind {
            case .app, .tabs:
                if c.children.isEmpty {
                    error(
                        "no-children", at: c.name.location,
                        "\(kind.rawValue) coordinator '\(name)' has no children; list them under 'children:'")
                }
                if let root = c.root {
                    if !c.children.contains(where: { $0.value == root.value }), coordinator(root.value) != nil {
                        let children = c.children.map(\.value).joined(separator: ", ")
                        error(
                            "root-not-child", at: root.location,
                            "root '\(root.value)' is not a child of '\(name)'; expected one of: \(children)")
                    }
                } else if !c.children.isEmpty {
                    error(
                        "missing-root", at: c.name.location,
                        "\(kind.rawValue) coordinator '\(name)' needs 'root:', the child active on cold start")
                }
                if !c.pages.isEmpty, let at = c.pagesLocation {
                    error(
                        "unexpected-pages", at: at,
                        "\(kind.rawValue) coordinator '\(name)' shows its children, not pages; "
                            + "declare pages in a stack, modal or flow")
                }
            case .stack, .flow, .modal:
                if let root = c.root {
                    error(
                        "unexpected-root", at: root.location,
                        "'root' applies to app and tabs coordinators; a \(kind.rawValue)'s root page is its first page")
                }
                if c.pages.isEmpty && !c.pagesMalformed && (kind != .modal || (childrenByParent[name] ?? []).isEmpty) {
                    error(
                        "no-pages", at: c.pagesLocation ?? c.name.location,
                        "\(kind.rawValue) coordinator '\(name)' has no pages; declare at least one under 'pages:'")
                }
                checkRootPage(of: c, kind: kind)
            }
            if kind == .app, let parent = c.parents.first {
                error(
                    "app-has-parent", at: parent.location,
                    "the app coordinator '\(name)' is the root and has no parents")
            }
            if kind == .app || kind == .tabs, let provided = c.provides.first {
                error(
                    "unexpected-provides", at: provided.location,
                    "'provides' applies to coordinators that finish (modal, flow, stack); '\(name)' is \(kind.rawValue)"
                )
            }
        }
    }

    /// A stack shows its first page when it is started without one (on the way to a child coordinator, or beneath
    /// a page on a cold start), and a gate presents its provider with its first page: that page should be buildable
    /// without arguments, so every parameter of it needs a default. A warning: every page still routes (a root
    /// page may take its arguments from the page above it), but such stacks are built without their root page.
    private mutating func checkRootPage(of c: CoordinatorDraft, kind: CoordinatorKind) {
        guard kind == .stack || !c.provides.isEmpty, let root = c.pages.first, let declaration = root.declaration
        else { return }
        let needed = declaration.parameters.filter { $0.defaultValue == nil }.map { "'\($0.label)'" }
        guard !needed.isEmpty else { return }
        let why =
            kind == .stack
            ? "a stack shows its root page when it is started on the way to another page and beneath a page on a "
                + "cold start, and leaves it out when it cannot build it"
            : "a gate presents '\(c.name.value)' showing its first page, and shows none when it cannot build it"
        warning(
            "root-page-arguments", at: root.location,
            "the root page '\(root.name)' of '\(c.name.value)' needs \(Validator.list(needed)), which "
                + (needed.count == 1 ? "has" : "have") + " no default; \(why): give "
                + (needed.count == 1 ? "it a default" : "them defaults") + " or declare a page without parameters first"
        )
    }

    /// Children and parents name declared coordinators, each once; the app is nobody's child.
    private mutating func checkReferences(_ c: CoordinatorDraft) {
        var seen: Set<String> = []
        for child in c.children {
            if !seen.insert(child.value).inserted {
                error(
                    "duplicate-child", at: child.location,
                    "'\(child.value)' is listed twice in the children of '\(c.name.value)'")
            } else if let target = coordinator(child.value) {
                if target.kind?.value == .app {
                    error(
                        "app-has-parent", at: child.location,
                        "'\(child.value)' is the app coordinator; it cannot be a child")
                }
            } else {
                unknownCoordinator(child, in: "the children of '\(c.name.value)'")
            }
        }
        seen = []
        for parent in c.parents {
            if !seen.insert(parent.value).inserted {
                error(
                    "duplicate-parent", at: parent.location,
                    "'\(parent.value)' is listed twice in the parents of '\(c.name.value)'")
            } else if coordinator(parent.value) == nil {
                unknownCoordinator(parent, in: "the parents of '\(c.name.value)'")
            }
        }
        if let root = c.root, coordinator(root.value) == nil {
            unknownCoordinator(root, in: "the root of '\(c.name.value)'")
        }
    }

    /// Every parent → child edge of the hierarchy (from `children:` and from `parents:`), with the place that
    /// declares it, in declaration order; only edges between declared coordinators.
    func hierarchyEdges() -> [(parent: String, child: String, location: SourceLocation)] {
        var edges: [(parent: String, child: String, location: SourceLocation)] = []
        for c in draft.coordinators {
            for child in c.children where coordinator(child.value) != nil {
                edges.append((c.name.value, child.value, child.location))
            }
            for parent in c.parents where coordinator(parent.value) != nil {
                edges.append((parent.value, c.name.value, parent.location))
            }
        }
        return edges
    }

    /// Children per coordinator name, from both directions of the hierarchy.
    func declaredChildren() -> [String: [String]] {
        var out: [String: [String]] = [:]
        for edge in hierarchyEdges() where !(out[edge.parent]?.contains(edge.child) ?? false) {
            out[edge.parent, default: []].append(edge.child)
        }
        return out
    }
}
