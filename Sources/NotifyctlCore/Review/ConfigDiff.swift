import CoordinatorGraph
import DeepLink
import JSON

/// What a candidate config changes for a corpus of links, offline: each link (and category payload) routed with
/// both configs by ``OfflineRouter``, as the daemon routes it for a device it has never seen, and every one whose
/// outcome, page, path or gate differs kept as a ``RoutingChange``.
public struct ConfigDiff: Sendable {
    /// The config in use.
    public let current: OfflineRouter
    /// The config under review.
    public let candidate: OfflineRouter
    let currentFacts: ConfigFacts
    let candidateFacts: ConfigFacts

    /// A diff of `candidate` against `current`.
    public init(current: Graph, candidate: Graph) {
        self.current = OfflineRouter(graph: current)
        self.candidate = OfflineRouter(graph: candidate)
        currentFacts = ConfigFacts(graph: current)
        candidateFacts = ConfigFacts(graph: candidate)
    }

    /// The id and time of the decisions made on the way: neither is compared or shown.
    static let decisionID = "00000000-0000-7000-8000-000000000000"
    static let now = Timestamp(millisecondsSince1970: 0)

    /// The corpus synthesized from both configs (``LinkCorpus/synthesized(from:)``).
    public var synthesizedCorpus: LinkCorpus {
        LinkCorpus.synthesized(from: [current.graph, candidate.graph])
    }

    /// The changes for `corpus`, in its order.
    public func changes(in corpus: LinkCorpus) -> [RoutingChange] {
        var changes: [RoutingChange] = []
        for (item, count) in zip(corpus.items, corpus.counts) {
            let before = destination(of: item, with: current)
            let after = destination(of: item, with: candidate)
            guard
                let kind = ChangeKind.of(
                    before: before, after: after, link: item.link, current: currentFacts, candidate: candidateFacts)
            else { continue }
            changes.append(
                RoutingChange(subject: .corpus(item, count: count), before: before, after: after, kind: kind))
        }
        return changes
    }

    /// Where `item` leads with `router`.
    func destination(of item: LinkCorpus.Item, with router: OfflineRouter) -> Destination {
        do throws(OfflineRouteError) {
            switch item {
            case .link(let link):
                return Destination(try router.resolve(link, explain: false, id: Self.decisionID, now: Self.now))
            case .category(_, let payload):
                let routed = try router.route(
                    payload, format: .apns, explain: false, id: Self.decisionID, now: Self.now)
                return Destination(routed.decision)
            }
        } catch {
            return Destination(refusedWith: error)
        }
    }
}
