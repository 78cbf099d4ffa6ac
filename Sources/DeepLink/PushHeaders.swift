import JSON

/// The transport headers a push arrived with (`Route`'s `headers`), read and checked once.
///
/// Names are compared case-insensitively, as HTTP compares them. APNs: `apns-push-type` (a push type that never
/// navigates makes the decision `silent`), `apns-topic` (recorded as the decision's `source.topic`; its suffix tells
/// the push type when `apns-push-type` is absent: `.voip`, `.push-type.liveactivity`, …), `apns-collapse-id`,
/// `apns-priority`, and `apns-expiration`, `apns-id` taken as they are. Web Push (RFC 8030): `Topic`, `Urgency`,
/// and `TTL` taken as it is. A value the service would refuse is a ``PayloadError`` naming the header; an unknown
/// header is a warning.
public struct PushHeaders: Sendable, Hashable {
    /// An APNs push type (`apns-push-type`).
    public enum PushType: String, Sendable, Hashable, CaseIterable {
        case alert, background, location, voip, complication, fileprovider, mdm, liveactivity, pushtotalk, widgets

        /// True for `alert`, the only push type a person taps; every other type is handled without navigating.
        public var navigates: Bool { self == .alert }

        /// The `apns-topic` suffix APNs requires for the type (after the bundle id), when it has one.
        var topicSuffix: String? {
            switch self {
            case .voip: return ".voip"
            case .complication: return ".complication"
            case .fileprovider: return ".pushkit.fileprovider"
            case .liveactivity: return ".push-type.liveactivity"
            case .pushtotalk: return ".voip-ptt"
            case .widgets: return ".push-type.widgets"
            case .location: return ".location-query"
            case .alert, .background, .mdm: return nil
            }
        }
    }

    /// A Web Push urgency (`Urgency`, RFC 8030 §5.3).
    public enum Urgency: String, Sendable, Hashable, CaseIterable {
        case veryLow = "very-low", low, normal, high
    }

    /// `apns-push-type`, when given.
    public private(set) var pushType: PushType?
    /// `apns-topic`: the app's bundle id, with the push type's suffix for some types.
    public private(set) var topic: String?
    /// `apns-collapse-id`.
    public private(set) var collapseID: String?
    /// `apns-priority`: 10, 5 or 1.
    public private(set) var priority: Int?
    /// Web Push `Urgency`.
    public private(set) var urgency: Urgency?
    /// Web Push `Topic`: replaces a pending message of the same topic.
    public private(set) var webTopic: String?
    /// Headers that were not used: one warning each.
    public private(set) var warnings: [PayloadWarning] = []

    /// No headers.
    public init() {}

    /// The headers from name and value pairs, checked.
    public init(_ pairs: [(name: String, value: String)]) throws(PayloadError) {
        var seen: [String: String] = [:]
        for (name, value) in pairs {
            let lower = name.lowercased()
            if let earlier = seen[lower] {
                throw PayloadError(
                    .invalidValue, path: PushHeaders.path(name),
                    reason: "the header '\(name)' is given twice (as '\(earlier)' too); header names ignore case")
            }
            seen[lower] = name
            try set(lower, name: name, value: value)
        }
    }

    /// The headers from a JSON object of strings (a `Route` call's `headers`), checked.
    public init<V: JSONReadable>(json: V) throws(PayloadError) {
        guard json.isObject else {
            throw PayloadPath.wrongType("headers", expected: "an object of strings", found: json)
        }
        var pairs: [(name: String, value: String)] = []
        for (name, value) in json.members {
            guard let text = value.stringValue else {
                throw PayloadPath.wrongType(PushHeaders.path(name), expected: "a string", found: value)
            }
            pairs.append((name, text))
        }
        try self.init(pairs)
    }

    /// True when no header was given.
    public var isEmpty: Bool {
        pushType == nil && topic == nil && collapseID == nil && priority == nil && urgency == nil && webTopic == nil
            && warnings.isEmpty
    }

    /// The push type in effect and the header that says so: `apns-push-type`, else the suffix of `apns-topic`.
    public var effectivePushType: (type: PushType, field: String)? {
        if let pushType { return (pushType, PushHeaders.path("apns-push-type")) }
        guard let topic else { return nil }
        for type in PushType.allCases {
            if let suffix = type.topicSuffix, topic.hasSuffix(suffix), topic.utf8.count > suffix.utf8.count {
                return (type, PushHeaders.path("apns-topic"))
            }
        }
        return nil
    }

    /// True when an APNs header was given (they apply to APNs and FCM payloads only).
    var hasAPNsHeaders: Bool { pushType != nil || topic != nil || collapseID != nil || priority != nil }

    /// The JSON path shown for header `name`: `headers.apns-push-type`.
    static func path(_ name: String) -> String { PayloadPath.child("headers", name) }

    private mutating func set(_ lower: String, name: String, value: String) throws(PayloadError) {
        func invalid(_ expected: String) -> PayloadError {
            PayloadError(
                .invalidValue, path: PushHeaders.path(name), reason: "expected \(expected), found \"\(value)\"")
        }
        switch lower {
        case "apns-push-type":
            guard let type = PushType(rawValue: value) else {
                throw invalid("one of " + PushType.allCases.map(\.rawValue).joined(separator: ", "))
            }
            pushType = type
        case "apns-topic":
            guard PushHeaders.isToken(value, maxBytes: 255) else {
                throw invalid("a bundle id such as com.example.app (no spaces, at most 255 bytes)")
            }
            topic = value
        case "apns-collapse-id":
            guard !value.isEmpty, value.utf8.count <= 64 else { throw invalid("an identifier of 1 to 64 bytes") }
            collapseID = value
        case "apns-priority":
            guard let number = Int(value), [1, 5, 10].contains(number) else { throw invalid("10, 5 or 1") }
            priority = number
        case "urgency":
            guard let level = Urgency(rawValue: value) else {
                throw invalid("very-low, low, normal or high")
            }
            urgency = level
        case "topic":
            guard (1...32).contains(value.utf8.count), value.utf8.allSatisfy(PushHeaders.isBase64URL) else {
                throw invalid("at most 32 characters of the URL-safe base64 alphabet (RFC 8030 §5.4)")
            }
            webTopic = value
        case "apns-expiration", "apns-id", "ttl":
            break  // delivery details of the service: nothing for routing to check
        default:
            warnings.append(
                PayloadWarning(
                    path: PushHeaders.path(name),
                    message: "unknown header; notifyd reads apns-push-type, apns-topic, apns-collapse-id, "
                        + "apns-priority, Topic and Urgency: ignored"))
        }
    }

    /// True for 1 to `maxBytes` bytes of printable ASCII without spaces.
    static func isToken(_ value: String, maxBytes: Int) -> Bool {
        !value.isEmpty && value.utf8.count <= maxBytes && value.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// True for a byte of the URL-safe base64 alphabet.
    static func isBase64URL(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}
