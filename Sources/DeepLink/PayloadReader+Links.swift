import JSON

/// What every format reader shares: link values, link key paths, categories, and the no-link message.
extension PayloadReader {
    /// Appends a candidate for `value` at `field`. `null` counts as absent and an empty string is skipped with a
    /// warning; an identifier (no scheme, see ``isIdentifier(_:)``) is looked up in the categories with `$key`
    /// arguments read through `lookup` from the object at `keyParent`; any other string is a link. Any other value
    /// is a `wrongType` error.
    func appendLink<V: JSONReadable>(
        _ value: V, field: @autoclosure () -> String, format: PayloadFormat, keyParent: String = "",
        lookup: (String) -> JSON? = { _ in nil }, into collector: inout PayloadCollector
    ) throws(PayloadError) {
        if let link = value.stringValue {
            if link.isEmpty {
                let path = field()
                collector.warnings.append(PayloadWarning(path: path, message: "the link is empty; ignored"))
                collector.notes.append("\(path) is empty")
            } else if PayloadReader.isIdentifier(link) {
                appendIdentifier(
                    link, field: field(), format: format, keyParent: keyParent, lookup: lookup, into: &collector)
            } else {
                collector.candidates.append(LinkCandidate(format: format, field: field(), target: .link(link)))
            }
        } else if !value.isNull {
            throw PayloadPath.wrongType(field(), expected: "a link string", found: value)
        }
    }

    /// The page the category `name` maps, or a note that it is an identifier nothing maps.
    func appendIdentifier(
        _ name: String, field: String, format: PayloadFormat, keyParent: String, lookup: (String) -> JSON?,
        into collector: inout PayloadCollector
    ) {
        if !appendCategory(name, field: field, format: format, keyParent: keyParent, lookup: lookup, into: &collector) {
            collector.notes.append("\(field): '\(name)' is an identifier, not a link, and no category maps it")
        }
    }

    /// Appends a candidate for each link key found in `data` (a payload's custom data), in order.
    func appendLinks<V: JSONReadable>(
        _ links: [LinkField], in data: V, format: PayloadFormat, keyParent: String, lookup: (String) -> JSON?,
        into collector: inout PayloadCollector
    ) throws(PayloadError) {
        for link in links {
            if let key = link.key {
                if let value = data[key] {
                    try appendLink(
                        value, field: link.field, format: format, keyParent: keyParent, lookup: lookup,
                        into: &collector)
                }
            } else {
                try appendNested(
                    link, keys: link.path.keys[...], in: data, format: format, keyParent: keyParent, lookup: lookup,
                    into: &collector)
            }
        }
    }

    /// The `data` object of a message that keeps its custom data there (FCM legacy, Expo), with a candidate appended
    /// for each link key found in it; `nil` when it has none.
    func readDataLinks<V: JSONReadable>(
        _ root: V, format: PayloadFormat, into collector: inout PayloadCollector
    ) throws(PayloadError) -> V? {
        guard let value = root["data"], !value.isNull else { return nil }
        let data = try PayloadPath.object(value, "data")
        try appendLinks(
            fields.data, in: data, format: format, keyParent: "data", lookup: { data[$0]?.json }, into: &collector)
        return data
    }

    /// Follows `keys` down from `object`; a string on the way that holds a JSON object is read as that object (FCM
    /// carries nested custom data as JSON text). A path that ends early is no candidate, with a note when it ends
    /// on something other than an object.
    func appendNested<W: JSONReadable>(
        _ link: LinkField, keys: ArraySlice<String>, in object: W, format: PayloadFormat, keyParent: String,
        lookup: (String) -> JSON?, into collector: inout PayloadCollector
    ) throws(PayloadError) {
        guard let key = keys.first, let value = object[key] else { return }
        let rest = keys.dropFirst()
        if rest.isEmpty {
            return try appendLink(
                value, field: link.field, format: format, keyParent: keyParent, lookup: lookup, into: &collector)
        }
        if value.isObject {
            return try appendNested(
                link, keys: rest, in: value, format: format, keyParent: keyParent, lookup: lookup, into: &collector)
        }
        if let text = value.stringValue, text.utf8.first == UInt8(ascii: "{"), let nested = try? JSON.parse(text),
            nested.isObject
        {
            return try appendNested(
                link, keys: rest, in: nested, format: format, keyParent: keyParent, lookup: lookup, into: &collector)
        }
        if !value.isNull {
            collector.notes.append("\(link.field) not read: '\(key)' holds \(value.kindName), not an object")
        }
    }

