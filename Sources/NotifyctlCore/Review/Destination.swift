import CoordinatorGraph
import JSON
import Varlink

/// Where a link or payload leads under one config, as far as reviewing a config change cares: the outcome, the
/// page, the coordinators on the way and the gate in front of it; or that the config refuses it.
///
/// The steps are left out on purpose: they follow from the rest and the device's state. The outcome is kept as the
/// text the decision carries, so an outcome this notifyctl does not know (one a newer daemon stored) is compared and
/// printed like any other.
public struct Destination: Sendable, Hashable {
    /// The gate a page waits behind: the flow presented first and the condition it provides.
    public struct Gate: Sendable, Hashable {
        /// The providing coordinator presented first, e.g. `login`.
        public var coordinator: String
        /// The condition it provides, e.g. `session`.
        public var condition: String
    }

    /// Why a config refuses a source: the error the daemon would answer, and why.
    public struct Refusal: Sendable, Hashable {
        /// The error's name, e.g. `io.notifyd.Router.NoRoute`.
        public var error: String
        /// What was wrong with each candidate, or the error's message.
        public var reasons: [String]
    }

    /// The outcome written for a source the config refuses.
    public static let refused = "refused"

    /// `routed`, `gated`, `fallback`, `resumed`, … as the decision says, or ``refused``.
    public var outcome: String
    /// The page object of the decision (`{id, arguments, description}`); `nil` when refused, and for `opened` and
    /// `silent`, which open no page.
    public var page: JSON?
    /// The coordinators from `app` to the page's owner; empty when refused.
    public var path: [String]
    /// The gate presented first, for a gated page.
    public var gate: Gate?
    /// Why the source is refused; `nil` when it leads somewhere.
    public var refusal: Refusal?

    /// The page's id, `cart.offer`.
    public var pageID: String? { page?["id"]?.stringValue }
    /// The page as Swift writes it, `cart.offer(id: "SUMMER")`.
    public var pageDescription: String? { page?["description"]?.stringValue }
    /// True when the config refuses the source.
    public var isRefused: Bool { refusal != nil }

    /// Where `decision` leads.
    public init(_ decision: Decision) {
        outcome = decision.outcome.rawValue
        page = decision.page?.json
        path = decision.path
        gate = decision.pending.map { Gate(coordinator: $0.gate, condition: $0.condition) }
        refusal = nil
    }

    /// A refused source: the error the daemon would answer.
    public init(refusedWith error: OfflineRouteError) {
        outcome = Self.refused
        page = nil
        path = []
        gate = nil
        // NoRoute carries its reasons among its parameters; other errors beside them.
        let carried = error.reply.parameters["reasons"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let given = error.reasons.isEmpty ? carried : error.reasons
        let reasons = given.isEmpty ? [error.notifyctlError.message] : given
        refusal = Refusal(error: error.reply.name, reasons: reasons)
    }

    /// Where a decision the daemon sent (a stored one) leads, read from its JSON without a graph: only `outcome`,
    /// `page`, `path` and `pending` are read, so a decision of a newer daemon reads too.
    public init(decisionJSON json: JSON) throws(NotifyctlError) {
        // `page` is null for the outcomes that open no page (opened, silent); otherwise it names one.
        let page = json["page"].flatMap { $0 == .null ? nil : $0 }
        guard let outcome = json["outcome"]?.stringValue, let pathJSON = json["path"]?.arrayValue,
            page.map({ $0["id"]?.stringValue != nil && $0["description"]?.stringValue != nil }) ?? true
        else {
            let id = json["id"]?.stringValue.map { " " + SafeText.clean($0) } ?? ""
            throw .failure(
                LocalName.unreadableReply,
                "the stored decision\(id) could not be read: it lacks outcome, page or path",
                parameters: ["reason": "a decision without outcome, page or path"],
                notes: ["'notifyctl decision ID --json' prints it as the daemon sends it"])
        }
        self.outcome = outcome
        self.page = page
        self.path = pathJSON.compactMap(\.stringValue)
        if let pending = json["pending"], let gate = pending["gate"]?.stringValue,
            let condition = pending["condition"]?.stringValue
        {
            self.gate = Gate(coordinator: gate, condition: condition)
        } else {
            self.gate = nil
        }
        refusal = nil
    }

    /// Which of the outcome, the page, the path and the gate differ between `self` and `other`, in that order; empty
    /// when both lead to the same place (two refusals are the same place, whatever their reasons).
    public func differences(from other: Destination) -> [Aspect] {
        var aspects: [Aspect] = []
        if outcome != other.outcome { aspects.append(.outcome) }
        if pageDescription != other.pageDescription { aspects.append(.page) }
        if path != other.path { aspects.append(.path) }
        if gate != other.gate { aspects.append(.gate) }
        return aspects
    }

    /// The destination as `--json` prints it: `{outcome, page, path, gate, refusal}`, the same keys every time.
    public var json: JSON {
        let gateJSON: JSON =
            gate.map { ["coordinator": .string($0.coordinator), "condition": .string($0.condition)] }
            ?? .null
        let refusalJSON: JSON =
            refusal.map {
                ["error": .string($0.error), "reasons": .array($0.reasons.map(JSON.string))]
            } ?? .null
        return [
            "outcome": .string(outcome), "page": page ?? .null, "path": .array(path.map(JSON.string)),
            "gate": gateJSON, "refusal": refusalJSON,
        ]
    }
}

/// What a change changes: a source's outcome, page, path or gate.
public enum Aspect: String, Sendable, Hashable, CaseIterable {
    case outcome, page, path, gate
}
