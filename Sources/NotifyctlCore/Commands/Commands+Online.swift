import CoordinatorGraph
import JSON
import RouterContract
import Varlink

/// The commands that ask the daemon about its history, devices and itself (routing is in `Commands+Routing`).
extension Command {
    /// `decision ID`: one decision from the history (`GetDecision`).
    public static let decision = Command(
        name: "decision", summary: "Show one decision from the history",
        arguments: [ArgumentSpec("ID", help: "The decision's id, as printed by send, history or monitor")],
        discussion: "The history holds every decision made and stored, and the dry runs the daemon keeps in memory\n"
            + "(the newest 4,096, until it restarts); 'history' lists the same decisions.",
        group: .daemon, json: Command.decisionJSON
    ) { invocation, context throws(NotifyctlError) in
        let reply = try context.call(invocation, "GetDecision", ["id": .string(invocation.arguments[0])])
        try context.printDecisionReply(reply, invocation)
        return .success
    }

    /// `history [--device D] [--limit N]`: the latest decisions, newest first (`ListDecisions`).
    public static let history = Command(
        name: "history", summary: "List the latest decisions, newest first",
        options: [.onlyDevice, .limit],
        discussion: "The history holds every decision made and stored, and the dry runs the daemon keeps in memory\n"
            + "(the newest 4,096, until it restarts); 'decision ID' finds the same decisions.",
        group: .daemon, synopsis: "history [--device D] [--limit N]",
        json: "Print ListDecisions's reply: {decisions: [decision objects, newest first]}"
    ) { invocation, context throws(NotifyctlError) in
        var parameters: JSONObject = [:]
        if let device = invocation.value(.device) { parameters["device"] = .string(device) }
        if let limit = invocation.integer(.limit) { parameters["limit"] = .int(limit) }
        let reply = try context.call(invocation, "ListDecisions", parameters)
        guard !invocation.wantsJSON else { return context.printJSON(reply) }
        var decisions: [Decision] = []
        for item in reply["decisions"]?.arrayValue ?? [] { decisions.append(try DecisionPrinter.decode(item)) }
        if decisions.isEmpty {
            let scope = invocation.value(.device).map { " for device '\(SafeText.clean($0))'" } ?? ""
            context.print("no decisions\(scope)\n")
        } else {
            context.print(DecisionPrinter(style: context.style).renderList(decisions))
        }
        return .success
    }

    /// `state DEVICE`: a device's navigation state (`GetState`).
    public static let state = Command(
        name: "state", summary: "Show a device's navigation state",
        arguments: [ArgumentSpec("DEVICE", help: "The device's name")],
        group: .daemon,
        json: "Print GetState's reply: {state: {path, started, tabs, stacks, conditions, pending}}, "
            + "state null for a device never seen"
    ) { invocation, context throws(NotifyctlError) in
        let device = invocation.arguments[0]
        let reply = try context.call(invocation, "GetState", ["device": .string(device)])
        guard !invocation.wantsJSON else { return context.printJSON(reply) }
        guard let state = reply["state"], !state.isNull else {
            context.print(
                "device '\(SafeText.clean(device))' has no state: notifyd has not seen it, "
                    + "so its next decision starts from a cold start\n")
            return .success
        }
        context.print(ReplyPrinter(style: context.style).state(state, device: device))
        return .success
    }

