/// A notification payload format that ``PayloadReader`` understands.
///
/// The raw values are the names used on the wire, in decisions (`source.format`) and on the command line.
public enum PayloadFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// An Apple Push Notification service payload: an `aps` dictionary plus custom top-level keys.
    case apns
    /// A Firebase Cloud Messaging HTTP v1 request: `{"message": {...}}`.
    case fcm
    /// A Firebase Cloud Messaging legacy HTTP request: `to`/`registration_ids` with `data` and `notification`.
    case fcmLegacy = "fcm-legacy"
    /// An ntfy JSON publish request (`topic`, `message`, `click`, `actions`, …).
    case ntfy
    /// A Gotify message (`message`, `title`, `priority`, `extras`).
    case gotify
    /// A bare link: a JSON string, or one line of plain text.
    case link

    /// The wire name, e.g. `fcm-legacy`.
    public var description: String { rawValue }

    /// The name people use for the format, for messages: `APNs`, `FCM HTTP v1`, …
    public var displayName: String {
        switch self {
        case .apns: return "APNs"
        case .fcm: return "FCM HTTP v1"
        case .fcmLegacy: return "FCM legacy"
        case .ntfy: return "ntfy"
        case .gotify: return "Gotify"
        case .link: return "bare link"
        }
    }

    /// True for the formats whose services cap a payload at 4096 bytes (APNs and FCM); strict mode enforces it.
    public var hasSizeLimit: Bool {
        switch self {
        case .apns, .fcm, .fcmLegacy: return true
        case .ntfy, .gotify, .link: return false
        }
    }
}
