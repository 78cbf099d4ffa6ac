/// One pattern bound to one page case: the unit the ``Matcher`` compiles.
public struct Route: Sendable {
    /// The page this route opens.
    public let page: PageID
    /// The page's case declaration.
    public let declaration: CaseDeclaration
    /// The pattern.
    public let pattern: LinkPattern

    /// A route from its parts.
    public init(page: PageID, declaration: CaseDeclaration, pattern: LinkPattern) {
        self.page = page
        self.declaration = declaration
        self.pattern = pattern
    }
}
