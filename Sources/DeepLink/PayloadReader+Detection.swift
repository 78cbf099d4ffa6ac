import JSON

/// Which format a payload object is, from its shape.
extension PayloadReader {
    /// The format an object's shape shows, first match wins:
    ///
    /// 1. `aps` → APNs;
    /// 2. a `message` object → FCM (HTTP v1);
    /// 3. `web_push` (declarative Web Push) → Web Push;
    /// 4. `to` naming an Expo push token, or `to` beside Expo's top-level `title`, `body`, `sound`, `badge`, … → Expo;
    /// 5. `token` (`tokens` for a multicast), `topic` or `condition` beside `notification`, `data`, `android`, `apns`, `webpush` or
    ///    `fcmOptions`, and none of the legacy API's keys → FCM (the message as the Admin SDKs take it);
    /// 6. a `topic` string, an ntfy `event` with `id` and `time`, or ntfy's own keys (`click`, `actions`, `tags`,
    ///    `attach`, …) → ntfy;
    /// 7. a `notification` object holding Web Notification options FCM does not have (`data`, `actions`,
    ///    `vibrate`, `requireInteraction`, `navigate`, …), or a top-level `title` → Web Push;
    /// 8. `extras` → Gotify;
    /// 9. `to`, `registration_ids`, `condition`, `notification` or `data` → FCM legacy;
    /// 10. a `message` string → Gotify.
    public static func detectFormat(_ object: JSONObject) -> PayloadFormat? {
        detectFormat(JSON.object(object))
    }

    /// The format an object's shape shows; see ``detectFormat(_:)-(JSONObject)``.
    static func detectFormat<V: JSONReadable>(_ object: V) -> PayloadFormat? {
        if object["aps"] != nil { return .apns }
        let message = object["message"]
        if message?.isObject == true { return .fcm }
        if object["web_push"] != nil { return .webpush }
        if isExpo(object) { return .expo }
        if isAdminMessage(object) { return .fcm }
        if isNtfy(object) { return .ntfy }
        if isWebPush(object) { return .webpush }
        if object["extras"] != nil { return .gotify }
        for key in legacyKeys where object[key] != nil { return .fcmLegacy }
        if message?.stringValue != nil { return .gotify }
        return nil
    }

    static let legacyKeys = ["to", "registration_ids", "condition", "notification", "data"]
    /// Keys only the legacy API has: a message with one of them is not the Admin SDK's.
    static let legacyOnlyKeys = [
        "to", "registration_ids", "priority", "content_available", "mutable_content", "time_to_live",
        "collapse_key", "dry_run", "restricted_package_name",
    ]
    static let adminTargets = ["token", "tokens", "topic", "condition"]
    static let adminMembers = ["notification", "data", "android", "apns", "webpush", "fcmOptions", "fcm_options"]
    static let ntfyKeys = [
        "click", "actions", "tags", "attach", "icon", "markdown", "delay", "email", "call", "filename",
    ]
    static let ntfyEvents: Set<String> = [
        "message", "open", "keepalive", "poll_request", "message_delete", "message_clear",
    ]
    static let expoKeys = [
        "title", "body", "subtitle", "sound", "badge", "channelId", "categoryId", "_contentAvailable",
        "mutableContent", "richContent", "interruptionLevel", "expiration", "ttl",
    ]
    /// Web Notification options (and Angular's `onActionClick` under `data`) that an FCM `notification` never has.
    static let webNotificationKeys = [
        "data", "actions", "vibrate", "requireInteraction", "renotify", "silent", "dir", "lang", "timestamp",
        "navigate", "app_badge",
    ]

