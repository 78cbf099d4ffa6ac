import JSON
import RouterContract
import Varlink

extension ErrorPrinter {
    /// The error for a varlink error reply: a sentence made from its parameters, the reply's name and parameters as
    /// they came, and what to try next where there is an obvious next step.
    public static func error(for reply: VarlinkError) -> NotifyctlError {
        let said = ReplyText(reply)
        return NotifyctlError(
            kind: .failure, name: reply.name, parameters: reply.parameters, message: SafeText.clean(said.message),
            details: said.details.map(SafeText.clean), notes: said.notes, isReply: true)
    }
}

/// What an error reply says in words: its sentence, the lines under it and the notes.
struct ReplyText {
    var message: String
    var details: [String] = []
    var notes: [String] = []

    /// The words for `reply`; a reply this notifyctl does not know reads as its parameters.
    init(_ reply: VarlinkError) {
        let p = reply.parameters
        func text(_ key: String) -> String { p[key].map(ReplyText.text) ?? "?" }
        func list(_ key: String) -> [String] { p[key]?.arrayValue?.map(ReplyText.text) ?? [] }
        message = ""
        switch reply.name {
        case RouterInterface.method("InvalidPayload"):
            let field = text("field")
            message = (field == "$" ? "invalid payload: " : "invalid payload at \(field): ") + text("reason")
        case RouterInterface.method("NoRoute"):
            message = "no page for '\(text("link"))'"
            details = list("reasons")
            notes = ["'notifyctl explain --dry-run' with the same link or payload shows every pattern tried"]
        case RouterInterface.method("UnknownPage"):
            message = "the graph declares no page '\(text("page"))'"
        case RouterInterface.method("UnknownDevice"):
            message = "notifyd has no state for device '\(text("device"))': no decision was made for it yet"
        case RouterInterface.method("DecisionNotFound"):
            message = "no decision '\(text("id"))' in the history"
            notes = ["'notifyctl history' lists the latest decisions"]
        case RouterInterface.method("PayloadTooLarge"):
            message = "the payload is \(text("size")) bytes, more than the \(text("max")) bytes accepted"
        case RouterInterface.method("ConfigInvalid"):
            let errors = list("errors")
            let count = errors.count == 1 ? "1 problem" : "\(errors.count) problems"
            message = "notifyd refused the new configuration (\(count)) and keeps serving the loaded one"
            details = errors
            let config = p["config"]?.stringValue.map(SafeText.clean) ?? "CONFIG"
            notes = ["'notifyctl validate \(config)' shows the same findings without the daemon"]
        case RouterInterface.method("RateLimited"):
            message = "too many requests from this user: retry in \(text("retryAfterMs")) ms"
        case RouterInterface.method("InvalidState"):
            message = "the state does not fit the graph at \(text("field")): \(text("reason"))"
        case RouterInterface.method("NotPresented"):
            message = "'\(text("coordinator"))' is not presented on this device, so it cannot finish"
            if p["presented"] != nil {
                let presented = list("presented")
                message += presented.isEmpty ? "; no flow that can finish is presented" : "; presented: "
                message += presented.joined(separator: ", ")
            }
        case RouterInterface.method("InvalidParameter"):
            message = text("reason")
            if let suggestion = p["suggestion"]?.stringValue { message += " (did you mean '\(suggestion)'?)" }
        case RouterInterface.method("ProvidesNothing"), RouterInterface.method("StateNotSaved"),
            RouterInterface.method("StateUnreadable"):
            message = text("reason")
        case VarlinkError.serviceInterface + ".InvalidParameter":
            message = "notifyd refused the parameter '\(text("parameter"))': missing, unknown or of the wrong type"
            notes = [Self.versions]
        case VarlinkError.serviceInterface + ".PermissionDenied":
            message = "notifyd refused the call: permission denied"
            notes = ["this call needs root, notifyd's own user, or a uid the daemon allows (--allow-uid)"]
        case VarlinkError.serviceInterface + ".MethodNotFound", VarlinkError.serviceInterface + ".InterfaceNotFound":
            message = "notifyd does not know the call '\(p["method"].map(ReplyText.text) ?? text("interface"))'"
            notes = [Self.versions]
        default:
            let parameters = p.map { key, value in "\(key): " + ReplyText.text(value) }.joined(separator: "; ")
            message = "notifyd answered with an error" + (parameters.isEmpty ? "" : ": " + parameters)
        }
    }

    static let versions = "is notifyctl older or newer than the daemon? 'notifyctl info' shows the daemon's version"

    /// A parameter value as text: strings as they are, other scalars as JSON, objects as compact JSON.
    static func text(_ value: JSON) -> String {
        switch value {
        case .string(let string): return string
        case .null: return "null"
        default: return value.serialized
        }
    }
}
