import JSON
import Varlink

#if canImport(Glibc)
import Glibc
#endif

/// Turns error replies and connection failures into what notifyctl prints, and prints them.
///
/// An error reads as a sentence first and its name after it:
/// `notifyctl: error: no decision 'x' in the history [io.notifyd.Router.DecisionNotFound]`; a list parameter (the
/// findings of `ConfigInvalid`) prints one item per line below. With `--json`, the same error is one object on
/// standard output (``NotifyctlError/json``).
public enum ErrorPrinter {
    /// The error for a failed call to the daemon at `socketPath`.
    public static func error(for failure: VarlinkClientError, socketPath: String) -> NotifyctlError {
        let socket: JSONObject = ["socket": .string(socketPath)]
        switch failure {
        case .reply(let reply):
            return error(for: reply)
        case .connectFailed(let path, let cause):
            let shown = SafeText.clean(path)
            let at: JSONObject = ["socket": .string(path)]
            if let kind = SocketPath.nonSocketKind(path) {
                var parameters = at
                parameters["kind"] = .string(kind)
                return .failure(
                    LocalName.notASocket, "\(shown) is \(kind), not a socket: pass the socket notifyd listens on",
                    parameters: parameters, notes: [socketOrigin])
            }
            switch cause.errno {
            case ENOENT, ECONNREFUSED:
                return .failure(
                    LocalName.notRunning, "notifyd is not running at \(shown): \(cause.message.lowercased())",
                    parameters: at,
                    notes: [
                        "start it with 'make run' (it listens on .run/notifyd.sock: add '--socket .run/notifyd.sock' "
                            + "or set NOTIFYD_SOCKET) or with 'systemctl start notifyd.socket' "
                            + "('notifyd@NAME.socket' for '--app NAME')",
                        socketOrigin,
                    ])
            case EACCES, EPERM:
                return .failure(
                    LocalName.permissionDenied, "permission denied connecting to notifyd at \(shown)",
                    parameters: at,
                    notes: ["the socket is mode 0660: run as a member of its group (see systemd/notifyd.socket)"])
            default:
                var parameters = at
                parameters["reason"] = .string(cause.message)
                return .failure(
                    LocalName.cannotConnect, "cannot connect to notifyd at \(shown): \(cause.message.lowercased())",
                    parameters: parameters)
            }
        case .invalidSocketPath(let path):
            return .failure(
                LocalName.invalidSocketPath,
                "invalid socket path '\(SafeText.clean(path))': give a path of at most 107 bytes, or @name",
                parameters: ["socket": .string(path)])
        case .timedOut:
            return .failure(
                LocalName.timedOut, "notifyd at \(SafeText.clean(socketPath)) did not answer in time",
                parameters: socket)
        case .connectionClosed:
            return .failure(
                LocalName.connectionClosed,
                "notifyd at \(SafeText.clean(socketPath)) closed the connection before replying", parameters: socket)
        case .system(let cause):
            var parameters = socket
            parameters["reason"] = .string(cause.description)
            return .failure(
                LocalName.protocolError, "talking to notifyd at \(SafeText.clean(socketPath)) failed: \(cause)",
                parameters: parameters)
        case .protocolViolation(let cause):
            var parameters = socket
            parameters["reason"] = .string(cause.description)
            return .failure(
                LocalName.protocolError,
                "notifyd at \(SafeText.clean(socketPath)) sent something that is not varlink: \(cause)",
                parameters: parameters)
        }
    }

    /// Where the socket path came from, for the notes of connection errors.
    static let socketOrigin =
        "the socket is --socket, else /run/notifyd/NAME.sock for --app NAME, else $NOTIFYD_SOCKET, "
        + "else \(Notifyctl.defaultSocketPath)"

    /// The lines printed on stderr for `error`: message (and the error's name for the daemon's errors), details,
    /// the trace of a refused `explain`, notes, and the usage line for usage errors.
    public static func render(_ error: NotifyctlError, style: Style, help: HelpPrinter) -> String {
        var out = "notifyctl: " + style.error("error:") + " " + error.message
        if error.isReply { out += " " + style.dim("[" + SafeText.clean(error.name) + "]") }
        out += "\n"
        for line in error.details { out += "  " + line + "\n" }
        if let trace = error.trace {
            out += "notifyctl: " + style.bold("trace:") + (trace.isEmpty ? " empty" : "") + "\n"
            for line in trace { out += "  " + style.dim(SafeText.clean(line)) + "\n" }
        }
        for note in error.notes { out += "notifyctl: " + style.bold("note:") + " " + note + "\n" }
        if case .usage(let name) = error.kind {
            out += help.usageHint(for: name.flatMap { help.command(named: $0) })
        }
        return out
    }

    /// The object printed on stdout for `error` with `--json`.
    public static func renderJSON(_ error: NotifyctlError) -> String {
        error.json.prettyPrinted() + "\n"
    }
}

/// What a socket path names when it is not a socket.
enum SocketPath {
    /// "a regular file", "a directory", …, or nil when the path is a socket or names nothing.
    static func nonSocketKind(_ path: String) -> String? {
        guard !path.hasPrefix("@") else { return nil }  // an abstract socket has no file
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFSOCK: return nil
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a named pipe"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return "a special file"
        }
    }
}

extension HelpPrinter {
    /// The listed command named `name`, if any.
    func command(named name: String) -> Command? {
        commands.first { $0.name == name }
    }
}
