import JSON

/// The FCM format: a `message` object (HTTP v1), or the message alone as the Admin SDKs take it.
enum FCMFormat: PayloadFormatReader {
    static let format = PayloadFormat.fcm
    static let displayName = "FCM"
    static let hasSizeLimit = true
    static let expected: String? = "a 'message' object or 'token', 'topic' or 'condition' with 'notification' or 'data'"
    static let misfit = "it has no 'message' object and none of 'notification', 'data', 'android', 'apns', 'webpush'"

    /// The keys that address an Admin SDK message.
    static let adminTargets = ["token", "tokens", "topic", "condition"]
    /// The members of an Admin SDK message.
    static let adminMembers = ["notification", "data", "android", "apns", "webpush", "fcmOptions", "fcm_options"]
    /// Keys only the legacy API has: a message with one of them is not the Admin SDK's.
    static let legacyOnlyKeys = [
        "to", "registration_ids", "priority", "content_available", "mutable_content", "time_to_live",
        "collapse_key", "dry_run", "restricted_package_name",
    ]

    /// A `message` object marks HTTP v1; the shape is the Admin SDKs' message: a target beside a message member,
    /// and no legacy-only key.
    static func detects<V: JSONReadable>(_ object: V, at stage: PayloadDetectionStage) -> Bool {
        switch stage {
        case .marker:
            return object["message"]?.isObject == true
        case .shape:
            return adminTargets.contains { object[$0] != nil } && adminMembers.contains { object[$0] != nil }
                && !legacyOnlyKeys.contains { object[$0] != nil }
        case .fallback:
            return false
        }
    }

    static func fits<V: JSONReadable>(_ object: V) -> Bool {
        object["message"]?.isObject == true || adminMembers.contains(where: { object[$0] != nil })
    }

    static func read<V: JSONReadable>(
        _ root: V, by reader: PayloadReader, into collector: inout PayloadCollector
    ) throws(PayloadError) -> PayloadReading.Presentation {
        try reader.readFCM(root, into: &collector)
    }

    static func linkFields<V: JSONReadable>(_ root: V, by reader: PayloadReader) -> [String] {
        reader.fcmFields(root)
    }
}

