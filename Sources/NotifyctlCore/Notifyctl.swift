/// The `notifyctl` command: the command table and the entry point the executable calls.
///
/// ```swift
/// let status = Notifyctl.run(Array(CommandLine.arguments.dropFirst()), context: .standard())
/// exit(status.rawValue)
/// ```
public enum Notifyctl {
    /// notifyctl's version, printed by `--version`.
    public static let version = "0.1.0"

    /// The socket used without `--socket`, `--app` and `$NOTIFYD_SOCKET`: the one `systemd/notifyd.socket` listens on.
    public static let defaultSocketPath = "/run/notifyd/notifyd.sock"

    /// The socket of app `name`'s daemon, which `systemd/notifyd@.socket` listens on for instance `name`.
    public static func socketPath(ofApp name: String) -> String {
        "/run/notifyd/\(name).sock"
    }

    /// Why `name` cannot be an app's name (an instance of `notifyd@.socket`), or nil: it names a file in
    /// `/run/notifyd`, so it is not empty, holds no `/` and does not start with `.`.
    static func problem(withAppName name: String) -> String? {
        guard
            name.isEmpty || name.hasPrefix(".") || name.contains("/")
                || name.unicodeScalars.contains(where: SafeText.isControl)
        else { return nil }
        return "'--app' takes the name of an app, the instance NAME of notifyd@NAME.socket (e.g. shop), not "
            + "'\(SafeText.clean(name))'"
    }

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
    /// Help goes to standard output (exit 0); usage mistakes and failures to standard error (exit 2 and 1), or with
    /// `--json` as one JSON object to standard output.
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
            if wantsJSON(arguments) {
                context.print(ErrorPrinter.renderJSON(error))
            } else {
                context.errors.write(ErrorPrinter.render(error, style: context.terminal.errorStyle, help: help))
            }
            return error.status
        }
    }

    /// True when `--json` stands among the options: then errors, usage mistakes included, are JSON objects on
    /// standard output. Looked for in the words themselves, since a usage mistake stops the parser before it knows.
    static func wantsJSON(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains("--" + OptionSpec.json.name)
    }
}
