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

    /// What the reason says, kept unformatted until asked for (a miss must stay cheap on the hot path).
    enum Detail: Sendable, Hashable {
        case text(String)
        case noPatternMatches(link: String)
    }

    /// The kind of failure.
    public let code: Code
    let detail: Detail

    /// What was wrong, naming the offending part and, where it helps, what to do.
    public var reason: String {
        switch detail {
        case .text(let text): return text
        case .noPatternMatches(let link): return "no pattern matches '\(link)'"
        }
    }

    /// An error from its code and reason.
    public init(code: Code, reason: String) {
        self.code = code
        self.detail = .text(reason)
    }

    /// `noMatch` for a link that no pattern matches.
    static func noMatch(_ link: String) -> LinkError {
        LinkError(code: .noMatch, detail: .noPatternMatches(link: link))
    }

    init(code: Code, detail: Detail) {
        self.code = code
        self.detail = detail
    }

    public static func == (lhs: LinkError, rhs: LinkError) -> Bool {
        lhs.code == rhs.code && lhs.reason == rhs.reason
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(reason)
    }

    /// `code: reason`.
    public var description: String { "\(code.rawValue): \(reason)" }

    /// Why `link` opens no page, as decisions' warnings, `NoRoute.reasons` and explain print it: `no pattern
    /// matches '…'` for a link the app owns, `'…' is refused: <reason>` for one it does not accept.
    public func refusal(of link: String) -> String {
        if code == .noMatch { return reason }
        return "'\(link)' is refused: \(reason)"
    }
}
