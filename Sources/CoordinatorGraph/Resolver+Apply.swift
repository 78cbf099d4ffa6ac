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
    /// Conditions are not changed (``flowFinished(_:state:now:metadata:explain:)`` adds them before its steps).
    public func apply(_ decision: Decision, to state: DeviceState?) -> DeviceState {
        var next = state ?? .initial
        for step in decision.steps { apply(step, to: &next) }
        switch decision.outcome {
        case .gated: next.pending = decision.pending
        case .resumed: next.pending = nil
        case .routed, .fallback: break
        }
        if let pending = next.pending, !next.isStarted(pending.gate) { next.pending = nil }
        return next
    }

    /// Applies one step (see ``apply(_:to:)``).
    func apply(_ step: Step, to state: inout DeviceState) {
        let name = step.coordinator
        switch step.action {
        case .activate:
            if name == names[rootIndex] || state.path.isEmpty {
                if state.path.first != name { cut(&state, keeping: 0, replacingRootWith: name) }
            } else if let j = state.path.firstIndex(of: name) {
                cut(&state, keeping: j + 1)
            } else {
                let parents = indexByName[name].map { parentIndices[$0] } ?? []
                let j = state.path.lastIndex { visible in parents.contains { names[$0] == visible } }
                if let j { cut(&state, keeping: j + 1) }
                state.path.append(name)
            }
            markStarted(name, in: &state)
        case .start, .present:
            if let j = state.path.firstIndex(of: name) { stop(&state, from: j) }
            if let parent = step.parent, let j = state.path.lastIndex(of: parent) { cut(&state, keeping: j + 1) }
            markStarted(name, in: &state)
            dropStackAndTab(of: name, in: &state)
            state.path.append(name)
        case .selectTab:
            if let child = step.child { state.tabs[name] = child }
            if let j = state.path.firstIndex(of: name) { cut(&state, keeping: j + 1) }
        case .dismiss:
            if let j = state.path.firstIndex(of: name) {
                stop(&state, from: j)
            } else {
                stopOne(name, in: &state)
            }
        case .setRoot:
            guard let page = step.pageValue else { return }
            state.stacks[name] = [page]
        case .push:
            guard let page = step.pageValue else { return }
            state.stacks[name, default: []].append(page)
        case .popTo:
            guard let page = step.pageValue, var stack = state.stacks[name], let j = stack.lastIndex(of: page) else {
                return
            }
            stack.removeLast(stack.count - j - 1)
            state.stacks[name] = stack
        case .display:
            guard let page = step.pageValue else { return }
            if state.stacks[name]?.last != page { state.stacks[name, default: []].append(page) }
        }
    }

    /// Keeps the first `count` coordinators of the visible path; presented ones above stop.
    private func cut(_ state: inout DeviceState, keeping count: Int, replacingRootWith root: String? = nil) {
        guard count < state.path.count || root != nil else { return }
        for name in state.path[min(count, state.path.count)...] where kind(of: name)?.isPresented ?? false {
            stopOne(name, in: &state)
        }
        state.path.removeLast(state.path.count - min(count, state.path.count))
        if let root { state.path = [root] }
    }

    /// Stops the coordinator at `index` of the visible path and everything above it.
    private func stop(_ state: inout DeviceState, from index: Int) {
        for name in state.path[index...] { stopOne(name, in: &state) }
        state.path.removeLast(state.path.count - index)
    }

    private func stopOne(_ name: String, in state: inout DeviceState) {
        if state.started.contains(name) { state.started.removeAll { $0 == name } }
        dropStackAndTab(of: name, in: &state)
    }

    /// Removes the coordinator's stack and selected tab, looking before writing: removing a key that is not there
    /// would still copy a dictionary shared with the caller's state (or allocate one for an empty state).
    private func dropStackAndTab(of name: String, in state: inout DeviceState) {
        if !state.stacks.isEmpty, state.stacks[name] != nil { state.stacks[name] = nil }
        if !state.tabs.isEmpty, state.tabs[name] != nil { state.tabs[name] = nil }
    }

    private func markStarted(_ name: String, in state: inout DeviceState) {
        if !state.started.contains(name) { state.started.append(name) }
    }
}
