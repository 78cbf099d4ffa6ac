import DeepLink

/// Decodes a ``ConfigNode`` tree into a ``ConfigDraft``, collecting every structural problem on the way:
/// unknown and missing keys, values of the wrong shape or type, declarations and patterns that do not parse.
///
/// It never stops at the first problem: a part that is wrong is reported and left out of the draft, and
/// decoding goes on with the rest.
struct ConfigDecoder {
    private(set) var findings: [ConfigFinding] = []

    /// The draft of the document rooted at `root`.
    mutating func decode(_ root: ConfigNode) -> ConfigDraft {
        var draft = ConfigDraft(location: root.location)
        let topKeys = ["version", "app", "links", "types", "categories", "coordinators"]
        guard
            let fields = fields(
                of: root, path: "", allowed: topKeys, required: ["version", "app", "coordinators"],
                what: "the top level")
        else { return draft }
        if let node = fields["version"] {
            draft.version = integer(node, path: "version")
            if let v = draft.version, v.value != 1 {
                report("unsupported-version", at: v.location, "unsupported version \(v.value); expected 'version: 1'")
            }
        }
        if let node = fields["types"] { draft.types = decodeTypes(node) }
        if let node = fields["app"] { draft.app = decodeApp(node) }
        if let node = fields["links"] { decodeLinks(node, into: &draft) }
        if let node = fields["categories"] { draft.categories = decodeCategories(node) }
        if let node = fields["coordinators"] {
            draft.coordinatorsLocation = node.location
            let types = draft.typeTable
            for entry in entries(of: node, path: "coordinators", expected: "a mapping of coordinator names") {
                draft.coordinators.append(decodeCoordinator(entry, types: types))
            }
        }
        return draft
    }

    // MARK: Sections

    private mutating func decodeApp(_ node: ConfigNode) -> AppDraft? {
        var app = AppDraft(location: node.location)
        guard
            let fields = fields(
                of: node, path: "app", allowed: ["name", "schemes", "hosts", "fallback", "caseInsensitivePaths"],
                required: ["name"],
                what: "'app'")
        else { return nil }
        if let n = fields["name"] { app.name = string(n, path: "app.name") }
        if let n = fields["schemes"] { app.schemes = stringList(n, path: "app.schemes") }
        if let n = fields["hosts"] { app.hosts = stringList(n, path: "app.hosts") }
        if let n = fields["fallback"] { app.fallback = expression(n, path: "app.fallback") }
        if let n = fields["caseInsensitivePaths"] {
            if case .bool(let b) = n.scalarValue {
                app.caseInsensitivePaths = b
            } else if !n.isReported {
                report(
                    "wrong-type", at: n.location,
                    "expected true or false for 'app.caseInsensitivePaths', found \(n.kindDescription)")
            }
        }
        return app
    }

    private mutating func decodeLinks(_ node: ConfigNode, into draft: inout ConfigDraft) {
        guard
            let fields = fields(
                of: node, path: "links", allowed: ["keys", "pendingExpiry", "unlinked"], required: [],
                what: "'links'")
        else { return }
        if let n = fields["keys"] {
            let keys = stringList(n, path: "links.keys")
            for key in keys {
                do throws(LinkKeyPathError) {
                    _ = try LinkKeyPath(parsing: key.value)
                } catch {
                    report(
                        "invalid-link-key", at: key.location,
                        "'\(key.value)' is not a key path: \(error.reason) (at byte \(error.offset)); write keys joined by "
                            + "'.', such as custom.u, and a key holding a dot as [\"a.b\"]")
                }
            }
            draft.linkKeys = keys
        }
        if let n = fields["unlinked"], let value = string(n, path: "links.unlinked") {
            if let unlinked = PayloadOptions.Unlinked(rawValue: value.value) {
                draft.unlinked = Located(value: unlinked, location: value.location)
            } else {
                report(
                    "invalid-value", at: value.location,
                    "'links.unlinked' must be open, fallback or error, not '\(value.value)'")
            }
        }
        if let n = fields["pendingExpiry"], let seconds = integer(n, path: "links.pendingExpiry") {
            if seconds.value > 0 {
                draft.pendingExpiry = seconds
            } else {
                report(
                    "invalid-value", at: seconds.location,
                    "'links.pendingExpiry' must be a positive number of seconds, such as 600")
            }
        }
    }

    private mutating func decodeTypes(_ node: ConfigNode) -> [TypeDraft] {
        var types: [TypeDraft] = []
        for entry in entries(of: node, path: "types", expected: "a mapping of enum names to their cases") {
            let name = Located(value: entry.key.text ?? "", location: entry.key.location)
            let path = "types.\(name.value)"
            if !isIdentifier(name.value) || ParameterType.builtInNames.contains(name.value) {
                report(
                    "invalid-name", at: name.location,
                    "'\(name.value)' cannot name a type; expected a Swift type name such as 'Sort' "
                        + "(not String, Int, Double, Bool or UUID)")
                continue
            }
            let cases = stringList(entry.value, path: path)
            var seen: Set<String> = []
            var valid: [Located<String>] = []
            for c in cases {
                if !isIdentifier(c.value) {
                    report(
                        "invalid-name", at: c.location,
                        "'\(c.value)' cannot name an enum case; expected a name such as 'price'")
                } else if !seen.insert(c.value).inserted {
                    report("duplicate-case", at: c.location, "case '\(c.value)' of '\(name.value)' is listed twice")
                } else {
                    valid.append(c)
                }
            }
            if cases.isEmpty, case .sequence = entry.value.content {
                report(
                    "invalid-value", at: entry.value.location, "'\(path)' needs at least one case, e.g. [price, rating]"
                )
            }
            types.append(TypeDraft(name: name, cases: valid))
        }
        return types
    }

