import JSON
import Varlink

#if canImport(Glibc)
import Glibc
#endif

/// Turns error replies and connection failures into what notifyctl prints, and prints them.
///
/// An error reply prints as `notifyctl: error: <error name>: <parameters as text>`: each parameter as
/// `name: value`, separated by `; `; a list parameter (the findings of `ConfigInvalid`) one item per line below.
public enum ErrorPrinter {
    /// The error for a varlink error reply.
    public static func error(for reply: VarlinkError) -> NotifyctlError {
        var inline: [String] = []
        var details: [String] = []
        for (name, value) in reply.parameters {
            if case .array(let items) = value {
                details += items.map(text)
                if items.isEmpty { inline.append("\(name): none") }
            } else {
                inline.append("\(name): " + text(value))
            }
        }
        var message = reply.name
        if !inline.isEmpty { message += ": " + inline.joined(separator: "; ") }
        return .failure(SafeText.clean(message), details: details.map(SafeText.clean), notes: notes(for: reply))
    }

    /// The error for a failed call to the daemon at `socketPath`.
    public static func error(for failure: VarlinkClientError, socketPath: String) -> NotifyctlError {
        switch failure {
        case .reply(let reply):
            return error(for: reply)
        case .connectFailed(let path, let cause):
            switch cause.errno {
            case ENOENT, ECONNREFUSED:
                return .failure(
                    "notifyd is not running at \(path): \(cause.message.lowercased())",
                    notes: [
                        "start it with 'make run' (it listens on .run/notifyd.sock: add '--socket .run/notifyd.sock' "
                            + "or set NOTIFYD_SOCKET) or with 'systemctl start notifyd.socket'",
                        "the socket is --socket, else $NOTIFYD_SOCKET, else \(Notifyctl.defaultSocketPath)",
                    ])
            case EACCES, EPERM:
                return .failure(
                    "permission denied connecting to notifyd at \(path)",
                    notes: ["the socket is mode 0660: run as a member of its group (see systemd/notifyd.socket)"])
            default:
                return .failure("cannot connect to notifyd at \(path): \(cause.message.lowercased())")
            }
        case .invalidSocketPath(let path):
            return .failure(
                "invalid socket path '\(SafeText.clean(path))': give a path of at most 107 bytes, or @name")
        case .timedOut:
            return .failure("notifyd at \(socketPath) did not answer in time")
        case .connectionClosed:
            return .failure("notifyd at \(socketPath) closed the connection before replying")
        case .system(let cause):
            return .failure("talking to notifyd at \(socketPath) failed: \(cause)")
        case .protocolViolation(let cause):
            return .failure("notifyd at \(socketPath) sent something that is not varlink: \(cause)")
        }
    }

    /// The lines printed on stderr for `error`: message, details, notes, and the usage line for usage errors.
    public static func render(_ error: NotifyctlError, style: Style, help: HelpPrinter) -> String {
        var out = "notifyctl: " + style.error("error:") + " " + error.message + "\n"
        for line in error.details { out += "  " + line + "\n" }
        for note in error.notes { out += "notifyctl: " + style.bold("note:") + " " + note + "\n" }
        if case .usage(let name) = error.kind {
            out += help.usageHint(for: name.flatMap { help.command(named: $0) })
        }
        return out
    }

    // MARK: - Pieces

    /// A parameter value as text: strings as they are, other scalars as JSON, objects as compact JSON.
    static func text(_ value: JSON) -> String {
        switch value {
        case .string(let string): return string
        case .null: return "null"
        default: return value.serialized
        }
    }

    /// What to try next for errors with an obvious next step.
    static func notes(for reply: VarlinkError) -> [String] {
        switch reply.name {
        case RouterInterface.method("NoRoute"):
            return ["each line above is a refused candidate and why; 'notifyctl explain' shows every pattern tried"]
        case RouterInterface.method("DecisionNotFound"):
            return ["'notifyctl history' lists the latest decision ids"]
        case RouterInterface.method("ConfigInvalid"):
            return ["the loaded configuration is kept; 'notifyctl validate CONFIG' shows the same findings offline"]
        case RouterInterface.method("RateLimited"):
            return ["too many requests from this user; retry later"]
        case VarlinkError.serviceInterface + ".PermissionDenied":
            return ["this call needs root, notifyd's own user, or a uid the daemon allows (--allow-uid)"]
        case VarlinkError.serviceInterface + ".MethodNotFound", VarlinkError.serviceInterface + ".InterfaceNotFound":
            return ["the daemon does not know this call; is it older than notifyctl?"]
        default:
            return []
        }
    }
}

extension HelpPrinter {
    /// The listed command named `name`, if any.
    func command(named name: String) -> Command? {
        commands.first { $0.name == name }
    }
}
