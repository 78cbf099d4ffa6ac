import JSON

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
