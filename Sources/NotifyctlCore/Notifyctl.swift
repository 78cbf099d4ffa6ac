/// The `notifyctl` command: the command table and the entry point the executable calls.
///
/// ```swift
/// let status = Notifyctl.run(Array(CommandLine.arguments.dropFirst()), context: .standard())
/// exit(status.rawValue)
/// ```
public enum Notifyctl {
    /// notifyctl's version, printed by `--version`.
    public static let version = "0.1.0"

    /// The socket used without `--socket` and `$NOTIFYD_SOCKET`: the one `systemd/notifyd.socket` listens on.
    public static let defaultSocketPath = "/run/notifyd/notifyd.sock"

    /// Every command, in the order `notifyctl --help` lists them within their group.
    ///
    /// To add a command, declare it as `static let name = Command(...)` in its own `Commands+Name.swift` and list
    /// it here.
    public static let commands: [Command] = [
        .send, .resolve, .explain, .decision, .history, .state, .finish, .monitor, .stats, .reload, .info,
        .validate, .graph, .codegen, .completion,
    ]

    /// Parses `arguments` (without the program name), runs the command and returns the exit status.
    ///
    /// Help goes to standard output (exit 0); usage mistakes and failures to standard error (exit 2 and 1).
    public static func run(_ arguments: [String], context: CommandContext, commands: [Command] = commands) -> ExitStatus
    {
        let help = HelpPrinter(commands: commands)
        do throws(NotifyctlError) {
            switch try ArgumentParser(commands: commands).parse(arguments) {
            case .help(let command):
                context.print(command.map(help.help(for:)) ?? help.overview())
                return .success
            case .version:
                context.print("notifyctl \(version)\n")
                return .success
            case .run(let invocation):
                return try invocation.command.body(invocation, context)
            }
        } catch {
            context.errors.write(ErrorPrinter.render(error, style: context.terminal.errorStyle, help: help))
            return error.status
        }
    }
}
