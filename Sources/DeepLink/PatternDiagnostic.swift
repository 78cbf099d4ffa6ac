/// A problem between two routes found by ``Matcher/diagnostics()``: identical or shadowed patterns.
public struct PatternDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious.
    public enum Severity: String, Sendable, Hashable {
        /// The config is invalid.
        case error
        /// The config works but likely not as intended.
        case warning
    }

    /// What was found.
    public enum Kind: String, Sendable, Hashable {
        /// Both patterns have the same shape (literals, parameter types, query keys and types): an error.
        case identical
        /// Every link the later pattern matches is taken by the earlier one: a warning.
        case shadowed
    }

    /// What was found.
    public let kind: Kind
    /// The later route (index in ``Matcher/routes``).
    public let route: Int
    /// The earlier route it conflicts with.
    public let earlierRoute: Int
    /// What is wrong and how to fix it, naming both patterns and pages.
    public let message: String

    /// `.error` for identical patterns, `.warning` for shadowed ones.
    public var severity: Severity { kind == .identical ? .error : .warning }

    /// `severity: message`.
    public var description: String { "\(severity.rawValue): \(message)" }
}
