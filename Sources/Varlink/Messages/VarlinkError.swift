import JSON

/// A varlink error reply: a qualified error name and its parameters.
///
/// Throwing one from a method handler answers the call with `{"error": name, "parameters": ...}`
/// and keeps the connection open. Names are qualified by their interface, e.g.
/// `org.varlink.service.MethodNotFound`.
public struct VarlinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The qualified error name, `reverse.domain.Interface.ErrorName`.
    public var name: String
    /// The error's parameters as declared in the interface.
    public var parameters: JSONObject

    /// An error reply named `name` with `parameters`.
    public init(_ name: String, parameters: JSONObject = [:]) {
        self.name = name
        self.parameters = parameters
    }

    /// The error as a reply message.
    public var reply: VarlinkReply { VarlinkReply(error: self) }

    /// The error as its name followed by its parameters as JSON.
    public var description: String {
        parameters.isEmpty ? name : "\(name) \(JSON.object(parameters).serialized)"
    }
}

// MARK: - org.varlink.service errors

extension VarlinkError {
    /// The name of the service interface every varlink service implements.
    public static let serviceInterface = "org.varlink.service"

    /// `org.varlink.service.InterfaceNotFound(interface)`: the service has no such interface.
    public static func interfaceNotFound(_ interface: some StringProtocol) -> VarlinkError {
        VarlinkError(serviceInterface + ".InterfaceNotFound", parameters: ["interface": .string(String(interface))])
    }

    /// `org.varlink.service.MethodNotFound(method)`: the interface has no such method.
    public static func methodNotFound(_ method: some StringProtocol) -> VarlinkError {
        VarlinkError(serviceInterface + ".MethodNotFound", parameters: ["method": .string(String(method))])
    }

    /// `org.varlink.service.MethodNotImplemented(method)`: declared but not implemented.
    public static func methodNotImplemented(_ method: some StringProtocol) -> VarlinkError {
        VarlinkError(serviceInterface + ".MethodNotImplemented", parameters: ["method": .string(String(method))])
    }

    /// `org.varlink.service.InvalidParameter(parameter)`: a parameter is missing, unknown or mistyped.
    public static func invalidParameter(_ parameter: some StringProtocol) -> VarlinkError {
        VarlinkError(serviceInterface + ".InvalidParameter", parameters: ["parameter": .string(String(parameter))])
    }

    /// `org.varlink.service.PermissionDenied()`: the caller may not call this method.
    public static let permissionDenied = VarlinkError(serviceInterface + ".PermissionDenied")

    /// `org.varlink.service.ExpectedMore()`: the method streams replies and needs the `more` flag.
    public static let expectedMore = VarlinkError(serviceInterface + ".ExpectedMore")
}
