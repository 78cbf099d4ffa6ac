import CoordinatorGraph
import DeepLink
import JSON

/// Replays stored decisions (entries of the daemon's `ListHistory`) with a candidate config: each decision's link
/// routed again by ``OfflineRouter`` with the link's format and field, from the device's state when the decision was
/// made (or as a new device, saying why), and compared with the decision stored.
///
/// Decisions without a link to route again are counted, not replayed: those without a source (made when a flow
/// finished, `FlowFinished`: they follow the gated decision before them, which is replayed; or a `Resolve` decision
/// stored by a notifyd that did not keep its link), and those a category chose (the payload's keys are not stored).
public struct HistoryReplay: Sendable {
    /// How many decisions were read, replayed (by how the device stood) and left out (by why).
    public struct Counts: Sendable, Hashable {
        /// Every entry read.
        public var read = 0
        /// Replayed, by how the device stood.
        public var replayed: [ReplayedDecision.Start: Int] = [:]
        /// Decisions without a source, left out: made when a flow finished, or stored by an older notifyd.
        public var noSource = 0
        /// Decisions a notification category chose, left out.
        public var category = 0

        /// Replayed, however the device stood.
        public var replayedTotal: Int { replayed.values.reduce(0, +) }
    }

    /// The candidate config.
    public let candidate: OfflineRouter
    let currentFacts: ConfigFacts
    let candidateFacts: ConfigFacts
    /// What has been read so far.
    public private(set) var counts = Counts()
    /// The changes found so far, in the order the entries came.
    public private(set) var changes: [RoutingChange] = []
    /// States read against the candidate's graph, by their JSON: many devices stand in the same state, and a device
    /// often stands in the same one before several decisions (reading one took a third of a replay's instructions).
    private var readStates: [JSON: DeviceState?] = [:]

    /// A replay with `candidate`; `currentGraph` is the graph the daemon serves (`GetGraph`), which tells a removed
    /// host or a renamed page from other changes.
    public init(candidate: Graph, currentGraph: JSON) {
        self.candidate = OfflineRouter(graph: candidate)
        currentFacts = ConfigFacts(graphJSON: currentGraph)
        candidateFacts = ConfigFacts(graph: candidate)
    }

    /// Replays one entry: `{decision, startedFrom, state}`.
    public mutating func replay(_ entry: JSON) throws(NotifyctlError) {
        counts.read += 1
        let decision = entry["decision"] ?? .null
        let before = try Destination(decisionJSON: decision)
        guard let sourceJSON = decision["source"], !sourceJSON.isNull,
            let source = try? DecisionSource(json: sourceJSON)
        else {
            counts.noSource += 1
            return
        }
        guard let link = source.link else {
            counts.category += 1
            return
        }
        let createdText = decision["createdAt"]?.stringValue ?? ""
        let createdAt = Timestamp(rfc3339: createdText) ?? ConfigDiff.now
        let (state, start) = startingState(entry)
        counts.replayed[start, default: 0] += 1
        let after: Destination
        do throws(OfflineRouteError) {
            after = Destination(
                try candidate.replay(source, link: link, state: state, id: ConfigDiff.decisionID, now: createdAt))
        } catch {
            after = Destination(refusedWith: error)
        }
        guard
            let kind = ChangeKind.of(
                before: before, after: after, link: link, current: currentFacts, candidate: candidateFacts)
        else { return }
        let replayed = ReplayedDecision(
            id: decision["id"]?.stringValue ?? "", device: decision["device"]?.stringValue, createdAt: createdText,
            source: source, start: start)
        changes.append(RoutingChange(subject: .decision(replayed), before: before, after: after, kind: kind))
    }

    /// The state to replay `entry` from, read against the candidate's graph, and how the device stood.
    mutating func startingState(_ entry: JSON) -> (DeviceState?, ReplayedDecision.Start) {
        switch entry["startedFrom"]?.stringValue {
        case "state":
            guard let json = entry["state"], !json.isNull else { return (nil, .stateDoesNotFit) }
            let state: DeviceState?
            if let known = readStates[json] {
                state = known
            } else {
                state = try? DeviceState(json: json, graph: candidate.graph)
                if readStates.count >= 10_000 { readStates.removeAll(keepingCapacity: true) }
                readStates[json] = state
            }
            guard let state else { return (nil, .stateDoesNotFit) }
            return (state, .state)
        case "coldStart":
            return (nil, .coldStart)
        default:
            return (nil, .stateUnknown)
        }
    }
}
