/// A parsed command line: the command, its options and its positional arguments.
public struct Invocation: Sendable {
    /// The command to run.
    public let command: Command
    /// The positional arguments, in order (their count already checked against the command).
    public let arguments: [String]
    /// Option values by option name (the last one given wins).
    let values: [String: String]
    /// Flags given, by option name.
    let flags: Set<String>
    /// Every value of each repeatable option, in the order given.
    let lists: [String: [String]]

    /// An invocation from its parts (the parser builds these; tests may too).
    public init(
        command: Command, arguments: [String] = [], values: [String: String] = [:], flags: Set<String> = [],
        lists: [String: [String]] = [:]
    ) {
        self.command = command
        self.arguments = arguments
        self.values = values
        self.flags = flags
        self.lists = lists
    }

    /// Every value given for the repeatable `option`, in order.
    public func values(_ option: OptionSpec) -> [String] {
        lists[option.name] ?? []
    }

    /// The value given for `option`, if any.
    public func value(_ option: OptionSpec) -> String? {
        values[option.name]
    }

    /// The integer value given for `option` (the parser checked it), if any.
    public func integer(_ option: OptionSpec) -> Int? {
        values[option.name].flatMap { Int($0) }
    }

    /// True when the flag `option` was given.
    public func isSet(_ option: OptionSpec) -> Bool {
        flags.contains(option.name)
    }

    /// The positional argument at `index`, or nil when an optional one was left out.
    public func argument(_ index: Int) -> String? {
        arguments.indices.contains(index) ? arguments[index] : nil
    }

    /// True when `--json` was given.
    public var wantsJSON: Bool { isSet(.json) }

    /// The socket to connect to: `--socket`, else `/run/notifyd/NAME.sock` for `--app NAME` (the socket of the
    /// template unit `notifyd@NAME.socket`), else `$NOTIFYD_SOCKET` when set and not empty, else
    /// ``Notifyctl/defaultSocketPath``.
    public func socketPath(environment: [String: String]) -> String {
        if let path = value(.socket) { return path }
        if let app = value(.app) { return Notifyctl.socketPath(ofApp: app) }
        if let path = environment["NOTIFYD_SOCKET"], !path.isEmpty { return path }
        return Notifyctl.defaultSocketPath
    }

    /// The name of the app the daemon serves, as the stats' `app` label gives it: `--app`'s name, else the
    /// socket's file name without `.sock` (`notifyd` for the plain units' socket).
    public func appName(environment: [String: String]) -> String {
        if let app = value(.app) { return app }
        let file = socketPath(environment: environment).split(separator: "/").last.map(String.init) ?? ""
        return file.hasSuffix(".sock") ? String(file.dropLast(5)) : file
    }
}
