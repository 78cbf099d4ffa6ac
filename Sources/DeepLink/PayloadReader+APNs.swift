import JSON

/// The APNs format: an `aps` member marks it.
enum APNsFormat: PayloadFormatReader {
    static let format = PayloadFormat.apns
    static let displayName = "APNs"
    static let hasSizeLimit = true
    static let expected: String? = "'aps'"
    static let misfit = "it has no 'aps' dictionary"

    static func detects<V: JSONReadable>(_ object: V, at stage: PayloadDetectionStage) -> Bool {
        stage == .marker && object["aps"] != nil
    }

    static func fits<V: JSONReadable>(_ object: V) -> Bool {
        object["aps"] != nil
    }

    static func read<V: JSONReadable>(
        _ root: V, by reader: PayloadReader, into collector: inout PayloadCollector
    ) throws(PayloadError) -> PayloadReading.Presentation {
        try reader.readAPNs(root, fields: reader.fields.apns, format: .apns, into: &collector)
    }

    static func linkFields<V: JSONReadable>(_ root: V, by reader: PayloadReader) -> [String] {
        reader.apnsFields(root, fields: reader.fields.apns)
    }
}

/// APNs: the `aps` dictionary plus custom top-level keys.
///
/// Candidates, in priority order: each configured link key (a path from the top level), the page that
/// `aps.category` maps to, then `aps.target-content-id` (a link, or an identifier looked up in the categories).
/// Every member Apple documents in `aps` and `aps.alert` is type-checked (Live Activity alerts' localized
/// `title`/`subtitle`/`body` objects included); unknown members of `aps`, `aps.alert` and `aps.sound` are reported as
/// warnings (APNs ignores them, so they are usually typos). What the notification shows: an `aps.event` (a Live
/// Activity) or `aps.content-changed` (a widget) never navigates; a non-empty `aps.alert` is shown; anything else
/// (`content-available`, a badge, a sound) has nothing to tap.
extension PayloadReader {
    /// What `checkAPS` found in `aps`.
    struct APSSummary {
        var category: String? = nil
        var targetContentID: String? = nil
        /// A non-empty alert.
        var alert = false
        var event: String? = nil
        var contentChanged = false
        var contentAvailable = false
        var badge = false
        var sound = false
    }

    /// Reads the APNs payload `payload` at the place `fields` describes (the root, or an FCM message's
    /// `apns.payload`), and says what it shows.
    func readAPNs<V: JSONReadable>(
        _ payload: V, fields: APNsFields, format: PayloadFormat, into collector: inout PayloadCollector
    ) throws(PayloadError) -> PayloadReading.Presentation {
        var summary = APSSummary()
        if let aps = payload["aps"] {
            try checkAPS(
                PayloadPath.object(aps, fields.aps), path: fields.aps, camelCase: fields.camelCase, into: &summary,
                warnings: &collector.warnings)
        }
        func lookup(_ key: String) -> JSON? { key == "aps" ? nil : payload[key]?.json }
        try appendLinks(
            fields.links, in: payload, format: format, keyParent: fields.parent, lookup: lookup, into: &collector)
        if let category = summary.category {
            if !appendCategory(
                category, field: fields.category, format: format, keyParent: fields.parent, lookup: lookup,
                into: &collector)
            {
                collector.notes.append("\(fields.category): '\(category)' is not in the category map")
            }
        }
        if let targetContentID = summary.targetContentID {
            try appendLink(
                JSON.string(targetContentID), field: fields.targetContentID, format: format,
                keyParent: fields.parent, lookup: lookup, into: &collector)
        }
        if let event = summary.event {
            return .nonNavigating(
                field: fields.event,
                reason:
                    "a Live Activity \(event) (\(fields.event)) changes the activity where it shows; it opens nothing")
        }
        if summary.contentChanged {
            return .nonNavigating(
                field: fields.contentChanged,
                reason: "a widget update (\(fields.contentChanged)) reloads the widget; it opens nothing")
        }
        if summary.alert { return .shown(field: fields.alert) }
        if summary.contentAvailable { return .hidden(field: fields.contentAvailable) }
        if summary.badge { return .hidden(field: fields.badge) }
        if summary.sound { return .hidden(field: fields.sound) }
        return .hidden(field: fields.aps)
    }

