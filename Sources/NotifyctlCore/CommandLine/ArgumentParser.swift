import CoordinatorGraph

/// What a command line asks for.
public enum ParseOutcome: Sendable {
    /// Run a command.
    case run(Invocation)
    /// Print help: the overview when `nil`, else the command's.
    case help(Command?)
    /// Print the version.
    case version
}

/// Parses `notifyctl [OPTIONS] COMMAND [OPTIONS] [ARGUMENTS]` against a command table.
///
/// - Options are long (`--device D`, `--device=D`, `--json`); a few also have a letter (`-h` for `--help`, `-o DIR`
///   or `-oDIR` for `--output DIR`). They may come before or after the command name and between arguments; before
///   it only ``OptionSpec/common`` are known (checked against the command once it is). A repeated option keeps its
///   last value, unless it is repeatable (``OptionSpec/repeats``): then every value is kept, in order.
/// - `--` ends the options; `-` is an argument (standard input).
/// - `notifyctl help [COMMAND]` is `notifyctl [COMMAND] --help`.
///
/// Every mistake is a ``NotifyctlError`` of kind usage that says what was wrong and suggests a near name.
public struct ArgumentParser: Sendable {
    /// The commands recognized.
    public let commands: [Command]

    /// A parser for `commands`.
    public init(commands: [Command]) {
        self.commands = commands
    }

    /// The command named `name`, if any.
    public func command(named name: String) -> Command? {
        commands.first { $0.name == name }
    }

