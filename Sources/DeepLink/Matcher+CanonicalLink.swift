extension Matcher {
    /// The canonical link of a page, or `nil` when no pattern of the page can carry its arguments.
    ///
    /// The link uses the page's first pattern that round-trips: `shop://offers/SUMMER` with the first custom scheme,
    /// else `https://<first non-wildcard host>/offers/SUMMER`, else the bare path. Query items are left out when
    /// equal to the default. A later pattern is used when the first cannot carry a value (an empty string in a path
    /// segment, an empty part in a catch-all) or when the link it gives would open a different page (a literal
    /// route takes precedence). Missing arguments take their defaults. A list is one query item per value, in order
    /// (`?tag=a&tag=b`); an empty list has none, so it is printed only where it is the default.
    public func link(for page: Page) -> String? {
        guard let indices = table.routesByPage[page.id], let first = indices.first else { return nil }
        guard let page = normalize(page, routes[first].declaration) else { return nil }
        let origin = canonicalOrigin
        for index in indices {
            guard let path = pathAndQuery(for: page, routes[index]) else { continue }
            let link = origin.link(path)
            if self.match(link).page == page { return link }
        }
        return nil
    }

    /// Where canonical links start: the first custom scheme, else the first host that is not a wildcard, else
    /// nothing (a bare path).
    public var canonicalOrigin: Link.Origin {
        if let scheme = policy.schemes.first { return .scheme(scheme) }
        if let host = policy.canonicalHost { return .host(host) }
        return .path
    }

    /// The link of `page` through each of its patterns that can carry its arguments, in declaration order, written
    /// for `origin` (``canonicalOrigin`` when `nil`); a link is left out when another pattern's is the same.
    ///
    /// Unlike ``link(for:)`` a link is kept when it opens another page (a pattern shadowed by a literal route):
    /// it is still a link that may arrive, which is what a corpus of links (`notifyctl diff`) wants.
    public func links(for page: Page, origin: Link.Origin? = nil) -> [String] {
        guard let indices = table.routesByPage[page.id], let first = indices.first,
            let page = normalize(page, routes[first].declaration)
        else { return [] }
        let origin = origin ?? canonicalOrigin
        var links: [String] = []
        for index in indices {
            guard let path = pathAndQuery(for: page, routes[index]) else { continue }
            let link = origin.link(path)
            if !links.contains(link) { links.append(link) }
        }
        return links
    }

    /// The page with arguments in declaration order, defaults filled in; `nil` when a label has no value.
    func normalize(_ page: Page, _ declaration: CaseDeclaration) -> Page? {
        var arguments: [Page.Argument] = []
        for parameter in declaration.parameters {
            guard let value = page[parameter.label] ?? parameter.defaultValue else { return nil }
            arguments.append(Page.Argument(label: parameter.label, value: value))
        }
        return Page(id: page.id, arguments: arguments)
    }

    /// True when `value` followed by `separator` reads back as `value`: the first occurrence of the separator after
    /// the value's first byte is the one written after it.
    func splitsBack(_ value: String, before separator: String) -> Bool {
        let fold = { (text: String) in table.ignoresCase ? asciiLowercased(text) : text }
        let text = Array(fold(value + separator).utf8)
        let needle = Array(fold(separator).utf8)
        var i = 1
        while i + needle.count <= text.count, !text[i..<(i + needle.count)].elementsEqual(needle) { i += 1 }
        return i == text.count - needle.count
    }

    func pathAndQuery(for page: Page, _ route: Route) -> String? {
        var path = ""
        for segment in route.pattern.segments {
            switch segment {
            case .literal(let text):
                path += "/" + percentEncode(text, for: .segment)
            case .parameter(let name):
                guard let value = page[name], !value.isList else { return nil }
                // An optional segment at its default is left out, as a query item at its default is.
                if name == route.pattern.optionalName, value == route.declaration.parameter(name)?.defaultValue {
                    continue
                }
                let text = value.linkText
                guard !text.isEmpty else { return nil }
                path += "/" + percentEncode(text, for: .segment)
            case .part(let prefix, let names, let separators, let suffix):
                var text = prefix
                for (k, name) in names.enumerated() {
                    guard let value = page[name], !value.isList, case let piece = value.linkText, !piece.isEmpty else {
                        return nil
                    }
                    if k < separators.count {
                        // The link splits at the first occurrence of the separator: a value holding it would read
                        // back split elsewhere, so this pattern cannot carry it.
                        guard splitsBack(piece, before: separators[k]) else { return nil }
                        text += piece + separators[k]
                    } else {
                        text += piece
                    }
                }
                path += "/" + percentEncode(text + suffix, for: .segment)
            case .catchAll(let name):
                guard let text = page[name]?.linkText else { return nil }
                let parts = text.split(separator: "/", omittingEmptySubsequences: false)
                guard !parts.contains(where: \.isEmpty) else { return nil }
                for part in parts { path += "/" + percentEncode(String(part), for: .segment) }
            }
        }
        if path.isEmpty { path = "/" }
        var separator = "?"
        for binding in route.pattern.query {
            guard let value = page[binding.name] else { continue }
            if value == route.declaration.parameter(binding.name)?.defaultValue { continue }
            let items: [Value]
            if case .list(let values) = value { items = values } else { items = [value] }
            for item in items {
                path +=
                    separator + percentEncode(binding.key, for: .query) + "="
                    + percentEncode(item.linkText, for: .query)
                separator = "&"
            }
        }
        return path
    }
}

extension Link.Origin {
    /// The link of `path` (which starts with `/`) from this origin: `shop://offers/SUMMER`,
    /// `https://shop.example.com/offers/SUMMER` or the bare `/offers/SUMMER`.
    public func link(_ path: String) -> String {
        switch self {
        case .scheme(let scheme): return scheme + "://" + path.dropFirst()
        case .host(let host): return "https://" + host + path
        case .path: return path
        }
    }
}