    /// The fields an APNs payload is searched for links, in order, for the no-link error.
    func apnsFields<V: JSONReadable>(_ payload: V, fields: APNsFields) -> [String] {
        fields.links.map(\.field) + [
            categoryField(payload["aps"]?["category"]?.stringValue, path: fields.category), fields.targetContentID,
        ]
    }

    /// A category field for the no-link message, saying when its value is not in the category map.
    func categoryField(_ name: String?, path: String) -> String {
        guard let name, options.categories[name] == nil else { return path }
        return "\(path) ('\(name)' is not in the category map)"
    }

    /// Type-checks the members of `aps` and notes in `summary` what it holds (filled in place: the summary holds
    /// strings, and is not copied out).
    func checkAPS<V: JSONReadable>(
        _ aps: V, path: @autoclosure () -> String, camelCase: Bool, into summary: inout APSSummary,
        warnings: inout [PayloadWarning]
    ) throws(PayloadError) {
        for (key, value) in aps.keyedMembers {
            guard let member = PayloadReader.apsMembers[key] ?? (camelCase ? PayloadReader.apsCamelMembers[key] : nil)
            else {
                warnings.append(unknownKey(key.string, in: path(), known: PayloadReader.apsMembers.names))
                continue
            }
            switch member {
            case .alert:
                if value.isString {
                    summary.alert = !value.isEmptyString
                    continue
                }
                guard value.isObject else {
                    throw PayloadPath.wrongType(
                        PayloadPath.child(path(), key.string), expected: "a string or an object", found: value)
                }
                summary.alert =
                    try checkAlert(
                        value, path: PayloadPath.child(path(), key.string), camelCase: camelCase, warnings: &warnings)
                    || summary.alert
            case .sound:
                try checkSound(value, path: PayloadPath.child(path(), key.string), warnings: &warnings)
                summary.sound = true
            case .category:
                summary.category = try PayloadPath.string(value, PayloadPath.child(path(), key.string))
            case .targetContentID:
                summary.targetContentID = try PayloadPath.string(value, PayloadPath.child(path(), key.string))
            case .event:
                summary.event = try PayloadPath.string(value, PayloadPath.child(path(), key.string))
            case .contentAvailable:
                summary.contentAvailable = try PayloadPath.integer(value, PayloadPath.child(path(), key.string)) != 0
            case .badge:
                _ = try PayloadPath.integer(value, PayloadPath.child(path(), key.string))
                summary.badge = true
            case .contentChanged:
                guard let flag = value.boolValue else {
                    throw PayloadPath.wrongType(
                        PayloadPath.child(path(), key.string), expected: "a Boolean", found: value)
                }
                summary.contentChanged = flag
            case .flag:  // the Admin SDKs' contentAvailable and mutableContent
                guard let flag = value.boolValue ?? value.intValue.map({ $0 != 0 }) else {
                    throw PayloadPath.wrongType(
                        PayloadPath.child(path(), key.string), expected: "a Boolean", found: value)
                }
                if key.string == "contentAvailable" { summary.contentAvailable = flag }
            case .string:
                try PayloadPath.checkString(value, PayloadPath.child(path(), key.string))
            case .integer:
                _ = try PayloadPath.integer(value, PayloadPath.child(path(), key.string))
            case .number:
                try PayloadPath.checkNumber(value, PayloadPath.child(path(), key.string))
            case .object:
                _ = try PayloadPath.object(value, PayloadPath.child(path(), key.string))
            case .stringArray:
                try PayloadPath.stringArray(value, PayloadPath.child(path(), key.string))
            case .interruptionLevel:
                // The levels as written are told from their bytes; any other value (or spelling) is read as a string.
                if value.isString("time-sensitive") || value.isString("active") || value.isString("passive")
                    || value.isString("critical")
                {
                    continue
                }
                let level = try PayloadPath.string(value, PayloadPath.child(path(), key.string))
                switch level {
                case "active", "passive", "time-sensitive", "critical": break
                default:
                    throw PayloadError(
                        .invalidValue, path: PayloadPath.child(path(), key.string),
                        reason: "expected passive, active, time-sensitive or critical, found \"\(level)\"")
                }
            }
        }
    }

