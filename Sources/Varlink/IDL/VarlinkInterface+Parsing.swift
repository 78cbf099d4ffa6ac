extension VarlinkInterface {
    /// Parses a varlink interface definition.
    ///
    /// Accepts the grammar of the varlink specification: `#` comments (kept as documentation
    /// when they precede a member or a field), `interface reverse.domain.Name`, then `type`,
    /// `method` and `error` members. Every named type used must be defined, and member, field
    /// and enum case names must be unique.
    ///
    /// - Throws: ``VarlinkIDLError`` with the line and column of the first problem.
    public static func parse(_ text: String) throws(VarlinkIDLError) -> VarlinkInterface {
        var parser = IDLParser(text: text)
        return try parser.parseInterface()
    }
}

/// A recursive-descent reader of varlink IDL over UTF-8 bytes.
struct IDLParser {
    let text: String
    let bytes: [UInt8]
    var index = 0
    /// Comment lines seen since documentation was last taken.
    var comments: [String] = []
    /// Named types used, with where they were used, for the check that each is defined.
    var references: [(name: String, offset: Int)] = []

    init(text: String) {
        self.text = text
        self.bytes = Array(text.utf8)
    }

    // MARK: Members

    mutating func parseInterface() throws(VarlinkIDLError) -> VarlinkInterface {
        skipTrivia()
        let doc = takeDoc()
        try expectKeyword("interface")
        try expectSpace(after: "interface")
        let nameOffset = index
        let name = word { VarlinkNames.isAlpha($0) || VarlinkNames.isDigit($0) || $0 == 0x2E || $0 == 0x2D }
        guard VarlinkNames.isInterfaceName(name.utf8) else {
            throw error(
                at: nameOffset,
                "expected an interface name such as org.example.Name, found \(quoted(name))")
        }
        var types: [VarlinkInterface.TypeDefinition] = []
        var methods: [VarlinkInterface.Method] = []
        var errors: [VarlinkInterface.ErrorDefinition] = []
        var memberOffsets: [String: Int] = [:]
        comments.removeAll()
        while true {
            skipTrivia()
            guard index < bytes.count else { break }
            let memberDoc = takeDoc()
            let keywordOffset = index
            let keyword = word { VarlinkNames.isAlpha($0) }
            guard ["type", "method", "error"].contains(keyword) else {
                throw error(at: keywordOffset, "expected 'type', 'method' or 'error', found \(quoted(keyword))")
            }
            try expectSpace(after: keyword)
            let memberName = try parseMemberName()
            if memberOffsets[memberName] != nil {
                throw error(at: index - memberName.utf8.count, "\(memberName) is declared twice")
            }
            memberOffsets[memberName] = index
            switch keyword {
            case "type":
                skipTrivia()
                let type = try parseStructOrEnum()
                types.append(.init(name: memberName, type: type, doc: memberDoc))
            case "method":
                skipTrivia()
                let input = try parseStruct(of: "the input of \(memberName)")
                skipTrivia()
                guard consume("->") else { throw error(at: index, "expected '->' after the input of \(memberName)") }
                skipTrivia()
                let output = try parseStruct(of: "the output of \(memberName)")
                methods.append(
                    .init(
                        name: memberName, qualifiedName: name + "." + memberName, input: input, output: output,
                        doc: memberDoc))
            default:
                skipTrivia()
                let parameters = try parseStruct(of: "the parameters of \(memberName)")
                errors.append(
                    .init(
                        name: memberName, qualifiedName: name + "." + memberName, parameters: parameters, doc: memberDoc
                    )
                )
            }
            comments.removeAll()
        }
        let typeNames = Set(types.map(\.name))
        for reference in references where !typeNames.contains(reference.name) {
            throw error(at: reference.offset, "type \(reference.name) is used but not defined")
        }
        return VarlinkInterface(name: name, doc: doc, text: text, types: types, methods: methods, errors: errors)
    }

    mutating func parseMemberName() throws(VarlinkIDLError) -> String {
        let offset = index
        let name = word { VarlinkNames.isAlpha($0) || VarlinkNames.isDigit($0) }
        guard VarlinkNames.isMemberName(name.utf8) else {
            throw error(at: offset, "expected a name starting with an uppercase letter, found \(quoted(name))")
        }
        return name
    }

    // MARK: Types

    /// `( ... )` as a struct (fields with types) or an enum (bare names).
    mutating func parseStructOrEnum() throws(VarlinkIDLError) -> VarlinkType {
        let open = index
        let openComments = comments
        guard consume("(") else { throw error(at: index, "expected '(' to start a struct or an enum") }
        skipTrivia()
        if consume(")") {
            comments.removeAll()
            return .structure([])
        }
        // Look ahead past the first name: ':' makes a struct, ',' or ')' an enum.
        _ = word { VarlinkNames.isAlpha($0) || VarlinkNames.isDigit($0) || $0 == 0x5F }
        skipTrivia()
        let isStruct = index < bytes.count && bytes[index] == UInt8(ascii: ":")
        index = open
        comments = openComments
        return isStruct ? .structure(try parseStruct(of: "the struct")) : .enumeration(try parseEnum())
    }

