import JSON

/// The Web Push format: `web_push` (declarative Web Push), Web Notification options under `notification`, or a
/// top-level `title`.
enum WebPushFormat: PayloadFormatReader {
    static let format = PayloadFormat.webpush
    static let displayName = "Web Push"
    static let hasSizeLimit = true
    static let expected: String? = "'title' or Web Notification options under 'notification'"
    static let misfit = "it has no 'notification', 'title', 'body' or 'data'"

    /// Web Notification options (and Angular's `onActionClick` under `data`) that an FCM `notification` never has.
    static let webNotificationKeys = [
        "data", "actions", "vibrate", "requireInteraction", "renotify", "silent", "dir", "lang", "timestamp",
        "navigate", "app_badge",
    ]

    /// `web_push` marks declarative Web Push; the shape is Web Notification options under `notification`, or a
    /// top-level `title`.
    static func detects<V: JSONReadable>(_ object: V, at stage: PayloadDetectionStage) -> Bool {
        switch stage {
        case .marker:
            return object["web_push"] != nil
        case .shape:
            if let notification = object["notification"], notification.isObject {
                return webNotificationKeys.contains { notification[$0] != nil }
            }
            return object["title"]?.isString == true && object["message"] == nil && object["extras"] == nil
        case .fallback:
            return false
        }
    }

    static func fits<V: JSONReadable>(_ object: V) -> Bool {
        object["notification"]?.isObject == true || object["title"] != nil || object["body"] != nil
            || object["data"] != nil || object["web_push"] != nil
    }

    static func read<V: JSONReadable>(
        _ root: V, by reader: PayloadReader, into collector: inout PayloadCollector
    ) throws(PayloadError) -> PayloadReading.Presentation {
        try reader.readWebPush(root, into: &collector)
    }

    static func linkFields<V: JSONReadable>(_ root: V, by reader: PayloadReader) -> [String] {
        reader.webPushFields()
    }
}

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
