/// A Swift enum case declaration such as `category(slug: String, page: Int = 1, sort: Sort = .price)`.
///
/// Pages are declared in the config in this syntax; ``description`` prints it back as Swift source.
public struct CaseDeclaration: Sendable, Hashable, CustomStringConvertible {
    /// The case name.
    public let name: String
    /// Its parameters in declaration order.
    public let parameters: [Parameter]

    /// A declaration from its parts.
    public init(name: String, parameters: [Parameter]) {
        self.name = name
        self.parameters = parameters
    }

    /// The parameter labelled `label`, if declared.
    public func parameter(_ label: String) -> Parameter? {
        parameters.first(where: { $0.label == label })
    }

    /// The Swift source of the case: `offer(id: String)`, or `home` without parameters.
    public var description: String {
        parameters.isEmpty ? name : name + "(" + parameters.map(\.description).joined(separator: ", ") + ")"
    }

    /// Parses Swift enum case syntax: `home`, `offer(id: String)`,
    /// `category(slug: String, page: Int = 1, sort: Sort = price)`.
    ///
    /// Types are `String`, `Int`, `Double`, `Bool`, `UUID`, or an enum named in `types` (`["Sort": ["price", "rating"]]`).
    /// Defaults are integers, decimal numbers (for `Double`: `0.5`, `-2`, `1e3`), quoted strings (also for `UUID`),
    /// `true`/`false`, or a case of the enum
    /// written `price` or `.price`.
    public static func parse(_ text: String, types: [String: [String]]) throws(DeclarationError) -> CaseDeclaration {
        var parser = DeclarationParser(text: text, types: types)
        return try parser.parseDeclaration()
    }
}

/// A case declaration that does not parse.
public struct DeclarationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public enum Code: String, Sendable, Hashable {
        /// A name or label is not a Swift identifier (or is a reserved word).
        case invalidIdentifier
        /// Punctuation or a part of the declaration is missing or misplaced.
        case unexpectedText
        /// The type is neither built in nor declared under `types:`.
        case unknownType
        /// The same label is declared twice.
        case duplicateLabel
        /// The default value does not fit the parameter's type.
        case invalidDefault
    }

    /// The kind of problem.
    public let code: Code
    /// The declaration as written.
    public let text: String
    /// Character offset of the problem in `text` (0-based).
    public let offset: Int
    /// What was wrong and what was expected.
    public let reason: String

    /// `invalid case declaration 'text' at offset N: reason`.
    public var description: String { "invalid case declaration '\(text)' at offset \(offset): \(reason)" }
}

/// Swift keywords that cannot name a case without backticks.
let swiftReservedWords: Set<String> = [
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
    "internal", "let", "open", "operator", "private", "protocol", "public", "static", "struct", "subscript",
    "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard",
    "if", "in", "repeat", "return", "switch", "where", "while", "as", "catch", "false", "is", "nil", "rethrows",
    "super", "self", "Self", "throw", "throws", "true", "try", "Any", "Type",
]

/// A small recursive-descent parser over the declaration's characters; offsets are character offsets.
struct DeclarationParser {
    let text: String
    let types: [String: [String]]
    let chars: [Character]
    var position = 0

    init(text: String, types: [String: [String]]) {
        self.text = text
        self.types = types
        self.chars = Array(text)
    }

    func error(_ code: DeclarationError.Code, at offset: Int, _ reason: String) -> DeclarationError {
        DeclarationError(code: code, text: text, offset: offset, reason: reason)
    }

    var current: Character? { position < chars.count ? chars[position] : nil }

    mutating func skipSpaces() {
        while let c = current, c == " " || c == "\t" { position += 1 }
    }

    mutating func expect(_ c: Character, _ what: String) throws(DeclarationError) {
        skipSpaces()
        guard current == c else { throw error(.unexpectedText, at: position, "expected \(what)\(found)") }
        position += 1
    }

    var found: String {
        guard let c = current else { return " but the declaration ends" }
        return ", found '\(c)'"
    }

