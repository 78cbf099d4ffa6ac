import CoordinatorGraph

/// How the daemon was asked to run: `notifyd --config PATH [--socket PATH] [--state-dir DIR] [--log-target …]`.
public struct Settings: Sendable, Equatable {
    /// Where journal entries go.
    public enum LogTarget: String, Sendable {
        /// The journal when `$JOURNAL_STREAM` or the journal socket is present, else the console.
        case auto
        /// Always the journal.
        case journal
        /// Human-readable lines on stderr.
        case console
    }

    /// The graph config (YAML or JSON).
    public var configPath = ""
    /// The socket to bind when not socket-activated.
    public var socketPath = "/run/notifyd/notifyd.sock"
    /// Where the SQLite database lives; `nil` keeps state in memory only.
    public var stateDirectory: String?
    /// A PostgreSQL connection string (`postgresql://…` or libpq's `key=value` pairs): the state lives there, shared
    /// with the other replicas naming it, instead of in `stateDirectory` (docs/scaling.md).
    public var storeURL: String?
    /// Journal or console.
    public var logTarget = LogTarget.auto
    /// Mode of a socket file the daemon binds itself.
    public var socketMode: UInt32 = 0o660
    /// Uids besides root and the daemon's own that may call the mutating methods.
    public var allowedUIDs: [UInt32] = []
    /// Largest accepted varlink message in bytes.
    public var maxMessageBytes = 64 * 1024
    /// Output bytes queued for one client before the daemon stops reading from it.
    public var maxOutputBytes = 1024 * 1024
    /// Open connections at most.
    public var maxConnections = 4096
    /// Open connections per peer uid at most.
    public var maxConnectionsPerUID = 1024
    /// A connection idle this long (no request, nothing to send) is closed; monitors are exempt.
    public var idleTimeoutSeconds = 60
    /// Nesting bound for request JSON.
    public var maxJSONDepth = 64
    /// Decisions kept in history.
    public var historyLimit = 100_000
    /// Requests per second allowed per peer uid for `Route`/`Resolve` (0: unlimited).
    public var rateLimitPerUID = 0
    /// Event-loop threads serving clients: the main loop, and `eventLoops - 1` lanes that answer device-less dry runs
    /// (see ``Lane``). Lanes do not run with a rate limit, which only the main loop keeps.
    public var eventLoops = 1

    /// The most event loops `--event-loops` accepts.
    public static let maxEventLoops = 64

    /// Defaults; `configPath` must be set.
    public init() {}

    /// Usage text for `--help`.
    public static let usage = """
        usage: notifyd --config PATH [options]

        Answers "this push notification arrived: which screen must open, and how do we get there?"
        over varlink on a Unix socket.

        options:
          --config PATH            graph config (YAML or JSON)                          (required)
          --socket PATH            socket to bind when not socket-activated     [/run/notifyd/notifyd.sock]
          --state-dir DIR          SQLite state directory (default: $STATE_DIRECTORY, else in memory)
          --store URL              PostgreSQL instead, shared by replicas: postgresql://… or libpq's
                                   host=… dbname=… (default: $NOTIFYD_STORE)
          --log-target TARGET      auto | journal | console                                  [auto]
          --socket-mode OCTAL      mode of a socket the daemon binds itself                  [0660]
          --allow-uid UID          may call SetState/ForgetDevice/Reload (repeatable; root and own uid always)
          --max-message BYTES      largest varlink message                                  [65536]
          --max-connections N      open connections at most                                   [4096]
          --max-connections-per-uid N                                                         [1024]
          --idle-timeout SECONDS   close idle connections                                       [60]
          --history-limit N        decisions kept                                           [100000]
          --rate-limit N           Route/Resolve requests per second per uid, 0 = unlimited       [0]
          --event-loops N          event-loop threads; the N - 1 beside the main one answer the dry
                                   runs made for no device, on the connections handed to them    [1]
          --print-message-id EVENT print the journal MESSAGE_ID of an event (decisionMade, configRejected, …)
          --version                print notifyd's version
          -h, --help               this text

        A --state-dir that does not exist is created (mode 0700). Several apps on one host: the template units
        notifyd@NAME.socket and notifyd@NAME.service serve /etc/notifyd/NAME.yaml on /run/notifyd/NAME.sock.
        """

    /// The options `parse` knows, for "did you mean" (`--print-message-id` is read before it).
    static let optionNames = [
        "--config", "--socket", "--state-dir", "--store", "--log-target", "--socket-mode", "--allow-uid",
        "--max-message",
        "--max-connections", "--max-connections-per-uid", "--idle-timeout", "--history-limit", "--rate-limit",
        "--event-loops", "--print-message-id", "--version", "--help",
    ]

