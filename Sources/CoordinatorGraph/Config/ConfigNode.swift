/// A node of a parsed config document, YAML or JSON alike, with the place it starts in the file.
///
/// The readers build this tree; ``ConfigDecoder`` turns it into a ``ConfigDraft``. Scalars keep their text:
/// whether `600` is a number is decided by the decoder from ``isQuoted`` (a quoted `"600"` is always a string).
struct ConfigNode: Sendable {
    /// A mapping entry; its key is always a scalar.
    struct Entry: Sendable {
        let key: ConfigNode
        let value: ConfigNode
    }

    /// What the node holds.
    enum Content: Sendable {
        /// Text; `quoted` for quoted or block YAML scalars and JSON strings.
        case scalar(String, quoted: Bool)
        /// An ordered list.
        case sequence([ConfigNode])
        /// Ordered key/value entries, keys as written (duplicates are reported by ``duplicateKeyFindings()``).
        case mapping([Entry])
    }

    /// The typed reading of a scalar, YAML 1.2 core schema style.
    enum ScalarValue: Equatable {
        case null
        case bool(Bool)
        case int(Int)
        case string(String)
    }

    let content: Content
    let location: SourceLocation
    /// A stand-in for something the reader rejected and reported (an alias): the decoder skips it silently.
    var isReported = false

    /// The scalar's text, if this is a scalar (whatever its type).
    var text: String? {
        if case .scalar(let s, _) = content { return s }
        return nil
    }

    /// True for a quoted scalar (its text is a string, never a number or null).
    var isQuoted: Bool {
        if case .scalar(_, let quoted) = content { return quoted }
        return false
    }

    /// The scalar read as null, Boolean, integer or string; `nil` for lists and mappings.
    var scalarValue: ScalarValue? {
        guard case .scalar(let s, let quoted) = content else { return nil }
        if quoted { return .string(s) }
        switch s {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        if let i = ConfigNode.integer(s) { return .int(i) }
        return .string(s)
    }

    /// True for an explicit or implied null (`~`, `null`, or nothing after the colon).
    var isNull: Bool { scalarValue == .null }

    /// How the node reads in a message: `a list`, `a mapping`, `the integer 5`, `the string "x"`, `nothing`.
    var kindDescription: String {
        switch content {
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        case .scalar:
            switch scalarValue {
            case .null, nil: return "nothing (null)"
            case .bool(let b): return "the Boolean \(b)"
            case .int(let i): return "the integer \(i)"
            case .string(let s):
                if !isQuoted, Double(s) != nil { return "the number \(s)" }
                return "the string \"\(s)\""
            }
        }
    }

    /// Where the text of a scalar begins: one past the opening quote of a quoted scalar.
    var textLocation: SourceLocation {
        isQuoted ? location.advanced(by: 1) : location
    }

    /// Decimal integers with an optional sign (`600`, `-1`, `+3`), hexadecimal `0x1F` and octal `0o17`.
    static func integer(_ s: String) -> Int? {
        var body = Substring(s)
        var negative = false
        if let first = body.first, first == "-" || first == "+" {
            negative = first == "-"
            body = body.dropFirst()
        }
        var radix = 10
        if body.hasPrefix("0x") {
            radix = 16
            body = body.dropFirst(2)
        } else if body.hasPrefix("0o") {
            radix = 8
            body = body.dropFirst(2)
        }
        guard !body.isEmpty, body.allSatisfy({ $0.isHexDigit }), let magnitude = Int(body, radix: radix) else {
            return nil
        }
        return negative ? -magnitude : magnitude
    }
}

extension ConfigNode {
    /// An error for every key that repeats an earlier key of the same mapping, anywhere in the tree.
    func duplicateKeyFindings() -> [ConfigFinding] {
        var findings: [ConfigFinding] = []
        var pending: [ConfigNode] = [self]
        while let node = pending.popLast() {
            switch node.content {
            case .scalar: break
            case .sequence(let items): pending.append(contentsOf: items)
            case .mapping(let entries):
                var seen: [String: SourceLocation] = [:]
                for entry in entries where !entry.key.isReported {
                    let key = entry.key.text ?? ""
                    if let first = seen[key] {
                        findings.append(
                            .error(
                                "duplicate-key", at: entry.key.location,
                                "duplicate key '\(key)'; it is already set at \(first.line):\(first.column)"))
                    } else {
                        seen[key] = entry.key.location
                    }
                    pending.append(entry.value)
                }
            }
        }
        return findings
    }
}
