import JSON

/// Firebase Cloud Messaging: HTTP v1 (`{"message": {...}}`) and the legacy HTTP API.
///
/// HTTP v1 candidates, in priority order: `message.data.<key>` for each configured link key, then
/// `message.webpush.fcm_options.link`, then `message.android.notification.click_action`, then whatever the APNs
/// payload in `message.apns.payload` yields (read with the APNs rules). Every `data` value must be a string, as FCM
/// requires. Legacy candidates: `data.<key>`, then `notification.click_action`. A `click_action` that names a
/// mapped category becomes that page; otherwise it is a link. Category `$key` arguments read the `data` keys.
extension PayloadReader {
    /// Reads an FCM HTTP v1 request.
    func readFCM<V: JSONReadable>(_ root: V, into collector: inout PayloadCollector) throws(PayloadError) {
        guard let messageValue = root["message"] else {
            throw PayloadError(.formatMismatch, path: "", reason: "an FCM HTTP v1 request needs a 'message' object")
        }
        let message = try PayloadPath.object(messageValue, "message")
        var data: V? = nil
        if let value = message["data"] {
            let object = try PayloadPath.object(value, "message.data")
            data = object
            for (key, item) in object.keyedMembers {
                guard item.isString else {
                    throw PayloadError(
                        .wrongType, path: PayloadPath.child("message.data", key.string),
                        reason: "FCM data values must be strings; found \(item.kindName)")
                }
            }
            for (key, field) in fields.fcmData {
                if let link = object[key] { try appendLink(link, field: field, format: .fcm, into: &collector) }
            }
        }
        if let webpush = try member(message, "webpush", of: "message"),
            let fcmOptions = try member(webpush, "fcm_options", of: "message.webpush"),
            let link = fcmOptions["link"]
        {
            try appendLink(link, field: "message.webpush.fcm_options.link", format: .fcm, into: &collector)
        }
        if let android = try member(message, "android", of: "message"),
            let notification = try member(android, "notification", of: "message.android"),
            let action = notification["click_action"]
        {
            try appendClickAction(
                action, field: "message.android.notification.click_action", format: .fcm, data: data,
                dataPath: "message.data", into: &collector)
        }
        if let apns = try member(message, "apns", of: "message"), let payload = apns["payload"] {
            let object = try PayloadPath.object(payload, fields.fcmAPNs.parent)
            try readAPNs(object, fields: fields.fcmAPNs, format: .fcm, into: &collector)
        }
    }

    /// Reads an FCM legacy HTTP request.
    func readFCMLegacy<V: JSONReadable>(_ root: V, into collector: inout PayloadCollector) throws(PayloadError) {
        var data: V? = nil
        if let value = root["data"] {
            let object = try PayloadPath.object(value, "data")
            data = object
            for (key, field) in fields.legacyData {
                if let link = object[key] { try appendLink(link, field: field, format: .fcmLegacy, into: &collector) }
            }
        }
        if let notification = try member(root, "notification", of: ""), let action = notification["click_action"] {
            try appendClickAction(
                action, field: "notification.click_action", format: .fcmLegacy, data: data, dataPath: "data",
                into: &collector)
        }
    }

    /// A `click_action`: the mapped category's page, else a link.
    func appendClickAction<V: JSONReadable>(
        _ value: V, field: String, format: PayloadFormat, data: V?, dataPath: String,
        into collector: inout PayloadCollector
    ) throws(PayloadError) {
        if let action = value.stringValue,
            appendCategory(
                action, field: field, format: format, keyParent: dataPath, lookup: { data?[$0]?.json },
                into: &collector)
        {
            return
        }
        try appendLink(value, field: field, format: format, into: &collector)
    }

    /// The object under `key`, `nil` when absent or null, or a `wrongType` error.
    func member<V: JSONReadable>(_ object: V, _ key: String, of parent: String) throws(PayloadError) -> V? {
        guard let value = object[key], !value.isNull else { return nil }
        return try PayloadPath.object(value, PayloadPath.child(parent, key))
    }

    /// The fields an FCM HTTP v1 request is searched for links, in order.
    func fcmFields<V: JSONReadable>(_ root: V) -> [String] {
        let message = root["message"]
        var fields = self.fields.fcmData.map(\.field)
        fields.append("message.webpush.fcm_options.link")
        fields.append("message.android.notification.click_action")
        if let payload = message?["apns"]?["payload"], payload.isObject {
            fields += apnsFields(payload, fields: self.fields.fcmAPNs)
        } else {
            fields.append("message.apns.payload")
        }
        return fields
    }

    /// The fields an FCM legacy request is searched for links, in order.
    func fcmLegacyFields() -> [String] {
        fields.legacyData.map(\.field) + ["notification.click_action"]
    }
}
