import CoordinatorGraph
import JSON

/// Prints the changes of `diff` and `replay` for people: grouped by kind, each source with where it led (`-`) and
/// where it leads (`+`), then a summary with the counts.
///
/// ```
/// gate added (1)
///   https://shop.example.com/cart
///     - routed  cart.cart  app › main › cart
///     + gated   cart.cart  app › main › cart  gate login for session
/// ```
///
/// Outcomes, pages and paths are written by ``DecisionPrinter``'s pieces, as `resolve` writes them.
public struct ChangePrinter: Sendable {
    /// Colours, or none.
    public let style: Style
    let decisions: DecisionPrinter

    /// A printer with `style`.
    public init(style: Style) {
        self.style = style
        self.decisions = DecisionPrinter(style: style)
    }

    /// The changes grouped by kind (in ``ChangeKind``'s order), each group headed by its kind and count; empty when
    /// there are none.
    public func render(_ changes: [RoutingChange]) -> String {
        var groups: [ChangeKind: [RoutingChange]] = [:]
        for change in changes { groups[change.kind, default: []].append(change) }
        var out = ""
        for kind in ChangeKind.allCases {
            guard let group = groups[kind] else { continue }
            if !out.isEmpty { out += "\n" }
            out += style.bold(kind.title) + " (\(group.reduce(0) { $0 + $1.count }))\n"
            for change in group { out += render(change) }
        }
        return out
    }

    /// One change: the source, then where it led and where it leads.
    func render(_ change: RoutingChange) -> String {
        var out = "  "
        switch change.subject {
        case .corpus(let item, let count):
            out += decisions.clean(item.label) + (count > 1 ? style.dim("  ×\(count)") : "") + "\n"
        case .decision(let decision):
            out += decisions.clean(decision.source.link ?? "") + "  " + style.dim(decisions.origin(decision.source))
            out += "\n"
            let about = [
                decisions.clean(decision.id), decision.device.map { "device " + decisions.clean($0) } ?? "no device",
                decisions.clean(decision.createdAt), decision.start.phrase,
            ]
            out += "    " + style.dim(about.joined(separator: " · ")) + "\n"
        }
        let width = max(change.before.outcome.count, change.after.outcome.count)
        out += "    - " + line(change.before, width: width) + "\n"
        out += "    + " + line(change.after, width: width) + "\n"
        return out
    }

    /// `routed  cart.cart  app › main › cart`, with `gate login for session` for a gated page, or `refused  why`;
    /// the outcome padded to `width`.
    func line(_ destination: Destination, width: Int) -> String {
        let padding = String(repeating: " ", count: max(0, width - destination.outcome.count))
        let outcome =
            Decision.Outcome(rawValue: destination.outcome).map(decisions.outcome)
            ?? (destination.isRefused ? style.error(destination.outcome) : decisions.clean(destination.outcome))
        if let refusal = destination.refusal {
            return outcome + padding + "  " + decisions.clean(refusal.reasons.joined(separator: "; "))
        }
        var text = outcome + padding + "  " + style.bold(decisions.clean(destination.pageDescription ?? ""))
        text += "  " + style.dim(decisions.path(destination.path))
        if let gate = destination.gate {
            text += "  gate " + decisions.clean(gate.coordinator) + " for " + decisions.clean(gate.condition)
        }
        return text
    }

    /// The kinds and their counts: `1 pattern moved, 2 gate added`.
    func tally(_ changes: [RoutingChange]) -> String {
        var counts: [ChangeKind: Int] = [:]
        for change in changes { counts[change.kind, default: 0] += change.count }
        return ChangeKind.allCases.compactMap { kind in counts[kind].map { "\($0) \(kind.title)" } }
            .joined(separator: ", ")
    }

    /// The last line of `diff`: how many of the corpus's `total` sources (`noun`: "links") change with `candidate`.
    public func diffSummary(_ changes: [RoutingChange], total: Int, noun: String, candidate: String) -> String {
        let changed = changes.reduce(0) { $0 + $1.count }
        guard changed > 0 else {
            return style.good("no change") + ": the \(total) \(noun) route the same with both configs\n"
        }
        return style.caution("\(changed) of \(total) \(noun) change")
            + " with \(decisions.clean(candidate)): " + tally(changes) + "\n"
    }

    /// The last lines of `replay`: how many decisions would change with `candidate`, how each was replayed, and
    /// which were not.
    public func replaySummary(_ replay: HistoryReplay, candidate: String) -> String {
        let counts = replay.counts
        guard counts.read > 0 else {
            return "no stored decisions to replay: notifyd stores the decisions it makes with a state directory "
                + "(--state-dir), never dry runs\n"
        }
        let replayed = counts.replayedTotal
        var out: String
        if replay.changes.isEmpty {
            out =
                style.good("no change") + ": the \(Self.count(replayed, "decision")) replayed route the same with "
                + decisions.clean(candidate) + "\n"
        } else {
            out =
                style.caution("\(replay.changes.count) of \(Self.count(replayed, "decision")) replayed would change")
                + " with \(decisions.clean(candidate)): " + tally(replay.changes) + "\n"
        }
        let how = ReplayedDecision.Start.allCases.compactMap { start in
            counts.replayed[start].map { "\($0) " + start.counted }
        }
        if !how.isEmpty { out += "replayed: " + how.joined(separator: ", ") + "\n" }
        var left: [String] = []
        if counts.noSource > 0 {
            left.append(
                "\(counts.noSource) made when a flow finished (the gated decision before is replayed) or stored "
                    + "without their link")
        }
        if counts.category > 0 { left.append("\(counts.category) chosen by a category (payloads are not stored)") }
        if !left.isEmpty { out += "not replayed: " + left.joined(separator: ", ") + "\n" }
        return out
    }

    static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)" + (n == 1 ? "" : "s")
    }

    /// The changes as `--json` prints them: an array, in the order found.
    public static func json(_ changes: [RoutingChange]) -> JSON {
        .array(changes.map(\.json))
    }
}