    /// The hint every command-line mistake ends with.
    static let helpHint = "'notifyd --help' lists the options"

    /// A command-line mistake, with the text to print; or the answer to `--help` or `--version`.
    public struct UsageError: Error, CustomStringConvertible, Sendable {
        /// What was wrong, or the usage text, or the version.
        public let description: String
        /// True for `--help` and `--version`: the text goes to standard output and the exit status is 0.
        public var isHelp = false
    }

    /// Parses the arguments after the program name. `--help` throws a usage error whose text is the usage.
    public static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Settings {
        var settings = Settings()
        var i = 0
        func value(_ flag: String) throws(UsageError) -> String {
            i += 1
            guard i < arguments.count else { throw UsageError(description: "\(flag) needs a value; \(helpHint)") }
            return arguments[i]
        }
        func number(_ flag: String) throws(UsageError) -> Int {
            let text = try value(flag)
            guard let n = Int(text), n >= 0 else {
                throw UsageError(description: "\(flag) takes a whole number, not '\(text)'")
            }
            return n
        }
        while i < arguments.count {
            let arg = arguments[i]
            switch arg {
            case "--config": settings.configPath = try value(arg)
            case "--socket": settings.socketPath = try value(arg)
            case "--state-dir": settings.stateDirectory = try value(arg)
            case "--store": settings.storeURL = try value(arg)
            case "--log-target":
                let text = try value(arg)
                guard let target = LogTarget(rawValue: text) else {
                    throw UsageError(description: "--log-target takes auto, journal or console, not '\(text)'")
                }
                settings.logTarget = target
            case "--socket-mode":
                let text = try value(arg)
                guard let mode = UInt32(text, radix: 8), mode <= 0o777 else {
                    throw UsageError(description: "--socket-mode takes an octal mode such as 0660, not '\(text)'")
                }
                settings.socketMode = mode
            case "--allow-uid":
                let text = try value(arg)
                guard let uid = UInt32(text) else {
                    throw UsageError(description: "--allow-uid takes a uid, not '\(text)'")
                }
                settings.allowedUIDs.append(uid)
            case "--max-message": settings.maxMessageBytes = max(1024, try number(arg))
            case "--max-connections": settings.maxConnections = max(1, try number(arg))
            case "--max-connections-per-uid": settings.maxConnectionsPerUID = max(1, try number(arg))
            case "--idle-timeout": settings.idleTimeoutSeconds = max(1, try number(arg))
            case "--history-limit": settings.historyLimit = max(1, try number(arg))
            case "--rate-limit": settings.rateLimitPerUID = try number(arg)
            case "--event-loops":
                let n = try number(arg)
                guard (1...maxEventLoops).contains(n) else {
                    throw UsageError(description: "--event-loops takes 1 to \(maxEventLoops), not \(n)")
                }
                settings.eventLoops = n
            case "-h", "--help": throw UsageError(description: usage, isHelp: true)
            case "--version": throw UsageError(description: "notifyd \(notifydVersion)", isHelp: true)
            default:
                let name = arg.split(separator: "=", maxSplits: 1).first.map(String.init) ?? arg
                var message = "unknown option '\(arg)'"
                if arg.contains("="), optionNames.contains(name) {
                    message += "; give the value as a word of its own: \(name) VALUE"
                } else if let near = NameSuggestion.closest(to: name, in: optionNames) {
                    message += " (did you mean '\(near)'?)"
                } else if !arg.hasPrefix("-") {
                    message = "unexpected argument '\(arg)': notifyd takes options only"
                }
                throw UsageError(description: message + "; " + helpHint)
            }
            i += 1
        }
        guard !settings.configPath.isEmpty else {
            throw UsageError(description: "--config is required: notifyd --config PATH [options]; \(helpHint)")
        }
        if settings.eventLoops > 1, settings.rateLimitPerUID > 0 {
            throw UsageError(
                description: "--event-loops above 1 does not combine with --rate-limit: the main loop keeps the rate "
                    + "limit, and the lanes answer without it")
        }
        if settings.storeURL == nil, let url = environment["NOTIFYD_STORE"], !url.isEmpty { settings.storeURL = url }
        if settings.storeURL?.isEmpty == true { settings.storeURL = nil }
        if settings.storeURL != nil, arguments.contains("--state-dir") {
            throw UsageError(
                description: "--store and --state-dir name two stores: give one (PostgreSQL with --store, SQLite "
                    + "with --state-dir)")
        }
        if settings.stateDirectory == nil, settings.storeURL == nil, let dir = environment["STATE_DIRECTORY"],
            !dir.isEmpty
        {
            settings.stateDirectory = String(dir.split(separator: ":").first ?? Substring(dir))
        }
        return settings
    }
}
