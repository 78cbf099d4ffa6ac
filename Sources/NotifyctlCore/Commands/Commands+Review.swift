import CoordinatorGraph
import Foundation
import JSON
import Varlink

/// Reviewing a config change before it ships: `diff` routes a corpus of links with both configs, offline; `replay`
/// routes the daemon's stored decisions again with the candidate. Both print each source that leads elsewhere,
/// grouped by kind, and end 0 when nothing changes, 1 when something does, 2 when nothing could be compared.
extension Command {
    /// `diff OLD_CONFIG NEW_CONFIG [--links FILE]`.
    public static let diff = Command(
        name: "diff", summary: "Show which links a config change sends elsewhere, by kind of change",
        arguments: [
            ArgumentSpec("OLD_CONFIG", help: "The config in use (YAML or JSON), e.g. config/shop.yaml"),
            ArgumentSpec("NEW_CONFIG", help: "The config under review"),
        ],
        options: [.links],
        discussion: """
            Routes each link with both configs, as notifyd routes it for a device it has never seen, and prints
            every link whose outcome, page, path or gate changes, under its kind of change (pattern moved, page
            renamed, gate added, fallback changed, host removed, …), then the counts.
            Without --links the links are made from both configs: each page's parameters at typical values (every
            enum case, both Booleans, an Int, a String, a UUID; optional query bindings left out and given)
            printed through each of its patterns, each page on every scheme and host either config allows, a link
            no pattern matches on each (the fallback), and an APNs payload for every category.
            """,
        group: .offline, synopsis: "diff OLD_CONFIG NEW_CONFIG [--links FILE]",
        json: "Print the changes as an array: [{kind, changed, link, category, count, before, after}]",
        exits: Review.exits
    ) { invocation, context throws(NotifyctlError) in
        try Review.comparing { () throws(NotifyctlError) -> ExitStatus in
            let current = try Review.load(invocation.arguments[0], context: context)
            let candidatePath = invocation.arguments[1]
            let candidate = try Review.load(candidatePath, context: context)
            for warning in candidate.warnings { context.warn(warning.description) }
            let diff = ConfigDiff(current: current.graph, candidate: candidate.graph)
            let corpus: LinkCorpus
            let noun: String
            if let file = invocation.value(.links) {
                corpus = try LinkCorpus.read(try context.files.read(file), name: file)
                noun = "links"
            } else {
                corpus = diff.synthesizedCorpus
                noun = "links and categories"
            }
            let changes = diff.changes(in: corpus)
            return Review.print(changes, invocation, context) { printer in
                printer.diffSummary(changes, total: corpus.total, noun: noun, candidate: candidatePath)
            }
        }
    }

    /// `replay --config NEW_CONFIG [--device D] [--since TIME] [--limit N]`.
    public static let replay = Command(
        name: "replay",
        summary: "Replay the daemon's stored decisions with a new config: what would change",
        options: [.candidateConfig, .onlyDevice, .since, .replayLimit],
        discussion: """
            Reads the decisions notifyd stored (ListHistory, newest first; dry runs are never stored), routes the
            link each came from again with NEW_CONFIG, with the same format and field, from the state the device
            had when the decision was made, and prints every decision whose outcome, page, path or gate would
            change, under its kind of change, then the counts. Each says how it was replayed: from the device's
            state then, or from a cold start (it had none; or its state was not recorded, or does not fit
            NEW_CONFIG). Decisions made when a flow finished (FlowFinished), decisions a category chose and
            decisions stored without their link are counted but not replayed. TIME is RFC 3339 (2026-12-01T08:00:00Z), a date (2026-12-01, midnight UTC) or a time
            ago (90m, 24h, 7d).
            """,
        group: .daemon, synopsis: "replay --config NEW_CONFIG [--since TIME]",
        json: "Print the changes as an array: "
            + "[{kind, changed, decision, device, createdAt, source, replayedFrom, before, after}]",
        exits: Review.exits
    ) { invocation, context throws(NotifyctlError) in
        guard let path = invocation.value(.candidateConfig) else {
            throw .usage("'replay' needs the config under review: --config NEW_CONFIG", command: "replay")
        }
        return try Review.comparing { () throws(NotifyctlError) -> ExitStatus in
            let candidate = try Review.load(path, context: context)
            for warning in candidate.warnings { context.warn(warning.description) }
            var since: String?
            if let text = invocation.value(.since) {
                guard let time = Review.time(text, now: context.now()) else {
                    throw .usage(
                        "'--since' expects RFC 3339 (2026-12-01T08:00:00Z), a date (2026-12-01) or a time ago "
                            + "(90m, 24h, 7d), not '\(SafeText.clean(text))'", command: "replay")
                }
                since = time.rfc3339
            }
            let graph = try context.call(invocation, "GetGraph", [:])["graph"] ?? .null
            var replay = HistoryReplay(candidate: candidate.graph, currentGraph: graph)
            var remaining = invocation.integer(.replayLimit) ?? Int.max
            var before: Int?
            while remaining > 0 {
                var parameters: JSONObject = ["limit": .int(min(remaining, Review.pageSize))]
                if let device = invocation.value(.onlyDevice) { parameters["device"] = .string(device) }
                if let since { parameters["since"] = .string(since) }
                if let before { parameters["before"] = .int(before) }
                let page = try Review.history(context, invocation, parameters)
                let entries = (page["entries"]?.arrayValue ?? []).prefix(remaining)
                for entry in entries { try replay.replay(entry) }
                remaining -= entries.count
                guard let next = page["next"]?.intValue, !entries.isEmpty else { break }
                before = next
            }
            // Read newest first, shown in the order they were made.
            return Review.print(Array(replay.changes.reversed()), invocation, context) { printer in
                printer.replaySummary(replay, candidate: path)
            }
        }
    }
}

