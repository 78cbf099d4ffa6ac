import JSON

/// How `notifyctl` ends: 0 success, 1 an error reply or a failure, 2 a usage mistake (docs/design.md §5).
public enum ExitStatus: Int32, Sendable, Hashable {
    /// The command did what was asked.
    case success = 0
    /// The daemon answered with an error, could not be reached, or an input could not be read.
    case failure = 1
    /// The command line was wrong: unknown command or option, missing or extra argument, bad option value.
    case usage = 2
}

/// Why a command stopped: a sentence that says what was wrong and what to do, the error's name and parameters,
/// the lines under it, and what to try next.
///
/// As text (standard error) it is `notifyctl: error: <message> [<name>]`, the name shown for the daemon's errors;
/// with `--json` it is one object on standard output, `{"error": name, "parameters": {…}, "message": …}` (and
/// `trace` when `explain` was refused). A usage error also prints the command's usage line; any other error ends
/// with ``ExitStatus/failure``.
public struct NotifyctlError: Error, Sendable, Hashable {
    /// A usage mistake (exit 2) or a failure (exit 1).
    public enum Kind: Sendable, Hashable {
        /// The command line was wrong; `command` names the command whose usage line to print, if one was given.
        case usage(command: String?)
        /// Something failed while running the command.
        case failure
    }

    /// Usage mistake or failure.
    public let kind: Kind
    /// The error's name: the daemon's for an error reply (`io.notifyd.Router.NoRoute`), else one of notifyctl's
    /// own (``LocalName``).
    public let name: String
    /// What the error is about, by name: the reply's parameters as sent, or notifyctl's (`socket`, `path`, …).
    public let parameters: JSONObject
    /// The sentence: what was wrong and, where it is clear, what to do.
    public let message: String
    /// Lines printed indented under the message (each finding of a rejected config, …).
    public var details: [String]
    /// What to try next, printed as `notifyctl: note: …` lines.
    public var notes: [String]
    /// Why `explain` found no page: its trace, or the reasons the daemon sent; nil for every other error.
    public var trace: [String]?
    /// True when the error is the daemon's (or the one it would send, offline): its name follows the message.
    public let isReply: Bool

    /// An error from its parts.
    public init(
        kind: Kind, name: String, parameters: JSONObject = [:], message: String, details: [String] = [],
        notes: [String] = [], trace: [String]? = nil, isReply: Bool = false
    ) {
        self.kind = kind
        self.name = name
        self.parameters = parameters
        self.message = message
        self.details = details
        self.notes = notes
        self.trace = trace
        self.isReply = isReply
    }

    /// A usage mistake in the command line of `command` (nil before the command is known).
    public static func usage(_ message: String, command: String? = nil) -> NotifyctlError {
        NotifyctlError(
            kind: .usage(command: command), name: LocalName.usage,
            parameters: ["command": command.map { .string($0) } ?? .null], message: message)
    }

    /// A failure of notifyctl's own (`name` from ``LocalName``) with optional detail lines and notes.
    public static func failure(
        _ name: String, _ message: String, parameters: JSONObject = [:], details: [String] = [],
        notes: [String] = []
    ) -> NotifyctlError {
        NotifyctlError(
            kind: .failure, name: name, parameters: parameters, message: message, details: details, notes: notes)
    }

    /// The exit status this error ends the process with.
    public var status: ExitStatus {
        switch kind {
        case .usage: return .usage
        case .failure: return .failure
        }
    }

    /// The error as `--json` prints it: `error`, `parameters` and `message`, then `trace` when there is one.
    public var json: JSON {
        var object: JSONObject = [
            "error": .string(name), "parameters": .object(parameters), "message": .string(message),
        ]
        if let trace { object["trace"] = .array(trace.map { .string($0) }) }
        return .object(object)
    }
}

/// The names of the errors notifyctl finds itself, as `--json` prints them in `error`; the daemon's errors keep
/// the names it sent.
public enum LocalName {
    /// The command line was wrong (`command`: the command, or null).
    public static let usage = "notifyctl.UsageError"
    /// Nothing listens on the socket (`socket`).
    public static let notRunning = "notifyctl.NotRunning"
    /// The socket path names a file that is not a socket (`socket`, `kind`).
    public static let notASocket = "notifyctl.NotASocket"
    /// The socket refused this user (`socket`).
    public static let permissionDenied = "notifyctl.PermissionDenied"
    /// Connecting failed for another reason (`socket`, `reason`).
    public static let cannotConnect = "notifyctl.CannotConnect"
    /// The socket path is too long or empty (`socket`).
    public static let invalidSocketPath = "notifyctl.InvalidSocketPath"
    /// The daemon did not answer in time (`socket`).
    public static let timedOut = "notifyctl.TimedOut"
    /// The daemon closed the connection before replying (`socket`).
    public static let connectionClosed = "notifyctl.ConnectionClosed"
    /// The daemon's bytes are not varlink, or a system call failed while talking (`socket`, `reason`).
    public static let protocolError = "notifyctl.ProtocolError"
    /// The daemon's reply could not be read as what it should be (`reason`).
    public static let unreadableReply = "notifyctl.UnreadableReply"
    /// An input file cannot be read (`path`, `reason`).
    public static let cannotRead = "notifyctl.CannotRead"
    /// An input is neither a payload nor a link (`file`, `line`, `column`, `reason`).
    public static let invalidInput = "notifyctl.InvalidInput"
    /// A config file given to an offline command is rejected (`file`, `errors`).
    public static let configInvalid = "notifyctl.ConfigInvalid"
    /// An output file cannot be written (`path`, `reason`).
    public static let cannotWrite = "notifyctl.CannotWrite"
    /// The config cannot be turned into code (`file`, `code`, `reason`).
    public static let codegenFailed = "notifyctl.CodegenFailed"
}
