import DeepLink

extension Resolver {
    /// The state a decision's steps produce from `state` (`nil`: a device never seen). Pure.
    ///
    /// Each step in turn (V is the visible path):
    /// - `activate app`: V becomes `[app]` when empty; otherwise unchanged.
    /// - `activate X`: X is in V: everything above it leaves V; else X goes on V above its parent nearest the
    ///   top (what was above that parent leaves V). X is marked started.
    /// - `start X parent P`, `present X parent P`: X is started with an empty stack (and no selected tab), V is
    ///   cut above P and X goes on top.
    /// - `selectTab P child C`: C becomes P's selected tab; V is cut above P.
    /// - `dismiss X`: X and everything above it in V leave V and stop (no longer started, stacks dropped).
    /// - `setRoot`, `push`, `popTo`, `display`: the coordinator's stack becomes `[page]`, gains `page`, loses what
    ///   is above the top-most `page`, gains `page` unless it is the top. Steps without a typed page (decoded without
    ///   a graph) leave the stack as it is.
    ///
    /// A presented coordinator (modal, flow) that leaves V without a `dismiss` stops too. Then the pending link:
    /// a `gated` decision sets it, a `resumed` one clears it, and it is dropped when its gate is no longer started.
    /// An `opened` or `silent` decision has no steps: the state stays as it was.
    /// Conditions are not changed (``flowFinished(_:state:now:metadata:explain:)`` adds them before its steps).
    public func apply(_ decision: Decision, to state: DeviceState?) -> DeviceState {
        var next = navigationState(state ?? .initial)
        for step in decision.steps {
            let coordinator = index(of: step.coordinator, in: &next)
            let parent = step.parent.map { index(of: $0, in: &next) }
            let child = step.child.map { index(of: $0, in: &next) }
            apply(step.action, coordinator, parent: parent, child: child, page: step.pageValue, to: &next)
        }
        switch decision.outcome {
        case .gated: next.pending = decision.pending
        case .resumed: next.pending = nil
        case .routed, .fallback, .opened, .silent: break
        }
        if let pending = next.pending, !isStarted(pending.gate, in: next) { next.pending = nil }
        return deviceState(next)
    }

    /// True when the coordinator named `name` is started in `state`.
    func isStarted(_ name: String, in state: NavigationState) -> Bool {
        existingIndex(of: name, in: state).map(state.isStarted) ?? false
    }

    /// Applies one step, its coordinators as indices (see ``apply(_:to:)``).
    func apply(
        _ action: Step.Action, _ coordinator: Int, parent: Int? = nil, child: Int? = nil, page: Page? = nil,
        to state: inout NavigationState
    ) {
        switch action {
        case .activate:
            if coordinator == rootIndex || state.path.isEmpty {
                if state.path.first != coordinator { cut(&state, keeping: 0, replacingRootWith: coordinator) }
            } else if let j = state.path.firstIndex(of: coordinator) {
                cut(&state, keeping: j + 1)
            } else {
                if coordinator < parentIndices.count {
                    let parents = parentIndices[coordinator]
                    if let j = state.path.lastIndex(where: parents.contains) { cut(&state, keeping: j + 1) }
                }
                state.path.append(coordinator)
            }
            markStarted(coordinator, in: &state)
        case .start, .present:
            if let j = state.path.firstIndex(of: coordinator) { stop(&state, from: j) }
            if let parent, let j = state.path.lastIndex(of: parent) { cut(&state, keeping: j + 1) }
            markStarted(coordinator, in: &state)
            state.dropStackAndTab(of: coordinator)
            state.path.append(coordinator)
        case .selectTab:
            if let child { state.selectTab(child, of: coordinator) }
            if let j = state.path.firstIndex(of: coordinator) { cut(&state, keeping: j + 1) }
        case .dismiss:
            if let j = state.path.firstIndex(of: coordinator) {
                stop(&state, from: j)
            } else {
                stopOne(coordinator, in: &state)
            }
        case .setRoot:
            guard let page else { return }
            state.setStack([page], of: coordinator)
        case .push:
            guard let page else { return }
            state.push(page, on: coordinator)
        case .popTo:
            guard let page, let i = state.stacks.firstIndex(where: { $0.coordinator == coordinator }),
                let j = state.stacks[i].pages.lastIndex(of: page)
            else {
                return
            }
            state.stacks[i].pages.removeLast(state.stacks[i].pages.count - j - 1)
        case .display:
            guard let page else { return }
            if state.stack(of: coordinator)?.last != page { state.push(page, on: coordinator) }
        }
    }

    /// Keeps the first `count` coordinators of the visible path; presented ones above stop.
    private func cut(_ state: inout NavigationState, keeping count: Int, replacingRootWith root: Int? = nil) {
        guard count < state.path.count || root != nil else { return }
        let kept = min(count, state.path.count)
        for i in kept..<state.path.count where isPresented(state.path[i]) { stopOne(state.path[i], in: &state) }
        state.path.removeLast(state.path.count - kept)
        if let root { state.path.replaceAll(with: root) }
    }

    /// Stops the coordinator at `index` of the visible path and everything above it.
    private func stop(_ state: inout NavigationState, from index: Int) {
        for i in index..<state.path.count { stopOne(state.path[i], in: &state) }
        state.path.removeLast(state.path.count - index)
    }

    private func stopOne(_ coordinator: Int, in state: inout NavigationState) {
        if state.started.contains(coordinator) { state.started.removeAll(coordinator) }
        state.dropStackAndTab(of: coordinator)
    }

    private func markStarted(_ coordinator: Int, in state: inout NavigationState) {
        if !state.started.contains(coordinator) { state.started.append(coordinator) }
    }
}