extension ExitStatus {
    /// `diff` and `replay` found a change (1, as a failure: a check that gates a change fails).
    public static let changesFound = ExitStatus.failure
}

extension OptionSpec {
    /// `--links FILE` of `diff`.
    public static let links = OptionSpec(
        "links", value: .text(placeholder: "FILE"),
        help: "Route the links of FILE (one a line, - for standard input) instead of links made from both configs")
    /// `--config NEW_CONFIG` of `replay`.
    public static let candidateConfig = OptionSpec(
        "config", value: .text(placeholder: "NEW_CONFIG"), help: "The config under review (YAML or JSON); required")
    /// `--device D` of `history` and `replay`: one device's decisions.
    public static let onlyDevice = OptionSpec(
        "device", value: .text(placeholder: "D"), help: "Only the decisions for this device")
    /// `--since TIME` of `replay`.
    public static let since = OptionSpec(
        "since", value: .text(placeholder: "TIME"), help: "Only the decisions made since TIME (RFC 3339, a date, 24h)")
    /// `--limit N` of `replay`.
    public static let replayLimit = OptionSpec(
        "limit", value: .integer(placeholder: "N", minimum: 1),
        help: "At most the newest N decisions (default: the whole stored history)")
}

/// What `diff` and `replay` share.
enum Review {
    /// Their exit statuses, as their help shows them.
    static let exits =
        "0 no change, 1 changes, 2 nothing compared (a usage mistake, an invalid or unreadable config "
        + "or file, the daemon not answering)"

    /// Entries asked for in one `ListHistory` call: the most the daemon gives.
    static let pageSize = 1000

    /// Runs `body`; any error it throws ends with status 2 (usage), since 1 means "changes found".
    static func comparing(
        _ body: () throws(NotifyctlError) -> ExitStatus
    ) throws(NotifyctlError) -> ExitStatus {
        do throws(NotifyctlError) {
            return try body()
        } catch {
            throw error.ending(with: .usage)
        }
    }

    /// Prints `changes`: with `--json` as an array, else grouped by kind and followed by `summary`. Returns the exit
    /// status: 0 without a change, 1 with one.
    static func print(
        _ changes: [RoutingChange], _ invocation: Invocation, _ context: CommandContext,
        summary: (ChangePrinter) -> String
    ) -> ExitStatus {
        if invocation.wantsJSON {
            context.print(ChangePrinter.json(changes).prettyPrinted() + "\n")
        } else {
            let printer = ChangePrinter(style: context.style)
            let listed = printer.render(changes)
            context.print(listed + (listed.isEmpty ? "" : "\n") + summary(printer))
        }
        return changes.isEmpty ? .success : .changesFound
    }

    /// The config at `path`; a rejected one is an error under which every finding is listed as `validate` prints
    /// it (`FILE:LINE:COLUMN: error: MESSAGE [code]`, then the counts).
    static func load(_ path: String, context: CommandContext) throws(NotifyctlError) -> LoadedConfig {
        switch ConfigLoader.load(try context.files.read(path), file: path) {
        case .success(let loaded):
            return loaded
        case .failure(let failure):
            var error = OfflineConfig.rejection(failure, file: path)
            let findings = FindingPrinter(style: context.terminal.errorStyle)
                .render(failure.findings, file: path, graph: nil)
            error.details = findings.split(separator: "\n").map(String.init)
            error.notes = []
            throw error
        }
    }

    /// A page of `ListHistory`; a daemon without the method is told apart from other failures.
    static func history(
        _ context: CommandContext, _ invocation: Invocation, _ parameters: JSONObject
    ) throws(NotifyctlError) -> JSONObject {
        do throws(NotifyctlError) {
            return try context.call(invocation, "ListHistory", parameters)
        } catch {
            guard error.name == VarlinkError.serviceInterface + ".MethodNotFound" else { throw error }
            var older = error
            older.notes.append("this notifyd is older than notifyctl: 'replay' needs its ListHistory method")
            throw older
        }
    }

    /// `since`'s TIME: RFC 3339, a date (`2026-12-01`, midnight UTC), or a time before `now` (`90m`, `24h`, `7d`).
    static func time(_ text: String, now: Timestamp) -> Timestamp? {
        if let time = Timestamp(rfc3339: text) { return time }
        if text.count == 10, let day = Timestamp(rfc3339: text + "T00:00:00Z") { return day }
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        guard let unit = text.last.flatMap({ units[$0] }), let amount = Int64(text.dropLast()), amount >= 0,
            amount < Int64.max / 1000 / unit
        else { return nil }
        return Timestamp(millisecondsSince1970: now.millisecondsSince1970 - amount * unit * 1000)
    }
}
