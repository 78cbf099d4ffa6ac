import DeepLink

/// A value with the place in the file where it was written.
struct Located<Value> {
    let value: Value
    let location: SourceLocation
}

extension Located: Sendable where Value: Sendable {}

/// The config as decoded, before validation: every part optional or partial so that one pass can decode
/// everything that is well-formed and report the rest. ``Validator`` checks it; ``freeze()`` turns a valid
/// draft into a ``Graph``.
struct ConfigDraft: Sendable {
    /// The top-level mapping's location (for findings about the document as a whole).
    var location: SourceLocation
    var version: Located<Int>?
    var app: AppDraft?
    /// `links.keys`; `nil` when not written (the default applies).
    var linkKeys: [Located<String>]?
    /// `links.pendingExpiry`; `nil` when not written (the default applies).
    var pendingExpiry: Located<Int>?
    /// `links.unlinked`; `nil` when not written (`open` applies).
    var unlinked: Located<PayloadOptions.Unlinked>?
    var types: [TypeDraft] = []
    var categories: [CategoryDraft] = []
    var coordinators: [CoordinatorDraft] = []
    /// Where `coordinators:` is written, when it is.
    var coordinatorsLocation: SourceLocation?

    /// Declared enums as ``CaseDeclaration/parse(_:types:)`` wants them.
    var typeTable: [String: [String]] {
        var table: [String: [String]] = [:]
        for t in types where table[t.name.value] == nil { table[t.name.value] = t.cases.map(\.value) }
        return table
    }
}

/// The `app:` section.
struct AppDraft: Sendable {
    var location: SourceLocation
    var name: Located<String>?
    var schemes: [Located<String>] = []
    var hosts: [Located<String>] = []
    var fallback: ExpressionDraft?
    var caseInsensitivePaths = false
}

/// A page expression that parsed, with where its text starts.
struct ExpressionDraft: Sendable {
    let expression: PageExpression
    let location: SourceLocation
}

/// One enum under `types:`.
struct TypeDraft: Sendable {
    let name: Located<String>
    let cases: [Located<String>]
}

/// One entry under `categories:`; `expression` is `nil` when it did not parse (already reported).
struct CategoryDraft: Sendable {
    let name: Located<String>
    let expression: ExpressionDraft?
}

/// One coordinator under `coordinators:`.
struct CoordinatorDraft: Sendable {
    let name: Located<String>
    /// `nil` when missing or unknown (already reported).
    var kind: Located<CoordinatorKind>?
    var children: [Located<String>] = []
    var root: Located<String>?
    var parents: [Located<String>] = []
    var requires: [Located<String>] = []
    var provides: [Located<String>] = []
    var pages: [PageDraft] = []
    /// Where `pages:` is written, when it is.
    var pagesLocation: SourceLocation?
    /// True when `pages:` is not a mapping (already reported; the pages are unknown, not missing).
    var pagesMalformed = false
}

/// One page under a coordinator's `pages:`.
struct PageDraft: Sendable {
    /// The case name (the declaration's text before `(`), usable even when the declaration did not parse.
    let name: String
    /// Where the declaration (the mapping key) is written.
    let location: SourceLocation
    /// `nil` when the declaration did not parse (already reported).
    var declaration: CaseDeclaration?
    var patterns: [PatternDraft] = []
    /// How many patterns are written, including any that did not parse.
    var writtenPatterns = 0
    var requires: [Located<String>] = []
    var back: Located<String>?
}

/// One link pattern of a page.
struct PatternDraft: Sendable {
    let pattern: LinkPattern
    /// Where the pattern text starts (after an opening quote).
    let location: SourceLocation
}
