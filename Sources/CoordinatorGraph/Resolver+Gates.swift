import DeepLink

/// The first unmet condition on the way to a page.
struct Gate {
    /// The condition.
    let condition: String
    /// The index in the path of the coordinator that requires it, or `nil` when the page itself does.
    let coordinatorIndex: Int?
}

extension Resolver {
    /// The first unmet condition: the path's coordinators root first, each `requires` in declared order, then the
    /// page's own.
    func firstUnmetCondition(path: IndexList, page: PageDefinition, walk: inout Walk) -> Gate? {
        for (i, coordinator) in path.enumerated() {
            walk.visits += 1
            for condition in requirements[coordinator] where !walk.state.isSatisfied(condition) {
                walk.note("gated: \(names[coordinator]) requires \(condition), not satisfied")
                return Gate(condition: condition, coordinatorIndex: i)
            }
        }
        for condition in page.requires where !walk.state.isSatisfied(condition) {
            walk.note("gated: \(page.id) requires \(condition), not satisfied")
            return Gate(condition: condition, coordinatorIndex: nil)
        }
        return nil
    }

    /// Brings the device to the gate's parent context and presents the provider of its condition (or reuses it
    /// when already presented). Returns the provider's index and the condition it provides.
    ///
    /// The provider is the first coordinator in declaration order that provides the condition; when that
    /// provider itself requires an unmet condition, that condition's provider is presented instead (login before
    /// a membership paywall that needs an account).
    ///
    /// On a cold start gated by the page itself (its owner is entered), the owner's back stack is built beneath the
    /// gate, so the page only needs `display` when it resumes.
    func presentGate(
        _ gate: Gate, path: IndexList, page: Page, definition: PageDefinition, coldStart: Bool, walk: inout Walk
    ) throws(ResolveError) -> (provider: Int, condition: String) {
        var condition = gate.condition
        var provider = try self.provider(of: condition)
        var hops = 0
        search: while hops < names.count {
            for required in requirements[provider] where !walk.state.isSatisfied(required) {
                let next = try self.provider(of: required)
                walk.note(
                    "\(names[provider]) requires \(required) itself: "
                        + "\(names[next]) comes first")
                condition = required
                provider = next
                hops += 1
                walk.visits += 1
                continue search
            }
            break
        }
        let found = (provider: provider, condition: condition)
        walk.note("\(condition) is provided by \(names[provider])")
        let k = visiblePrefix(of: path, state: walk.state)
        if let j = walk.state.path.lastIndex(of: provider), j >= k {
            walk.note("\(names[provider]) is already presented: reuse it")
            dismissPresented(downTo: j + 1, walk: &walk)
            walk.emit(.activate, provider, resolver: self)
            return found
        }
        navigate(path, upTo: gate.coordinatorIndex ?? path.count, toFront: false, walk: &walk)
        if coldStart, gate.coordinatorIndex == nil, let owner = path.last {
            arrangeStack(of: owner, for: page, definition: definition, coldStart: true, walk: &walk)
        }
        let parent: Int
        if declaresParents[provider] {
            let valid = parentIndices[provider]
            walk.visits += walk.state.path.count
            if let j = walk.state.path.lastIndex(where: valid.contains) {
                dismissPresented(downTo: j + 1, walk: &walk)
                parent = walk.state.path[j]
                walk.note("present \(names[provider]) over \(names[parent]): the visible parent nearest the top")
            } else {
                guard let providerPath = self.path(to: provider, walk: &walk),
                    providerPath.count >= 2
                else {
                    throw ResolveError(
                        code: .unreachable, subject: names[provider],
                        message:
                            "'\(names[provider])' cannot be reached from '\(names[rootIndex])'; declare its parents")
                }
                navigate(providerPath, upTo: providerPath.count - 1, toFront: false, walk: &walk)
                parent = providerPath[providerPath.count - 2]
                walk.note("present \(names[provider]) over \(names[parent]): none of its parents was visible")
            }
        } else {
            parent = walk.state.top ?? rootIndex
            if walk.trace != nil {  // the parent's name only for the trace (it reads the walk's state)
                let parentName = name(parent, in: walk.state)
                walk.note("present \(names[provider]) over the current top \(parentName)")
            }
        }
        walk.emit(.present, provider, parent: parent, resolver: self)
        if let root = rootPages[provider] {
            walk.emit(.display, provider, page: root, resolver: self)
        }
        return found
    }

    /// The first provider of `condition` in declaration order.
    func provider(of condition: String) throws(ResolveError) -> Int {
        guard let provider = firstProvider[condition] else {
            throw ResolveError(
                code: .noProvider, subject: condition,
                message: "no coordinator provides '\(condition)'; add 'provides: \(condition)' to a flow")
        }
        return provider
    }

