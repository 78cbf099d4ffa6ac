import DeepLink

/// A ``DeviceState`` as the resolver walks it: coordinators by their index in the graph, so that comparing,
/// finding and marking them compares integers rather than hashing and comparing names.
///
/// Names the graph does not declare (a state built by hand, or a decision decoded without a graph) get indices
/// past the graph's, listed in ``foreign``: they compare equal only to themselves, are neither tabs nor presented,
/// and have no parents, as such names behave in a ``DeviceState``.
struct NavigationState {
    /// ``DeviceState/path`` as indices.
    var path = IndexList() { didSet { changed.insert(.path) } }
    /// ``DeviceState/started`` as indices, in the order they were started.
    var started = IndexList() { didSet { changed.insert(.started) } }
    /// ``DeviceState/tabs``: each `tabs` coordinator with a selected child, at most one entry each.
    var tabs = TabList() { didSet { changed.insert(.tabs) } }
    /// ``DeviceState/stacks``: each coordinator with a page stack, at most one entry each.
    var stacks: [Stack] = [] { didSet { changed.insert(.stacks) } }
    /// ``DeviceState/conditions``.
    var conditions: [String] = []
    /// ``DeviceState/pending``.
    var pending: Pending?
    /// The names past the graph's coordinators, by `index - graph count`.
    var foreign: [String] = []
    /// The state this one was read from: the parts that did not change are named again by taking them from it
    /// (no dictionary built, no name hashed).
    var source: DeviceState?
    /// The parts changed since ``source`` was read.
    var changed: Parts = []

    /// A coordinator's page stack. A struct, not a tuple: an array of tuples is destroyed and copied through the
    /// runtime's generic tuple witnesses, element by element (≈ 330 instructions for each walk's array).
    struct Stack {
        var coordinator: Int
        var pages: [Page]
    }

    /// The parts of a state named by coordinator.
    struct Parts: OptionSet {
        let rawValue: UInt8
        static let path = Parts(rawValue: 1)
        static let started = Parts(rawValue: 2)
        static let tabs = Parts(rawValue: 4)
        static let stacks = Parts(rawValue: 8)
    }

    // The queries below are inlined: called on a walk's state (`walk.state.isStarted(…)`), a call that is not
    // copies the whole state (≈ 370 bytes) to pass it.

    /// The top-most visible coordinator, if any.
    var top: Int? {
        @inline(__always) get { path.last }
    }

    /// True when `coordinator` is started.
    @inline(__always)
    func isStarted(_ coordinator: Int) -> Bool {
        started.contains(coordinator)
    }

    /// True when `condition` is satisfied.
    @inline(__always)
    func isSatisfied(_ condition: String) -> Bool {
        conditions.contains(condition)
    }

    /// The page stack of `coordinator`, or `nil` when it has none.
    @inline(__always)
    func stack(of coordinator: Int) -> [Page]? {
        for entry in stacks where entry.coordinator == coordinator { return entry.pages }
        return nil
    }

    /// The selected tab of `coordinator`, if any.
    @inline(__always)
    func selectedTab(of coordinator: Int) -> Int? {
        for entry in tabs where entry.coordinator == coordinator { return entry.child }
        return nil
    }

    /// Replaces the stack of `coordinator` (creating its entry when it has none).
    mutating func setStack(_ pages: [Page], of coordinator: Int) {
        if let i = stacks.firstIndex(where: { $0.coordinator == coordinator }) {
            stacks[i].pages = pages
        } else {
            stacks.append(Stack(coordinator: coordinator, pages: pages))
        }
    }

    /// Pushes `page` on the stack of `coordinator` (creating its entry when it has none).
    mutating func push(_ page: Page, on coordinator: Int) {
        if let i = stacks.firstIndex(where: { $0.coordinator == coordinator }) {
            stacks[i].pages.append(page)
        } else {
            stacks.append(Stack(coordinator: coordinator, pages: [page]))
        }
    }

    /// Selects `child` as the tab of `coordinator`.
    mutating func selectTab(_ child: Int, of coordinator: Int) {
        if let i = tabs.firstIndex(where: { $0.coordinator == coordinator }) {
            tabs.setChild(child, at: i)
        } else {
            tabs.append(coordinator: coordinator, child: child)
        }
    }

    /// Removes the stack and the selected tab of `coordinator`, if it has them.
    mutating func dropStackAndTab(of coordinator: Int) {
        if let i = stacks.firstIndex(where: { $0.coordinator == coordinator }) { stacks.remove(at: i) }
        if let i = tabs.firstIndex(where: { $0.coordinator == coordinator }) { tabs.remove(at: i) }
    }
}