    /// Parses the arguments after the program name.
    public func parse(_ arguments: [String]) throws(NotifyctlError) -> ParseOutcome {
        var values: [String: String] = [:]
        var lists: [String: [String]] = [:]
        var flags: Set<String> = []
        var positionals: [String] = []
        var command: Command?
        var wantsHelp = false
        var optionsEnded = false
        var index = 0

        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if optionsEnded || token == "-" || !token.hasPrefix("-") {
                if command != nil {
                    positionals.append(token)
                } else if token == "help" && !optionsEnded {
                    return try helpOutcome(Array(arguments[index...]))
                } else {
                    command = try lookUpCommand(token)
                }
                continue
            }
            if token == "--" {
                optionsEnded = true
                continue
            }
            if token == "-h" || token == "--help" {
                wantsHelp = true
                continue
            }
            if token == "--version" && command == nil {
                return .version
            }
            let known = command?.acceptedOptions ?? OptionSpec.common
            let option: OptionSpec
            let attached: String?
            if token.hasPrefix("--") {
                let (name, value) = Self.split(token)
                guard let found = known.first(where: { $0.name == name }) else {
                    throw unknownOption(name, known: known, command: command)
                }
                (option, attached) = (found, value)
            } else {
                (option, attached) = try shortOption(token, known: known, command: command)
            }
            // Messages name the option as it was typed: `-o` or `--output`.
            let spelled = token.hasPrefix("--") ? "--\(option.name)" : String(token.prefix(2))
            if option.isFlag {
                if attached != nil {
                    throw .usage("'\(spelled)' is a flag and takes no value", command: command?.name)
                }
                flags.insert(option.name)
                continue
            }
            let value: String
            if let attached {
                value = attached
            } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                value = arguments[index]
                index += 1
            } else {
                let usage = spelled.hasPrefix("--") ? option.usage : option.briefUsage
                throw .usage("'\(spelled)' needs a value: \(usage)", command: command?.name)
            }
            if let problem = option.problem(with: value) {
                throw .usage(problem, command: command?.name)
            }
            values[option.name] = value
            if option.repeats { lists[option.name, default: []].append(value) }
        }

        if wantsHelp { return .help(command) }
        guard let command else {
            throw .usage("no command given; 'notifyctl --help' lists the commands")
        }
        for name in flags.union(values.keys).sorted() where command.option(named: name) == nil {
            if OptionSpec.daemonChoice.contains(where: { $0.name == name }), command.group == .offline {
                throw offlineSocket(command, option: name)
            }
            throw .usage("'\(command.name)' does not take '--\(name)'", command: command.name)
        }
        if values[OptionSpec.socket.name] != nil, values[OptionSpec.app.name] != nil {
            throw .usage(
                "'--socket' and '--app' both name the daemon's socket; give one", command: command.name)
        }
        if let app = values[OptionSpec.app.name], let problem = Notifyctl.problem(withAppName: app) {
            throw .usage(problem, command: command.name)
        }
        try checkCount(positionals, for: command)
        return .run(
            Invocation(command: command, arguments: positionals, values: values, flags: flags, lists: lists))
    }

    // MARK: - Pieces

    /// `notifyctl help`, `notifyctl help send`.
    func helpOutcome(_ rest: [String]) throws(NotifyctlError) -> ParseOutcome {
        guard let name = rest.first(where: { !$0.hasPrefix("-") }) else { return .help(nil) }
        return .help(try lookUpCommand(name))
    }

    func lookUpCommand(_ name: String) throws(NotifyctlError) -> Command {
        if let command = command(named: name) { return command }
        var message = "unknown command '\(name)'"
        if let near = Self.nearest(to: name, among: commands.map(\.name)) {
            message += "; did you mean '\(near)'?"
        } else {
            message += "; 'notifyctl --help' lists the commands"
        }
        throw .usage(message)
    }

    /// `-o DIR` or `-oDIR`: the option whose letter follows the dash, and the value written with it, if any.
    func shortOption(
        _ token: String, known: [OptionSpec], command: Command?
    ) throws(NotifyctlError) -> (OptionSpec, String?) {
        let letter = token.dropFirst().first
        let rest = String(token.dropFirst(2))
        if let option = known.first(where: { $0.short != nil && $0.short == letter }) {
            return (option, rest.isEmpty ? nil : rest)
        }
        var message = "unknown option '\(token)'"
        let letters = known.compactMap(\.short).filter { $0 != OptionSpec.help.short }
        if command == nil, let letter,
            let owner = commands.first(where: { $0.acceptedOptions.contains { $0.short == letter } })
        {
            message += "; give it after the command, e.g. 'notifyctl \(owner.name) -\(letter)'"
        } else if let command, !letters.isEmpty {
            let shown = letters.map { "'-\($0)'" }.joined(separator: ", ")
            message += " for '\(command.name)'; its short options are '-h' and \(shown), the others are long"
            message += " (see --help)"
        } else {
            message += "; options are long, e.g. '--device D' (see --help)"
        }
        throw .usage(message, command: command?.name)
    }

    func unknownOption(_ name: String, known: [OptionSpec], command: Command?) -> NotifyctlError {
        if let command, command.group == .offline, OptionSpec.daemonChoice.contains(where: { $0.name == name }) {
            return offlineSocket(command, option: name)
        }
        var message = "unknown option '--\(name)'"
        if let command { message += " for '\(command.name)'" }
        if let near = Self.nearest(to: name, among: known.map(\.name)) {
            message += "; did you mean '--\(near)'?"
        } else if command == nil, let owner = commands.first(where: { $0.option(named: name) != nil }) {
            message += "; give it after the command, e.g. 'notifyctl \(owner.name) --\(name)'"
        }
        return .usage(message, command: command?.name)
    }

    /// `--socket` or `--app` given to a command that never asks the daemon.
    func offlineSocket(_ command: Command, option: String) -> NotifyctlError {
        .usage("'\(command.name)' works without the daemon and does not take '--\(option)'", command: command.name)
    }

    func checkCount(_ positionals: [String], for command: Command) throws(NotifyctlError) {
        let required = command.arguments.filter { !$0.isOptional }
        if positionals.count < required.count {
            let missing = required[positionals.count...].map(\.name).joined(separator: " ")
            throw .usage("'\(command.name)' needs \(missing)", command: command.name)
        }
        if positionals.count > command.arguments.count {
            let extra = positionals[command.arguments.count...].map { "'\($0)'" }.joined(separator: ", ")
            let expects = command.arguments.isEmpty ? "no arguments" : command.argumentsUsage
            throw .usage(
                "unexpected argument \(extra); '\(command.name)' takes \(expects)", command: command.name)
        }
    }

    /// `--name=value` → (`name`, `value`); `--name` → (`name`, nil).
    static func split(_ token: String) -> (String, String?) {
        let body = token.dropFirst(2)
        guard let equals = body.firstIndex(of: "=") else { return (String(body), nil) }
        return (String(body[..<equals]), String(body[body.index(after: equals)...]))
    }

    /// The candidate closest to `word` by edit distance, when it is close enough to be a typo.
    static func nearest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(word, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        let limit = max(1, min(3, (word.count + 1) / 3))
        return best.1 <= limit ? best.0 : nil
    }

    /// Edit distance between two short words, counting a swap of neighbours as one edit (`sned` → `send`).
    static func editDistance(_ a: String, _ b: String) -> Int {
        NameSuggestion.editDistance(a, b)
    }
}
