import JSON

/// Web Push: what a service worker receives and shows, as W3C notification options (`title`, `body`, `data`,
/// `actions`, …) at the top level or under `notification` (Angular's service worker; declarative Web Push, whose
/// `notification.navigate` is the page to open).
///
/// Candidates, in priority order: `notification.navigate` (declarative Web Push as Safari ships it),
/// `notification.url` (the Push API draft's declarative message), `default_action_url` (WebKit's explainer),
/// `notification.data.onActionClick.default.url` (Angular: when its operation opens or navigates a window),
/// `notification.data.<key>`, `data.<key>`, then `<key>` at the top level, for each configured link key. What it
/// shows: a `title` or `body`; without one, nothing to tap.
extension PayloadReader {
    /// Reads a Web Push payload.
    func readWebPush<V: JSONReadable>(
        _ root: V, into collector: inout PayloadCollector
    ) throws(PayloadError) -> PayloadReading.Presentation {
        var shown: String? = nil
        let notification = try member(root, "notification", of: "")
        if let notification {
            if let navigate = notification["navigate"] {
                try appendLink(navigate, field: "notification.navigate", format: .webpush, into: &collector)
            }
            if let url = notification["url"] {
                try appendLink(url, field: "notification.url", format: .webpush, into: &collector)
            }
        }
        if let url = root["default_action_url"] {
            try appendLink(url, field: "default_action_url", format: .webpush, into: &collector)
        }
        if let notification {
            if let data = notification["data"], data.isObject {
                if let handlers = data["onActionClick"] {
                    try readOnActionClick(handlers, into: &collector)
                }
                try appendLinks(
                    fields.notificationData, in: data, format: .webpush, keyParent: "notification.data",
                    lookup: { data[$0]?.json }, into: &collector)
            }
            if hasText(notification) { shown = "notification" }
        }
        if let data = root["data"], data.isObject {
            try appendLinks(
                fields.data, in: data, format: .webpush, keyParent: "data", lookup: { data[$0]?.json },
                into: &collector)
        }
        try appendLinks(
            fields.root, in: root, format: .webpush, keyParent: "", lookup: { root[$0]?.json }, into: &collector)
        if shown == nil, hasText(root) { shown = root["title"] != nil ? "title" : "body" }
        if let shown { return .shown(field: shown) }
        return .hidden(field: root["data"] != nil ? "data" : "$")
    }

    /// Angular's `onActionClick.default`: its `url` is a candidate when its `operation` opens or navigates a window
    /// (`openWindow`, `focusLastFocusedOrOpen`, `navigateLastFocusedOrOpen`); `sendRequest` only requests it.
    func readOnActionClick<V: JSONReadable>(_ handlers: V, into collector: inout PayloadCollector) throws(PayloadError)
    {
        let path = "notification.data.onActionClick"
        guard let handler = try member(handlers, "default", of: path) else { return }
        let operation = try handler["operation"].map { (value) throws(PayloadError) in
            try PayloadPath.string(value, path + ".default.operation")
        }
        switch operation {
        case "openWindow", "focusLastFocusedOrOpen", "navigateLastFocusedOrOpen":
            if let url = handler["url"] {
                try appendLink(url, field: path + ".default.url", format: .webpush, into: &collector)
            }
        case "sendRequest":
            collector.notes.append("\(path).default sends a request to its url; it opens nothing")
        case .some(let other):
            collector.warnings.append(
                PayloadWarning(
                    path: path + ".default.operation",
                    message: "unknown operation '\(other)' (Angular knows openWindow, focusLastFocusedOrOpen, "
                        + "navigateLastFocusedOrOpen and sendRequest); ignored"))
        case nil:
            break  // the default focuses an open window: no page
        }
    }

    /// The fields a Web Push payload is searched for links, in order.
    func webPushFields() -> [String] {
        [
            "notification.navigate", "notification.url", "default_action_url",
            "notification.data.onActionClick.default.url",
        ]
            + fields.notificationData.map(\.field)
            + fields.data.map(\.field) + fields.root.map(\.field)
    }
}
