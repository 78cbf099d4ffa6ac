/// A link pattern such as `/catalog/{slug}?page={page}&sort={sort}`.
///
/// A pattern is a path of segments — literal text, `{name}` parameters, and an optional trailing `{rest...}`
/// catch-all that binds one or more remaining segments joined by `/` — followed by optional `?key={name}` query
/// bindings, which match in any order. Names are bound to the labels of the page's ``CaseDeclaration``; see
/// ``check(against:)`` for the rules.
public struct LinkPattern: Sendable, Hashable, CustomStringConvertible {
    /// One path segment of a pattern.
    public enum Segment: Sendable, Hashable, CustomStringConvertible {
        /// Literal text that must equal the link's (percent-decoded) segment.
        case literal(String)
        /// `{name}`: binds exactly one segment.
        case parameter(String)
        /// `{name...}`: binds one or more remaining segments joined by `/`; only last.
        case catchAll(String)
        /// `prefix{name}suffix` (`v{version}`, `@{user}`, `{id}.html`): binds the text of one segment between a
        /// literal prefix and suffix, at least one of them non-empty; the text between must not be empty. Several
        /// parameters (`{slug}-{id}.html`) have a non-empty literal separator between each two: `separators` has one
        /// element fewer than `names`. Each but the last takes the shortest non-empty text up to the first
        /// following occurrence of its separator; the last takes the rest (not empty).
        case part(prefix: String, names: [String], separators: [String], suffix: String)

        /// The segment as written in a pattern (literals unescaped).
        public var description: String {
            switch self {
            case .literal(let s): return s
            case .parameter(let n): return "{\(n)}"
            case .catchAll(let n): return "{\(n)...}"
            case .part(let prefix, let names, let separators, let suffix):
                var text = prefix
                for (k, name) in names.enumerated() {
                    text += "{\(name)}" + (k < separators.count ? separators[k] : "")
                }
                return text + suffix
            }
        }
    }

    /// One `key={name}` query binding.
    public struct QueryBinding: Sendable, Hashable {
        /// The query key in the link.
        public let key: String
        /// The bound name (a label of the case).
        public let name: String
    }

    /// The parsed parts behind one reference, so that copying a pattern (into every ``LinkMatch``) is cheap.
    final class Storage: Sendable {
        let text: String
        let segments: [Segment]
        let query: [QueryBinding]
        let nameOffsets: [String: Int]
        let isLastOptional: Bool

        init(
            text: String, segments: [Segment], query: [QueryBinding], nameOffsets: [String: Int],
            isLastOptional: Bool = false
        ) {
            self.text = text
            self.segments = segments
            self.query = query
            self.nameOffsets = nameOffsets
            self.isLastOptional = isLastOptional
        }
    }

    let storage: Storage

    /// The pattern as written.
    public var text: String { storage.text }
    /// The path segments in order (empty for `/`).
    public var segments: [Segment] { storage.segments }
    /// The query bindings in written order.
    public var query: [QueryBinding] { storage.query }
    /// Character offset of each bound name in `text`, for error messages.
    var nameOffsets: [String: Int] { storage.nameOffsets }

    /// The name of the last path segment when it is written `{name?}`: a link may leave that segment out, and the
    /// label then takes its default (`/search/{q?}` matches `/search` and `/search/shoes`).
    public var optionalName: String? {
        guard storage.isLastOptional, case .parameter(let name) = segments.last else { return nil }
        return name
    }

    /// The path without its optional last segment, when it has one: the other path the pattern matches.
    public var segmentsWithoutOptional: [Segment]? {
        optionalName == nil ? nil : Array(segments.dropLast())
    }

    /// Patterns are equal when written the same: the text decides everything else.
    public static func == (lhs: LinkPattern, rhs: LinkPattern) -> Bool {
        lhs.storage === rhs.storage || lhs.text == rhs.text
    }

