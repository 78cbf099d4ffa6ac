/// The `org.varlink.service` interface every varlink service implements.
public enum VarlinkServiceInterface {
    /// The interface name, `org.varlink.service`.
    public static let name = "org.varlink.service"

    /// The interface definition as published by the varlink project.
    public static let idl = #"""
        # The Varlink Service Interface is provided by every varlink service. It
        # describes the service and the interfaces it implements.
        interface org.varlink.service

        # Get a list of all the interfaces a service provides and information
        # about the implementation.
        method GetInfo() -> (
          vendor: string,
          product: string,
          version: string,
          url: string,
          interfaces: []string
        )

        # Get the description of an interface that is implemented by this service.
        method GetInterfaceDescription(interface: string) -> (description: string)

        # The requested interface was not found.
        error InterfaceNotFound (interface: string)

        # The requested method was not found
        error MethodNotFound (method: string)

        # The interface defines the requested method, but the service does not
        # implement it.
        error MethodNotImplemented (method: string)

        # One of the passed parameters is invalid.
        error InvalidParameter (parameter: string)

        # Client is denied access
        error PermissionDenied ()

        # Method is expected to be called with 'more' set to true, but wasn't
        error ExpectedMore ()

        """#

    /// The parsed interface.
    public static let interface: VarlinkInterface = {
        do {
            return try VarlinkInterface.parse(idl)
        } catch {
            preconditionFailure("the org.varlink.service IDL does not parse: \(error)")
        }
    }()
}
