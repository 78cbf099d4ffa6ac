import DeepLink
import Foundation

/// How config names become Swift names and values become Swift literals in generated code.
enum SwiftNames {
    /// Words that must be written in backticks to name a case or a type.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer",
        "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "Any", "as", "await", "false", "is", "nil", "super", "throws", "true", "try", "async", "some", "any",
    ]

    /// Names that cannot be a case or a type even in backticks, because `.name` means something else in Swift.
    static let unusable: Set<String> = ["self", "Self", "Type", "Protocol", "init", "deinit", "subscript", "_"]

    /// The names the generated code refers to without qualification. A `types:` enum of the same name would hide
    /// the type everywhere in the file, and an `AppLink` case (a coordinator) or a `Page` case (a page) of the same
    /// name would hide it inside that enum. Everything else the runtime part uses from the standard library is
    /// written `Swift.UTF8`, `Swift.zip`, … so that any other name is free.
    static let reservedTypeNames: Set<String> = [
        "AppLink", "Routing", "Page", "String", "Int", "Double", "Bool", "UUID", "URL", "UInt8", "Character", "Array",
        "Dictionary", "Optional", "Set", "Substring", "Sendable", "Hashable", "Equatable", "CaseIterable",
        "CustomStringConvertible", "Never", "Foundation", "Swift", "Void", "NotifydCoordinator", "NotifydStep",
        "NotifydNavigator", "NotifydDecision", "NotifydDecisionError", "NotifydKey",
    ]

    /// `name` as a case or type name, in backticks when it is a keyword.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// `name` as an argument label: only `inout`, `var` and `let` need backticks there.
    static func label(_ name: String) -> String {
        ["inout", "var", "let"].contains(name) ? "`\(name)`" : name
    }

    /// `order_history` → `OrderHistory`, `catalog` → `Catalog`: underscores removed, the next letter upper-cased.
    static func pascalCase(_ name: String) -> String {
        var out = ""
        var upper = true
        for character in name {
            if character == "_" {
                upper = true
                continue
            }
            out += upper ? character.uppercased() : String(character)
            upper = false
        }
        return out.isEmpty ? "Unnamed" : out
    }

    /// The Swift type of a parameter.
    static func typeName(_ type: ParameterType) -> String {
        switch type {
        case .string, .int, .double, .bool, .uuid: return type.description
        case .enumeration(let name, _): return identifier(name)
        case .list(let element): return "[" + typeName(element) + "]"
        }
    }

    /// A value as a Swift expression of its parameter's type: `"all"`, `1`, `true`, `.price`,
    /// `UUID(uuidString: "…")!` (the validator checked the text).
    static func literal(_ value: Value) -> String {
        switch value {
        case .string(let s): return stringLiteral(s)
        case .int(let i): return String(i)
        case .double(let d): return d.description
        case .bool(let b): return b ? "true" : "false"
        case .uuid(let u): return "UUID(uuidString: \(stringLiteral(u.uuidString)))!"
        case .enumCase(let c): return "." + identifier(c)
        case .list(let items): return "[" + items.map(literal).joined(separator: ", ") + "]"
        }
    }

    /// A Swift string literal: quotes, backslashes and control characters escaped.
    static func stringLiteral(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Text for a `///` or `//` comment: control characters escaped so that a comment stays on its line.
    static func comment(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            return s
        }
        let literal = stringLiteral(s)
        return String(literal.dropFirst().dropLast())
    }
}