    /// An identifier starting at the current position (after spaces); its offset and text.
    mutating func identifier(_ what: String) throws(DeclarationError) -> (offset: Int, name: String) {
        skipSpaces()
        let start = position
        while let c = current, c == "_" || c.isLetter || c.isNumber { position += 1 }
        let name = String(chars[start..<position])
        guard !name.isEmpty else { throw error(.invalidIdentifier, at: start, "expected \(what)\(found)") }
        guard isIdentifier(name) else {
            throw error(.invalidIdentifier, at: start, "'\(name)' is not a valid \(what): start with a letter or '_'")
        }
        return (start, name)
    }

    mutating func parseDeclaration() throws(DeclarationError) -> CaseDeclaration {
        let (nameOffset, name) = try identifier("case name")
        if swiftReservedWords.contains(name) {
            throw error(.invalidIdentifier, at: nameOffset, "'\(name)' is a Swift keyword; choose another case name")
        }
        skipSpaces()
        var parameters: [Parameter] = []
        if current == "(" {
            position += 1
            skipSpaces()
            if current == ")" {
                throw error(.unexpectedText, at: position, "expected 'label: Type'; write '\(name)' without '()'")
            }
            while true {
                let parameter = try parseParameter(existing: parameters)
                parameters.append(parameter)
                skipSpaces()
                if current == "," {
                    position += 1
                    continue
                }
                try expect(")", "',' or ')'")
                break
            }
        }
        skipSpaces()
        if position < chars.count {
            throw error(.unexpectedText, at: position, "expected the end of the declaration\(found)")
        }
        return CaseDeclaration(name: name, parameters: parameters)
    }

    mutating func parseParameter(existing: [Parameter]) throws(DeclarationError) -> Parameter {
        let (labelOffset, label) = try identifier("parameter label")
        if label == "_" {
            throw error(.invalidIdentifier, at: labelOffset, "every parameter needs a label: write 'label: Type'")
        }
        if existing.contains(where: { $0.label == label }) {
            throw error(.duplicateLabel, at: labelOffset, "label '\(label)' is declared twice")
        }
        skipSpaces()
        if current != ":", isTypeName(label) {
            throw error(
                .unexpectedText, at: labelOffset,
                "parameters need labels: write '\(labelled())'")
        }
        try expect(":", "':' after '\(label)'")
        skipSpaces()
        let isList = current == "["
        if isList { position += 1 }
        var type = try parseType()
        if isList {
            try expect("]", "']' after the list's element type")
            type = .list(type)
        }
        skipSpaces()
        guard current == "=" else { return Parameter(label: label, type: type) }
        position += 1
        skipSpaces()
        let defaultOffset = position
        let value = try isList ? parseListDefault(for: type, label: label) : parseDefault(for: type, label: label)
        guard let value else {
            throw error(.invalidDefault, at: defaultOffset, "invalid default for '\(label): \(type)'; \(example(type))")
        }
        return Parameter(label: label, type: type, defaultValue: value)
    }

    /// A type name that is not a list: built in or declared under `types:`.
    mutating func parseType() throws(DeclarationError) -> ParameterType {
        let (typeOffset, typeName) = try identifier("type name")
        let type: ParameterType
        switch typeName {
        case "String": type = .string
        case "Int": type = .int
        case "Double": type = .double
        case "Bool": type = .bool
        case "UUID": type = .uuid
        default:
            guard let cases = types[typeName] else {
                let known = (ParameterType.builtInNames + types.keys.sorted()).joined(separator: ", ")
                throw error(.unknownType, at: typeOffset, "unknown type '\(typeName)'; expected one of \(known)")
            }
            type = .enumeration(name: typeName, cases: cases)
        }
        return type
    }

    /// A list default: `[]` or `[value, value]`, each value as ``parseDefault(for:label:)`` reads it; `nil` when an
    /// item does not fit.
    mutating func parseListDefault(for type: ParameterType, label: String) throws(DeclarationError) -> Value? {
        guard case .list(let element) = type, current == "[" else { return nil }
        position += 1
        var items: [Value] = []
        skipSpaces()
        if current == "]" {
            position += 1
            return .list(items)
        }
        while true {
            skipSpaces()
            guard let item = try parseDefault(for: element, label: label) else { return nil }
            items.append(item)
            skipSpaces()
            if current == "," {
                position += 1
                continue
            }
            try expect("]", "',' or ']' in the list")
            return .list(items)
        }
    }

    /// True for a built-in type or one declared under `types:`.
    func isTypeName(_ name: String) -> Bool {
        ParameterType.builtInNames.contains(name) || types[name] != nil
    }

