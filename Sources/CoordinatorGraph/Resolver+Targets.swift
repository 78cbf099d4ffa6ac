import DeepLink

extension Resolver {
    /// The decision for `target` (``Graph/target(for:explain:)-(PayloadReading,_)``) on a device in `state` (`nil`:
    /// never seen): the walk to its page, or, for `opened` and `silent`, a decision with no page, no path and no
    /// steps that leaves the state as it was. The target's warnings become the decision's, and with `explain` its
    /// trace opens the decision's.
    ///
    /// - Throws: ``ResolveError`` as ``resolve(_:from:now:outcome:metadata:explain:)`` does.
    public func decide(
        _ target: RoutingTarget, from state: ResolvedState?, now: Timestamp, metadata: consuming DecisionMetadata,
        explain: Bool = false
    ) throws(ResolveError) -> Resolution {
        let warnings = target.warnings.isEmpty ? nil : target.warnings
        guard let page = target.page else {
            precondition(!target.outcome.navigates, "a target without a page is opened or silent")
            let decision = Decision(
                metadata: consume metadata, outcome: target.outcome, page: nil, path: [], plan: nil, pending: nil,
                warnings: warnings, trace: explain ? target.trace : nil, createdAt: now)
            let navigation: NavigationState =
                if let state { state.resolver === self ? state.navigation : navigationState(state.state) } else {
                    NavigationState()
                }
            return Resolution(decision: decision, navigation: navigation, resolver: self)
        }
        // Most targets have neither warnings nor a trace: the resolution as it is, not copied to be changed.
        guard warnings != nil || explain else {
            return try resolve(
                page, from: state, now: now, outcome: target.outcome, metadata: consume metadata, explain: false)
        }
        var resolution = try resolve(
            page, from: state, now: now, outcome: target.outcome, metadata: consume metadata, explain: explain)
        // The payload's and the refusals' first, then the resolver's own (a pending page dropped).
        if let warnings {
            resolution.decision.warnings = resolution.decision.warnings.map { warnings + $0 } ?? warnings
        }
        if explain { resolution.decision.trace = target.trace + (resolution.decision.trace ?? []) }
        return resolution
    }
}

extension Graph {
    /// The payload reader's options for this graph: its link keys, categories and `links.unlinked`.
    public var payloadOptions: PayloadOptions {
        PayloadOptions(linkKeys: linkKeys, categories: categories, unlinked: unlinked)
    }
}
