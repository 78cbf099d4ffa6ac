/// A parsed varlink interface definition: its types, methods and errors.
///
/// Parse the IDL text once with ``parse(_:)``; the value is immutable and `Sendable`. The text
/// is kept verbatim in ``text`` so that `GetInterfaceDescription` serves exactly what was read.
public struct VarlinkInterface: Sendable {
    /// A `type Name (...)` definition: a struct or an enum.
    public struct TypeDefinition: Sendable, Hashable {
        /// The type name, e.g. `Decision`.
        public let name: String
        /// The definition, a ``VarlinkType/structure(_:)`` or ``VarlinkType/enumeration(_:)``.
        public let type: VarlinkType
        /// The `#` comment lines before the definition.
        public let doc: String
    }

    /// A `method Name (input) -> (output)` declaration.
    public struct Method: Sendable, Hashable {
        /// The method name, e.g. `Route`.
        public let name: String
        /// The qualified name, e.g. `io.notifyd.Router.Route`.
        public let qualifiedName: String
        /// The input parameters.
        public let input: [VarlinkField]
        /// The output parameters.
        public let output: [VarlinkField]
        /// The `#` comment lines before the declaration.
        public let doc: String
    }

    /// An `error Name (parameters)` declaration.
    public struct ErrorDefinition: Sendable, Hashable {
        /// The error name, e.g. `NoRoute`.
        public let name: String
        /// The qualified name, e.g. `io.notifyd.Router.NoRoute`.
        public let qualifiedName: String
        /// The error's parameters.
        public let parameters: [VarlinkField]
        /// The `#` comment lines before the declaration.
        public let doc: String
    }

    /// The interface name, e.g. `io.notifyd.Router`.
    public let name: String
    /// The `#` comment lines before the `interface` line.
    public let doc: String
    /// The IDL text exactly as parsed.
    public let text: String
    /// The type definitions, in declaration order.
    public let types: [TypeDefinition]
    /// The methods, in declaration order.
    public let methods: [Method]
    /// The errors, in declaration order.
    public let errors: [ErrorDefinition]

    private let typeIndex: [String: Int]
    private let methodIndex: [String: Int]
    private let errorIndex: [String: Int]

    init(
        name: String, doc: String, text: String, types: [TypeDefinition], methods: [Method],
        errors: [ErrorDefinition]
    ) {
        self.name = name
        self.doc = doc
        self.text = text
        self.types = types
        self.methods = methods
        self.errors = errors
        typeIndex = Dictionary(types.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        methodIndex = Dictionary(methods.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        errorIndex = Dictionary(errors.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The method named `name` (unqualified, e.g. `Route`), or `nil`.
    public func method(named name: some StringProtocol) -> Method? {
        methodIndex[String(name)].map { methods[$0] }
    }

    /// The type named `name`, or `nil`.
    public func type(named name: some StringProtocol) -> TypeDefinition? {
        typeIndex[String(name)].map { types[$0] }
    }

    /// The error named `name` (unqualified, e.g. `NoRoute`), or `nil`.
    public func error(named name: some StringProtocol) -> ErrorDefinition? {
        errorIndex[String(name)].map { errors[$0] }
    }
}
