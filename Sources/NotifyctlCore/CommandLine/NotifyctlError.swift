/// How `notifyctl` ends: 0 success, 1 an error reply or a failure, 2 a usage mistake (docs/design.md §5).
public enum ExitStatus: Int32, Sendable, Hashable {
    /// The command did what was asked.
    case success = 0
    /// The daemon answered with an error, could not be reached, or an input could not be read.
    case failure = 1
    /// The command line was wrong: unknown command or option, missing or extra argument, bad option value.
    case usage = 2
}

/// Why a command stopped: what to print after `notifyctl: error: `, the lines under it, and what to try next.
///
/// A usage error also prints the command's usage line; any other error ends with ``ExitStatus/failure``.
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
    /// The one-line message, e.g. `io.notifyd.Router.NoRoute: link: shop://nowhere`.
    public let message: String
    /// Lines printed indented under the message (each finding of a rejected config, …).
    public let details: [String]
    /// What to try next, printed as `notifyctl: note: …` lines.
    public let notes: [String]

    /// An error from its parts.
    public init(kind: Kind, message: String, details: [String] = [], notes: [String] = []) {
        self.kind = kind
        self.message = message
        self.details = details
        self.notes = notes
    }

    /// A usage mistake in the command line of `command` (nil before the command is known).
    public static func usage(_ message: String, command: String? = nil) -> NotifyctlError {
        NotifyctlError(kind: .usage(command: command), message: message)
    }

    /// A failure with optional detail lines and notes.
    public static func failure(_ message: String, details: [String] = [], notes: [String] = []) -> NotifyctlError {
        NotifyctlError(kind: .failure, message: message, details: details, notes: notes)
    }

    /// The exit status this error ends the process with.
    public var status: ExitStatus {
        switch kind {
        case .usage: return .usage
        case .failure: return .failure
        }
    }
}
