/// A type in a varlink interface definition.
public indirect enum VarlinkType: Sendable, Hashable, CustomStringConvertible {
    /// `bool`: a JSON Boolean.
    case bool
    /// `int`: a JSON number without a fraction.
    case int
    /// `float`: any JSON number.
    case float
    /// `string`: a JSON string.
    case string
    /// `object`: any JSON object, not described further.
    case object
    /// A type defined in the interface by `type Name ...`.
    case named(String)
    /// `?T`: `T`, `null`, or (as a field) absent.
    case optional(VarlinkType)
    /// `[]T`: a JSON array of `T`.
    case array(VarlinkType)
    /// `[string]T`: a JSON object whose values are `T`.
    case map(VarlinkType)
    /// `(a, b, c)`: one of the listed names as a JSON string.
    case enumeration([String])
    /// `(a: T, b: U)`: a JSON object with exactly these fields.
    case structure([VarlinkField])

    /// The type as written in an interface definition, e.g. `?[]string`.
    public var description: String {
        switch self {
        case .bool: return "bool"
        case .int: return "int"
        case .float: return "float"
        case .string: return "string"
        case .object: return "object"
        case .named(let name): return name
        case .optional(let wrapped): return "?" + wrapped.description
        case .array(let element): return "[]" + element.description
        case .map(let value): return "[string]" + value.description
        case .enumeration(let cases): return "(" + cases.joined(separator: ", ") + ")"
        case .structure(let fields): return "(" + fields.map(\.description).joined(separator: ", ") + ")"
        }
    }

    /// True for `?T`.
    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }
}

/// A named field of a struct, a method's input or output, or an error's parameters.
public struct VarlinkField: Sendable, Hashable, CustomStringConvertible {
    /// The field name.
    public let name: String
    /// The field's type.
    public let type: VarlinkType
    /// The `#` comment lines right before the field, without the `# ` prefixes.
    public let doc: String

    /// A field named `name` of `type`.
    public init(name: String, type: VarlinkType, doc: String = "") {
        self.name = name
        self.type = type
        self.doc = doc
    }

    /// The field as written in an interface definition, e.g. `device: ?string`.
    public var description: String { "\(name): \(type)" }
}