    /// The declaration with a label before each parameter written as a bare type: `offer(String)` →
    /// `offer(id: String)` (`id` for String, Int and UUID, `flag` for Bool, the enum's name in lower camel case).
    func labelled() -> String {
        guard let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), open < close else {
            return text
        }
        let parts = text[text.index(after: open)..<close].split(separator: ",").map {
            String($0.trimmingWhitespace())
        }
        var used = Set(parts.filter { $0.contains(":") }.compactMap { $0.split(separator: ":").first.map(String.init) })
        let items = parts.map { part -> String in
            guard isTypeName(part) else { return part }
            let base: String
            switch part {
            case "String", "Int", "UUID": base = "id"
            case "Double": base = "value"
            case "Bool": base = "flag"
            default: base = part.prefix(1).lowercased() + part.dropFirst()
            }
            var label = base
            var n = 2
            while !used.insert(label).inserted {
                label = "\(base)\(n)"
                n += 1
            }
            return "\(label): \(part)"
        }
        return String(text[..<open]) + "(" + items.joined(separator: ", ") + ")"
    }

    func example(_ type: ParameterType) -> String {
        switch type {
        case .string: return "expected a quoted string such as \"all\""
        case .int: return "expected an integer such as 1"
        case .double: return "expected a number such as 0.5"
        case .bool: return "expected true or false"
        case .uuid: return "expected a quoted UUID such as \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\""
        case .enumeration(let name, let cases):
            return "expected a case of \(name): " + cases.map { "." + $0 }.joined(separator: ", ")
        case .list(let element): return "expected a list such as [] or [a, b] of which " + example(element)
        }
    }

    /// Reads a default value; `nil` when the text there does not fit `type`.
    mutating func parseDefault(for type: ParameterType, label: String) throws(DeclarationError) -> Value? {
        if current == "\"" {
            let literal = try parseStringLiteral()
            switch type {
            case .string: return .string(literal)
            case .uuid: return PageUUID(uuidString: literal).map(Value.uuid)
            default: return nil
            }
        }
        let start = position
        if current == "." { position += 1 }
        while let c = current, c == "_" || c == "-" || c == "+" || c.isLetter || c.isNumber || c == "." {
            position += 1
        }
        let word = String(chars[start..<position])
        guard !word.isEmpty else { return nil }
        switch type {
        case .int:
            return Int(word).map(Value.int)
        case .double:
            return ParameterType.double.convert(Substring(word))
        case .bool:
            return word == "true" ? .bool(true) : word == "false" ? .bool(false) : nil
        case .enumeration(_, let cases):
            let name = word.hasPrefix(".") ? String(word.dropFirst()) : word
            return cases.contains(name) ? .enumCase(name) : nil
        case .string, .uuid, .list:
            return nil
        }
    }

    /// A Swift string literal at the current position (which is `"`), with `\" \\ \n \r \t \0 \u{…}` escapes.
    mutating func parseStringLiteral() throws(DeclarationError) -> String {
        let open = position
        position += 1
        var out = ""
        while let c = current {
            position += 1
            switch c {
            case "\"":
                return out
            case "\\":
                guard let e = current else { break }
                let escapeOffset = position - 1
                position += 1
                switch e {
                case "\"": out.append("\"")
                case "\\": out.append("\\")
                case "'": out.append("'")
                case "n": out.append("\n")
                case "r": out.append("\r")
                case "t": out.append("\t")
                case "0": out.append("\0")
                case "u":
                    guard current == "{" else {
                        throw error(.invalidDefault, at: escapeOffset, "expected '\\u{hex}' in the string")
                    }
                    position += 1
                    let hexStart = position
                    while let h = current, h.isHexDigit { position += 1 }
                    let hex = String(chars[hexStart..<position])
                    guard current == "}", let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
                        throw error(.invalidDefault, at: escapeOffset, "expected '\\u{hex}' with a valid code point")
                    }
                    position += 1
                    out.unicodeScalars.append(scalar)
                default:
                    throw error(.invalidDefault, at: escapeOffset, "unknown escape '\\\(e)' in the string")
                }
            default:
                out.append(c)
            }
        }
        throw error(.invalidDefault, at: open, "unterminated string; expected a closing '\"'")
    }
}