    /// Appends the page candidate for category `name` when the options map it, reading `$key` arguments through
    /// `lookup`. Returns false when the category is not mapped. `keyParent` is the path of the object `lookup`
    /// reads, for messages.
    @discardableResult
    func appendCategory(
        _ name: String, field: @autoclosure () -> String, format: PayloadFormat, keyParent: String,
        lookup: (String) -> JSON?, into collector: inout PayloadCollector
    ) -> Bool {
        guard let expression = fields.categories[name] else { return false }
        var unusable: JSON? = nil
        let substituted = expression.substitute { key in
            guard let value = lookup(key) else { return nil }
            guard let text = PayloadPath.argumentText(value) else {
                unusable = value
                return nil
            }
            return text
        }
        switch substituted {
        case .success(let arguments):
            let target = LinkCandidate.Target.page(expression.page, arguments: arguments, category: name)
            collector.candidates.append(LinkCandidate(format: format, field: field(), target: target))
        case .failure(let missing):
            let keyPath = PayloadPath.shown(PayloadPath.child(keyParent, missing.key))
            let problem: String
            if let unusable {
                let kind = unusable.isNull ? "null" : (unusable.kindName == "array" ? "an array" : "an object")
                problem = "its value at \(keyPath) is \(kind), not a string or a number"
            } else {
                problem =
                    "the payload has no \(keyParent.isEmpty ? "top-level key" : "key") '\(missing.key)' (at \(keyPath))"
            }
            let message = "category '\(name)' (\(expression)) skipped: it reads $\(missing.key), but \(problem)"
            collector.warnings.append(PayloadWarning(path: field(), message: message))
            collector.notes.append(message)
        }
        return true
    }

    /// True for text that names something rather than links to it: 1 to 256 bytes of ASCII letters, digits, `_`,
    /// `-` and `.`, starting with a letter or a digit (`FLUTTER_NOTIFICATION_CLICK`, `OPEN_ORDER`,
    /// `android.intent.action.VIEW`, a window id). A link has a scheme (`shop:`) or starts with `/`.
    public static func isIdentifier(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { isIdentifier($0) } ?? isIdentifier(text.utf8)
    }

    static func isIdentifier<C: Collection<UInt8>>(_ bytes: C) -> Bool {
        guard let first = bytes.first, bytes.count <= 256, isAlphanumeric(first) else { return false }
        return bytes.allSatisfy {
            isAlphanumeric($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
    }

    @inline(__always)
    static func isAlphanumeric(_ b: UInt8) -> Bool {
        ((b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
    }

    /// The `noLink` error for a visible payload with no candidates (`links.unlinked: error`), listing the fields
    /// looked at.
    func noLink<V: PayloadJSON>(
        _ entry: PayloadFormatEntry, _ object: V, _ collector: PayloadCollector
    ) -> PayloadError {
        var reason = "no link in the \(entry.displayName) payload; looked at " + entry.linkFields(object, by: self)
        for note in collector.notes { reason += "; " + note }
        return PayloadError(.noLink, path: "", reason: reason)
    }

    /// The trace line for a payload with no candidates: `no link: looked at deeplink, url, …`.
    func lookedAt<V: PayloadJSON>(_ entry: PayloadFormatEntry, _ object: V) -> String {
        "no link: looked at " + entry.linkFields(object, by: self)
    }

    /// The object under `key`, `nil` when absent or null, or a `wrongType` error.
    func member<V: JSONReadable>(_ object: V, _ key: String, of parent: String) throws(PayloadError) -> V? {
        guard let value = object[key], !value.isNull else { return nil }
        return try PayloadPath.object(value, PayloadPath.child(parent, key))
    }

    /// True when `notification` has a non-empty `title` or `body` string.
    func hasText<V: JSONReadable>(_ notification: V) -> Bool {
        if let title = notification["title"]?.stringValue, !title.isEmpty { return true }
        if let body = notification["body"]?.stringValue, !body.isEmpty { return true }
        return false
    }
}