    /// `finish DEVICE COORDINATOR`: a presented flow finished; its pending page may resume (`FlowFinished`).
    public static let finish = Command(
        name: "finish", summary: "Tell notifyd a presented flow finished; its pending page resumes",
        arguments: [
            ArgumentSpec("DEVICE", help: "The device's name"),
            ArgumentSpec("COORDINATOR", help: "The flow or modal that finished, e.g. login"),
        ],
        discussion: "The coordinator's condition (e.g. session) becomes satisfied on the device. When a page was\n"
            + "waiting behind it, the reply is the resumed decision; then the device's new state.",
        group: .daemon,
        json: "Print FlowFinished's reply: {resumed: the decision or null, state, dropped: why no page resumed or null}"
    ) { invocation, context throws(NotifyctlError) in
        let device = invocation.arguments[0]
        let reply = try context.call(
            invocation, "FlowFinished",
            ["device": .string(device), "coordinator": .string(invocation.arguments[1])])
        guard !invocation.wantsJSON else { return context.printJSON(reply) }
        if let resumed = reply["resumed"], !resumed.isNull {
            context.print(DecisionPrinter(style: context.style).render(try DecisionPrinter.decode(resumed)))
        } else {
            var line = "no pending page resumed"
            if let dropped = reply["dropped"]?.stringValue { line += ": " + SafeText.clean(dropped) }
            context.print(line + "\n")
        }
        if let state = reply["state"], !state.isNull {
            context.print("\n" + ReplyPrinter(style: context.style).state(state, device: device))
        }
        return .success
    }

    /// `monitor`: every new decision as it is made, until interrupted (`Monitor` with `more`).
    public static let monitor = Command(
        name: "monitor", summary: "Print every new decision as it is made, until interrupted",
        discussion: "With --json each decision object is printed as one line of JSON, so the stream can be read\n"
            + "line by line (jq, while read).",
        group: .daemon, json: "Print each decision object on one line of its own"
    ) { invocation, context throws(NotifyctlError) in
        let socket = invocation.socketPath(environment: context.environment)
        if context.terminal.errorIsTerminal {
            context.errors.write("notifyctl: monitoring decisions of notifyd at \(socket); Ctrl-C stops\n")
        }
        let printer = DecisionPrinter(style: context.style)
        var failure: NotifyctlError?
        try context.withRouter(invocation, streaming: true) { router throws(VarlinkClientError) in
            try router.stream(RouterInterface.method("Monitor"), parameters: [:]) { reply in
                if invocation.wantsJSON {
                    context.print((reply["decision"] ?? .null).serialized + "\n")
                    return true
                }
                do throws(NotifyctlError) {
                    context.print(printer.render(try DecisionPrinter.decode(reply["decision"] ?? .null)) + "\n")
                    return true
                } catch {
                    failure = error
                    return false
                }
            }
        }
        if let failure { throw failure }
        return .success
    }

    /// `stats [--format text|prometheus]`: counters and latency percentiles (`GetStats`).
    public static let stats = Command(
        name: "stats", summary: "Show the daemon's counters and latency percentiles",
        options: [.statsFormat],
        discussion: """
            The text is a tree with units. --format prometheus prints Prometheus' text exposition format for
            node_exporter's textfile collector: counters (notifyd_*_total), gauges and the request latency as a
            summary (quantiles 0.5, 0.9, 0.99), each family with HELP and TYPE lines, every sample labelled
            app="NAME" (--app's name, else the socket's file name without .sock). Write it atomically, e.g.
              notifyctl --app shop stats --format prometheus > DIR/notifyd-shop.prom.tmp &&
              mv DIR/notifyd-shop.prom.tmp DIR/notifyd-shop.prom
            """,
        group: .daemon, synopsis: "stats [--format text|prometheus]",
        json: "Print GetStats's reply as it came: {stats: {requests, decisions, outcomes, …}}"
    ) { invocation, context throws(NotifyctlError) in
        let format = invocation.value(.statsFormat) ?? "text"
        if invocation.wantsJSON, format != "text" {
            throw .usage("'--json' and '--format \(format)' each choose the output; give one", command: "stats")
        }
        let reply = try context.call(invocation, "GetStats", [:])
        guard !invocation.wantsJSON else { return context.printJSON(reply) }
        let stats = reply["stats"]?.objectValue ?? reply
        if format == "prometheus" {
            let app = invocation.appName(environment: context.environment)
            context.print(PrometheusExposition(app: app).render(stats))
        } else {
            context.print(StatsPrinter(style: context.style).render(stats))
        }
        return .success
    }

