/// One `--option` a command accepts: a flag, or an option with a value that the parser checks; a few also have a
/// one-letter spelling (`-o DIR` for `--output DIR`).
public struct OptionSpec: Sendable, Hashable {
    /// What the option takes.
    public enum Value: Sendable, Hashable {
        /// A flag: present or not; `--flag=value` is a usage error.
        case none
        /// Any text, shown in usage as `placeholder` (`--device D`).
        case text(placeholder: String)
        /// A whole number of at least `minimum`.
        case integer(placeholder: String, minimum: Int)
        /// One of `choices`.
        case choice(placeholder: String, choices: [String])
    }

    /// The long name without dashes: `device` for `--device`.
    public let name: String
    /// The one-letter name without its dash, if any: `o` for `-o`.
    public let short: Character?
    /// What the option takes.
    public let value: Value
    /// One line for `--help`.
    public let help: String
    /// True when the option may be given several times, each value kept (``Invocation/values(_:)``); otherwise the
    /// last one given wins.
    public let repeats: Bool

    /// An option from its parts.
    public init(_ name: String, short: Character? = nil, value: Value = .none, repeats: Bool = false, help: String) {
        self.name = name
        self.short = short
        self.value = value
        self.repeats = repeats
        self.help = help
    }

    /// True for a flag.
    public var isFlag: Bool { value == .none }

    /// The value's placeholder in usage lines (`D`, `N`, `F`), nil for a flag.
    public var placeholder: String? {
        switch value {
        case .none: return nil
        case .text(let placeholder), .integer(let placeholder, _), .choice(let placeholder, _): return placeholder
        }
    }

    /// `--device D` or `--json`.
    public var usage: String {
        placeholder.map { "--\(name) \($0)" } ?? "--\(name)"
    }

    /// The shortest spelling, as usage lines show it: `-o DIR`, else ``usage``.
    public var briefUsage: String {
        guard let short else { return usage }
        return placeholder.map { "-\(short) \($0)" } ?? "-\(short)"
    }

    /// Both spellings, as option lists show them: `-o, --output DIR`, or `--device D`.
    public var fullUsage: String {
        short.map { "-\($0), " + usage } ?? usage
    }

    /// Checks `text` against the option's kind; returns why it does not fit, or nil.
    func problem(with text: String) -> String? {
        switch value {
        case .none, .text:
            return nil
        case .integer(_, let minimum):
            guard let number = Int(text), number >= minimum else {
                return "'--\(name)' expects a whole number of at least \(minimum), not '\(text)'"
            }
            return nil
        case .choice(_, let choices):
            guard choices.contains(text) else {
                return "'--\(name)' expects one of " + choices.joined(separator: ", ") + ", not '\(text)'"
            }
            return nil
        }
    }
}

extension OptionSpec {
    /// `--socket PATH`: the daemon's socket; accepted by every command that asks the daemon.
    public static let socket = OptionSpec(
        "socket", value: .text(placeholder: "PATH"),
        help: "The daemon's socket (default: $NOTIFYD_SOCKET if set, else \(Notifyctl.defaultSocketPath))")
    /// `--app NAME`: the daemon of one app of several on the host, at `/run/notifyd/NAME.sock`.
    public static let app = OptionSpec(
        "app", value: .text(placeholder: "NAME"),
        help: "The daemon of app NAME: /run/notifyd/NAME.sock, the socket of notifyd@NAME.socket")
    /// `--json`: print the reply as JSON, errors as JSON objects; accepted by every command, whose help says what it
    /// prints (``Command/jsonHelp``).
    public static let json = OptionSpec(
        "json",
        help: "Print JSON instead of text (each command's help says what); errors as {error, parameters, message}")
    /// `-h`, `--help`: print the command's help; accepted by every command.
    public static let help = OptionSpec("help", short: "h", help: "Show this help")
    /// `--device D`: the device a request is for.
    public static let device = OptionSpec(
        "device", value: .text(placeholder: "D"), help: "The device: steps start from its state, which is updated")
    /// `--dry-run`: decide without changing the device's state or the history.
    public static let dryRun = OptionSpec("dry-run", help: "Decide without changing the device's state")

    /// The options every command that asks the daemon accepts, whether given before or after the command name; the
    /// offline commands (``Command/Group/offline``) take them all but `--socket`.
    public static let global: [OptionSpec] = [.socket, .app, .json, .help]
    /// The options that choose the daemon, which the offline commands refuse.
    public static let daemonChoice: [OptionSpec] = [.socket, .app]
    /// The options accepted before the command name (checked against the command once it is known).
    public static let common: [OptionSpec] = global + [.device, .dryRun]
}
