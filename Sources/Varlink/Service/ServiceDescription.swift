import JSON

/// What a varlink service says about itself, and the `org.varlink.service` methods built on it.
///
/// Holds the interfaces the service implements; ``validate(_:)`` resolves a call to its declared
/// method and checks its parameters, and ``reply(toServiceCall:)`` answers `GetInfo` and
/// `GetInterfaceDescription`.
public struct ServiceDescription: Sendable {
    /// Who makes the service, e.g. `notifyd`.
    public var vendor: String
    /// The product name.
    public var product: String
    /// The product version.
    public var version: String
    /// Where to read about the product.
    public var url: String
    /// The interfaces implemented, `org.varlink.service` first.
    public private(set) var interfaces: [VarlinkInterface]
    /// Every method a call can resolve to, so that resolving a call compares bytes instead of splitting, copying
    /// and hashing its name: the qualified names' bytes end to end, each name's end, and its interface and method.
    private let methodNames: [UInt8]
    private let methodEnds: [Int]
    private let methodTargets: [(interface: Int, method: VarlinkInterface.Method)]

    /// A description of a service implementing `interfaces` (plus `org.varlink.service`).
    public init(vendor: String, product: String, version: String, url: String, interfaces: [VarlinkInterface]) {
        self.vendor = vendor
        self.product = product
        self.version = version
        self.url = url
        self.interfaces =
            [VarlinkServiceInterface.interface] + interfaces.filter { $0.name != VarlinkServiceInterface.name }
        // As the lookups by name resolve: the first interface of a name, the first method of a name in it.
        var names: [UInt8] = []
        var ends: [Int] = []
        var targets: [(interface: Int, method: VarlinkInterface.Method)] = []
        for (index, interface) in self.interfaces.enumerated()
        where !self.interfaces[..<index].contains(where: { $0.name == interface.name }) {
            for method in interface.methods where interface.method(named: method.name) == method {
                names += method.qualifiedName.utf8
                ends.append(names.count)
                targets.append((index, method))
            }
        }
        (methodNames, methodEnds, methodTargets) = (names, ends, targets)
    }

    /// The position in the method table of the method whose qualified name has exactly the bytes of
    /// `qualifiedMethod`, or `nil` (the caller then resolves the name the slow way, which also says why it fails).
    private func methodPosition(_ qualifiedMethod: String) -> Int? {
        var name = qualifiedMethod
        return name.withUTF8 { bytes in
            methodNames.withUnsafeBufferPointer { names in
                methodEnds.withUnsafeBufferPointer { ends in
                    var start = 0
                    for (position, end) in ends.enumerated() {
                        if end - start == bytes.count,
                            VarlinkNames.bytesEqual(UnsafeBufferPointer(rebasing: names[start..<end]), bytes)
                        {
                            return position
                        }
                        start = end
                    }
                    return nil
                }
            }
        }
    }

    /// The interface named `name`, or `nil`.
    public func interface(named name: some StringProtocol) -> VarlinkInterface? {
        interfaces.first { $0.name == name }
    }

    /// The parameters of the `GetInfo` reply.
    public var info: JSONObject {
        [
            "vendor": .string(vendor), "product": .string(product), "version": .string(version), "url": .string(url),
            "interfaces": .array(interfaces.map { .string($0.name) }),
        ]
    }

    /// The parameters of the `GetInterfaceDescription` reply for `name`.
    ///
    /// - Throws: `InterfaceNotFound(interface)` when the service does not implement it.
    public func interfaceDescription(_ name: some StringProtocol) throws(VarlinkError) -> JSONObject {
        guard let interface = interface(named: name) else { throw .interfaceNotFound(name) }
        return ["description": .string(interface.text)]
    }

    /// Resolves a call to its interface and method and checks its parameters.
    ///
    /// - Returns: The interface and the declared method.
    /// - Throws: `InterfaceNotFound`, `MethodNotFound` or `InvalidParameter`, in that order.
    public func validate(_ call: VarlinkCall) throws(VarlinkError) -> (VarlinkInterface, VarlinkInterface.Method) {
        let interface: VarlinkInterface
        let method: VarlinkInterface.Method
        if let position = methodPosition(call.method) {
            let target = methodTargets[position]
            (interface, method) = (interfaces[target.interface], target.method)
        } else {
            guard let named = self.interface(named: call.interface) else { throw .interfaceNotFound(call.interface) }
            guard let declared = named.method(named: call.memberName) else { throw .methodNotFound(call.method) }
            (interface, method) = (named, declared)
        }
        do {
            try interface.validate(parameters: call.parameters, for: method)
        } catch {
            throw error.error
        }
        return (interface, method)
    }

    /// Answers a call to `org.varlink.service`, or returns `nil` for a call to another interface.
    ///
    /// `GetInfo` and `GetInterfaceDescription` get their replies; any other method of the service
    /// interface gets `MethodNotFound`, and bad parameters `InvalidParameter`.
    public func reply(toServiceCall call: VarlinkCall) -> VarlinkReply? {
        // interfaces[0] is the service interface.
        if let position = methodPosition(call.method), methodTargets[position].interface != 0 { return nil }
        guard call.interface == VarlinkServiceInterface.name else { return nil }
        do throws(VarlinkError) {
            _ = try validate(call)
            switch call.memberName {
            case "GetInfo":
                return VarlinkReply(parameters: info)
            case "GetInterfaceDescription":
                guard case .string(let name) = call.parameters["interface"] else {
                    throw VarlinkError.invalidParameter("interface")
                }
                return VarlinkReply(parameters: try interfaceDescription(name))
            default:
                throw VarlinkError.methodNotImplemented(call.method)
            }
        } catch {
            return VarlinkReply(error: error)
        }
    }
}
