/// One positional argument of a command, as shown in usage and help: `FILE|-`, `LINK`, `DEVICE`.
public struct ArgumentSpec: Sendable, Hashable {
    /// The name shown in usage.
    public let name: String
    /// One line for `--help`.
    public let help: String
    /// True when the argument may be left out (shown as `[NAME]`).
    public let isOptional: Bool

    /// An argument from its parts.
    public init(_ name: String, help: String, optional: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = optional
    }
}

/// A `notifyctl` command: its name, what it accepts, its help, and what it does.
///
/// Commands are values listed in ``Notifyctl/commands``; each is declared as a static member in a
/// `Commands+Topic.swift` file, so adding one is a new file and one line in that table.
public struct Command: Sendable {
    /// Where the command appears in `notifyctl --help`.
    public enum Group: Sendable, Hashable, CaseIterable {
        /// Talks to notifyd over its socket.
        case daemon
        /// Works on local files; no daemon needed.
        case offline
    }

    /// What a command does: run with its parsed command line and the process's context; returns the exit status,
    /// or throws what to print on stderr.
    public typealias Body = @Sendable (Invocation, CommandContext) throws(NotifyctlError) -> ExitStatus

    /// The name typed on the command line.
    public let name: String
    /// One line for `notifyctl --help`.
    public let summary: String
    /// The positional arguments, in order.
    public let arguments: [ArgumentSpec]
    /// The options beyond ``globalOptions``, in the order help lists them.
    public let options: [OptionSpec]
    /// Paragraphs for `notifyctl COMMAND --help`, after the summary.
    public let discussion: String
    /// Where `notifyctl --help` lists it.
    public let group: Group
    /// How `notifyctl --help` shows the command: its name and arguments unless given, e.g.
    /// `history [--device D] [--limit N]`.
    public let synopsis: String
    /// What `--json` prints for this command, as its help shows it.
    public let jsonHelp: String
    /// The command's behaviour.
    public let body: Body

    /// A command from its parts; `json` says what `--json` prints.
    public init(
        name: String, summary: String, arguments: [ArgumentSpec] = [], options: [OptionSpec] = [],
        discussion: String = "", group: Group, synopsis: String? = nil, json: String, body: @escaping Body
    ) {
        self.jsonHelp = json
        self.name = name
        self.summary = summary
        self.arguments = arguments
        self.options = options
        self.discussion = discussion
        self.group = group
        let shown = arguments.map { $0.isOptional ? "[\($0.name)]" : $0.name }
        self.synopsis = synopsis ?? ([name] + shown).joined(separator: " ")
        self.body = body
    }

    /// The options of ``OptionSpec/global`` the command takes: all of them, but `--socket` and `--app` only when
    /// the command can ask the daemon.
    public var globalOptions: [OptionSpec] {
        group == .offline ? OptionSpec.global.filter { !OptionSpec.daemonChoice.contains($0) } : OptionSpec.global
    }

    /// Every option the command accepts: its own, then the global ones (`--json` with the command's own help).
    public var acceptedOptions: [OptionSpec] {
        options
            + globalOptions.filter { global in !options.contains { $0.name == global.name } }.map { global in
                global == .json
                    ? OptionSpec(global.name, short: global.short, value: global.value, help: jsonHelp) : global
            }
    }

    /// The option named `name` (without dashes), if the command accepts it.
    public func option(named name: String) -> OptionSpec? {
        acceptedOptions.first { $0.name == name }
    }

    /// The arguments as usage shows them: `FILE|-`, `[N]`.
    public var argumentsUsage: String {
        arguments.map { $0.isOptional ? "[\($0.name)]" : $0.name }.joined(separator: " ")
    }

    /// `notifyctl send [--device D] [--dry-run] [--format F] [--json] FILE|-`; short spellings where there are
    /// (`[-o DIR]`).
    public var usage: String {
        var parts = ["notifyctl", name]
        parts += options.map { "[\($0.briefUsage)]" }
        if !options.contains(where: { $0.name == OptionSpec.json.name }) { parts.append("[--json]") }
        if !arguments.isEmpty { parts.append(argumentsUsage) }
        return parts.joined(separator: " ")
    }
}