    /// An Expo push message: `to` holds an Expo push token, or sits beside Expo's top-level keys.
    static func isExpo<V: JSONReadable>(_ object: V) -> Bool {
        guard let to = object["to"], object["notification"] == nil, object["registration_ids"] == nil else {
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

    /// An FCM message as the Admin SDKs take it: a target beside a message member, and no legacy-only key.
    static func isAdminMessage<V: JSONReadable>(_ object: V) -> Bool {
        adminTargets.contains { object[$0] != nil } && adminMembers.contains { object[$0] != nil }
            && !legacyOnlyKeys.contains { object[$0] != nil }
    }

    /// An ntfy message: a `topic`, an ntfy event, or ntfy's own keys (topic-less JSON as client libraries send it).
    static func isNtfy<V: JSONReadable>(_ object: V) -> Bool {
        if object["topic"]?.stringValue != nil { return true }
        if let event = object["event"]?.stringValue, ntfyEvents.contains(event), object["id"] != nil,
            object["time"] != nil
        {
            return true
        }
        return object["extras"] == nil && ntfyKeys.contains { object[$0] != nil }
    }

    /// A Web Push payload: Web Notification options under `notification`, or a top-level `title`.
    static func isWebPush<V: JSONReadable>(_ object: V) -> Bool {
        if let notification = object["notification"], notification.isObject {
            return webNotificationKeys.contains { notification[$0] != nil }
        }
        return object["title"]?.isString == true && object["message"] == nil && object["extras"] == nil
    }

    /// The format to read `object` as: the forced one if it fits, else the detected one.
    static func format<V: JSONReadable>(of object: V, forced: PayloadFormat?) throws(PayloadError) -> PayloadFormat {
        let detected = detectFormat(object)
        guard let forced else {
            guard let detected else {
                throw PayloadError(
                    .unknownFormat, path: "",
                    reason: "not a known payload format: expected 'aps' (APNs), a 'message' object or 'token', "
                        + "'topic' or 'condition' with 'notification' or 'data' (FCM), 'to', 'registration_ids', "
                        + "'data' or 'notification' (FCM legacy), 'topic', 'click' or 'actions' (ntfy), 'extras' or "
                        + "a 'message' string (Gotify), 'title' or Web Notification options under 'notification' "
                        + "(Web Push), or 'to' with an Expo push token (Expo)")
            }
            return detected
        }
        if detected == forced { return forced }
        let missing: String
        switch forced {
        case .apns:
            if object["aps"] == nil { missing = "it has no 'aps' dictionary" } else { return forced }
        case .fcm:
            if object["message"]?.isObject == true || adminMembers.contains(where: { object[$0] != nil }) {
                return forced
            }
            missing = "it has no 'message' object and none of 'notification', 'data', 'android', 'apns', 'webpush'"
        case .fcmLegacy:
            if legacyKeys.contains(where: { object[$0] != nil }) { return forced }
            missing = "it has none of 'to', 'registration_ids', 'condition', 'notification', 'data'"
        case .ntfy:
            if object["topic"]?.stringValue != nil || object["message"]?.stringValue != nil
                || ntfyKeys.contains(where: { object[$0] != nil })
            {
                return forced
            }
            missing = "it has no 'topic', 'message', 'click' or 'actions'"
        case .gotify:
            if object["message"]?.stringValue != nil { return forced }
            if object["extras"] != nil { return forced }
            missing = "it has no 'message' string and no 'extras'"
        case .webpush:
            if object["notification"]?.isObject == true || object["title"] != nil || object["body"] != nil
                || object["data"] != nil || object["web_push"] != nil
            {
                return forced
            }
            missing = "it has no 'notification', 'title', 'body' or 'data'"
        case .expo:
            if object["to"] != nil || object["title"] != nil || object["body"] != nil || object["data"] != nil {
                return forced
            }
            missing = "it has no 'to', 'title', 'body' or 'data'"
        case .link:
            missing = "it is an object, not a link"
        }
        let looks = detected.map { "; it looks like \($0.displayName) (\($0.rawValue))" } ?? ""
        throw PayloadError(
            .formatMismatch, path: "",
            reason: "the payload is not \(forced.displayName) (\(forced.rawValue)): \(missing)\(looks)")
    }
}
