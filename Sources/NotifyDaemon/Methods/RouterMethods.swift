import DeepLink
import JSON
import RouterContract
import Varlink

extension RouterService {
    /// The handlers of `io.notifyd.Router`, by member name: one entry per method of the IDL
    /// (`varlink/io.notifyd.Router.varlink`). Adding a method is its lines in the IDL and its entry here.
    static let handlers: [String: RouterMethod] = [
        "Route": RouterMethod(rateLimited: true, placement: .laneForDeviceLessDryRun) {
            service, call, connection throws(VarlinkError) in
            let payload = call.parameters["payload"] ?? .null
            return try service.route(parameters: RouteParameters(call.parameters), connection: connection) {
                (reader, headers, explain) throws(PayloadError) in
                try reader.read(payload, headers: headers, explain: explain)
            }
        },
        "Resolve": RouterMethod(rateLimited: true, placement: .laneForDeviceLessDryRun) {
            service, call, connection throws(VarlinkError) in
            let p = call.parameters
            return try service.resolve(
                link: p["link"]?.stringValue ?? "", parameters: RouteParameters(p), connection: connection)
        },
        "FlowFinished": RouterMethod { service, call, connection throws(VarlinkError) in
            let p = call.parameters
            return try service.flowFinished(
                device: p["device"]?.stringValue ?? "", coordinator: p["coordinator"]?.stringValue ?? "",
                connection: connection)
        },
        "GetState": RouterMethod { service, call, _ throws(VarlinkError) in
            .reply(try service.getState(device: call.parameters["device"]?.stringValue ?? ""))
        },
        "SetState": RouterMethod(access: .privileged) { service, call, _ throws(VarlinkError) in
            let p = call.parameters
            return try service.setState(device: p["device"]?.stringValue ?? "", state: p["state"] ?? .null)
        },
        "ForgetDevice": RouterMethod(access: .privileged) { service, call, _ throws(VarlinkError) in
            try service.forget(device: call.parameters["device"]?.stringValue ?? "")
        },
        "GetDecision": RouterMethod(readsLaneBooks: true) { service, call, _ throws(VarlinkError) in
            .reply(try service.getDecision(id: call.parameters["id"]?.stringValue ?? ""))
        },
        "ListDecisions": RouterMethod(readsLaneBooks: true) { service, call, _ throws(VarlinkError) in
            let p = call.parameters
            return .reply(try service.listDecisions(device: p["device"]?.stringValue, limit: p["limit"]?.intValue))
        },
        "ListHistory": RouterMethod { service, call, _ throws(VarlinkError) in
            let p = call.parameters
            return .reply(
                try service.listHistory(
                    device: p["device"]?.stringValue, since: p["since"]?.stringValue, before: p["before"]?.intValue,
                    limit: p["limit"]?.intValue))
        },
        "Monitor": RouterMethod { service, call, connection throws(VarlinkError) in
            guard call.more else { throw VarlinkError.expectedMore }
            // A oneway call asks for no replies: there is nothing to stream to it, so it is not registered.
            guard !call.oneway else { return .streaming }
            service.monitors[connection.id] = connection
            connection.isStreaming = true
            return .streaming
        },
        "GetGraph": RouterMethod { service, _, _ throws(VarlinkError) in
            .reply(["graph": service.config.graph.json])
        },
        "GetStats": RouterMethod(readsLaneBooks: true) { service, _, _ throws(VarlinkError) in
            .reply(["stats": service.statsJSON()])
        },
        "Reload": RouterMethod(access: .privileged) { service, _, _ throws(VarlinkError) in
            .reply(try service.reload())
        },
    ]

    /// `io.notifyd.Router` as the service runs it: the IDL's methods with their ``handlers``.
    static let methods: MethodTable = {
        do {
            return try MethodTable(interface: RouterInterface.interface, handlers: handlers)
        } catch {
            preconditionFailure("io.notifyd.Router's methods and handlers do not pair: \(error)")
        }
    }()
}
