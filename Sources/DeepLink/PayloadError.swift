import JSON

/// Why a payload yields no usable link: a code, the JSON path of the culprit and a sentence saying what to fix.
///
/// Paths are written from the payload's root: `aps.badge`, `message.data.orderId`, `actions[1].url`,
/// `extras["client::notification"].click.url`; `$` is the root itself.
public struct PayloadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, machine-readable; the daemon derives its varlink error from it.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The bytes are not JSON (and not a one-line link either); ``PayloadError/cause`` has the offset.
        case invalidJSON
        /// The document is neither an object (a payload) nor a string (a bare link).
        case notAnObject
        /// A member has the wrong JSON type, e.g. `aps.badge` is a string.
        case wrongType
        /// The payload is well-formed but carries no link in any field that was looked at.
        case noLink
        /// Strict mode: the payload exceeds the 4096 bytes that APNs and FCM accept.
        case tooLarge
        /// The object matches none of the known formats.
        case unknownFormat
        /// A format was forced but the payload does not fit it.
        case formatMismatch
        /// A member has the right type but a value the service does not accept.
        case invalidValue
    }

    /// The kind of problem.
    public let code: Code
    /// The JSON path of the member at fault; `$` for the whole payload.
    public let path: String
    /// What was wrong and what was expected.
    public let reason: String
    /// For ``Code/invalidJSON``: the parser's error, with its byte offset.
    public let cause: JSONError?
    /// For ``Code/tooLarge``: the payload's size in bytes.
    public let size: Int?
    /// For ``Code/tooLarge``: the limit that was exceeded.
    public let maxSize: Int?

    /// An error from its parts; `path` is a JSON path, empty for the root.
    public init(
        _ code: Code, path: String, reason: String, cause: JSONError? = nil, size: Int? = nil, maxSize: Int? = nil
    ) {
        self.code = code
        self.path = path.isEmpty ? "$" : path
        self.reason = reason
        self.cause = cause
        self.size = size
        self.maxSize = maxSize
    }

    /// `path: reason`, e.g. `aps.badge: expected an integer, found string`.
    public var description: String { "\(path): \(reason)" }
}
