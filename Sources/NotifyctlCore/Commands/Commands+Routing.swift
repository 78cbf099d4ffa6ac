import CoordinatorGraph
import DeepLink
import JSON
import Varlink

/// The routing commands, `send`, `resolve` and `explain`: through the daemon (`Route`, `Resolve`), or with
/// `--offline CONFIG` locally, as the daemon would decide for a device it has never seen.
extension Command {
    /// `send FILE|-`: route a notification payload (`Route`).
    public static let send = Command(
        name: "send", summary: "Route a notification payload (APNs, FCM, ntfy, Gotify or a link)",
        arguments: [ArgumentSpec("FILE|-", help: "The payload: a JSON file, or - for standard input")],
        options: [.device, .dryRun, .format, .strict, .offline],
        discussion: "The daemon detects the payload's format unless --format names it. A file holding only a link\n"
            + "(one line of text, or a JSON string) is routed like 'notifyctl resolve LINK'. With --strict, APNs\n"
            + "and FCM payloads over 4096 bytes are refused, as those services refuse them.",
        group: .daemon, json: Command.decisionJSON
    ) { invocation, context throws(NotifyctlError) in
        let input = try Routing.readPayload(invocation.arguments[0], context: context)
        return try Routing.route(input, explain: false, invocation: invocation, context: context)
    }

    /// `resolve LINK`: route a deep link (`Resolve`), or `--offline CONFIG` without the daemon.
    public static let resolve = Command(
        name: "resolve", summary: "Route a deep link (custom scheme or universal link)",
        arguments: [ArgumentSpec("LINK", help: "The link, e.g. shop://offers/SUMMER or https://shop.example.com/cart")],
        options: [.device, .dryRun, .offline],
        discussion: "With --offline CONFIG no daemon is asked: the decision is the one notifyd would give a device\n"
            + "it has never seen (a cold start), made from the config file.",
        group: .daemon, synopsis: "resolve [--offline CONFIG] LINK", json: Command.decisionJSON
    ) { invocation, context throws(NotifyctlError) in
        try Routing.route(.link(invocation.arguments[0]), explain: false, invocation: invocation, context: context)
    }

    /// `explain FILE|LINK`: route with `explain: true` and print the trace.
    public static let explain = Command(
        name: "explain", summary: "Route a payload or a link and show why: candidates, matches, gates",
        arguments: [
            ArgumentSpec("FILE|LINK", help: "A payload file (- for standard input), or a link such as shop://cart")
        ],
        options: [.device, .dryRun, .format, .strict, .offline],
        discussion: "An argument that starts with a URL scheme (shop://…, https://…) is a link; anything else is\n"
            + "a payload file. With --offline CONFIG no daemon is asked (a cold start, from the config file).\n"
            + "When no page is found, the error shows the trace: offline, every candidate and pattern tried; through\n"
            + "the daemon, the reasons its NoRoute error gives.",
        group: .daemon, synopsis: "explain [--offline CONFIG] FILE|LINK",
        json: "Print the decision object with its trace; when no page is found, the error object with a trace"
    ) { invocation, context throws(NotifyctlError) in
        let argument = invocation.arguments[0]
        let input =
            PayloadInput.isLink(argument)
            ? .link(argument) : try Routing.readPayload(argument, context: context)
        return try Routing.route(input, explain: true, invocation: invocation, context: context)
    }
}

extension OptionSpec {
    /// `--format F`: the payload format, instead of detecting it.
    public static let format = OptionSpec(
        "format", value: .choice(placeholder: "F", choices: PayloadFormat.allCases.map(\.rawValue)),
        help: "Read the payload as F: " + PayloadFormat.allCases.map(\.rawValue).joined(separator: ", "))
    /// `--strict`: refuse APNs and FCM payloads over the 4096 bytes those services accept.
    public static let strict = OptionSpec("strict", help: "Refuse APNs and FCM payloads over 4096 bytes")
    /// `--offline CONFIG`: decide locally from a config file instead of asking the daemon.
    public static let offline = OptionSpec(
        "offline", value: .text(placeholder: "CONFIG"),
        help: "Decide without the daemon, from CONFIG, for a device never seen")
}

