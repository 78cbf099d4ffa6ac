import CoordinatorGraph
import JSON

/// A source that leads somewhere else with the candidate config: what was routed, where it led and leads now, and
/// why (``ChangeKind``).
public struct RoutingChange: Sendable {
    /// What was routed.
    public enum Subject: Sendable {
        /// A link or category payload of `notifyctl diff`'s corpus, given `count` times.
        case corpus(LinkCorpus.Item, count: Int)
        /// A stored decision `notifyctl replay` routed again.
        case decision(ReplayedDecision)
    }

    /// What was routed.
    public let subject: Subject
    /// Where it led: with the current config, or as the stored decision says.
    public let before: Destination
    /// Where it leads with the candidate config.
    public let after: Destination
    /// Why, as far as the two configs tell.
    public let kind: ChangeKind

    /// A change from its parts.
    public init(subject: Subject, before: Destination, after: Destination, kind: ChangeKind) {
        self.subject = subject
        self.before = before
        self.after = after
        self.kind = kind
    }

    /// Which of outcome, page, path and gate changed.
    public var aspects: [Aspect] { before.differences(from: after) }

    /// How many notifications the change stands for: a repeated link of a links file counts as often as given.
    public var count: Int {
        if case .corpus(_, let count) = subject { return count }
        return 1
    }

    /// The change as `--json` prints it. For `diff`: `{kind, changed, link, category, count, before, after}`; for
    /// `replay`: `{kind, changed, decision, device, createdAt, source, replayedFrom, before, after}`.
    public var json: JSON {
        var object: JSONObject = [
            "kind": .string(kind.rawValue), "changed": .array(aspects.map { .string($0.rawValue) }),
        ]
        switch subject {
        case .corpus(let item, let count):
            switch item {
            case .link(let link):
                object["link"] = .string(link)
                object["category"] = .null
            case .category(let name, let payload):
                object["link"] = .null
                object["category"] = .string(name)
                object["payload"] = .object(payload)
            }
            object["count"] = .int(count)
        case .decision(let decision):
            object["decision"] = .string(decision.id)
            object["device"] = decision.device.map(JSON.string) ?? .null
            object["createdAt"] = .string(decision.createdAt)
            object["source"] = decision.source.json
            object["replayedFrom"] = .string(decision.start.rawValue)
        }
        object["before"] = before.json
        object["after"] = after.json
        return .object(object)
    }
}

/// A stored decision as `notifyctl replay` routed it again: which decision, the link it came from, and the state
/// it was replayed from.
public struct ReplayedDecision: Sendable, Hashable {
    /// How the device stood when the decision was replayed.
    public enum Start: String, Sendable, Hashable, CaseIterable {
        /// From the state the device had when the decision was made, as the daemon stored it.
        case state
        /// As a new device: the device had no state then (never seen, or no device named): exact.
        case coldStart
        /// As a new device, because the daemon did not record the state (a decision stored before it did).
        case stateUnknown
        /// As a new device, because the state it had does not fit the candidate config (a coordinator or page of
        /// it is gone).
        case stateDoesNotFit

        /// How a change says it, after the decision: `from the state it had`.
        public var phrase: String {
            switch self {
            case .state: return "from the state it had"
            case .coldStart: return "from a cold start, as it was"
            case .stateUnknown: return "from a cold start (its state was not recorded)"
            case .stateDoesNotFit: return "from a cold start (its state does not fit the candidate)"
            }
        }

        /// How the summary counts it: `3 from the state the device had`.
        var counted: String {
            switch self {
            case .state: return "from the state the device had"
            case .coldStart: return "from a cold start, as they were (a new device, or none named)"
            case .stateUnknown: return "from a cold start (state not recorded)"
            case .stateDoesNotFit: return "from a cold start (state does not fit the candidate)"
            }
        }
    }

    /// The decision's id.
    public var id: String
    /// The device it was made for.
    public var device: String?
    /// When it was made (RFC 3339, as stored).
    public var createdAt: String
    /// The link it came from, with its format and field.
    public var source: DecisionSource
    /// How the device stood when it was replayed.
    public var start: Start
}
