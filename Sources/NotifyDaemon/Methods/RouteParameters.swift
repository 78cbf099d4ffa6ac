import JSON
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

    /// A `Route` or `Resolve` call on a tape that is neither `more` nor `upgrade`, with the parameters ``read(_:route:)``
    /// reads; `nil` for any other call.
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
        guard !call.more, !call.upgrade, let p = call.parameters, let (parameters, subject) = read(p, route: isRoute)
        else { return nil }
        return (isRoute, parameters, subject)
    }

    /// The parameters of a Route (or, when `route` is false, a Resolve) call on a tape, with its payload (or
    /// link); `nil` unless every parameter is declared and of its declared type (not `null`) and the payload or link
    /// is there: any other call goes through the interface's checks, which say what is wrong.
    static func read(_ p: JSONTape.Value, route: Bool) -> (parameters: RouteParameters, subject: JSONTape.Value)? {
        var parameters = RouteParameters()
        var subject: JSONTape.Value? = nil
        for (key, value) in p.rawMembers {
            if route ? key.isString("payload") : key.isString("link") {
                guard route ? value.isObject : value.isString else { return nil }
                subject = value
            } else if key.isString("device") {
                guard let device = value.stringValue else { return nil }
                parameters.device = device
            } else if key.isString("dryRun") {
                guard let flag = value.boolValue else { return nil }
                parameters.dryRun = flag
            } else if key.isString("explain") {
                guard let flag = value.boolValue else { return nil }
                parameters.explain = flag
            } else if route, key.isString("format") {
                guard let format = value.stringValue else { return nil }
                parameters.format = format
            } else if route, key.isString("strict") {
                guard let flag = value.boolValue else { return nil }
                parameters.strict = flag
            } else if route, key.isString("headers") {
                guard value.isObject else { return nil }
                var headers: [(name: String, value: String)] = []
                for (name, header) in value.members {
                    guard let text = header.stringValue else { return nil }
                    headers.append((name, text))
                }
                parameters.headers = headers
            } else {
                return nil
            }
        }
        guard let subject else { return nil }
        return (parameters, subject)
    }
}
