import JSON

/// ntfy JSON publishing (`{"topic": …, "message": …, "click": …, "actions": […]}`).
///
/// Candidates, in priority order: `click`, then the `url` of each `view` action in `actions`, in order.
extension PayloadReader {
    /// Reads an ntfy publish request.
    func readNtfy<V: JSONReadable>(_ root: V, into collector: inout PayloadCollector) throws(PayloadError) {
        if let click = root["click"] {
            try appendLink(click, field: "click", format: .ntfy, into: &collector)
        }
        guard let actionsValue = root["actions"], !actionsValue.isNull else { return }
        guard let actions = actionsValue.elements else {
            throw PayloadPath.wrongType("actions", expected: "an array of action objects", found: actionsValue)
        }
        for (index, item) in actions.enumerated() {
            let action = try PayloadPath.object(item, PayloadPath.element("actions", index))
            guard let kindValue = action["action"] else {
                throw PayloadError(
                    .invalidValue, path: PayloadPath.element("actions", index),
                    reason: "an action needs an 'action' type: view, http or broadcast")
            }
            let kind = try PayloadPath.string(kindValue, PayloadPath.element("actions", index) + ".action")
            guard kind == "view" else {
                // ntfy knows view, http and broadcast (matched exactly); anything else is a typo worth telling.
                if kind != "http", kind != "broadcast" {
                    collector.warnings.append(
                        PayloadWarning(
                            path: PayloadPath.element("actions", index) + ".action",
                            message: "unknown action type '\(kind)' (ntfy knows view, http and broadcast); ignored"))
                }
                continue
            }
            guard let url = action["url"] else {
                throw PayloadError(
                    .invalidValue, path: PayloadPath.element("actions", index), reason: "a view action needs a 'url'")
            }
            try appendLink(
                url, field: PayloadPath.element("actions", index) + ".url", format: .ntfy, into: &collector)
        }
    }
}