extension Command {
    /// What `--json` prints for the commands that print one decision.
    static let decisionJSON =
        "Print the decision object (id, outcome, page, path, steps, pending, …) instead of the tree"
}

/// What `send`, `resolve` and `explain` share.
enum Routing {
    /// Reads a payload argument: a file, or standard input for `-`.
    static func readPayload(_ argument: String, context: CommandContext) throws(NotifyctlError) -> PayloadInput {
        try PayloadInput.read(try context.files.read(argument), name: argument)
    }

    /// Routes `input` through the daemon, or offline with `--offline`, and prints the decision.
    static func route(
        _ input: PayloadInput, explain: Bool, invocation: Invocation, context: CommandContext
    ) throws(NotifyctlError) -> ExitStatus {
        let format = invocation.value(.format)
        if case .link = input, let format, format != PayloadFormat.link.rawValue {
            throw .usage(
                "'--format \(format)' applies to payload objects; the input is a link", command: invocation.command.name
            )
        }
        if let config = invocation.value(.offline) {
            if invocation.value(.device) != nil {
                throw .usage(
                    "'--device' needs the daemon: --offline decides for a device never seen",
                    command: invocation.command.name)
            }
            let decision = try routeOffline(
                input, config: config, format: format.flatMap(PayloadFormat.init(rawValue:)),
                strict: invocation.isSet(.strict), explain: explain, context: context)
            try context.printDecisionReply(["decision": decision.json], invocation)
            return .success
        }
        var parameters: JSONObject = [:]
        let method: String
        switch input {
        case .payload(let payload):
            method = "Route"
            parameters["payload"] = .object(payload)
        case .link(let link):
            method = "Resolve"
            parameters["link"] = .string(link)
        }
        if let device = invocation.value(.device) { parameters["device"] = .string(device) }
        if invocation.isSet(.dryRun) { parameters["dryRun"] = .bool(true) }
        if explain { parameters["explain"] = .bool(true) }
        if method == "Route", let format { parameters["format"] = .string(format) }
        if method == "Route", invocation.isSet(.strict) { parameters["strict"] = .bool(true) }
        let reply: JSONObject
        do throws(NotifyctlError) {
            reply = try context.call(invocation, method, parameters)
        } catch {
            throw explain ? error.explainedOnline() : error
        }
        try context.printDecisionReply(reply, invocation)
        return .success
    }

    /// The decision the daemon would give a device it has never seen, from the config at `path`.
    static func routeOffline(
        _ input: PayloadInput, config path: String, format: PayloadFormat?, strict: Bool, explain: Bool,
        context: CommandContext
    ) throws(NotifyctlError) -> Decision {
        let loaded = try OfflineConfig.load(path, context: context)
        let router = OfflineRouter(graph: loaded.graph)
        do throws(OfflineRouteError) {
            switch input {
            case .payload(let payload):
                // The payload's warnings are part of the decision, as the daemon sends them.
                return try router.route(
                    payload, format: format, strict: strict, explain: explain, id: context.makeID(),
                    now: context.now()
                ).decision
            case .link(let link):
                return try router.resolve(link, explain: explain, id: context.makeID(), now: context.now())
            }
        } catch {
            throw error.notifyctlError
        }
    }
}

extension NotifyctlError {
    /// The error of a refused `explain`, with `trace` (what was tried and why it was rejected) in place of the lines
    /// and notes that say less.
    func explained(by trace: [String]) -> NotifyctlError {
        var error = self
        error.trace = trace
        error.details = []
        error.notes = []
        return error
    }

    /// The error of a refused `explain` through the daemon: the reasons `NoRoute` carries are its trace; a daemon
    /// that sends none gets a note on how to trace the link without it.
    func explainedOnline() -> NotifyctlError {
        guard name == RouterInterface.method("NoRoute") else { return self }
        if let reasons = parameters["reasons"]?.arrayValue {
            return explained(by: reasons.map(ReplyText.text))
        }
        var error = self
        error.notes = [
            "this notifyd sends no reasons with NoRoute; 'notifyctl explain --offline CONFIG LINK' traces the link "
                + "with the config file"
        ]
        return error
    }
}