    mutating func parseStruct(of what: String) throws(VarlinkIDLError) -> [VarlinkField] {
        guard consume("(") else { throw error(at: index, "expected '(' to start \(what)") }
        var fields: [VarlinkField] = []
        skipTrivia()
        if consume(")") {
            comments.removeAll()
            return fields
        }
        while true {
            skipTrivia()
            let doc = takeDoc()
            let nameOffset = index
            let name = try parseFieldName()
            if fields.contains(where: { $0.name == name }) {
                throw error(at: nameOffset, "field \(name) appears twice in \(what)")
            }
            skipTrivia()
            guard consume(":") else { throw error(at: index, "expected ':' and a type after field \(name)") }
            skipTrivia()
            let type = try parseType()
            fields.append(VarlinkField(name: name, type: type, doc: doc))
            skipTrivia()
            if consume(",") { continue }
            if consume(")") { break }
            throw error(at: index, "expected ',' or ')' after field \(name)")
        }
        comments.removeAll()
        return fields
    }

    mutating func parseEnum() throws(VarlinkIDLError) -> [String] {
        guard consume("(") else { throw error(at: index, "expected '(' to start an enum") }
        var cases: [String] = []
        while true {
            skipTrivia()
            let offset = index
            let name = try parseFieldName()
            if cases.contains(name) { throw error(at: offset, "enum case \(name) appears twice") }
            cases.append(name)
            skipTrivia()
            if consume(",") { continue }
            if consume(")") { break }
            throw error(at: index, "expected ',' or ')' after enum case \(name)")
        }
        comments.removeAll()
        return cases
    }

    mutating func parseFieldName() throws(VarlinkIDLError) -> String {
        let offset = index
        let name = word { VarlinkNames.isAlpha($0) || VarlinkNames.isDigit($0) || $0 == 0x5F }
        guard VarlinkNames.isFieldName(name.utf8) else {
            throw error(at: offset, "expected a field name such as 'device' or 'retry_after', found \(quoted(name))")
        }
        return name
    }

    mutating func parseType() throws(VarlinkIDLError) -> VarlinkType {
        if consume("?") {
            if index < bytes.count, bytes[index] == UInt8(ascii: "?") {
                throw error(at: index, "'??' is not a type; one '?' makes a type nullable")
            }
            return .optional(try parseType())
        }
        if consume("[]") { return .array(try parseType()) }
        if consume("[string]") { return .map(try parseType()) }
        if index < bytes.count, bytes[index] == UInt8(ascii: "(") { return try parseStructOrEnum() }
        let offset = index
        let name = word { VarlinkNames.isAlpha($0) || VarlinkNames.isDigit($0) }
        switch name {
        case "bool": return .bool
        case "int": return .int
        case "float": return .float
        case "string": return .string
        case "object": return .object
        default:
            guard VarlinkNames.isMemberName(name.utf8) else {
                throw error(
                    at: offset,
                    "expected a type (bool, int, float, string, object, a type name, ?T, []T, [string]T, "
                        + "a struct or an enum), found \(quoted(name))")
            }
            references.append((name, offset))
            return .named(name)
        }
    }

    // MARK: Lexing

    /// Skips spaces, tabs, line ends and comments, collecting comment lines.
    mutating func skipTrivia() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
            case UInt8(ascii: "#"):
                var start = index + 1
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
                var end = index
                if end > start, bytes[end - 1] == 0x0D { end -= 1 }
                if start < end, bytes[start] == 0x20 { start += 1 }
                comments.append(String(decoding: bytes[start..<end], as: UTF8.self))
            default:
                return
            }
        }
    }

    mutating func takeDoc() -> String {
        defer { comments.removeAll() }
        return comments.joined(separator: "\n")
    }

    /// Consumes the longest run of bytes matching `predicate` and returns it (possibly empty).
    mutating func word(_ predicate: (UInt8) -> Bool) -> String {
        let start = index
        while index < bytes.count, predicate(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func consume(_ token: StaticString) -> Bool {
        let count = token.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let p = token.utf8Start
        for i in 0..<count where bytes[index + i] != p[i] { return false }
        index += count
        return true
    }

    mutating func expectKeyword(_ keyword: String) throws(VarlinkIDLError) {
        let offset = index
        let found = word { VarlinkNames.isAlpha($0) }
        guard found == keyword else { throw error(at: offset, "expected '\(keyword)', found \(quoted(found))") }
    }

    mutating func expectSpace(after keyword: String) throws(VarlinkIDLError) {
        guard index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 else {
            throw error(at: index, "expected a space after '\(keyword)'")
        }
        skipTrivia()
    }

    func quoted(_ found: String) -> String {
        if !found.isEmpty { return "'\(found)'" }
        guard index < bytes.count else { return "the end of the text" }
        return "'\(String(decoding: bytes[index..<min(index + 1, bytes.count)], as: UTF8.self))'"
    }

    func error(at offset: Int, _ message: String) -> VarlinkIDLError {
        var line = 1
        var lineStart = 0
        for i in 0..<min(offset, bytes.count) where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return VarlinkIDLError(line: line, column: offset - lineStart + 1, message: message)
    }
}
