import JSON

/// Prints the replies that are not decisions: device state, service info, reload results (stats: ``StatsPrinter``).
///
/// They print from the reply's JSON, so a field the daemon adds later still shows.
public struct ReplyPrinter: Sendable {
    /// Colours, or none.
    public let style: Style

    /// A printer with `style`.
    public init(style: Style) {
        self.style = style
    }

    /// A device's state (`GetState`, `FlowFinished`) as a tree:
    ///
    /// ```
    /// device ipad-7
    /// ├─ path        app › main › cart
    /// ├─ tabs        main → cart
    /// ├─ stacks
    /// │  cart  cart.cart › cart.checkout
    /// ├─ started     app, main, catalog, cart
    /// ├─ conditions  session
    /// └─ pending     none
    /// ```
    public func state(_ state: JSON, device: String) -> String {
        var tree = TreeText(header: "device " + style.bold(clean(device)))
        tree.add("path", list(state["path"], separator: " › "))
        let tabs = state["tabs"]?.objectValue ?? [:]
        tree.add("tabs", tabs.isEmpty ? "none" : tabs.map { clean($0) + " → " + text($1) }.joined(separator: ", "))
        let stacks = state["stacks"]?.objectValue ?? [:]
        if stacks.isEmpty {
            tree.add("stacks", "none")
        } else {
            let width = stacks.keys.map(\.count).max() ?? 0
            let lines = stacks.map { name, pages in
                let names = (pages.arrayValue ?? []).map(pageText).joined(separator: " › ")
                return clean(name) + String(repeating: " ", count: width - name.count + 2) + names
            }
            tree.add("stacks", "", children: lines)
        }
        tree.add("started", list(state["started"], separator: ", "))
        tree.add("conditions", list(state["conditions"], separator: ", "))
        tree.add("pending", pending(state["pending"]))
        return tree.render(style: style)
    }

    /// `org.varlink.service.GetInfo`: product, version, vendor, url, interfaces.
    public func info(_ reply: JSONObject, socketPath: String, store: JSONObject? = nil) -> String {
        let product = reply["product"].map(text) ?? "?"
        let version = reply["version"].map(text) ?? "?"
        var tree = TreeText(header: style.bold(product) + " " + version)
        tree.add("vendor", reply["vendor"].map(text) ?? "?")
        tree.add("url", reply["url"].map(text) ?? "?")
        tree.add("interfaces", list(reply["interfaces"], separator: ", "))
        tree.add("socket", clean(socketPath))
        if let store, let kind = store["kind"]?.stringValue {
            tree.add("store", StatsPrinter.storeSummary(store, kind: kind))
        }
        return tree.render(style: style)
    }

    /// `Reload`: the new generation and any warnings of the config.
    public func reload(_ reply: JSONObject) -> String {
        let generation = reply["generation"].map(text) ?? "?"
        var out = style.good("reloaded") + ": configuration generation " + generation + "\n"
        for warning in reply["warnings"]?.arrayValue ?? [] {
            out += style.warning("warning:") + " " + text(warning) + "\n"
        }
        return out
    }

    // MARK: - Pieces

    func pending(_ json: JSON?) -> String {
        guard let json, let object = json.objectValue else { return "none" }
        var out = pageText(object["page"] ?? .null)
        if let gate = object["gate"]?.stringValue { out += " behind " + clean(gate) }
        if let condition = object["condition"]?.stringValue { out += " (" + clean(condition) + ")" }
        if let expires = object["expiresAt"]?.stringValue { out += " until " + clean(expires) }
        return out
    }

    func pageText(_ page: JSON) -> String {
        clean(page["description"]?.stringValue ?? page["id"]?.stringValue ?? page.serialized)
    }

    func list(_ json: JSON?, separator: String) -> String {
        guard let items = json?.arrayValue, !items.isEmpty else { return "none" }
        return items.map(text).joined(separator: separator)
    }

    /// A value on one line: lists of scalars joined with commas, anything else as its text or compact JSON.
    func scalarText(_ value: JSON) -> String {
        switch value {
        case .array(let items) where items.allSatisfy({ $0.objectValue == nil && $0.arrayValue == nil }):
            return items.isEmpty ? "none" : items.map(text).joined(separator: ", ")
        case .object(let object) where object.isEmpty:
            return "none"
        default:
            return text(value)
        }
    }

    func text(_ value: JSON) -> String {
        clean(value.stringValue ?? value.serialized)
    }

    func clean(_ text: String) -> String { SafeText.clean(text) }
}
