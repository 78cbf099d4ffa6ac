import JSON

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