    /// Type-checks an `aps.alert` dictionary; true when it has something to show (a title, subtitle or body, as
    /// text or as a localization key).
    func checkAlert<V: JSONReadable>(
        _ alert: V, path: @autoclosure () -> String, camelCase: Bool, warnings: inout [PayloadWarning]
    ) throws(PayloadError) -> Bool {
        var shows = false
        for (key, value) in alert.keyedMembers {
            guard
                let member = PayloadReader.alertMembers[key] ?? (camelCase ? PayloadReader.alertCamelMembers[key] : nil)
            else {
                warnings.append(unknownKey(key.string, in: path(), known: PayloadReader.alertMembers.names))
                continue
            }
            switch member {
            case .text:  // title, subtitle, body: text, or a Live Activity's {loc-key, loc-args}
                if value.isString {
                    // Whether a text shows is told from its bytes: no string is made of it.
                    if !shows { shows = !value.isEmptyString }
                } else if value.isObject {
                    try checkLocalized(value, path: PayloadPath.child(path(), key.string), warnings: &warnings)
                    shows = true
                } else {
                    throw PayloadPath.wrongType(
                        PayloadPath.child(path(), key.string), expected: "a string or a {loc-key, loc-args} object",
                        found: value)
                }
            case .localizationKey:
                try PayloadPath.checkString(value, PayloadPath.child(path(), key.string))
                shows = true
            case .string:
                try PayloadPath.checkString(value, PayloadPath.child(path(), key.string))
            case .integer:
                _ = try PayloadPath.integer(value, PayloadPath.child(path(), key.string))
            case .stringOrNull:  // `action-loc-key: null` shows a single "Close" button
                if value.isNull { continue }
                try PayloadPath.checkString(value, PayloadPath.child(path(), key.string))
            case .stringArray:
                try PayloadPath.stringArray(value, PayloadPath.child(path(), key.string))
            case .sound:  // a Live Activity alert's sound
                try checkSound(value, path: PayloadPath.child(path(), key.string), warnings: &warnings)
            }
        }
        return shows
    }

    /// Type-checks a localized text object of a Live Activity alert: `{"loc-key": …, "loc-args": […]}`.
    func checkLocalized<V: JSONReadable>(
        _ object: V, path: String, warnings: inout [PayloadWarning]
    ) throws(PayloadError) {
        guard object["loc-key"] != nil else {
            throw PayloadError(.invalidValue, path: path, reason: "a localized text object needs a 'loc-key'")
        }
        for (key, value) in object.members {
            switch key {
            case "loc-key": try PayloadPath.checkString(value, PayloadPath.child(path, key))
            case "loc-args": try PayloadPath.stringArray(value, PayloadPath.child(path, key))
            default: warnings.append(unknownKey(key, in: path, known: ["loc-key", "loc-args"]))
            }
        }
    }

    /// Type-checks `aps.sound`: a file name, or `{critical, name, volume}` for critical alerts.
    func checkSound<V: JSONReadable>(
        _ value: V, path: @autoclosure () -> String, warnings: inout [PayloadWarning]
    ) throws(PayloadError) {
        if value.isString { return }
        guard value.isObject else {
            throw PayloadPath.wrongType(path(), expected: "a string or an object", found: value)
        }
        for (key, member) in value.keyedMembers {
            guard let field = PayloadReader.soundMembers[key] else {
                warnings.append(unknownKey(key.string, in: path(), known: PayloadReader.soundMembers.names))
                continue
            }
            switch field {
            case .name:
                try PayloadPath.checkString(member, PayloadPath.child(path(), key.string))
            case .critical:
                let flag = try PayloadPath.integer(member, PayloadPath.child(path(), key.string))
                guard flag == 0 || flag == 1 else {
                    throw PayloadError(
                        .invalidValue, path: PayloadPath.child(path(), key.string),
                        reason: "expected 0 or 1, found \(flag)")
                }
            case .volume:
                let volume = try PayloadPath.number(member, PayloadPath.child(path(), key.string))
                guard volume >= 0, volume <= 1 else {
                    throw PayloadError(
                        .invalidValue, path: PayloadPath.child(path(), key.string),
                        reason: "expected a number from 0 to 1, found \(member.json)")
                }
            }
        }
    }