    /// Hashes the text.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
    }

    /// Parses a pattern; the error names the character offset and what was expected.
    public static func parse(_ text: String) throws(PatternError) -> LinkPattern {
        var parser = PatternParser(text: text)
        return try parser.parse()
    }

    /// Names bound by path segments (including a catch-all), in order.
    public var pathParameterNames: [String] {
        segments.flatMap {
            switch $0 {
            case .literal: return [String]()
            case .parameter(let n), .catchAll(let n): return [n]
            case .part(_, let names, _, _): return names
            }
        }
    }

    /// Names bound by query keys, in written order.
    public var queryParameterNames: [String] { query.map(\.name) }

    /// Every bound name: path first, then query.
    public var parameterNames: [String] { pathParameterNames + queryParameterNames }

    /// The catch-all's name, when the pattern ends in `{name...}`.
    public var catchAllName: String? {
        if case .catchAll(let n) = segments.last { return n }
        return nil
    }

    /// The pattern as written.
    public var description: String { text }

    /// Checks that the pattern's names fit a case's labels; returns every problem (empty when it fits).
    ///
    /// The rules: every bound name must be a label of the case; a catch-all must bind a `String` label; every label
    /// without a default must be bound by the path or the query. A label with a default may be bound by the query
    /// (the default fills in when the key is absent) or by the path (the path always supplies it, so the default
    /// only serves the case's other patterns) or not at all (the page always gets the default from this pattern).
    public func check(against declaration: CaseDeclaration) -> [PatternError] {
        var problems: [PatternError] = []
        let labels = declaration.parameters.map(\.label).joined(separator: ", ")
        for name in parameterNames {
            let offset = nameOffsets[name] ?? 0
            guard let parameter = declaration.parameter(name) else {
                let known = labels.isEmpty ? "it has no parameters" : "its labels are \(labels)"
                problems.append(
                    PatternError(
                        code: .unknownLabel, text: text, offset: offset,
                        reason: "'{\(name)}' is not a parameter of '\(declaration)'; \(known)"))
                continue
            }
            if name == optionalName, parameter.defaultValue == nil {
                problems.append(
                    PatternError(
                        code: .unboundLabel, text: text, offset: offset,
                        reason: "'{\(name)?}' may be left out of a link, so '\(name)' needs a default: "
                            + "declare '\(name): \(parameter.type) = …'"))
            }
            if case .list = parameter.type, !queryParameterNames.contains(name) {
                problems.append(
                    PatternError(
                        code: .typeMismatch, text: text, offset: offset,
                        reason: "'\(name)' is a list (\(parameter.type)), which a repeated query key binds: "
                            + "write '?\(name)={\(name)}' instead of a path segment"))
            } else if name == catchAllName, parameter.type != .string {
                problems.append(
                    PatternError(
                        code: .typeMismatch, text: text, offset: offset,
                        reason: "catch-all '{\(name)...}' binds text with '/', so '\(name)' must be a String, "
                            + "not \(parameter.type)"))
            }
        }
        let bound = Set(parameterNames)
        for parameter in declaration.parameters where parameter.defaultValue == nil && !bound.contains(parameter.label)
        {
            let name = parameter.label
            problems.append(
                PatternError(
                    code: .unboundLabel, text: text, offset: text.count,
                    reason: "'\(name)' of '\(declaration)' has no default, so the pattern must bind it: "
                        + "add '{\(name)}' to the path or '?\(name)={\(name)}' to the query"))
        }
        return problems
    }
}

extension LinkPattern {
    /// Where a segment of several parameters splits ambiguously (a warning): a parameter before a separator whose
    /// values can hold that separator (any `String`; an enum case, a `UUID`, a number or `Bool` spelled with it).
    /// The parameter takes the text up to the separator's first occurrence, so such a value is split inside it
    /// (and the link then matches only if the pieces still convert). Each problem is at the parameter's name.
    public func ambiguousSplits(against declaration: CaseDeclaration) -> [PatternError] {
        var problems: [PatternError] = []
        for case .part(_, let names, let separators, _) in segments {
            for (name, separator) in zip(names, separators) {
                guard let type = declaration.parameter(name)?.type, type.canHold(separator) else { continue }
                let fix =
                    type == .string
                    ? "give '\(name)' a type whose values cannot hold it (Int, an enum) or use a separator its values never hold"
                    : "use a separator its values never hold"
                problems.append(
                    PatternError(
                        code: .ambiguousSplit, text: text, offset: nameOffsets[name] ?? 0,
                        reason: "a value of '\(name)' (\(type)) may hold '\(separator)', and the segment is split at "
                            + "its first occurrence, so such a value is cut short; \(fix)"))
            }
        }
        return problems
    }
}

extension ParameterType {
    /// True when some value's link text can hold `separator` after its first character (where a split finds it).
    func canHold(_ separator: String) -> Bool {
        let all = { (set: String) in separator.allSatisfy(set.contains) }
        switch self {
        case .string, .list: return true
        case .int: return all("0123456789")
        case .double: return all("0123456789.eE+-")
        case .bool: return ["true", "false"].contains { $0.dropFirst().contains(separator) }
        case .uuid: return all("0123456789abcdefABCDEF-")
        case .enumeration(_, let cases): return cases.contains { $0.dropFirst().contains(separator) }
        }
    }
}

