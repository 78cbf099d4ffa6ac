import JSON

/// A parameter that does not match its declaration in the interface.
public struct ParameterViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// The top-level parameter at fault, as sent in `InvalidParameter(parameter)`.
    public let parameter: String
    /// Where inside the parameter, e.g. `state.stacks.cart[0].id`.
    public let path: String
    /// What was wrong and what the interface expects.
    public let reason: String

    /// A violation at `path` inside `parameter`.
    public init(parameter: String, path: String, reason: String) {
        self.parameter = parameter
        self.path = path
        self.reason = reason
    }

    /// `org.varlink.service.InvalidParameter(parameter)`.
    public var error: VarlinkError { .invalidParameter(parameter) }

    /// The violation as a sentence: where, and what was wrong.
    public var description: String { "invalid parameter \(path): \(reason)" }
}

extension VarlinkInterface {
    /// Checks a call's parameters against `method`'s input: every non-nullable field present,
    /// no unknown field, every value of its declared type (recursively, enum values included).
    ///
    /// - Throws: ``ParameterViolation`` for the first parameter at fault.
    public func validate(parameters: JSONObject, for method: Method) throws(ParameterViolation) {
        try check(parameters, against: method.input, path: { "" }, top: nil)
    }

    /// Checks a call's parameters against the input of the method named `methodName`
    /// (unqualified, e.g. `Route`).
    ///
    /// - Throws: `MethodNotFound` when the interface has no such method, `InvalidParameter` naming
    ///   the first parameter at fault.
    public func validate(parameters: JSONObject, for methodName: some StringProtocol) throws(VarlinkError) {
        guard let method = method(named: methodName) else { throw .methodNotFound(name + "." + methodName) }
        do {
            try validate(parameters: parameters, for: method)
        } catch {
            throw error.error
        }
    }

    /// Checks a reply's parameters against `method`'s output, as strictly as a call's input.
    public func validate(reply parameters: JSONObject, for method: Method) throws(ParameterViolation) {
        try check(parameters, against: method.output, path: { "" }, top: nil)
    }

    /// Checks an error reply's parameters against the error's declaration.
    public func validate(errorParameters parameters: JSONObject, for error: ErrorDefinition) throws(ParameterViolation)
    {
        try check(parameters, against: error.parameters, path: { "" }, top: nil)
    }

    /// Checks any JSON value against a type of this interface.
    ///
    /// Named types in `type` must be defined in this interface (a programmer mistake otherwise).
    public func validate(_ value: JSON, as type: VarlinkType, path: String) throws(ParameterViolation) {
        try check(value, against: type, path: { path }, top: path)
    }

    // MARK: Checking

    // Paths are closures, built only for the error: a call that conforms builds no strings.

    /// Checks an object's fields; `top` is `nil` for a method's parameters (whose paths are the bare field names),
    /// else the top-level parameter the object is inside, at `path`.
    private func check(
        _ object: JSONObject, against fields: [VarlinkField], path: () -> String, top: String?
    ) throws(ParameterViolation) {
        for (key, value) in object {
            func fieldPath() -> String { top == nil ? key : path() + "." + key }
            guard let field = fields.first(where: { JSONObject.keysEqual($0.name, key) }) else {
                let known = fields.map(\.name).joined(separator: ", ")
                throw ParameterViolation(
                    parameter: top ?? key, path: fieldPath(),
                    reason: "unknown field \"\(key)\"; expected " + (known.isEmpty ? "no fields" : "one of: " + known))
            }
            try check(value, against: field.type, path: fieldPath, top: top ?? key)
        }
        for field in fields where !field.type.isOptional && !object.containsKey(field.name) {
            let fieldPath = top == nil ? field.name : path() + "." + field.name
            throw ParameterViolation(
                parameter: top ?? field.name, path: fieldPath,
                reason: "missing field \"\(field.name)\" of type \(field.type)")
        }
    }

    private func check(
        _ value: JSON, against type: VarlinkType, path: () -> String, top: String
    ) throws(ParameterViolation) {
        func mismatch(_ expected: String) -> ParameterViolation {
            ParameterViolation(parameter: top, path: path(), reason: "expected \(expected), found \(value.kindName)")
        }
        switch type {
        case .optional(let wrapped):
            if case .null = value { return }
            try check(value, against: wrapped, path: path, top: top)
        case .bool:
            guard case .bool = value else { throw mismatch("a boolean") }
        case .int:
            switch value {
            case .int: return
            case .double where value.intValue != nil: return
            case .double:
                throw ParameterViolation(parameter: top, path: path(), reason: "expected an integer, found \(value)")
            default: throw mismatch("an integer")
            }
        case .float:
            switch value {
            case .int, .double: return
            default: throw mismatch("a number")
            }
        case .string:
            guard case .string = value else { throw mismatch("a string") }
        case .object:
            guard case .object = value else { throw mismatch("an object") }
        case .enumeration(let cases):
            guard case .string(let s) = value else { throw mismatch("one of: " + cases.joined(separator: ", ")) }
            guard cases.contains(s) else {
                throw ParameterViolation(
                    parameter: top, path: path(),
                    reason: "\"\(s)\" is not one of: " + cases.joined(separator: ", "))
            }
        case .array(let element):
            guard case .array(let elements) = value else { throw mismatch("an array of \(element)") }
            for (i, item) in elements.enumerated() {
                try check(item, against: element, path: { path() + "[\(i)]" }, top: top)
            }
        case .map(let valueType):
            guard case .object(let object) = value else { throw mismatch("an object of \(valueType)") }
            for (key, item) in object {
                try check(item, against: valueType, path: { path() + "." + key }, top: top)
            }
        case .structure(let fields):
            guard case .object(let object) = value else { throw mismatch("an object") }
            try check(object, against: fields, path: path, top: top)
        case .named(let name):
            guard let definition = self.type(named: name) else {
                preconditionFailure("type \(name) was checked to be defined when the interface was parsed")
            }
            if case .structure = definition.type, value.objectValue == nil { throw mismatch("a \(name) object") }
            try check(value, against: definition.type, path: path, top: top)
        }
    }
}
