/// A page written in the config, with arguments that may read payload keys:
/// `account.order(id: $orderId)` under `categories:`, or `catalog.home` as `app.fallback`.
///
/// It is untyped text until the graph checks it against the page's declaration.
public struct PageExpression: Sendable, Hashable, CustomStringConvertible {
    /// One argument: a literal or a payload key to read.
    public enum Argument: Sendable, Hashable, CustomStringConvertible {
        /// Literal text (quotes removed; `.price` written as `price`).
        case literal(String)
        /// `$name`: the value of the payload's custom key `name`.
        case payloadKey(String)

        public var description: String {
            switch self {
            case .literal(let s): return Value.swiftStringLiteral(s)
            case .payloadKey(let k): return "$" + k
            }
        }
    }

    /// The page this expression names.
    public let page: PageID
    /// Labelled arguments in written order.
    public let arguments: [(label: String, value: Argument)]

    /// An expression from its parts.
    public init(page: PageID, arguments: [(label: String, value: Argument)] = []) {
        self.page = page
        self.arguments = arguments
    }

    public var description: String {
        guard !arguments.isEmpty else { return page.description }
        return page.description + "(" + arguments.map { "\($0.label): \($0.value)" }.joined(separator: ", ") + ")"
    }

    public static func == (lhs: PageExpression, rhs: PageExpression) -> Bool {
        lhs.page == rhs.page && lhs.arguments.map(\.label) == rhs.arguments.map(\.label)
            && lhs.arguments.map(\.value) == rhs.arguments.map(\.value)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(page)
        for a in arguments {
            hasher.combine(a.label)
            hasher.combine(a.value)
        }
    }

    /// The argument text with every `$key` replaced by `lookup(key)`.
    ///
    /// Returns the first key that `lookup` could not supply as the error.
    public func substitute(_ lookup: (String) -> String?) -> Result<[(label: String, text: String)], MissingKey> {
        var out: [(label: String, text: String)] = []
        for a in arguments {
            switch a.value {
            case .literal(let s): out.append((a.label, s))
            case .payloadKey(let k):
                guard let v = lookup(k) else { return .failure(MissingKey(key: k)) }
                out.append((a.label, v))
            }
        }
        return .success(out)
    }

    /// A payload key named by `$key` that the payload does not carry.
    public struct MissingKey: Error, Sendable, Hashable {
        /// The key's name without `$`.
        public let key: String
    }

    /// Parses `coordinator.case` or `coordinator.case(label: value, …)` where a value is `$key`, a quoted string,
    /// a number, `true`/`false`, `.enumCase` or a bare word.
    public static func parse(_ text: String) throws(ExpressionError) -> PageExpression {
        var s = Substring(text.trimmingWhitespace())
        guard let open = s.firstIndex(of: "(") else {
            guard let id = PageID(s), isIdentifier(id.coordinator), isIdentifier(id.name) else {
                throw ExpressionError(
                    text: text, reason: "expected 'coordinator.case' or 'coordinator.case(label: value)'")
            }
            return PageExpression(page: id)
        }
        guard s.last == ")" else { throw ExpressionError(text: text, reason: "expected ')' at the end") }
        guard let id = PageID(s[..<open].trimmingWhitespace()), isIdentifier(id.coordinator), isIdentifier(id.name)
        else {
            throw ExpressionError(text: text, reason: "expected 'coordinator.case' before '('")
        }
        s = s[s.index(after: open)..<s.index(before: s.endIndex)]
        var arguments: [(label: String, value: Argument)] = []
        for part in try splitArguments(s, text: text) {
            guard let colon = part.firstIndex(of: ":") else {
                throw ExpressionError(text: text, reason: "expected 'label: value' in '\(part)'")
            }
            let label = String(part[..<colon].trimmingWhitespace())
            let raw = part[part.index(after: colon)...].trimmingWhitespace()
            guard isIdentifier(label) else { throw ExpressionError(text: text, reason: "'\(label)' is not a label") }
            guard !raw.isEmpty else { throw ExpressionError(text: text, reason: "missing value for '\(label)'") }
            if arguments.contains(where: { $0.label == label }) {
                throw ExpressionError(text: text, reason: "label '\(label)' given twice")
            }
            let value: Argument
            if raw.hasPrefix("$") {
                let key = String(raw.dropFirst())
                guard !key.isEmpty else { throw ExpressionError(text: text, reason: "'$' must name a payload key") }
                value = .payloadKey(key)
            } else if raw.hasPrefix("\"") {
                guard raw.count >= 2, raw.hasSuffix("\"") else {
                    throw ExpressionError(text: text, reason: "unterminated string for '\(label)'")
                }
                value = .literal(unescape(raw.dropFirst().dropLast()))
            } else if raw.hasPrefix(".") {
                value = .literal(String(raw.dropFirst()))
            } else {
                value = .literal(String(raw))
            }
            arguments.append((label, value))
        }
        return PageExpression(page: id, arguments: arguments)
    }

    static func splitArguments(_ s: Substring, text: String) throws(ExpressionError) -> [Substring] {
        if s.trimmingWhitespace().isEmpty { return [] }
        var parts: [Substring] = []
        var inString = false
        var escaped = false
        var start = s.startIndex
        for i in s.indices {
            let c = s[i]
            if inString {
                if escaped {
                    escaped = false
                } else if c == "\\" {
                    escaped = true
                } else if c == "\"" {
                    inString = false
                }
            } else if c == "\"" {
                inString = true
            } else if c == "," {
                parts.append(s[start..<i])
                start = s.index(after: i)
            }
        }
        if inString { throw ExpressionError(text: text, reason: "unterminated string") }
        parts.append(s[start...])
        return parts
    }

    static func unescape(_ s: Substring) -> String {
        var out = ""
        var escaped = false
        for c in s {
            if escaped {
                switch c {
                case "n": out.append("\n")
                case "t": out.append("\t")
                default: out.append(c)
                }
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return out
    }
}

/// A page expression that does not parse.
public struct ExpressionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text as written.
    public let text: String
    /// What was expected.
    public let reason: String

    public var description: String { "invalid page expression '\(text)': \(reason)" }
}

/// True for a Swift-style identifier: a letter or `_`, then letters, digits or `_`.
public func isIdentifier(_ s: some StringProtocol) -> Bool {
    guard let first = s.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
    return s.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and newlines.
    public func trimmingWhitespace() -> SubSequence {
        var start = startIndex
        var end = endIndex
        while start < end, self[start].isWhitespace { start = index(after: start) }
        while end > start, self[index(before: end)].isWhitespace { end = index(before: end) }
        return self[start..<end]
    }
}