    private mutating func decodeCategories(_ node: ConfigNode) -> [CategoryDraft] {
        var categories: [CategoryDraft] = []
        for entry in entries(of: node, path: "categories", expected: "a mapping of categories to pages") {
            let name = Located(value: entry.key.text ?? "", location: entry.key.location)
            if name.value.isEmpty {
                report("invalid-name", at: name.location, "a category name cannot be empty")
                continue
            }
            categories.append(
                CategoryDraft(name: name, expression: expression(entry.value, path: "categories.\(name.value)")))
        }
        return categories
    }

    // MARK: Helpers

    mutating func report(_ code: String, at location: SourceLocation, _ message: String) {
        findings.append(.error(code, at: location, message))
    }

    /// The entries of a mapping without repeated keys (the reader reports those), or none (reported) when
    /// `node` is not a mapping.
    mutating func entries(of node: ConfigNode, path: String, expected: String) -> [ConfigNode.Entry] {
        if node.isReported { return [] }
        if case .mapping(let entries) = node.content {
            var seen: Set<String> = []
            return entries.filter { !$0.key.isReported && seen.insert($0.key.text ?? "").inserted }
        }
        report("wrong-type", at: node.location, "expected \(expected) for '\(path)', found \(node.kindDescription)")
        return []
    }

    /// The mapping's values by key: unknown keys and missing required keys are reported; a repeated key keeps
    /// its first value (the repeat is reported as `duplicate-key` by the reader).
    mutating func fields(
        of node: ConfigNode, path: String, allowed: [String], required: [String], what: String
    ) -> [String: ConfigNode]? {
        if node.isReported { return nil }
        guard case .mapping(let entries) = node.content else {
            report(
                "wrong-type", at: node.location,
                "expected a mapping with keys \(allowed.joined(separator: ", ")) for \(what), "
                    + "found \(node.kindDescription)")
            return nil
        }
        var fields: [String: ConfigNode] = [:]
        for entry in entries where !entry.key.isReported {
            let key = entry.key.text ?? ""
            guard allowed.contains(key) else {
                var message = "unknown key '\(key)' in \(what); expected one of \(allowed.joined(separator: ", "))"
                if let guess = ConfigDecoder.closest(to: key, in: allowed) { message += " (did you mean '\(guess)'?)" }
                report("unknown-key", at: entry.key.location, message)
                continue
            }
            if fields[key] == nil { fields[key] = entry.value }
        }
        for key in required where fields[key] == nil {
            report("missing-key", at: node.location, "missing key '\(key)' in \(what)")
        }
        return fields
    }

    /// A string scalar; null, numbers, Booleans, lists and mappings are reported.
    mutating func string(_ node: ConfigNode, path: String) -> Located<String>? {
        if node.isReported { return nil }
        switch node.scalarValue {
        case .string(let s) where !s.isEmpty:
            return Located(value: s, location: node.textLocation)
        case .string:
            report("wrong-type", at: node.location, "expected a non-empty string for '\(path)', found an empty string")
        default:
            report(
                "wrong-type", at: node.location,
                "expected a string for '\(path)', found \(node.kindDescription)\(quoteHint(node))")
        }
        return nil
    }

    /// One string or a list of strings (`provides: session` and `provides: [session]` alike).
    mutating func stringList(_ node: ConfigNode, path: String) -> [Located<String>] {
        if node.isReported { return [] }
        switch node.content {
        case .sequence(let items):
            return items.compactMap { string($0, path: path) }
        case .scalar:
            return string(node, path: path).map { [$0] } ?? []
        case .mapping:
            report(
                "wrong-type", at: node.location, "expected a string or a list of strings for '\(path)', found a mapping"
            )
            return []
        }
    }

    /// An integer scalar; a quoted number is a string and is reported.
    mutating func integer(_ node: ConfigNode, path: String) -> Located<Int>? {
        if node.isReported { return nil }
        guard case .int(let i) = node.scalarValue else {
            report("wrong-type", at: node.location, "expected an integer for '\(path)', found \(node.kindDescription)")
            return nil
        }
        return Located(value: i, location: node.location)
    }

    /// A page expression such as `account.order(id: $orderId)`.
    mutating func expression(_ node: ConfigNode, path: String) -> ExpressionDraft? {
        guard let text = string(node, path: path) else { return nil }
        do {
            return ExpressionDraft(expression: try PageExpression.parse(text.value), location: text.location)
        } catch {
            report(
                "invalid-expression", at: text.location,
                "invalid page expression '\(text.value)' for '\(path)': \(error.reason)")
            return nil
        }
    }

    private func quoteHint(_ node: ConfigNode) -> String {
        switch node.scalarValue {
        case .int, .bool: return "; put it in quotes to use it as text"
        default: return ""
        }
    }

    /// The allowed key closest to a misspelt one, when it is close enough to be a likely typo.
    static func closest(to key: String, in allowed: [String]) -> String? {
        NameSuggestion.closest(to: key, in: allowed)
    }
}