extension Resolver {
    /// The index of `name`: its coordinator's, or a foreign index listed in `state` (added when new).
    func index(of name: String, in state: inout NavigationState) -> Int {
        if let index = coordinatorIndex(name) { return index }
        if let i = state.foreign.firstIndex(of: name) { return names.count + i }
        state.foreign.append(name)
        return names.count + state.foreign.count - 1
    }

    /// The index of `name` when `state` knows it (a coordinator, or one of its foreign names), else `nil`.
    func existingIndex(of name: String, in state: NavigationState) -> Int? {
        if let index = coordinatorIndex(name) { return index }
        return state.foreign.firstIndex(of: name).map { names.count + $0 }
    }

    /// The name of the coordinator (or foreign name) at `index`.
    func name(_ index: Int, in state: NavigationState) -> String {
        name(index, foreign: state.foreign)
    }

    /// The name of the coordinator at `index`: the graph's, or past its coordinators one of `foreign` (a state's
    /// names the graph does not declare).
    func name(_ index: Int, foreign: [String]) -> String {
        index < names.count ? names[index] : foreign[index - names.count]
    }

    /// True when `index` is a presented coordinator (`modal`, `flow`); foreign names are not.
    func isPresented(_ index: Int) -> Bool {
        index < kinds.count && kinds[index].isPresented
    }

    /// `state` with coordinators as indices.
    func navigationState(_ state: DeviceState) -> NavigationState {
        var next = NavigationState(conditions: state.conditions, pending: state.pending)
        guard !state.started.isEmpty || !state.path.isEmpty || !state.tabs.isEmpty || !state.stacks.isEmpty else {
            return next
        }
        for name in state.path { next.path.append(index(of: name, in: &next)) }
        for name in state.started { next.started.append(index(of: name, in: &next)) }
        for (coordinator, child) in state.tabs {
            let entry = (index(of: coordinator, in: &next), index(of: child, in: &next))
            next.tabs.append(coordinator: entry.0, child: entry.1)
        }
        for (coordinator, pages) in state.stacks {
            next.stacks.append(NavigationState.Stack(coordinator: index(of: coordinator, in: &next), pages: pages))
        }
        next.source = state
        next.changed = []
        return next
    }

    /// `state` with coordinators as names again.
    ///
    /// The parts that did not change since ``NavigationState/source`` are taken from it. The dictionaries (a few
    /// entries) are built by inserting: `reserveCapacity` and `init(minimumCapacity:)` are not specialized here and
    /// cost more than the growth they save.
    func deviceState(_ state: NavigationState) -> DeviceState {
        if let source = state.source {
            if state.changed.isEmpty {
                // Only the conditions and the pending page can differ.
                var next = source
                next.conditions = state.conditions
                next.pending = state.pending
                return next
            }
            return DeviceState(
                path: state.changed.contains(.path) ? names(of: state.path, in: state) : source.path,
                started: state.changed.contains(.started) ? names(of: state.started, in: state) : source.started,
                tabs: state.changed.contains(.tabs) ? namedTabs(state) : source.tabs,
                stacks: state.changed.contains(.stacks) ? namedStacks(state) : source.stacks,
                conditions: state.conditions, pending: state.pending)
        }
        return DeviceState(
            path: names(of: state.path, in: state), started: names(of: state.started, in: state),
            tabs: namedTabs(state), stacks: namedStacks(state), conditions: state.conditions, pending: state.pending)
    }

    /// The names of the coordinators at `indices`, in order.
    ///
    /// Built by reserving and appending: `map` and `init(unsafeUninitializedCapacity:)` allocate through an
    /// unspecialized path that looks the array's storage type up at run time (≈ 700 instructions).
    func names(of indices: some Collection<Int>, in state: NavigationState) -> [String] {
        var names: [String] = []
        names.reserveCapacity(indices.count)
        for index in indices { names.append(name(index, in: state)) }
        return names
    }

    /// ``NavigationState/tabs`` by name.
    private func namedTabs(_ state: NavigationState) -> [String: String] {
        var tabs: [String: String] = [:]
        for entry in state.tabs { tabs[name(entry.coordinator, in: state)] = name(entry.child, in: state) }
        return tabs
    }

    /// ``NavigationState/stacks`` by name.
    private func namedStacks(_ state: NavigationState) -> [String: [Page]] {
        var stacks: [String: [Page]] = [:]
        for entry in state.stacks { stacks[name(entry.coordinator, in: state)] = entry.pages }
        return stacks
    }
}

