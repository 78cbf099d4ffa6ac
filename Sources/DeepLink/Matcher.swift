// API SKELETON — replaced by the real implementation (helper A). Signatures are the contract.
import JSON

/// Which link schemes and hosts are accepted.
public struct LinkPolicy: Sendable {
    public let schemes: [String]
    public let hosts: [String]
    public init(schemes: [String], hosts: [String]) {
        self.schemes = schemes
        self.hosts = hosts
    }
}

/// A link pattern such as `/catalog/{slug}?page={page}`.
public struct LinkPattern: Sendable, Hashable, CustomStringConvertible {
    public let text: String
    public static func parse(_ text: String) throws(PatternError) -> LinkPattern { fatalError("skeleton") }
    public var description: String { text }
}

public struct PatternError: Error, Sendable, Hashable {
    public let text: String
    public let offset: Int
    public let reason: String
}

/// A Swift enum case declaration such as `category(slug: String, page: Int = 1)`.
public struct CaseDeclaration: Sendable, Hashable, CustomStringConvertible {
    public let name: String
    public let parameters: [Parameter]
    public init(name: String, parameters: [Parameter]) {
        self.name = name
        self.parameters = parameters
    }
    public static func parse(_ text: String, types: [String: [String]]) throws(DeclarationError) -> CaseDeclaration {
        fatalError("skeleton")
    }
    public var description: String { name }
}

public struct DeclarationError: Error, Sendable, Hashable {
    public let text: String
    public let offset: Int
    public let reason: String
}

/// One pattern bound to one page case.
public struct Route: Sendable {
    public let page: PageID
    public let declaration: CaseDeclaration
    public let pattern: LinkPattern
    public init(page: PageID, declaration: CaseDeclaration, pattern: LinkPattern) {
        self.page = page
        self.declaration = declaration
        self.pattern = pattern
    }
}

public struct Matcher: Sendable {
    public init(routes: [Route], policy: LinkPolicy) {}
}
