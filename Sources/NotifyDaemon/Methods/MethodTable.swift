import JSON
import RouterContract
import Varlink

/// How the service runs one method of `io.notifyd.Router`: who may call it, what it spends, where it may run, and its
/// handler. The method's parameters are checked against its IDL declaration before the handler runs.
struct RouterMethod: Sendable {
    /// Who may call the method.
    enum Access {
        case anyone
        /// Root, the daemon's own uid and the `--allow-uid` list: the methods that change state outside routing or
        /// reload the config.
        case privileged
    }

    /// Where the method may be answered.
    enum Placement {
        /// On the main loop only: it reads or writes the service's state (devices, history, stats, monitors).
        case mainLoop
        /// Also on a lane (see ``Lane``) when it is a dry run for no device, which reads only the loaded config.
        case laneForDeviceLessDryRun
    }

    var access: Access = .anyone
    /// The call spends a token of its caller's rate (`--rate-limit`).
    var rateLimited = false
    /// What the lanes reported is taken in first: the method reads the decisions or the counters they keep.
    var readsLaneBooks = false
    var placement: Placement = .mainLoop
    /// Answers a call whose parameters conform to the method's declaration.
    let handler:
        @Sendable (RouterService, VarlinkCall, ClientConnection) throws(VarlinkError) -> RouterService.MethodResult
}

/// The methods of an interface, each registered once, in the order the interface declares them: the IDL file that
/// ships is the list, and the table is built from it when the daemon starts. A declared method without a handler,
/// or a handler for a method the IDL does not declare, stops the start with both names (a mistake made when
/// building notifyd, which the tests catch first).
struct MethodTable: Sendable {
    /// The interface's methods with their handlers, by qualified name.
    private let byName: [String: RouterMethod]
    /// The qualified names, in the IDL's order.
    let names: [String]

    /// The table of `interface`'s methods from `handlers`, keyed by member name; throws the names that do not pair.
    init(interface: VarlinkInterface, handlers: [String: RouterMethod]) throws(MethodTableError) {
        var byName: [String: RouterMethod] = [:]
        var unhandled: [String] = []
        for method in interface.methods {
            if let handler = handlers[method.name] {
                byName[method.qualifiedName] = handler
            } else {
                unhandled.append(method.name)
            }
        }
        let declared = Set(interface.methods.map(\.name))
        let undeclared = handlers.keys.filter { !declared.contains($0) }.sorted()
        guard unhandled.isEmpty, undeclared.isEmpty else {
            throw MethodTableError(interface: interface.name, unhandled: unhandled, undeclared: undeclared)
        }
        self.byName = byName
        self.names = interface.methods.map(\.qualifiedName)
    }

    /// The method a call names by its qualified name, when the interface declares it.
    func method(_ qualifiedName: String) -> RouterMethod? {
        byName[qualifiedName]
    }
}

/// An interface's declared methods and the registered handlers do not pair.
struct MethodTableError: Error, Sendable, CustomStringConvertible {
    let interface: String
    /// Declared in the IDL, with no handler.
    let unhandled: [String]
    /// Registered, not declared in the IDL.
    let undeclared: [String]

    var description: String {
        var parts: [String] = []
        if !unhandled.isEmpty { parts.append("declared without a handler: \(unhandled.joined(separator: ", "))") }
        if !undeclared.isEmpty { parts.append("handled but not declared: \(undeclared.joined(separator: ", "))") }
        return "\(interface): " + parts.joined(separator: "; ")
    }
}
