import DeepLink

extension ConfigDraft {
    /// The frozen ``Graph`` of a draft that ``Validator`` found free of errors.
    ///
    /// Schemes and hosts are lower-cased; `back` is stored as a case name; `links` defaults apply where
    /// not written. Only called on a valid draft, so every reference resolves.
    func freeze() -> Graph {
        let settings = AppSettings(
            name: app?.name?.value ?? "",
            schemes: (app?.schemes ?? []).map { $0.value.lowercased() },
            hosts: (app?.hosts ?? []).map { $0.value.lowercased() },
            fallback: app?.fallback?.expression, caseInsensitivePaths: app?.caseInsensitivePaths ?? false)
        var categories: [String: PageExpression] = [:]
        for category in self.categories {
            if let e = category.expression { categories[category.name.value] = e.expression }
        }
        let coordinators = self.coordinators.map { c in
            Coordinator(
                name: c.name.value, kind: c.kind?.value ?? .stack, children: c.children.map(\.value),
                root: c.root?.value, parents: c.parents.map(\.value), requires: c.requires.map(\.value),
                provides: c.provides.map(\.value),
                pages: c.pages.compactMap { page in
                    guard let declaration = page.declaration else { return nil }
                    let back = page.back.map { b in b.value.split(separator: ".").last.map(String.init) ?? b.value }
                    return PageDefinition(
                        id: PageID(coordinator: c.name.value, name: page.name), declaration: declaration,
                        patterns: page.patterns.map(\.pattern), requires: page.requires.map(\.value), back: back,
                        location: page.location)
                }, location: c.name.location)
        }
        return Graph(
            app: settings, linkKeys: linkKeys?.map(\.value) ?? ["deeplink", "url", "link"],
            pendingExpirySeconds: pendingExpiry?.value ?? 600, unlinked: unlinked?.value ?? .open, types: typeTable,
            categories: categories, coordinators: coordinators)
    }
}
