import DeepLink
import JSON

extension Graph {
    /// The graph as `GetGraph` returns it: the app settings and every coordinator with its pages,
    /// patterns, gates and providers, in declaration order.
    public var json: JSON {
        var coordinatorsJSON: [JSON] = []
        coordinatorsJSON.reserveCapacity(coordinators.count)
        for c in coordinators {
            var o: JSONObject = ["name": .string(c.name), "kind": .string(c.kind.rawValue)]
            if !c.children.isEmpty { o["children"] = .array(c.children.map(JSON.string)) }
            if let root = c.root { o["root"] = .string(root) }
            let parents = parents(of: c.name)
            if !parents.isEmpty { o["parents"] = .array(parents.map(JSON.string)) }
            if !c.requires.isEmpty { o["requires"] = .array(c.requires.map(JSON.string)) }
            if !c.provides.isEmpty { o["provides"] = .array(c.provides.map(JSON.string)) }
            if !c.pages.isEmpty {
                o["pages"] = .array(
                    c.pages.map { p in
                        var page: JSONObject = [
                            "id": .string(p.id.description),
                            "case": .string(p.declaration.description),
                            "patterns": .array(p.patterns.map { .string($0.text) }),
                        ]
                        if !p.requires.isEmpty { page["requires"] = .array(p.requires.map(JSON.string)) }
                        if let back = p.back { page["back"] = .string(back) }
                        return .object(page)
                    })
            }
            coordinatorsJSON.append(.object(o))
        }
        var app: JSONObject = [
            "name": .string(self.app.name),
            "schemes": .array(self.app.schemes.map(JSON.string)),
            "hosts": .array(self.app.hosts.map(JSON.string)),
        ]
        if let fallback = self.app.fallback { app["fallback"] = .string(fallback.description) }
        if self.app.caseInsensitivePaths { app["caseInsensitivePaths"] = .bool(true) }
        var categoriesJSON = JSONObject()
        for key in categories.keys.sorted() { categoriesJSON[key] = .string(categories[key]!.description) }
        var typesJSON = JSONObject()
        for key in types.keys.sorted() { typesJSON[key] = .array(types[key]!.map(JSON.string)) }
        return [
            "app": .object(app),
            "links": [
                "keys": .array(linkKeys.map(JSON.string)), "pendingExpiry": .int(pendingExpirySeconds),
                "unlinked": .string(unlinked.rawValue),
            ],
            "types": .object(typesJSON),
            "categories": .object(categoriesJSON),
            "coordinators": .array(coordinatorsJSON),
        ]
    }
}
