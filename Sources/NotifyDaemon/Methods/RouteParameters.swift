import JSON
import RouterContract
import Varlink

/// The parameters of Route and Resolve besides the payload or link.
struct RouteParameters {
    var device: String? = nil
    var dryRun = false
    var explain = false
    var format: String? = nil
    var strict = false
    /// `Route`'s transport headers, as given (checked when the payload is read).
    var headers: [(name: String, value: String)]? = nil

    /// The defaults: no device, not a dry run, no trace, the format detected, not strict, no headers.
    init() {}

    /// The parameters of a call checked against its method's declaration (the absent ones, and `null`, read as
    /// their defaults).
    init(_ p: JSONObject) {
        device = p["device"]?.stringValue
        dryRun = p["dryRun"]?.boolValue ?? false
        explain = p["explain"]?.boolValue ?? false
        format = p["format"]?.stringValue
        strict = p["strict"]?.boolValue ?? false
        if case .object(let given) = p["headers"] {
            headers = given.members.map { ($0.key, $0.value.stringValue ?? "") }
        }
    }

    /// A `Route` or `Resolve` call on a tape that is neither `more` nor `upgrade` and whose parameters conform to its
    /// method's declaration in the IDL (``routeCheck``, ``resolveCheck``), with its parameters and its payload (or
    /// link); `nil` for any other call, which goes through the interface's checks on a tree, which say what is wrong.
    static func read(_ call: VarlinkCallView) -> (isRoute: Bool, parameters: RouteParameters, subject: JSONTape.Value)?
    {
        let isRoute: Bool
        if call.method.isString("io.notifyd.Router.Route") {
            isRoute = true
        } else if call.method.isString("io.notifyd.Router.Resolve") {
            isRoute = false
        } else {
            return nil
        }
        guard !call.more, !call.upgrade, (isRoute ? routeCheck : resolveCheck).conforms(call.parameters),
            let p = call.parameters, let (parameters, subject) = read(p, route: isRoute)
        else { return nil }
        return (isRoute, parameters, subject)
    }

    /// `Route`'s declaration, checked on a tape.
    static let routeCheck = tapeCheck("Route")
    /// `Resolve`'s declaration, checked on a tape.
    static let resolveCheck = tapeCheck("Resolve")

    private static func tapeCheck(_ method: String) -> VarlinkInterface.TapeCheck {
        guard let declared = RouterInterface.interface.method(named: method) else {
            preconditionFailure("io.notifyd.Router declares \(method)")
        }
        return VarlinkInterface.TapeCheck(RouterInterface.interface, method: declared)
    }

    /// The parameters of a Route (or, when `route` is false, a Resolve) call on a tape that conform to the method's
    /// declaration, with its payload (or link): each is read as its declared type, and `null` as absent.
    static func read(_ p: JSONTape.Value, route: Bool) -> (parameters: RouteParameters, subject: JSONTape.Value)? {
        var parameters = RouteParameters()
        var subject: JSONTape.Value? = nil
        for (key, value) in p.rawMembers where !value.isNull {
            if route ? key.isString("payload") : key.isString("link") {
                subject = value
            } else if key.isString("device") {
                parameters.device = value.stringValue
            } else if key.isString("dryRun") {
                parameters.dryRun = value.boolValue ?? false
            } else if key.isString("explain") {
                parameters.explain = value.boolValue ?? false
            } else if key.isString("format") {
                parameters.format = value.stringValue
            } else if key.isString("strict") {
                parameters.strict = value.boolValue ?? false
            } else if key.isString("headers") {
                parameters.headers = value.members.map { ($0.key, $0.value.stringValue ?? "") }
            }
        }
        guard let subject else { return nil }
        return (parameters, subject)
    }
}