/// Firebase Cloud Messaging: a message as the HTTP v1 API takes it (`{"message": {...}}`) or as the Admin SDKs take
/// it (the message alone: `token`, `topic` or `condition` beside its members).
///
/// Candidates, in priority order: `data.<key>` for each configured link key, `webpush.fcm_options.link`,
/// `webpush.notification.click_action`, `android.notification.click_action`, `data.click_action` (as Flutter apps
/// send it), then whatever the APNs payload in `apns.payload` yields (read with the APNs rules). The Admin SDKs'
/// camel-case names (`fcmOptions`, `clickAction`, and inside `aps` `contentAvailable`, `locKey`, …) are read too.
/// Every `data` value must be a string, as FCM requires. A `click_action` that names a mapped category becomes that
/// page; an intent action no category maps (`FLUTTER_NOTIFICATION_CLICK`) is no link. Category `$key` arguments read
/// the `data` keys.
///
/// What it shows: a `notification` (or `android.notification`, `webpush.notification`) with a title or a body, or
/// an APNs alert; without one, a data-only message has nothing to tap.
extension PayloadReader {
    /// Reads an FCM message in either shape.
    func readFCM<V: JSONReadable>(
        _ root: V, into collector: inout PayloadCollector
    ) throws(PayloadError) -> PayloadReading.Presentation {
        let message: V
        let paths: FCMFields
        let apnsPaths: APNsFields
        if let wrapped = root["message"] {
            message = try PayloadPath.object(wrapped, "message")
            (paths, apnsPaths) = (fields.fcm, fields.fcmAPNs)
        } else {
            (message, paths, apnsPaths) = (root, fields.admin, fields.adminAPNs)
        }
        var data: V? = nil
        if let value = message["data"], !value.isNull {
            let object = try PayloadPath.object(value, paths.data)
            data = object
            for (key, item) in object.keyedMembers {
                guard item.isString else {
                    throw PayloadError(
                        .wrongType, path: PayloadPath.child(paths.data, key.string),
                        reason: "FCM data values must be strings; found \(item.kindName)")
                }
            }
        }
        func lookup(_ key: String) -> JSON? { data?[key]?.json }
        if let data {
            try appendLinks(
                paths.links, in: data, format: .fcm, keyParent: paths.data, lookup: lookup, into: &collector)
        }
        var shown: String? = nil
        if let notification = try member(message, "notification", of: paths.parent), hasText(notification) {
            shown = paths.notification
        }
        let webpush = try member(message, "webpush", of: paths.parent)
        if let webpush {
            let webpushPath = PayloadPath.child(paths.parent, "webpush")
            if let options = try member(webpush, "fcm_options", of: webpushPath), let link = options["link"] {
                try appendLink(
                    link, field: paths.fcmOptionsLink, format: .fcm, keyParent: paths.data, lookup: lookup,
                    into: &collector)
            }
            if let options = try member(webpush, "fcmOptions", of: webpushPath), let link = options["link"] {
                try appendLink(
                    link, field: paths.fcmOptionsLinkCamel, format: .fcm, keyParent: paths.data, lookup: lookup,
                    into: &collector)
            }
            if let notification = try member(webpush, "notification", of: webpushPath) {
                if let action = notification["click_action"] {
                    try appendLink(
                        action, field: paths.webpushClickAction, format: .fcm, keyParent: paths.data, lookup: lookup,
                        into: &collector)
                }
                if shown == nil, hasText(notification) { shown = paths.webpushNotification }
            }
        }
        if let android = try member(message, "android", of: paths.parent),
            let notification = try member(android, "notification", of: PayloadPath.child(paths.parent, "android"))
        {
            if let action = notification["click_action"] {
                try appendLink(
                    action, field: paths.androidClickAction, format: .fcm, keyParent: paths.data, lookup: lookup,
                    into: &collector)
            }
            if let action = notification["clickAction"] {
                try appendLink(
                    action, field: paths.androidClickActionCamel, format: .fcm, keyParent: paths.data,
                    lookup: lookup, into: &collector)
            }
            if shown == nil,
                hasText(notification)
                    || PayloadReader.androidLocalizedKeys.contains(where: {
                        notification[$0] != nil
                    })
            {
                shown = paths.androidNotification
            }
        }
        if let action = data?["click_action"] {
            try appendLink(
                action, field: paths.dataClickAction, format: .fcm, keyParent: paths.data, lookup: lookup,
                into: &collector)
        }
        var apnsShows: PayloadReading.Presentation? = nil
        if let apns = try member(message, "apns", of: paths.parent), let payload = apns["payload"] {
            let object = try PayloadPath.object(payload, apnsPaths.parent)
            apnsShows = try readAPNs(object, fields: apnsPaths, format: .fcm, into: &collector)
        }
        if let shown { return .shown(field: shown) }
        if let apnsShows, !apnsShows.isHidden { return apnsShows }
        return .hidden(field: data == nil ? PayloadPath.shown(paths.parent) : paths.data)
    }

    /// The localization keys that make an Android notification show text without a title or body.
    static let androidLocalizedKeys = ["title_loc_key", "body_loc_key", "titleLocKey", "bodyLocKey"]

    /// The fields an FCM message is searched for links, in order.
    func fcmFields<V: JSONReadable>(_ root: V) -> [String] {
        let wrapped = root["message"] != nil
        let paths = wrapped ? fields.fcm : fields.admin
        let apnsPaths = wrapped ? fields.fcmAPNs : fields.adminAPNs
        var looked = paths.links.map(\.field)
        looked += [paths.fcmOptionsLink, paths.webpushClickAction, paths.androidClickAction, paths.dataClickAction]
        let message = wrapped ? root["message"] : root
        if let payload = message?["apns"]?["payload"], payload.isObject {
            looked += apnsFields(payload, fields: apnsPaths)
        } else {
            looked.append(apnsPaths.parent)
        }
        return looked
    }
}