    /// The device finished the flow `coordinator`: its conditions become satisfied, it is dismissed, and the
    /// pending page (if any, not expired, and no longer waiting for an unmet condition) is resolved again.
    ///
    /// The result's steps start with `activate app`, then `dismiss` the flow (and what is presented above it),
    /// then, when the pending page resumes, the steps of ``resolve(_:state:now:outcome:metadata:explain:)`` for
    /// it from there: outcome `resumed`, or `gated` again when another of its conditions is unmet (the next
    /// provider is presented and the page stays pending with a fresh expiry). An expired pending page is dropped
    /// and reported in ``FlowFinishedResult/expired``.
    ///
    /// - Throws: ``ResolveError`` when `coordinator` is not declared, provides nothing, or is not started on the
    ///   device (and what ``resolve(_:state:now:outcome:metadata:explain:)`` throws for the pending page).
    public func flowFinished(
        _ coordinator: String, state: DeviceState, now: Timestamp, metadata: consuming DecisionMetadata,
        explain: Bool = false
    ) throws(ResolveError) -> FlowFinishedResult {
        var visits = 0
        return try flowFinished(
            coordinator, state: state, now: now, metadata: consume metadata, explain: explain, visits: &visits)
    }

    /// ``flowFinished(_:state:now:metadata:explain:)``, adding to `visits` how many coordinators the walk looked at
    /// when the pending page is routed again.
    func flowFinished(
        _ coordinator: String, state: DeviceState, now: Timestamp, metadata: consuming DecisionMetadata, explain: Bool,
        visits: inout Int
    ) throws(ResolveError) -> FlowFinishedResult {
        guard let index = coordinatorIndex(coordinator) else {
            throw ResolveError(
                code: .unknownCoordinator, subject: coordinator,
                message: "unknown coordinator '\(coordinator)'; the graph does not declare it")
        }
        let provides = graph.coordinators[index].provides
        guard !provides.isEmpty else {
            throw ResolveError(
                code: .providesNothing, subject: coordinator,
                message: "'\(coordinator)' provides no condition; only a flow with 'provides:' can finish a gate")
        }
        guard state.isStarted(coordinator) else {
            throw ResolveError(
                code: .notStarted, subject: coordinator,
                message: "'\(coordinator)' is not presented on this device; nothing to finish")
        }
        var walk = Walk.starting(from: navigationState(state), explain: explain)
        defer { visits += walk.visits }
        for condition in provides where !walk.state.isSatisfied(condition) { walk.state.conditions.append(condition) }
        walk.note("\(coordinator) finished: " + provides.joined(separator: ", ") + " satisfied")
        activateRoot(walk: &walk)
        if let j = walk.state.path.firstIndex(of: index) {
            dismissPresented(downTo: j + 1, walk: &walk)
        }
        walk.emit(.dismiss, index, resolver: self)

        guard let pending = walk.state.pending else {
            walk.note("no pending page")
            return FlowFinishedResult(
                status: .nothingPending, decision: nil, state: deviceState(walk.state), steps: walk.steps(self))
        }
        if pending.isExpired(at: now) {
            walk.note("pending \(pending.page) expired at \(pending.expiresAt): dropped")
            walk.state.pending = nil
            return FlowFinishedResult(
                status: .expired, decision: nil, state: deviceState(walk.state), steps: walk.steps(self),
                expired: pending)
        }
        guard walk.state.isSatisfied(pending.condition) else {
            walk.note("pending \(pending.page) still waits for \(pending.condition)")
            dropPendingIfGateStopped(walk: &walk)
            let status: FlowFinishedResult.Status = walk.state.pending == nil ? .gateStopped : .stillWaiting
            return FlowFinishedResult(
                status: status, decision: nil, state: deviceState(walk.state), steps: walk.steps(self))
        }
        walk.note("resume \(pending.page)")
        let decision = try route(pending.page, walk: &walk, now: now, outcome: .resumed, metadata: consume metadata)
        return FlowFinishedResult(
            status: decision.outcome == .gated ? .gated : .resumed, decision: decision, state: deviceState(walk.state),
            steps: walk.steps(self))
    }
}

/// What finishing a flow did: the next state, the steps, and the decision for the pending page when it continues.
public struct FlowFinishedResult: Sendable, Hashable {
    /// What became of the device's pending page.
    public enum Status: String, Sendable, Hashable {
        /// It resumed: ``FlowFinishedResult/decision`` routes to it (outcome `resumed`).
        case resumed
        /// Another of its conditions is unmet: the decision presents the next provider (outcome `gated`).
        case gated
        /// There was none.
        case nothingPending
        /// It had expired and was dropped (``FlowFinishedResult/expired``).
        case expired
        /// It waits for a condition this flow does not provide, and its own gate is still presented.
        case stillWaiting
        /// It waited for a condition this flow does not provide, and its gate was dismissed with this flow: dropped.
        case gateStopped
    }

    /// What became of the pending page.
    public let status: Status
    /// The decision for the pending page (`resumed` or `gated`), when it continues.
    public let decision: Decision?
    /// The device's next state (conditions added, flow dismissed, pending updated): persist it.
    public let state: DeviceState
    /// The steps: `activate app`, the dismissals, then the decision's own (equal to the decision's steps when
    /// there is one).
    public let steps: [Step]
    /// The pending page dropped because it had expired.
    public let expired: Pending?

    init(status: Status, decision: Decision?, state: DeviceState, steps: [Step], expired: Pending? = nil) {
        self.status = status
        self.decision = decision
        self.state = state
        self.steps = steps
        self.expired = expired
    }
}
