import JSON

/// The ntfy format: a `topic` string, an ntfy event, or ntfy's own keys.
enum NtfyFormat: PayloadFormatReader {
    static let format = PayloadFormat.ntfy
    static let displayName = "ntfy"
    static let hasSizeLimit = false
    static let expected: String? = "'topic', 'click' or 'actions'"
    static let misfit = "it has no 'topic', 'message', 'click' or 'actions'"

    /// The keys of a publish request that only ntfy has.
    static let ntfyKeys = [
        "click", "actions", "tags", "attach", "icon", "markdown", "delay", "email", "call", "filename",
    ]
    /// The `event` values of a message as subscribers receive it.
    static let ntfyEvents: Set<String> = [
        "message", "open", "keepalive", "poll_request", "message_delete", "message_clear",
    ]

    /// An ntfy message: a `topic`, an ntfy event, or ntfy's own keys (topic-less JSON as client libraries send it).
    static func detects<V: JSONReadable>(_ object: V, at stage: PayloadDetectionStage) -> Bool {
        guard stage == .shape else { return false }
        if object["topic"]?.stringValue != nil { return true }
        if let event = object["event"]?.stringValue, ntfyEvents.contains(event), object["id"] != nil,
            object["time"] != nil
        {
            return true
        }
        return object["extras"] == nil && ntfyKeys.contains { object[$0] != nil }
    }

    static func fits<V: JSONReadable>(_ object: V) -> Bool {
        object["topic"]?.stringValue != nil || object["message"]?.stringValue != nil
            || ntfyKeys.contains(where: { object[$0] != nil })
    }

    static func read<V: JSONReadable>(
        _ root: V, by reader: PayloadReader, into collector: inout PayloadCollector
    ) throws(PayloadError) -> PayloadReading.Presentation {
        try reader.readNtfy(root, into: &collector)
    }

    static func linkFields<V: JSONReadable>(_ root: V, by reader: PayloadReader) -> [String] {
        ["click", "actions[].url (view actions)"]
    }
}

/// ntfy messages: a JSON publish request (`{"topic": …, "message": …, "click": …, "actions": […]}`, the topic left
/// out by client libraries that post to the topic's URL), or a message as subscribers receive it (`id`, `time`,
/// `event`, …).
///
/// Candidates, in priority order: `click`, then the `url` of each `view` action in `actions`, in order. What it
/// shows: ntfy always shows a message (it writes "triggered" for an empty one); an `event` other than `message`
/// (`open`, `keepalive`, `poll_request`, …) is a control message that never navigates.
extension PayloadReader {
    /// Reads an ntfy message.
    func readNtfy<V: JSONReadable>(
        _ root: V, into collector: inout PayloadCollector
    ) throws(PayloadError) -> PayloadReading.Presentation {
        if let click = root["click"] {
            try appendLink(click, field: "click", format: .ntfy, into: &collector)
        }
        if let actionsValue = root["actions"], !actionsValue.isNull {
            try readNtfyActions(actionsValue, into: &collector)
        }
        if let event = root["event"] {
            let name = try PayloadPath.string(event, "event")
            if name != "message" {
                return .nonNavigating(
                    field: "event", reason: "an ntfy '\(name)' event (event) is a control message; it opens nothing")
            }
        }
        for key in ["message", "title", "attach", "attachment"] where root[key] != nil { return .shown(field: key) }
        return .shown(field: root["topic"] != nil ? "topic" : "$")
    }

    /// Reads `actions`: the `url` of each `view` action is a candidate.
    func readNtfyActions<V: JSONReadable>(
        _ actionsValue: V, into collector: inout PayloadCollector
    ) throws(PayloadError) {
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
