import JSON

/// The Expo format: `to` naming an Expo push token, or `to` beside Expo's own top-level keys.
enum ExpoFormat: PayloadFormatReader {
    static let format = PayloadFormat.expo
    static let displayName = "Expo"
    static let hasSizeLimit = true
    static let expected: String? = "'to' with an Expo push token"
    static let misfit = "it has no 'to', 'title', 'body' or 'data'"

    /// The top-level keys of an Expo message that other formats' `to`-addressed messages do not have.
    static let expoKeys = [
        "title", "body", "subtitle", "sound", "badge", "channelId", "categoryId", "_contentAvailable",
        "mutableContent", "richContent", "interruptionLevel", "expiration", "ttl",
    ]

    /// An Expo push message: `to` holds an Expo push token, or sits beside Expo's top-level keys.
    static func detects<V: JSONReadable>(_ object: V, at stage: PayloadDetectionStage) -> Bool {
        guard stage == .shape, let to = object["to"], object["notification"] == nil,
            object["registration_ids"] == nil
        else {
            return false
        }
        var first = to.stringValue
        if first == nil, let elements = to.elements {
            for element in elements {
                first = element.stringValue
                break
            }
        }
        if let first, first.hasPrefix("ExponentPushToken[") || first.hasPrefix("ExpoPushToken[") { return true }
        return expoKeys.contains { object[$0] != nil }
    }

    static func fits<V: JSONReadable>(_ object: V) -> Bool {
        object["to"] != nil || object["title"] != nil || object["body"] != nil || object["data"] != nil
    }

    static func read<V: JSONReadable>(
        _ root: V, by reader: PayloadReader, into collector: inout PayloadCollector
    ) throws(PayloadError) -> PayloadReading.Presentation {
        try reader.readExpo(root, into: &collector)
    }

    static func linkFields<V: JSONReadable>(_ root: V, by reader: PayloadReader) -> [String] {
        reader.expoFields()
    }
}

/// Expo push messages (`{"to": …, "title": …, "body": …, "data": {…}, "categoryId": …}`), as Expo's push service
/// takes them.
extension PayloadReader {
    /// Reads an Expo push message.
    ///
    /// Candidates, in priority order: `data.<key>` for each configured link key (Expo Router apps send
    /// `data.url`), then `categoryId` looked up in the categories. What it shows: a `title`, `subtitle` or `body`;
    /// without one (`_contentAvailable` for a background update), nothing to tap.
    func readExpo<V: JSONReadable>(
        _ root: V, into collector: inout PayloadCollector
    ) throws(PayloadError) -> PayloadReading.Presentation {
        let data = try readDataLinks(root, format: .expo, into: &collector)
        func lookup(_ key: String) -> JSON? { data?[key]?.json }
        if let category = root["categoryId"] {
            let name = try PayloadPath.string(category, "categoryId")
            appendIdentifier(
                name, field: "categoryId", format: .expo, keyParent: "data", lookup: lookup, into: &collector)
        }
        if hasText(root) || root["subtitle"]?.stringValue?.isEmpty == false {
            return .shown(field: root["title"] != nil ? "title" : (root["body"] != nil ? "body" : "subtitle"))
        }
        if root["_contentAvailable"] != nil { return .hidden(field: "_contentAvailable") }
        return .hidden(field: data != nil ? "data" : "$")
    }

    /// The fields an Expo message is searched for links, in order.
    func expoFields() -> [String] {
        fields.data.map(\.field) + ["categoryId"]
    }
}
