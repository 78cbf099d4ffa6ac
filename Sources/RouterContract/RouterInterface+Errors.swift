import JSON
import Varlink

/// The errors declared by `io.notifyd.Router`, named from the interface so they cannot drift.
extension VarlinkError {
    private static func router(_ member: String, _ parameters: JSONObject) -> VarlinkError {
        VarlinkError(RouterInterface.name + "." + member, parameters: parameters)
    }

    /// `InvalidPayload(reason, field)`: the payload is not a notification notifyd can read.
    public static func invalidPayload(reason: String, field: String) -> VarlinkError {
        router("InvalidPayload", ["reason": .string(reason), "field": .string(field)])
    }

    /// `NoRoute(link, reasons)`: every candidate was refused (`reasons` says why, one line each) and the app has no
    /// fallback page.
    public static func noRoute(link: String, reasons: [String]) -> VarlinkError {
        router("NoRoute", ["link": .string(link), "reasons": .array(reasons.map { .string($0) })])
    }

    /// `UnknownPage(page)`: the page id is not declared in the graph.
    public static func unknownPage(_ page: String) -> VarlinkError {
        router("UnknownPage", ["page": .string(page)])
    }

    /// `UnknownDevice(device)`: notifyd holds no state for the device.
    public static func unknownDevice(_ device: String) -> VarlinkError {
        router("UnknownDevice", ["device": .string(device)])
    }

    /// `DecisionNotFound(id)`: no decision with this id is in the history.
    public static func decisionNotFound(id: String) -> VarlinkError {
        router("DecisionNotFound", ["id": .string(id)])
    }

    /// `PayloadTooLarge(size, max)`: the message is larger than the daemon accepts.
    public static func payloadTooLarge(size: Int, max: Int) -> VarlinkError {
        router("PayloadTooLarge", ["size": .int(size), "max": .int(max)])
    }

    /// `ConfigInvalid(errors, config)`: the configuration at `config` was rejected and the loaded one kept.
    public static func configInvalid(errors: [String], config: String) -> VarlinkError {
        router("ConfigInvalid", ["errors": .array(errors.map { .string($0) }), "config": .string(config)])
    }

    /// `RateLimited(retryAfterMs)`: too many requests from this peer.
    public static func rateLimited(retryAfterMs: Int) -> VarlinkError {
        router("RateLimited", ["retryAfterMs": .int(retryAfterMs)])
    }

    /// `InvalidState(reason, field)`: a device state does not fit the graph.
    public static func invalidState(reason: String, field: String) -> VarlinkError {
        router("InvalidState", ["reason": .string(reason), "field": .string(field)])
    }

    /// `NotPresented(coordinator, presented)`: FlowFinished named a coordinator that is not presented; `presented`
    /// are those that are and could finish.
    public static func notPresented(coordinator: String, presented: [String]) -> VarlinkError {
        router(
            "NotPresented", ["coordinator": .string(coordinator), "presented": .array(presented.map { .string($0) })])
    }

    /// `io.notifyd.Router.InvalidParameter(parameter, value, reason, suggestion)`: a parameter names what the graph
    /// does not declare; `suggestion` is the nearest declared name, when one is close.
    public static func invalidName(
        parameter: String, value: String, reason: String, suggestion: String?
    ) -> VarlinkError {
        router(
            "InvalidParameter",
            [
                "parameter": .string(parameter), "value": .string(value), "reason": .string(reason),
                "suggestion": suggestion.map { .string($0) } ?? .null,
            ])
    }

    /// `ProvidesNothing(coordinator, reason)`: FlowFinished named a coordinator that provides no condition.
    public static func providesNothing(coordinator: String, reason: String) -> VarlinkError {
        router("ProvidesNothing", ["coordinator": .string(coordinator), "reason": .string(reason)])
    }

    /// `StateUnreadable(reason)`: the state store could not read a device's state or the history.
    public static func stateUnreadable(reason: String) -> VarlinkError {
        router("StateUnreadable", ["reason": .string(reason)])
    }

    /// `StateNotSaved(reason)`: the request's state change could not be committed; nothing was applied.
    public static func stateNotSaved(reason: String) -> VarlinkError {
        VarlinkError(RouterInterface.method("StateNotSaved"), parameters: ["reason": .string(reason)])
    }
}
