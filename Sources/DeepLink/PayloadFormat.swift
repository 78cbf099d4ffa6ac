/// A notification payload format that ``PayloadReader`` understands.
///
/// The raw values are the names used on the wire, in decisions (`source.format`) and on the command line. The rest of
/// what a format is lives in its reader's file (`PayloadReader+<Format>.swift`), registered in `PayloadFormats.all`.
public enum PayloadFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// An Apple Push Notification service payload: an `aps` dictionary plus custom top-level keys.
    case apns
    /// A Firebase Cloud Messaging message: the HTTP v1 request `{"message": {...}}`, or the message alone as the
    /// Admin SDKs take it (`token`, `topic` or `condition` beside `notification`, `data`, `android`, `apns`,
    /// `webpush`).
    case fcm
    /// A Firebase Cloud Messaging legacy HTTP request: `to`/`registration_ids` with `data` and `notification`.
    case fcmLegacy = "fcm-legacy"
    /// An ntfy message: a JSON publish request (`topic`, `message`, `click`, `actions`, …) or a message as
    /// subscribers receive it (`id`, `time`, `event`, …).
    case ntfy
    /// A Gotify message (`message`, `title`, `priority`, `extras`).
    case gotify
    /// A Web Push payload as a service worker shows it: W3C notification options (`title`, `body`, `data`,
    /// `actions`, …), alone or under `notification` (Angular's service worker, declarative Web Push).
    case webpush
    /// An Expo push message (`to`, `title`, `body`, `data`, …).
    case expo
    /// A bare link: a JSON string, or one line of plain text.
    case link

    /// The wire name, e.g. `fcm-legacy`.
    public var description: String { rawValue }

    /// The name people use for the format, for messages: `APNs`, `FCM`, …
    public var displayName: String { PayloadFormats.entry(for: self).displayName }

    /// True for the formats whose services cap a payload at 4096 bytes (APNs, FCM, Web Push, Expo); strict mode
    /// enforces it.
    public var hasSizeLimit: Bool { PayloadFormats.entry(for: self).hasSizeLimit }
}