    /// The warning for a member APNs does not know, with a hint when it is a near miss of a known one
    /// (`thread_id`, `threadId` or `Thread-ID` for `thread-id`).
    func unknownKey(_ key: String, in parent: String, known: some Collection<String>) -> PayloadWarning {
        var message = "unknown key in \(parent); APNs ignores it"
        let squashed = PayloadReader.squashed(key)
        if let match = known.filter({ PayloadReader.squashed($0) == squashed }).min() {
            message += " (did you mean '\(match)'?)"
        }
        return PayloadWarning(path: PayloadPath.child(parent, key), message: message)
    }

    /// The key lowercased without `-` and `_`, for near-miss hints.
    static func squashed(_ key: String) -> String {
        String(decoding: key.utf8.filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: "_") }, as: UTF8.self)
            .lowercased()
    }

    /// How a member of `aps` is checked.
    enum APSMember {
        case alert, sound, category, targetContentID, event, contentAvailable, badge, contentChanged, flag
        case string, integer, number, object, stringArray, interruptionLevel
    }

    /// How a member of `aps.alert` is checked.
    enum AlertMember {
        case text, localizationKey, string, integer, stringOrNull, stringArray, sound
    }

    /// A member of a critical alert's `sound` dictionary.
    enum SoundMember {
        case critical, name, volume
    }

    /// The members of `aps` Apple documents (alerts, background updates, Live Activities, broadcast channels,
    /// widgets, Safari pushes).
    static let apsMembers = PayloadKeyTable<APSMember>([
        "alert": .alert, "sound": .sound, "category": .category, "target-content-id": .targetContentID,
        "badge": .badge, "content-available": .contentAvailable, "mutable-content": .integer,
        "summary-arg-count": .integer, "input-push-token": .integer, "thread-id": .string, "filter-criteria": .string,
        "event": .event, "attributes-type": .string, "summary-arg": .string, "input-push-channel": .string,
        "relevance-score": .number, "stale-date": .number, "timestamp": .number, "dismissal-date": .number,
        "content-state": .object, "attributes": .object, "url-args": .stringArray,
        "interruption-level": .interruptionLevel, "content-changed": .contentChanged,
    ])

    /// The camel-case names the Firebase Admin SDKs give members of `aps` (read inside their messages only).
    static let apsCamelMembers = PayloadKeyTable<APSMember>([
        "contentAvailable": .flag, "mutableContent": .flag, "threadId": .string,
    ])

    /// The members of `aps.alert` Apple documents.
    static let alertMembers = PayloadKeyTable<AlertMember>([
        "title": .text, "subtitle": .text, "body": .text, "launch-image": .string,
        "title-loc-key": .localizationKey, "subtitle-loc-key": .localizationKey, "loc-key": .localizationKey,
        "action": .string, "action-loc-key": .stringOrNull, "title-loc-args": .stringArray,
        "subtitle-loc-args": .stringArray, "loc-args": .stringArray, "summary-arg": .string,
        "summary-arg-count": .integer, "sound": .sound,
    ])

    /// The camel-case names the Firebase Admin SDKs give members of `aps.alert`.
    static let alertCamelMembers = PayloadKeyTable<AlertMember>([
        "locKey": .localizationKey, "locArgs": .stringArray, "titleLocKey": .localizationKey,
        "titleLocArgs": .stringArray, "subtitleLocKey": .localizationKey, "subtitleLocArgs": .stringArray,
        "actionLocKey": .stringOrNull, "launchImage": .string,
    ])

    /// The members of a critical alert's `sound` dictionary.
    static let soundMembers = PayloadKeyTable<SoundMember>(["critical": .critical, "name": .name, "volume": .volume])
}
