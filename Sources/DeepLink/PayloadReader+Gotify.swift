import JSON

/// The Gotify format: `extras`, or failing all else a `message` string.
enum GotifyFormat: PayloadFormatReader {
    static let format = PayloadFormat.gotify
    static let displayName = "Gotify"
    static let hasSizeLimit = false
    static let expected: String? = "'extras' or a 'message' string"
    static let misfit = "it has no 'message' string and no 'extras'"

    /// `extras` is Gotify's shape; a `message` string alone is the last thing detection tries, as ntfy messages
    /// have one too.
    static func detects<V: JSONReadable>(_ object: V, at stage: PayloadDetectionStage) -> Bool {
        switch stage {
        case .marker: return false
        case .shape: return object["extras"] != nil
        case .fallback: return object["message"]?.stringValue != nil
        }
    }

    static func fits<V: JSONReadable>(_ object: V) -> Bool {
        object["message"]?.stringValue != nil || object["extras"] != nil
    }

    static func read<V: JSONReadable>(
        _ root: V, by reader: PayloadReader, into collector: inout PayloadCollector
    ) throws(PayloadError) -> PayloadReading.Presentation {
        try reader.readGotify(root, into: &collector)
    }

    static func linkFields<V: JSONReadable>(_ root: V, by reader: PayloadReader) -> [String] {
        reader.gotifyFields()
    }
}

/// Gotify messages (`{"message": …, "title": …, "priority": …, "extras": {…}}`).
///
/// Candidates, in priority order: `extras["client::notification"].click.url` (opened when the notification is
/// tapped), then `extras["android::action"].onReceive.intentUrl` (opened as soon as it arrives). A Gotify message
/// is always shown.
extension PayloadReader {
    /// Reads a Gotify message.
    func readGotify<V: JSONReadable>(
        _ root: V, into collector: inout PayloadCollector
    ) throws(PayloadError) -> PayloadReading.Presentation {
        let shown = PayloadReading.Presentation.shown(field: root["message"] != nil ? "message" : "extras")
        if let message = root["message"] { try PayloadPath.checkString(message, "message") }
        guard let extras = try member(root, "extras", of: "") else { return shown }
        let notificationPath = PayloadPath.child("extras", "client::notification")
        if let notification = try member(extras, "client::notification", of: "extras"),
            let click = try member(notification, "click", of: notificationPath),
            let url = click["url"]
        {
            try appendLink(url, field: notificationPath + ".click.url", format: .gotify, into: &collector)
        }
        let actionPath = PayloadPath.child("extras", "android::action")
        if let action = try member(extras, "android::action", of: "extras"),
            let onReceive = try member(action, "onReceive", of: actionPath),
            let url = onReceive["intentUrl"]
        {
            try appendLink(url, field: actionPath + ".onReceive.intentUrl", format: .gotify, into: &collector)
        }
        return shown
    }

    /// The fields a Gotify message is searched for links, in order.
    func gotifyFields() -> [String] {
        [
            PayloadPath.child("extras", "client::notification") + ".click.url",
            PayloadPath.child("extras", "android::action") + ".onReceive.intentUrl",
        ]
    }
}