/// A short list of coordinator indices: up to eight inline (no allocation, nothing to free), in an array beyond.
/// A device's visible path and its started coordinators are rarely longer.
struct IndexList: RandomAccessCollection {
    /// The elements while there are at most ``inlineCapacity`` (and the first of them while there are more).
    private var inline = SIMD8<Int32>()
    /// All the elements once there were more than ``inlineCapacity``; empty (not allocated) until then.
    private var spilled: [Int] = []
    /// How many elements the list holds.
    private(set) var count = 0

    /// How many elements are kept without allocating.
    static let inlineCapacity = 8

    /// An empty list.
    init() {}

    /// The elements of `elements`, in order.
    init(_ elements: some Sequence<Int>) {
        for element in elements { append(element) }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }
    var isEmpty: Bool { count == 0 }

    subscript(position: Int) -> Int {
        get {
            precondition(position >= 0 && position < count, "index out of range")
            return count <= Self.inlineCapacity ? Int(inline[position]) : spilled[position]
        }
    }

    /// Appends `index`, moving the elements to an array when the inline storage is full.
    mutating func append(_ index: Int) {
        if count < Self.inlineCapacity {
            inline[count] = Int32(index)
        } else {
            if count == Self.inlineCapacity {
                spilled.reserveCapacity(2 * Self.inlineCapacity)
                for i in 0..<count { spilled.append(Int(inline[i])) }
            }
            spilled.append(index)
        }
        count += 1
    }

    /// Removes the last `k` elements.
    mutating func removeLast(_ k: Int) {
        precondition(k >= 0 && k <= count, "cannot remove more elements than the list holds")
        guard k > 0 else { return }
        let remaining = count - k
        if count > Self.inlineCapacity {
            // The inline storage still holds the first elements: only appends change a list, at its end.
            if remaining <= Self.inlineCapacity { spilled = [] } else { spilled.removeLast(k) }
        }
        count = remaining
    }

    /// Removes every element equal to `index`, keeping the others in order.
    mutating func removeAll(_ index: Int) {
        var kept = IndexList()
        for element in self where element != index { kept.append(element) }
        self = kept
    }

    /// Replaces the elements with `index` alone.
    mutating func replaceAll(with index: Int) {
        self = IndexList()
        append(index)
    }
}

/// A state's selected tabs: pairs of coordinator indices (a `tabs` coordinator, its selected child), up to four
/// inline (no allocation, nothing to free), in an array beyond. A device rarely has more than one or two.
struct TabList: RandomAccessCollection {
    /// The pairs while there are at most ``inlineCapacity``: coordinator, child, coordinator, child, …
    private var inline = SIMD8<Int32>()
    /// All the pairs once there were more than ``inlineCapacity``; empty (not allocated) until then.
    private var spilled: [(coordinator: Int, child: Int)] = []
    /// How many pairs the list holds.
    private(set) var count = 0

    /// How many pairs are kept without allocating.
    static let inlineCapacity = 4

    /// An empty list.
    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { count }
    var isEmpty: Bool { count == 0 }

    subscript(position: Int) -> (coordinator: Int, child: Int) {
        precondition(position >= 0 && position < count, "index out of range")
        if count > Self.inlineCapacity { return spilled[position] }
        return (Int(inline[2 * position]), Int(inline[2 * position + 1]))
    }

    /// Appends a pair, moving the pairs to an array when the inline storage is full.
    mutating func append(coordinator: Int, child: Int) {
        if count < Self.inlineCapacity {
            inline[2 * count] = Int32(coordinator)
            inline[2 * count + 1] = Int32(child)
        } else {
            if count == Self.inlineCapacity {
                spilled.reserveCapacity(2 * Self.inlineCapacity)
                for i in 0..<count { spilled.append(self[i]) }
            }
            spilled.append((coordinator, child))
        }
        count += 1
    }

    /// Sets the child of the pair at `position`.
    mutating func setChild(_ child: Int, at position: Int) {
        precondition(position >= 0 && position < count, "index out of range")
        if count > Self.inlineCapacity {
            spilled[position].child = child
        } else {
            inline[2 * position + 1] = Int32(child)
        }
    }

    /// Removes the pair at `position`, keeping the others in order.
    mutating func remove(at position: Int) {
        precondition(position >= 0 && position < count, "index out of range")
        var kept = TabList()
        for (i, pair) in enumerated() where i != position {
            kept.append(coordinator: pair.coordinator, child: pair.child)
        }
        self = kept
    }
}
