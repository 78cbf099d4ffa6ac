import CoordinatorGraph
import DeepLink
import JSON

/// Prints decisions for people: one decision as a tree, a history as a table.
///
/// ```
/// routed  cart.offer(id: "SUMMER")
/// ├─ source    apns · deeplink · shop://offers/SUMMER
/// ├─ path      app › main › cart
/// ├─ steps
/// │  1. activate app
/// │  2. selectTab main → cart
/// │  3. start cart in main
/// │  4. display cart.offer(id: "SUMMER") in cart
/// └─ decision  5f0c7e1e-… · device ipad-7 · 2025-06-01T12:00:00.000Z
/// ```
///
/// Gated decisions add `gate` and `pending` rows (the page that waits and when it expires); a payload with unused
/// parts or refused links a `warnings` row; explained ones a `trace` row. An `opened` or `silent` decision has no
/// page: its header says what the app does, and it has no `path` and `steps` rows:
///
/// ```
/// opened  no page: the app comes forward where it is
/// ├─ source    apns · aps.alert
/// └─ decision  5f0c7e1e-… · no device · 2025-06-01T12:00:00.000Z
/// ```
///
/// Every text that came from a payload or the daemon is made terminal-safe.
public struct DecisionPrinter: Sendable {
    /// Colours, or none.
    public let style: Style

    /// A printer with `style`.
    public init(style: Style) {
        self.style = style
    }

    /// The decision as a tree, ending in a newline.
    public func render(_ decision: Decision) -> String {
        let subject = decision.page.map { style.bold(clean($0.description)) } ?? style.dim(pageless(decision.outcome))
        var tree = TreeText(header: outcome(decision.outcome) + "  " + subject)
        if let source = decision.source {
            tree.add("source", clean(([origin(source)] + (source.link.map { [$0] } ?? [])).joined(separator: " · ")))
            if let topic = source.topic { tree.add("topic", clean(topic)) }
        }
        if decision.page != nil || !decision.steps.isEmpty {
            tree.add("path", path(decision.path))
            if decision.steps.isEmpty {
                tree.add("steps", "none")
            } else {
                tree.add("steps", "", children: numberedSteps(decision.steps))
            }
        }
        if let pending = decision.pending {
            tree.add("gate", clean(pending.gate) + ", for condition " + clean(pending.condition))
            tree.add("pending", clean(pending.page.description) + " until " + pending.expiresAt.rfc3339)
        }
        if let warnings = decision.warnings {
            tree.add("warnings", "", children: warnings.map { style.caution(clean($0)) })
        }
        if let trace = decision.trace {
            tree.add("trace", trace.isEmpty ? "empty" : "", children: trace.map { style.dim(clean($0)) })
        }
        var footer = [clean(decision.id)]
        footer.append(decision.device.map { "device " + clean($0) } ?? "no device")
        footer.append(decision.createdAt.rfc3339)
        tree.add("decision", style.dim(footer.joined(separator: " · ")))
        return tree.render(style: style)
    }

    /// Decisions as a table, newest first as given: id, time, device, outcome, page.
    public func renderList(_ decisions: [Decision]) -> String {
        let header = ["ID", "CREATED", "DEVICE", "OUTCOME", "PAGE"]
        let rows = decisions.map { d in
            [
                clean(d.id), d.createdAt.rfc3339, d.device.map(clean) ?? "-", d.outcome.rawValue,
                d.page.map { clean($0.description) } ?? "-",
            ]
        }
        var widths = header.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        func padded(_ cells: [String]) -> [String] {
            cells.enumerated().map { i, cell in
                i == cells.count - 1 ? cell : cell + String(repeating: " ", count: max(0, widths[i] - cell.count))
            }
        }
        var out = style.dim(padded(header).joined(separator: "  ")) + "\n"
        for (decision, row) in zip(decisions, rows) {
            var cells = padded(row)
            cells[3] = outcome(decision.outcome) + String(repeating: " ", count: widths[3] - row[3].count)
            out += cells.joined(separator: "  ") + "\n"
        }
        return out
    }

    /// One step as a sentence: `selectTab main → cart`, `present login over main`, `push cart.cart in cart`.
    public func step(_ step: Step) -> String {
        let action = style.bold(step.action.rawValue)
        let coordinator = clean(step.coordinator)
        switch step.action {
        case .activate, .dismiss:
            return action + " " + coordinator
        case .start:
            return action + " " + coordinator + (step.parent.map { " in " + clean($0) } ?? "")
        case .present:
            return action + " " + coordinator + (step.parent.map { " over " + clean($0) } ?? "")
        case .selectTab:
            return action + " " + coordinator + (step.child.map { " → " + clean($0) } ?? "")
        case .popTo, .push, .setRoot, .display:
            guard let page = step.page else { return action + " " + coordinator }
            return action + " " + clean(page) + " in " + coordinator
        }
    }

    // MARK: - Pieces

    func numberedSteps(_ steps: [Step]) -> [String] {
        let width = String(steps.count).count
        return steps.enumerated().map { index, item in
            let number = String(index + 1)
            return String(repeating: " ", count: width - number.count) + number + ". " + step(item)
        }
    }

    func outcome(_ outcome: Decision.Outcome) -> String {
        switch outcome {
        case .routed, .resumed, .opened: return style.good(outcome.rawValue)
        case .gated, .fallback: return style.caution(outcome.rawValue)
        case .silent: return style.dim(outcome.rawValue)
        }
    }

    /// The format and field a source's link came from, `apns · deeplink`; `link` alone for `Resolve`'s link.
    func origin(_ source: DecisionSource) -> String {
        source.field == source.format ? source.format : source.format + " · " + source.field
    }

    /// What a decision without a page means for the app.
    func pageless(_ outcome: Decision.Outcome) -> String {
        outcome == .silent ? "no page: nothing to open" : "no page: the app comes forward where it is"
    }

    func path(_ path: [String]) -> String {
        path.isEmpty ? "none" : path.map(clean).joined(separator: " › ")
    }

    func clean(_ text: String) -> String { SafeText.clean(text) }
}

extension DecisionPrinter {
    /// Reads a decision the daemon sent (no graph needed); the error says which member did not fit.
    public static func decode(_ json: JSON) throws(NotifyctlError) -> Decision {
        do throws(JSONDecodeError) {
            return try Decision(json: json)
        } catch {
            throw .failure(
                LocalName.unreadableReply, "the daemon's decision could not be read: \(error)",
                parameters: ["reason": .string(error.description)],
                notes: ["'--json' prints the reply as it came; is notifyctl older than the daemon?"])
        }
    }
}
