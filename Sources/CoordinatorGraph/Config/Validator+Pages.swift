import DeepLink

extension Validator {
    /// Unique case names per coordinator; `back` naming a page of the same coordinator whose arguments the
    /// page can supply; no cycles in back chains.
    mutating func checkPages() {
        for c in draft.coordinators {
            var seen: [String: SourceLocation] = [:]
            for page in c.pages {
                if let first = seen[page.name] {
                    error(
                        "duplicate-page", at: page.location,
                        "page '\(page.name)' is already declared in '\(c.name.value)' at \(Validator.place(first)); "
                            + "case names must be unique in a coordinator")
                } else {
                    seen[page.name] = page.location
                }
            }
            for page in c.pages {
                guard let back = page.back, let target = backTarget(back, of: page, in: c) else { continue }
                checkBackArguments(back, from: page, to: target, in: c)
            }
            checkBackCycles(c)
        }
    }

    /// The page that `back` names, or `nil` (reported) when it names another coordinator's page or no page.
    private mutating func backTarget(_ back: Located<String>, of page: PageDraft, in c: CoordinatorDraft) -> PageDraft?
    {
        let name = backName(back.value, in: c)
        guard let name else {
            error(
                "back-other-coordinator", at: back.location,
                "'back' of '\(c.name.value).\(page.name)' names '\(back.value)' in another coordinator; "
                    + "a back page belongs to the same coordinator, e.g. 'back: \(c.pages.first?.name ?? "home")'")
            return nil
        }
        guard let target = self.page(name, in: c) else {
            let pages = c.pages.map(\.name).joined(separator: ", ")
            error(
                "unknown-page", at: back.location,
                "no page '\(name)' in '\(c.name.value)' for 'back'; expected one of: \(pages)")
            return nil
        }
        return target
    }

    /// The case name a `back` value names in coordinator `c` (`orders` or `account.orders`), `nil` when it
    /// names another coordinator.
    func backName(_ text: String, in c: CoordinatorDraft) -> String? {
        guard text.contains(".") else { return text }
        guard let id = PageID(text), id.coordinator == c.name.value else { return nil }
        return id.name
    }

    /// Every parameter of the back page is supplied by a same-labelled, same-typed parameter of the page
    /// above it, or has a default.
    private mutating func checkBackArguments(
        _ back: Located<String>, from page: PageDraft, to target: PageDraft, in c: CoordinatorDraft
    ) {
        guard let above = page.declaration, let beneath = target.declaration else { return }
        for parameter in beneath.parameters {
            if let source = above.parameter(parameter.label) {
                if source.type != parameter.type {
                    error(
                        "back-arguments", at: back.location,
                        "back page '\(beneath)' takes '\(parameter.label)' from '\(above)', but there it is "
                            + "\(source.type), not \(parameter.type); use the same type")
                }
            } else if parameter.defaultValue == nil {
                error(
                    "back-arguments", at: back.location,
                    "back page '\(beneath)' needs '\(parameter.label)', which '\(above)' does not have; "
                        + "add '\(parameter)' to '\(page.name)' or give it a default in '\(target.name)'")
            }
        }
    }

    /// Follows each back chain; a chain that returns to a page on it is reported once, at the first-declared
    /// page of the cycle.
    private mutating func checkBackCycles(_ c: CoordinatorDraft) {
        var index: [String: Int] = [:]
        for (i, p) in c.pages.enumerated() where index[p.name] == nil { index[p.name] = i }
        func next(_ i: Int) -> Int? {
            guard let back = c.pages[i].back, let name = backName(back.value, in: c) else { return nil }
            return index[name]
        }
        var finished: Set<Int> = []
        for start in c.pages.indices where !finished.contains(start) {
            var chain: [Int] = []
            var current: Int? = start
            while let i = current, !finished.contains(i) {
                if let at = chain.firstIndex(of: i) {
                    let cycle = Array(chain[at...])
                    let first = cycle.min() ?? i
                    let names = (cycle + [cycle[0]]).map { c.pages[$0].name }
                    if let back = c.pages[first].back {
                        error(
                            "back-cycle", at: back.location,
                            "back chain of '\(c.name.value)' loops: \(names.joined(separator: " → ")); "
                                + "a back stack must end at a page without 'back'")
                    }
                    break
                }
                chain.append(i)
                current = next(i)
            }
            finished.formUnion(chain)
        }
    }

    /// Pages of a stack or modal that nothing leads to: not the first page, no link, and no category,
    /// fallback or back naming it. They load, but no notification can ever open them (a warning).
    mutating func checkReachablePages() {
        var targeted: Set<PageID> = []
        for category in draft.categories { if let e = category.expression { targeted.insert(e.expression.page) } }
        if let fallback = draft.app?.fallback { targeted.insert(fallback.expression.page) }
        for c in draft.coordinators {
            for page in c.pages {
                if let back = page.back, let name = backName(back.value, in: c) {
                    targeted.insert(PageID(coordinator: c.name.value, name: name))
                }
            }
        }
        for c in draft.coordinators where c.kind?.value == .stack || c.kind?.value == .modal {
            for page in c.pages.dropFirst() where page.writtenPatterns == 0 {
                if !targeted.contains(PageID(coordinator: c.name.value, name: page.name)) {
                    warning(
                        "unreachable-page", at: page.location,
                        "no link, category, fallback or back stack leads to page '\(c.name.value).\(page.name)'; "
                            + "give it a pattern or remove it")
                }
            }
        }
    }
}