/// A pattern that does not parse, or whose names do not fit its case.
public struct PatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public enum Code: String, Sendable, Hashable {
        /// The pattern does not start with `/`.
        case missingLeadingSlash
        /// `//` inside the path.
        case emptySegment
        /// Two parameters with no literal text between them (`/{a}{b}`), or a stray brace.
        case mixedSegment
        /// A parameter name that is empty or not an identifier.
        case invalidName
        /// The same name bound twice.
        case duplicateName
        /// `{name...}` before the last segment, or in the query.
        case catchAllNotLast
        /// `{name?}` before the last path segment, on a catch-all, or in the query.
        case optionalNotLast
        /// A query part that is not `key={name}`, or a key given twice.
        case invalidQuery
        /// A character a pattern cannot hold (space, control character, `#`) or a bad `%` escape.
        case invalidCharacter
        /// A bound name that is not a label of the case.
        case unknownLabel
        /// A label without a default that the pattern does not bind.
        case unboundLabel
        /// A label whose type cannot be bound this way (a catch-all on a non-String label, a list in the path).
        case typeMismatch
        /// A parameter before a separator its values can hold (`{slug}-{id}` with `slug: String`): a warning from
        /// ``LinkPattern/ambiguousSplits(against:)``.
        case ambiguousSplit
    }

    /// The kind of problem.
    public let code: Code
    /// The pattern as written.
    public let text: String
    /// Character offset of the problem in `text` (0-based).
    public let offset: Int
    /// What was wrong and what was expected.
    public let reason: String

    /// `invalid pattern 'text' at offset N: reason`.
    public var description: String { "invalid pattern '\(text)' at offset \(offset): \(reason)" }
}

struct PatternParser {
    let text: String
    let chars: [Character]
    var nameOffsets: [String: Int] = [:]
    /// Whether the segment parsed last was `{name?}`.
    var isLastOptional = false

    init(text: String) {
        self.text = text
        self.chars = Array(text)
    }

    func error(_ code: PatternError.Code, at offset: Int, _ reason: String) -> PatternError {
        PatternError(code: code, text: text, offset: offset, reason: reason)
    }

