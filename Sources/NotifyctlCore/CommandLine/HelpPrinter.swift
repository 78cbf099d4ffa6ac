/// The text of `notifyctl --help`, `notifyctl COMMAND --help` and the usage lines of usage errors.
public struct HelpPrinter: Sendable {
    /// The commands listed in the overview.
    public let commands: [Command]

    /// A help printer for `commands`.
    public init(commands: [Command]) {
        self.commands = commands
    }

    /// `notifyctl --help`: what the tool is, the commands with one line each, the global options, exit statuses.
    public func overview() -> String {
        var out = "notifyctl: ask notifyd where a push notification leads, and check its config offline.\n\n"
        out += "Usage: notifyctl [--socket PATH | --app NAME] [--json] COMMAND [OPTIONS] [ARGUMENTS]\n"
        let entries = commands.map { ($0, $0.synopsis) }
        let width = entries.map(\.1.count).max() ?? 0
        for group in Command.Group.allCases {
            let members = entries.filter { $0.0.group == group }
            guard !members.isEmpty else { continue }
            out += "\n" + Self.title(of: group) + ":\n"
            for (command, synopsis) in members {
                out += "  " + Self.padded(synopsis, to: width) + "  " + command.summary + "\n"
            }
        }
        out += "\nOptions:\n"
        out += Self.optionLines(OptionSpec.global + [Self.version])
        out += "\nRun 'notifyctl COMMAND --help' for a command's arguments and options.\n"
        out += Self.exitStatuses
        return out
    }

    /// `notifyctl COMMAND --help`: usage, summary, discussion, arguments, options.
    public func help(for command: Command) -> String {
        var out = "Usage: " + command.usage + "\n\n" + command.summary + ".\n"
        if !command.discussion.isEmpty { out += "\n" + command.discussion + "\n" }
        if !command.arguments.isEmpty {
            out += "\nArguments:\n"
            let width = command.arguments.map(\.name.count).max() ?? 0
            for argument in command.arguments {
                out += "  " + Self.padded(argument.name, to: width) + "  " + argument.help + "\n"
            }
        }
        out += "\nOptions:\n"
        out += Self.optionLines(command.acceptedOptions)
        out += Self.exitStatuses
        return out
    }

    /// The lines a usage error prints under its message.
    public func usageHint(for command: Command?) -> String {
        guard let command else { return "Usage: notifyctl [--socket PATH | --app NAME] [--json] COMMAND ...\n" }
        return "Usage: " + command.usage + "\nRun 'notifyctl \(command.name) --help' for more.\n"
    }

    // MARK: - Pieces

    static let version = OptionSpec("version", help: "Print notifyctl's version")

    static let exitStatuses = "\nExit status: 0 success, 1 an error reply or a failure, 2 a usage mistake.\n"

    static func title(of group: Command.Group) -> String {
        switch group {
        case .daemon: return "Commands (ask notifyd over its socket)"
        case .offline: return "Offline commands (no daemon needed)"
        }
    }

    static func optionLines(_ options: [OptionSpec]) -> String {
        let shown = options.map { ($0, $0.fullUsage) }
        let width = shown.map(\.1.count).max() ?? 0
        return shown.map { "  " + padded($0.1, to: width) + "  " + $0.0.help + "\n" }.joined()
    }

    static func padded(_ text: String, to width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
