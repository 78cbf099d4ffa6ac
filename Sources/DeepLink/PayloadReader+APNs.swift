import JSON

/// APNs: the `aps` dictionary plus custom top-level keys.
///
/// Candidates, in priority order: each configured link key (top-level), the page that `aps.category` maps to,
/// then `aps.target-content-id`. Every known `aps` member is type-checked; unknown members of `aps`, `aps.alert`
/// and `aps.sound` are reported as warnings (APNs ignores them, so they are usually typos).
extension PayloadReader {
    /// Reads the APNs payload `payload` at the place `fields` describes (the root, or `message.apns.payload`).
    func readAPNs<V: JSONReadable>(
        _ payload: V, fields: APNsFields, format: PayloadFormat, into collector: inout PayloadCollector
    ) throws(PayloadError) {
        var category: String? = nil
        var targetContentID: String? = nil
        if let aps = payload["aps"] {
            (category, targetContentID) = try checkAPS(
                PayloadPath.object(aps, fields.aps), path: fields.aps, warnings: &collector.warnings)
        }
        for (key, field) in fields.links {
            if let value = payload[key] { try appendLink(value, field: field, format: format, into: &collector) }
        }
        if let category {
            appendCategory(
                category, field: fields.category, format: format, keyParent: fields.parent,
                lookup: { key in key == "aps" ? nil : payload[key]?.json }, into: &collector)
        }
        if let targetContentID {
            try appendLink(
                JSON.string(targetContentID), field: fields.targetContentID, format: format, into: &collector)
        }
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

    /// Type-checks the members of `aps` and returns its category and target content id.
    func checkAPS<V: JSONReadable>(
        _ aps: V, path: @autoclosure () -> String, warnings: inout [PayloadWarning]
    ) throws(PayloadError) -> (category: String?, targetContentID: String?) {
        var category: String? = nil
        var targetContentID: String? = nil
        for (key, value) in aps.keyedMembers {
            guard let member = PayloadReader.apsMembers[key] else {
                warnings.append(unknownKey(key.string, in: path(), known: PayloadReader.apsMembers.names))
                continue
            }
            switch member {
            case .alert:
                if value.isString { continue }
                guard value.isObject else {
                    throw PayloadPath.wrongType(
                        PayloadPath.child(path(), key.string), expected: "a string or an object", found: value)
                }
                try checkAlert(value, path: PayloadPath.child(path(), key.string), warnings: &warnings)
            case .sound:
                try checkSound(value, path: PayloadPath.child(path(), key.string), warnings: &warnings)
            case .category:
                category = try PayloadPath.string(value, PayloadPath.child(path(), key.string))
            case .targetContentID:
                targetContentID = try PayloadPath.string(value, PayloadPath.child(path(), key.string))
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
        return (category, targetContentID)
    }

    /// Type-checks an `aps.alert` dictionary.
    func checkAlert<V: JSONReadable>(
        _ alert: V, path: @autoclosure () -> String, warnings: inout [PayloadWarning]
    ) throws(PayloadError) {
        for (key, value) in alert.keyedMembers {
            guard let member = PayloadReader.alertMembers[key] else {
                warnings.append(unknownKey(key.string, in: path(), known: PayloadReader.alertMembers.names))
                continue
            }
            switch member {
            case .string:
                try PayloadPath.checkString(value, PayloadPath.child(path(), key.string))
            case .stringOrNull:  // `action-loc-key: null` shows a single "Close" button
                if value.isNull { continue }
                try PayloadPath.checkString(value, PayloadPath.child(path(), key.string))
            case .stringArray:
                try PayloadPath.stringArray(value, PayloadPath.child(path(), key.string))
            case .sound:  // a Live Activity alert's sound
                try checkSound(value, path: PayloadPath.child(path(), key.string), warnings: &warnings)
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
        case alert, sound, category, targetContentID, string, integer, number, object, stringArray, interruptionLevel
    }

    /// How a member of `aps.alert` is checked.
    enum AlertMember {
        case string, stringOrNull, stringArray, sound
    }

    /// A member of a critical alert's `sound` dictionary.
    enum SoundMember {
        case critical, name, volume
    }

    /// The documented members of `aps` (alerts, Live Activities, Safari pushes).
    static let apsMembers = PayloadKeyTable<APSMember>([
        "alert": .alert, "sound": .sound, "category": .category, "target-content-id": .targetContentID,
        "badge": .integer, "content-available": .integer, "mutable-content": .integer, "summary-arg-count": .integer,
        "input-push-token": .integer, "thread-id": .string, "filter-criteria": .string, "event": .string,
        "attributes-type": .string, "summary-arg": .string, "input-push-channel": .string,
        "relevance-score": .number, "stale-date": .number, "timestamp": .number, "dismissal-date": .number,
        "content-state": .object, "attributes": .object, "url-args": .stringArray,
        "interruption-level": .interruptionLevel,
    ])

    /// The documented members of `aps.alert`.
    static let alertMembers = PayloadKeyTable<AlertMember>([
        "title": .string, "subtitle": .string, "body": .string, "launch-image": .string, "title-loc-key": .string,
        "subtitle-loc-key": .string, "loc-key": .string, "action": .string, "action-loc-key": .stringOrNull,
        "title-loc-args": .stringArray, "subtitle-loc-args": .stringArray, "loc-args": .stringArray,
        "sound": .sound,
    ])

    /// The members of a critical alert's `sound` dictionary.
    static let soundMembers = PayloadKeyTable<SoundMember>(["critical": .critical, "name": .name, "volume": .volume])
}