    mutating func parse() throws(PatternError) -> LinkPattern {
        guard chars.first == "/" else {
            throw error(.missingLeadingSlash, at: 0, "a pattern starts with '/', e.g. '/offers/{id}'")
        }
        // The query starts at the first '?' outside braces: `{q?}` is an optional segment.
        var queryStart = chars.count
        var inBraces = false
        for (i, c) in chars.enumerated() {
            if c == "{" { inBraces = true } else if c == "}" { inBraces = false }
            if c == "?", !inBraces {
                queryStart = i
                break
            }
        }
        for (i, c) in chars.enumerated() {
            if c == "#" { throw error(.invalidCharacter, at: i, "a pattern cannot hold a fragment ('#')") }
            if c == " " || c.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                throw error(.invalidCharacter, at: i, "a pattern cannot hold spaces or control characters; use %20")
            }
        }
        var segments: [LinkPattern.Segment] = []
        var start = 1
        while start < queryStart {
            var end = start
            while end < queryStart, chars[end] != "/" { end += 1 }
            if end == start {
                throw error(
                    .emptySegment, at: start,
                    "empty path segment: a link's empty segments are dropped ('//cart' is '/cart'), so this one "
                        + "could never match; remove the extra '/'")
            }
            if case .catchAll(let name) = segments.last {
                throw error(
                    .catchAllNotLast, at: start - 1, "catch-all '{\(name)...}' must be the last path segment")
            }
            if isLastOptional, case .parameter(let name) = segments.last {
                throw error(
                    .optionalNotLast, at: start - 1,
                    "optional '{\(name)?}' must be the last path segment: a link leaves out only its end")
            }
            segments.append(try parseSegment(start, end))
            start = end + 1
            if end == queryStart - 1 { break }
        }
        var query: [LinkPattern.QueryBinding] = []
        // A `?` with nothing after it is no query, as in the links and patterns of other routers (`/search?`).
        if queryStart < chars.count - 1 {
            var start = queryStart + 1
            while true {
                var end = start
                while end < chars.count, chars[end] != "&" { end += 1 }
                let binding = try parseQueryBinding(start, end)
                if query.contains(where: { $0.key == binding.key }) {
                    throw error(.invalidQuery, at: start, "query key '\(binding.key)' is given twice")
                }
                query.append(binding)
                if end == chars.count { break }
                start = end + 1
            }
        }
        return LinkPattern(
            storage: LinkPattern.Storage(
                text: text, segments: segments, query: query, nameOffsets: nameOffsets, isLastOptional: isLastOptional))
    }

    mutating func parseSegment(_ start: Int, _ end: Int) throws(PatternError) -> LinkPattern.Segment {
        let part = chars[start..<end]
        let hasBrace = part.contains("{") || part.contains("}")
        guard hasBrace else { return .literal(try decodeLiteral(start, end)) }
        guard part.first == "{", part.last == "}", part.count >= 2,
            part.dropFirst().dropLast().allSatisfy({ $0 != "{" && $0 != "}" })
        else { return try parsePart(start, end) }
        var name = String(part.dropFirst().dropLast())
        var isCatchAll = false
        isLastOptional = name.hasSuffix("?")
        if isLastOptional { name.removeLast() }
        if name.hasSuffix("...") {
            name.removeLast(3)
            isCatchAll = true
            if isLastOptional {
                throw error(
                    .optionalNotLast, at: start + 1,
                    "a catch-all binds one or more segments and cannot be optional; write '{\(name)...}' and "
                        + "add the pattern without it")
            }
        }
        try bind(name, at: start + 1)
        return isCatchAll ? .catchAll(name) : .parameter(name)
    }

    /// `prefix{name}suffix`, `prefix{a}sep{b}suffix`: parameters between literal text in one segment, each two
    /// separated by non-empty literal text.
    mutating func parsePart(_ start: Int, _ end: Int) throws(PatternError) -> LinkPattern.Segment {
        var literals: [String] = []
        var names: [String] = []
        var cursor = start
        while cursor < end {
            var open = cursor
            while open < end, chars[open] != "{", chars[open] != "}" { open += 1 }
            guard open < end else { break }
            guard chars[open] == "{",
                let close = (open + 1..<end).first(where: { chars[$0] == "{" || chars[$0] == "}" }),
                chars[close] == "}"
            else {
                throw error(
                    .mixedSegment, at: open,
                    "unbalanced brace in '\(String(chars[start..<end]))'; write each parameter as '{name}'")
            }
            if !names.isEmpty, open == cursor {
                throw error(
                    .mixedSegment, at: open,
                    "'{\(names[names.count - 1])}' and the parameter after it need literal text between them in "
                        + "'\(String(chars[start..<end]))' (as in '{a}-{b}'), else where one ends is unknown")
            }
            literals.append(try decodeLiteral(cursor, open))
            let name = String(chars[(open + 1)..<close])
            if name.hasSuffix("...") || name.hasSuffix("?") {
                throw error(
                    .mixedSegment, at: open + 1,
                    "'{\(name)}' cannot have literal text around it in its segment; write it as a segment of its own")
            }
            try bind(name, at: open + 1)
            names.append(name)
            cursor = close + 1
        }
        let suffix = try decodeLiteral(cursor, end)
        isLastOptional = false
        return .part(
            prefix: literals[0], names: names, separators: Array(literals.dropFirst()), suffix: suffix)
    }

    mutating func bind(_ name: String, at offset: Int) throws(PatternError) {
        guard !name.isEmpty else { throw error(.invalidName, at: offset, "empty parameter name; write '{name}'") }
        guard isIdentifier(name) else {
            throw error(.invalidName, at: offset, "'\(name)' is not a valid parameter name; use a case label")
        }
        if nameOffsets[name] != nil {
            throw error(.duplicateName, at: offset, "'\(name)' is bound twice; bind each label once")
        }
        nameOffsets[name] = offset
    }

    mutating func parseQueryBinding(_ start: Int, _ end: Int) throws(PatternError) -> LinkPattern.QueryBinding {
        let part = chars[start..<end]
        guard let eq = part.firstIndex(of: "="), eq > start else {
            throw error(.invalidQuery, at: start, "expected 'key={name}' in the query")
        }
        let key = try decodeLiteral(start, eq)
        if key.contains("{") || key.contains("}") {
            throw error(.invalidQuery, at: start, "a query key is literal text; write 'key={name}'")
        }
        let value = chars[(eq + 1)..<end]
        guard value.first == "{", value.last == "}", value.count >= 2 else {
            throw error(.invalidQuery, at: eq + 1, "a query value must be one '{name}' parameter")
        }
        let name = String(value.dropFirst().dropLast())
        if name.hasSuffix("...") {
            throw error(.catchAllNotLast, at: eq + 2, "a catch-all '{\(name)}' belongs at the end of the path")
        }
        if name.hasSuffix("?") {
            throw error(
                .optionalNotLast, at: eq + 2,
                "'{\(name)}' is for a path segment; a query binding with a default is already optional")
        }
        if name.contains("{") || name.contains("}") {
            throw error(.invalidQuery, at: eq + 1, "a query value must be one '{name}' parameter")
        }
        try bind(name, at: eq + 2)
        return LinkPattern.QueryBinding(key: key, name: name)
    }

    /// Literal text with `%XX` escapes decoded.
    func decodeLiteral(_ start: Int, _ end: Int) throws(PatternError) -> String {
        let part = String(chars[start..<end])
        guard part.contains("%") else { return part }
        guard let decoded = percentDecode(Array(part.utf8)[...], plusIsSpace: false) else {
            throw error(.invalidCharacter, at: start, "invalid '%' escape in '\(part)'; write '%' as %25")
        }
        return decoded
    }
}
