/// Why a link did not open a page: a code and a reason that names the offending part.
public struct LinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// Not a well-formed link: bad percent escape, invalid UTF-8, control character, too long, userinfo, …
        case malformed
        /// The scheme is neither `https` nor one of the app's schemes (`http` included).
        case schemeNotAllowed
        /// A universal link to a host that is not one of the app's hosts.
        case hostNotAllowed
        /// The link is well-formed and allowed, but no pattern matches it.
        case noMatch
    }

    /// The kind of failure.
    public let code: Code
    /// What was wrong, naming the offending part and, where it helps, what to do.
    public let reason: String

    /// An error from its code and reason.
    public init(code: Code, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// `code: reason`.
    public var description: String { "\(code.rawValue): \(reason)" }
}
