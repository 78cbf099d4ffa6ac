import JSON

/// The FCM legacy format: `to`, `registration_ids`, `condition`, `notification` or `data`, when nothing more telling
/// fits.
enum FCMLegacyFormat: PayloadFormatReader {
    static let format = PayloadFormat.fcmLegacy
    static let displayName = "FCM legacy"
    static let hasSizeLimit = true
    static let expected: String? = "'to', 'registration_ids', 'data' or 'notification'"
    static let misfit = "it has none of 'to', 'registration_ids', 'condition', 'notification', 'data'"

    /// The keys of a legacy request; other formats have them too, so detection tries them late.
    static let legacyKeys = ["to", "registration_ids", "condition", "notification", "data"]

    static func detects<V: JSONReadable>(_ object: V, at stage: PayloadDetectionStage) -> Bool {
        stage == .fallback && legacyKeys.contains { object[$0] != nil }
    }

    static func fits<V: JSONReadable>(_ object: V) -> Bool {
        legacyKeys.contains(where: { object[$0] != nil })
    }

    static func read<V: JSONReadable>(
        _ root: V, by reader: PayloadReader, into collector: inout PayloadCollector
    ) throws(PayloadError) -> PayloadReading.Presentation {
        try reader.readFCMLegacy(root, into: &collector)
    }

    static func linkFields<V: JSONReadable>(_ root: V, by reader: PayloadReader) -> [String] {
        reader.fcmLegacyFields()
    }
}

/// The Firebase Cloud Messaging legacy HTTP API: `{"to": …, "notification": {…}, "data": {…}}`.
///
/// Candidates, in priority order: `data.<key>` for each configured link key, `notification.click_action`, then
/// `data.click_action`; category `$key` arguments read the `data` keys. What it shows: a `notification` with a title,
/// a body or a localization key; without one, nothing to tap.
extension PayloadReader {
    /// Reads an FCM legacy HTTP request.
    func readFCMLegacy<V: JSONReadable>(
        _ root: V, into collector: inout PayloadCollector
    ) throws(PayloadError) -> PayloadReading.Presentation {
        let data = try readDataLinks(root, format: .fcmLegacy, into: &collector)
        func lookup(_ key: String) -> JSON? { data?[key]?.json }
        var shown = false
        if let notification = try member(root, "notification", of: "") {
            if let action = notification["click_action"] {
                try appendLink(
                    action, field: "notification.click_action", format: .fcmLegacy, keyParent: "data",
                    lookup: lookup, into: &collector)
            }
            shown =
                hasText(notification)
                || ["title_loc_key", "body_loc_key"].contains(where: { notification[$0] != nil })
        }
        if let action = data?["click_action"] {
            try appendLink(
                action, field: "data.click_action", format: .fcmLegacy, keyParent: "data", lookup: lookup,
                into: &collector)
        }
        if shown { return .shown(field: "notification") }
        if root["content_available"]?.boolValue == true { return .hidden(field: "content_available") }
        return .hidden(field: data == nil ? "$" : "data")
    }

    /// The fields an FCM legacy request is searched for links, in order.
    func fcmLegacyFields() -> [String] {
        fields.data.map(\.field) + ["notification.click_action", "data.click_action"]
    }
}