    /// `reload`: reload the configuration; on error the loaded one stays (`Reload`).
    public static let reload = Command(
        name: "reload", summary: "Reload the daemon's configuration (the old one stays on error)",
        discussion: "Needs root, notifyd's own user or an allowed uid. When the new configuration is rejected,\n"
            + "every problem is printed and the daemon keeps the configuration it has.",
        group: .daemon, json: "Print Reload's reply: {generation, warnings}"
    ) { invocation, context throws(NotifyctlError) in
        let reply = try context.call(invocation, "Reload", [:])
        guard !invocation.wantsJSON else { return context.printJSON(reply) }
        context.print(ReplyPrinter(style: context.style).reload(reply))
        return .success
    }

    /// `info`: the daemon's product, version and interfaces (`org.varlink.service.GetInfo`).
    public static let info = Command(
        name: "info", summary: "Show the daemon's version, interfaces and store", group: .daemon,
        json: "Print GetInfo's reply: {vendor, product, version, url, interfaces}"
    ) { invocation, context throws(NotifyctlError) in
        let reply = try context.call(invocation, VarlinkError.serviceInterface + ".GetInfo", [:], qualified: true)
        guard !invocation.wantsJSON else { return context.printJSON(reply) }
        let socket = invocation.socketPath(environment: context.environment)
        // Which store serves and whether it is up (GetStats' `store`); left out when the call is refused.
        let stats = try? context.call(invocation, "GetStats", [:])
        let store = stats?["stats"]?.objectValue?["store"]?.objectValue
        context.print(ReplyPrinter(style: context.style).info(reply, socketPath: socket, store: store))
        return .success
    }
}

extension OptionSpec {
    /// `--format F` of `stats`.
    public static let statsFormat = OptionSpec(
        "format", value: .choice(placeholder: "F", choices: ["text", "prometheus"]),
        help: "text (default: a tree with units) or prometheus (the text exposition format)")

    /// `--limit N`: at most N entries.
    public static let limit = OptionSpec(
        "limit", value: .integer(placeholder: "N", minimum: 1),
        help: "At most N decisions (the daemon returns 20 unless told, 1000 at most)")
}

extension CommandContext {
    /// Connects to the daemon named by the invocation and runs `body`; failures become notifyctl errors that name
    /// the socket.
    func withRouter<T>(
        _ invocation: Invocation, streaming: Bool = false,
        _ body: (any RouterConnection) throws(VarlinkClientError) -> T
    ) throws(NotifyctlError) -> T {
        let socket = invocation.socketPath(environment: environment)
        do throws(VarlinkClientError) {
            let router = try connector.connect(socketPath: socket, streaming: streaming)
            return try body(router)
        } catch {
            throw ErrorPrinter.error(for: error, socketPath: socket)
        }
    }

    /// Calls `method` (a member of `io.notifyd.Router`, or a qualified name) and returns the reply's parameters.
    func call(
        _ invocation: Invocation, _ method: String, _ parameters: JSONObject, qualified: Bool = false
    ) throws(NotifyctlError) -> JSONObject {
        let name = qualified ? method : RouterInterface.method(method)
        return try withRouter(invocation) { router throws(VarlinkClientError) in
            try router.call(name, parameters: parameters)
        }
    }

    /// Prints a reply as indented JSON.
    func printJSON(_ reply: JSONObject) -> ExitStatus {
        printJSON(.object(reply))
    }

    /// Prints a value as indented JSON.
    func printJSON(_ value: JSON) -> ExitStatus {
        print(value.prettyPrinted() + "\n")
        return .success
    }

    /// Prints a `{"decision": …}` reply: with `--json` the decision object itself (the routing decision of the
    /// contract), else the decision's tree.
    func printDecisionReply(_ reply: JSONObject, _ invocation: Invocation) throws(NotifyctlError) {
        if invocation.wantsJSON {
            _ = printJSON(reply["decision"] ?? .null)
            return
        }
        let decision = try DecisionPrinter.decode(reply["decision"] ?? .null)
        print(DecisionPrinter(style: style).render(decision))
    }
}
