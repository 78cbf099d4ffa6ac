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
    public var name: String { storage.name }
    /// The `#` comment lines before the `interface` line.
    public var doc: String { storage.doc }
    /// The IDL text exactly as parsed.
    public var text: String { storage.text }
    /// The type definitions, in declaration order.
    public var types: [TypeDefinition] { storage.types }
    /// The methods, in declaration order.
    public var methods: [Method] { storage.methods }
    /// The errors, in declaration order.
    public var errors: [ErrorDefinition] { storage.errors }

    /// Everything, in one immutable object: copying an interface (every call's validation returns one) costs one
    /// reference count.
    private final class Storage: Sendable {
        let name: String
        let doc: String
        let text: String
        let types: [TypeDefinition]
        let methods: [Method]
        let errors: [ErrorDefinition]
        let typeIndex: [String: Int]
        let methodIndex: [String: Int]
        let errorIndex: [String: Int]

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
            methodIndex = Dictionary(
                methods.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
            errorIndex = Dictionary(errors.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    private let storage: Storage

    init(
        name: String, doc: String, text: String, types: [TypeDefinition], methods: [Method],
        errors: [ErrorDefinition]
    ) {
        storage = Storage(name: name, doc: doc, text: text, types: types, methods: methods, errors: errors)
    }

    /// The method named `name` (unqualified, e.g. `Route`), or `nil`.
    public func method(named name: some StringProtocol) -> Method? {
        storage.methodIndex[String(name)].map { storage.methods[$0] }
    }

    /// The type named `name`, or `nil`.
    public func type(named name: some StringProtocol) -> TypeDefinition? {
        storage.typeIndex[String(name)].map { storage.types[$0] }
    }

    /// The error named `name` (unqualified, e.g. `NoRoute`), or `nil`.
    public func error(named name: some StringProtocol) -> ErrorDefinition? {
        storage.errorIndex[String(name)].map { storage.errors[$0] }
    }
}
