/// One problem found while loading a config: where, how bad, a stable code and a message that says how to fix it.
///
/// Printed like a compiler diagnostic: `shop.yaml:42:7: error: unknown key 'kinds'; expected one of …`.
///
/// Codes, by stage:
/// - reading: `yaml-syntax`, `json-syntax`, `yaml-anchor`, `yaml-alias`, `yaml-tag`, `yaml-complex-key`,
///   `yaml-multiple-documents`, `nesting-too-deep`, `duplicate-key`, `empty-config`;
/// - decoding: `unknown-key`, `missing-key`, `wrong-type`, `invalid-value`, `unsupported-version`, `invalid-name`,
///   `duplicate-case`, `unknown-kind`, `invalid-declaration`, `unknown-type`, `invalid-pattern`,
///   `invalid-expression`;
/// - structure: `missing-app`, `multiple-apps`, `app-has-parent`, `no-children`, `missing-root`, `root-not-child`,
///   `unexpected-root`, `unexpected-pages`, `unexpected-provides`, `no-pages`, `duplicate-child`,
///   `duplicate-parent`, `unknown-coordinator`, `unreachable-coordinator`, `parent-cycle`, `root-page-arguments`
///   (warning);
/// - conditions: `unprovided-condition`, `self-gated`, `provider-under-gate`, `condition-cycle`;
/// - pages: `duplicate-page`, `unknown-page`, `back-other-coordinator`, `back-arguments`, `back-cycle`,
///   `unreachable-page` (warning);
/// - patterns: `pattern-unknown-parameter`, `pattern-unbound-parameter`, `pattern-parameter-type`,
///   `duplicate-pattern`, `shadowed-pattern` (warning), `ambiguous-split` (warning);
/// - expressions: `category-arguments`, `fallback-arguments`;
/// - app: `invalid-scheme`, `invalid-host`, `no-links` (warning);
/// - links: `invalid-link-key`, `unlinked-without-fallback`.
public struct ConfigFinding: Sendable, Hashable, CustomStringConvertible {
    /// How bad a finding is.
    public enum Severity: String, Sendable, Hashable {
        /// The config is rejected.
        case error
        /// The config loads, but something is probably not what the author meant.
        case warning
    }

    /// Error or warning.
    public let severity: Severity
    /// The place in the file the finding is about.
    public let location: SourceLocation
    /// A stable identifier for scripts and tests, e.g. `unknown-key` or `unreachable-coordinator`.
    public let code: String
    /// What is wrong and what was expected.
    public let message: String

    /// A finding from its parts.
    public init(severity: Severity, location: SourceLocation, code: String, message: String) {
        self.severity = severity
        self.location = location
        self.code = code
        self.message = message
    }

    /// `file:line:column: severity: message`.
    public var description: String { "\(location): \(severity.rawValue): \(message)" }

    static func error(_ code: String, at location: SourceLocation, _ message: String) -> ConfigFinding {
        ConfigFinding(severity: .error, location: location, code: code, message: message)
    }

    static func warning(_ code: String, at location: SourceLocation, _ message: String) -> ConfigFinding {
        ConfigFinding(severity: .warning, location: location, code: code, message: message)
    }
}

/// A config that was rejected: every error found, and the warnings found alongside, in file order.
public struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Errors and warnings, sorted by position in the file.
    public let findings: [ConfigFinding]

    /// A rejection from its findings.
    public init(findings: [ConfigFinding]) {
        self.findings = findings
    }

    /// Only the findings of severity `error`.
    public var errors: [ConfigFinding] { findings.filter { $0.severity == .error } }

    /// One finding per line.
    public var description: String { findings.map(\.description).joined(separator: "\n") }
}

extension SourceLocation {
    /// Orders locations by line, then column (the file is the same within one load).
    static func precedes(_ a: SourceLocation, _ b: SourceLocation) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }

    /// The location `offset` characters further along the same line.
    func advanced(by offset: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column + max(0, offset))
    }
}
