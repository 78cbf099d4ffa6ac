import CoordinatorGraph
import DeepLink
import Foundation
import JSON
import RouterContract
import Varlink

/// The routing commands, `send`, `resolve` and `explain`: through the daemon (`Route`, `Resolve`), or with
/// `--offline CONFIG` locally, as the daemon would decide for a device it has never seen.
extension Command {
    /// `send FILE|-`: route a notification payload (`Route`).
    public static let send = Command(
        name: "send", summary: "Route a notification payload (APNs, FCM, ntfy, Gotify, Web Push, Expo)",
        arguments: [ArgumentSpec("FILE|-", help: "The payload: a JSON file, or - for standard input")],
        options: [.device, .dryRun, .format, .strict, .header, .offline],
        discussion: "The daemon detects the payload's format unless --format names it. A file holding only a link\n"
            + "(one line of text, or a JSON string) is routed like 'notifyctl resolve LINK'. A payload with no\n"
            + "usable link is 'opened' when it shows a notification, else 'silent'. --header passes a transport\n"
            + "header the push came with, e.g. --header 'apns-push-type: background' (silent). With --strict,\n"
            + "APNs, FCM, Web Push and Expo payloads over 4096 bytes are refused, as those services refuse them.",
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
        options: [.device, .dryRun, .format, .strict, .header, .offline],
        discussion: "An argument that starts with a URL scheme (shop://…, https://…) is a link; anything else is\n"
            + "a payload file. With --offline CONFIG no daemon is asked (a cold start, from the config file).\n"
            + "Each refused candidate is a trace line saying why, the same line NoRoute and warnings carry. When no\n"
            + "page is found, the error shows the trace: offline, every candidate and pattern tried; through the\n"
            + "daemon, the reasons its NoRoute error gives.",
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
    public static let strict = OptionSpec(
        "strict", help: "Refuse APNs, FCM, Web Push and Expo payloads over 4096 bytes")
    /// `--header 'NAME: VALUE'`: a transport header of the push (`Route`'s `headers`); repeatable.
    public static let header = OptionSpec(
        "header", value: .text(placeholder: "'NAME: VALUE'"), repeats: true,
        help: "A header the push came with, e.g. 'apns-push-type: background'; repeat for more")
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
        let headers = try headerPairs(invocation)
        if case .link = input, !headers.isEmpty {
            throw .usage("'--header' applies to payload objects; the input is a link", command: invocation.command.name)
        }
        if let config = invocation.value(.offline) {
            if invocation.value(.device) != nil {
                throw .usage(
                    "'--device' needs the daemon: --offline decides for a device never seen",
                    command: invocation.command.name)
            }
            let decision = try routeOffline(
                input, config: config, format: format.flatMap(PayloadFormat.init(rawValue:)),
                strict: invocation.isSet(.strict), headers: headers, explain: explain, context: context)
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
        if method == "Route", !headers.isEmpty {
            var object = JSONObject()
            for (name, value) in headers { object[name] = .string(value) }
            parameters["headers"] = .object(object)
        }
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
        _ input: PayloadInput, config path: String, format: PayloadFormat?, strict: Bool,
        headers: [(name: String, value: String)], explain: Bool, context: CommandContext
    ) throws(NotifyctlError) -> Decision {
        let loaded = try OfflineConfig.load(path, context: context)
        let router = OfflineRouter(graph: loaded.graph)
        do throws(OfflineRouteError) {
            switch input {
            case .payload(let payload):
                // The payload's warnings are part of the decision, as the daemon sends them.
                return try router.route(
                    payload, format: format, strict: strict, headers: headers, explain: explain,
                    id: context.makeID(), now: context.now()
                ).decision
            case .link(let link):
                return try router.resolve(link, explain: explain, id: context.makeID(), now: context.now())
            }
        } catch {
            throw error.notifyctlError
        }
    }

    /// The `--header 'NAME: VALUE'` options as name and value pairs, in order; a header without a colon or a name
    /// is a usage error. Same-named headers (in any case) are left for the daemon's check, which refuses them.
    static func headerPairs(_ invocation: Invocation) throws(NotifyctlError) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        for header in invocation.values(.header) {
            guard let colon = header.firstIndex(of: ":") else {
                throw .usage(
                    "'--header \(header)' needs a colon between the name and the value, e.g. "
                        + "'apns-push-type: background'", command: invocation.command.name)
            }
            let name = header[..<colon].trimmingCharacters(in: .whitespaces)
            let value = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, !name.contains(where: \.isWhitespace) else {
                throw .usage(
                    "'--header \(header)' has no header name before the colon", command: invocation.command.name)
            }
            pairs.append((name, value))
        }
        return pairs
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
