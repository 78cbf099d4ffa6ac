import DeepLink
import JSON

/// Turns a typed ``Page`` and a device's ``DeviceState`` into a ``Decision`` and the device's next state.
///
/// Pure: the time and the state are passed in, nothing is read or stored. Built once per ``Graph`` (it
/// precomputes each coordinator's parents, kind and depth) and shared read-only. Resolving allocates the path,
/// the steps and the next state, nothing per coordinator visited.
///
/// ## Path
///
/// The decision's `path` runs from the root to the page's owner. Walking up from the owner, each coordinator's
/// parent is chosen among ``Graph/parents(of:)`` by: visible on the device (the one nearest the top of its
/// visible path first), then started, then the shortest path to the root, then declaration order. A device never
/// seen has nothing visible or started, so a cold start takes the shortest path.
///
/// ## Steps (contract)
///
/// A *cold start* is a decision for a device whose visible path is empty (never seen, or nothing on screen).
/// A resumed decision is a cold start too when the device shows nothing but part of the way to the page (every
/// started coordinator is on the path and shows at most its root page): a page gated on a cold start resumes as
/// that cold start would have routed it. V is the device's visible path. A routed, fallback or resumed decision's
/// steps are, in this order:
///
/// 1. `activate app`: always first (the root is brought to the front).
/// 2. `dismiss X` for each presented coordinator (`modal`, `flow`) of V above the point where V leaves the
///    path, top-most first. Dismissing stops X and what is above it.
/// 3. For each coordinator X of the path past the part already visible, P the one before it: `selectTab P
///    child X` when P is a `tabs` coordinator whose selected tab is not X; then `present X parent P` when X is a
///    modal or flow, else `activate X` when X is started (reused: a tab keeps its stack), else `start X parent P`.
///    A coordinator already visible on the path gets no step; when the whole path is visible but the owner has
///    (non-presented) coordinators above it, `activate owner` brings it to the front.
///
///    Where V leaves the path at a modal or flow X that does not declare `parents` (it is some coordinator's
///    child), X is presented over the current context, as a gate's provider is: step 2 dismisses nothing and the
///    step is `present X parent T`, T the top of V, so that dismissing X shows again what was under it. When X is
///    in V already, it is reused instead: the presented coordinators above it are dismissed (and `activate X`
///    when others are still above it).
///
///    Each coordinator entered before the owner that shows pages (`stack`, `modal`, `flow`) and has none gets
///    `setRoot X rootPage` right after it is entered: its first declared page with default arguments. A stack
///    that is started shows something.
/// 4. The owner's page stack, when the page is not already its top:
///    - the page (same arguments) is in the stack: `popTo` it;
///    - the stack is empty: `setRoot` the bottom page and `push` the others of the synthesized back stack, bottom
///      first: on a cold start the owner's root page (its first declared page, unless that is the page itself or
///      in its back chain) then the page's `back` chain farthest first; otherwise the `back` chain only;
///    - otherwise `popTo` the nearest page of the `back` chain found in the stack (when it is not the top) and
///      `push` the chain's pages above it; with none of them in the stack, `push` the whole chain.
///
///    Back-chain pages take the page's arguments by label (converted when the types differ), else their
///    defaults; the chain stops before a page that would lack an argument or repeat.
/// 5. `display owner page`: always last (it pushes the page unless it is the top already).
///
/// ## Gates
///
/// Conditions are checked along the path, root first, each coordinator's `requires` in declared order, then the
/// page's own `requires`. At the first unmet one the decision is `gated`. Its provider is the first coordinator
/// in declaration order that `provides` the condition; when that provider itself requires an unmet condition,
/// that condition's provider is presented instead (login before a paywall that needs an account). The steps:
///
/// 1. `activate app`;
/// 2. when the provider is already presented on V above the point where V leaves the path: `dismiss` the
///    presented coordinators above it, then `activate provider`;
/// 3. otherwise, steps 2–3 above for the gate's parent context only: the path before the gated coordinator, or
///    the whole path when the page itself is gated (then, on a cold start, the owner's synthesized back stack
///    below the page, step 4, so that resuming only displays the page). Nothing is brought to the front. Then
///    `present provider parent Q` and, when the provider has pages, `display provider rootPage` (its first
///    page, default arguments). Q is the top of V; when the provider declares `parents`, Q is the coordinator of
///    V nearest the top that is one of its parents (presented coordinators above Q are dismissed first), or, with
///    none on V, the end of a path to the provider chosen as for pages (with its steps 2–3).
///
/// The page becomes the device's pending link (``Pending``), expiring ``Graph/pendingExpirySeconds`` after `now`,
/// and replaces any older one. ``flowFinished(_:state:now:metadata:explain:)`` satisfies the provider's
/// conditions, dismisses it and resolves the pending page again (`resumed`, or `gated` by its next condition with a
/// fresh expiry).
///
/// ## Pending links across decisions
///
/// A gated decision sets the pending link, a resumed one clears it, and any decision whose steps stop the pending
/// link's gate (a `dismiss`) drops it. ``apply(_:to:)`` defines what each step does to a state. A decision that
/// drops a pending link that had not expired, or puts another in its place, says so in its `warnings`.
public final class Resolver: Sendable {
    /// The graph resolved against.
    public let graph: Graph

    let rootIndex: Int
    /// Coordinator indices by name (see ``coordinatorIndex(_:)``).
    let indexByName: NameTable<Int>
    /// Coordinator names by index.
    let names: [String]
    /// ``names`` escaped as in a JSON string, for writing decisions.
    let escapedNames: EscapedTexts
    /// True when every name is a non-empty run of ASCII letters, digits and `_`: as escaped (``escapedNames``) they
    /// are their own bytes, and a journal line takes them without escaping or quotes.
    let namesArePlain: Bool
    /// Each coordinator's `requires`, by index.
    let requirements: [[String]]
    let kinds: [CoordinatorKind]
    /// ``Graph/parents(of:)`` as indices, per coordinator.
    let parentIndices: [[Int]]
    /// True when the coordinator declares `parents:` itself.
    let declaresParents: [Bool]
    /// Shortest distance from the root (root 0); -1 when unreachable.
    let depths: [Int]
    /// The path from the root to each coordinator when it is the only one: every coordinator on the way up has a
    /// single parent reachable from the root, so no device state can choose another; else `nil` (see
    /// ``forcedPaths(root:parents:depths:)``).
    let forcedPaths: [IndexList?]
    /// The first provider of each condition, in declaration order.
    let firstProvider: NameTable<Int>
    /// Each coordinator's root page (its first page, default arguments); `nil` without pages or when a parameter
    /// has no default.
    let rootPages: [Page?]
    /// Each coordinator's first declared page.
    let rootDefinitions: [PageDefinition?]
    /// Each page's definition and the index of its coordinator (``Graph/page(_:)``'s table): one lookup per page.
    let pageEntries: [PageID: (definition: PageDefinition, owner: Int)]
    /// ``pageEntries`` by their two names' bytes, when every page's coordinator and case name is ASCII (see
    /// ``pageEntry(_:)``); its values index ``pageEntryList``.
    let pageIndex: NameIndex?
    /// The entries of ``pageIndex``.
    let pageEntryList: [(definition: PageDefinition, owner: Int)]

    /// A resolver for `graph`; the graph must have exactly one `app` coordinator (the loader checks it; a graph
    /// without coordinators is a programming error).
    public init(graph: Graph) {
        self.graph = graph
        let coordinators = graph.coordinators
        var index: [String: Int] = [:]
        for (i, c) in coordinators.enumerated() { index[c.name] = i }
        indexByName = NameTable(index)
        names = coordinators.map(\.name)
        escapedNames = EscapedTexts(names)
        namesArePlain = coordinators.allSatisfy { c in
            !c.name.isEmpty
                && c.name.utf8.allSatisfy { b in
                    (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z")
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "_")
                }
        }
        requirements = coordinators.map(\.requires)
        rootIndex = coordinators.firstIndex(where: { $0.kind == .app }) ?? 0
        kinds = coordinators.map(\.kind)
        declaresParents = coordinators.map { !$0.parents.isEmpty }
        let parents = coordinators.map { c in graph.parents(of: c.name).compactMap { index[$0] } }
        parentIndices = parents
        var children = [[Int]](repeating: [], count: coordinators.count)
        for (child, list) in parents.enumerated() {
            for parent in list { children[parent].append(child) }
        }
        var depths = [Int](repeating: -1, count: coordinators.count)
        if !coordinators.isEmpty {
            depths[rootIndex] = 0
            var queue = [rootIndex]
            var head = 0
            while head < queue.count {
                let current = queue[head]
                head += 1
                for child in children[current] where depths[child] < 0 {
                    depths[child] = depths[current] + 1
                    queue.append(child)
                }
            }
        }
        self.depths = depths
        forcedPaths = Self.forcedPaths(root: rootIndex, parents: parents, depths: depths)
        var providers: [String: Int] = [:]
        for (i, c) in coordinators.enumerated() {
            for condition in c.provides where providers[condition] == nil { providers[condition] = i }
        }
        firstProvider = NameTable(providers)
        let rootPages = coordinators.map { c in
            c.pages.first.flatMap { graph.page($0, argumentsFrom: Page(id: $0.id)) }
        }
        self.rootPages = rootPages
        rootDefinitions = coordinators.map(\.pages.first)
        var entries: [PageID: (definition: PageDefinition, owner: Int)] = [:]
        for (id, definition) in graph.pagesByID {
            if let owner = index[id.coordinator] { entries[id] = (definition, owner) }
        }
        pageEntries = entries
        let list = Array(entries)
        pageEntryList = list.map(\.value)
        pageIndex = NameIndex(
            pairs: list.enumerated().map { (first: $1.key.coordinator, second: $1.key.name, value: $0) })
    }

    /// Resolves `page` for a device in `state` (`nil`: a device never seen, resolved as a cold start with no
    /// condition satisfied).
    ///
    /// - Parameters:
    ///   - outcome: what to report when the page is not gated: `.routed`, `.fallback` (the caller routes the
    ///     app's fallback page) or `.resumed`. Passing `.gated` is a programming error.
    ///   - metadata: the decision's id, device and source.
    ///   - explain: fill the decision's `trace` with why each choice was made.
    /// - Returns: the decision and the device's next state (``apply(_:to:)`` of the decision to `state`).
    /// - Throws: ``ResolveError`` when the page is not declared, its owner is unreachable from the root, or a
    ///   required condition has no provider.
    public func resolve(
        _ page: Page, state: DeviceState?, now: Timestamp, outcome: Decision.Outcome = .routed,
        metadata: consuming DecisionMetadata, explain: Bool = false
    ) throws(ResolveError) -> Resolution {
        var visits = 0
        return try resolve(
            page, state: state, now: now, outcome: outcome, metadata: consume metadata, explain: explain,
            visits: &visits)
    }

    /// ``resolve(_:state:now:outcome:metadata:explain:)`` from a state this resolver (or another, whose graph
    /// names its coordinators) resolved before: on this resolver it is walked as it is, its names not looked up
    /// again.
    public func resolve(
        _ page: Page, from state: ResolvedState?, now: Timestamp, outcome: Decision.Outcome = .routed,
        metadata: consuming DecisionMetadata, explain: Bool = false
    ) throws(ResolveError) -> Resolution {
        var visits = 0
        let start: NavigationState? =
            if let state { state.resolver === self ? state.navigation : navigationState(state.state) } else { nil }
        return try resolve(
            page, starting: start, now: now, outcome: outcome, metadata: consume metadata, explain: explain,
            visits: &visits)
    }

    /// ``resolve(_:state:now:outcome:metadata:explain:)``, adding to `visits` how many coordinators the walk looked
    /// at (for tests: the work does not depend on the size of the graph).
    func resolve(
        _ page: Page, state: DeviceState?, now: Timestamp, outcome: Decision.Outcome,
        metadata: consuming DecisionMetadata,
        explain: Bool, visits: inout Int
    ) throws(ResolveError) -> Resolution {
        try resolve(
            page, starting: state.map(navigationState), now: now, outcome: outcome, metadata: consume metadata,
            explain: explain, visits: &visits)
    }

    /// Resolves `page` from `start` (`nil` for a device never seen).
    private func resolve(
        _ page: Page, starting start: consuming NavigationState?, now: Timestamp, outcome: Decision.Outcome,
        metadata: consuming DecisionMetadata, explain: Bool, visits: inout Int
    ) throws(ResolveError) -> Resolution {
        precondition(outcome != .gated, "a routed outcome is .routed, .fallback or .resumed; gating is decided here")
        let seen = start != nil
        var walk = Walk.starting(from: start ?? NavigationState(), explain: explain)
        if !seen { walk.note("device not seen before: cold start, no condition satisfied") }
        defer { visits += walk.visits }
        let decision = try route(page, walk: &walk, now: now, outcome: outcome, metadata: consume metadata)
        return Resolution(decision: decision, navigation: walk.takeState(), resolver: self)
    }

    /// Routes `page` on the walk's state, appending to its steps; the shared body of resolve and flowFinished.
    func route(
        _ page: Page, walk: inout Walk, now: Timestamp, outcome: Decision.Outcome, metadata: consuming DecisionMetadata
    ) throws(ResolveError) -> Decision {
        guard let (definition, owner) = pageEntry(page.id) else {
            throw ResolveError(
                code: .unknownPage, subject: page.id.description,
                message: "page '\(page.id)' is not declared in the graph; check the coordinator and case names")
        }
        guard let path = self.path(to: owner, walk: &walk) else {
            throw ResolveError(
                code: .unreachable, subject: page.id.coordinator,
                message: "'\(page.id.coordinator)' cannot be reached from '\(names[rootIndex])'; declare it as a child")
        }
        walk.note("path: " + path.map { names[$0] }.joined(separator: " → "))
        let coldStart =
            walk.state.path.isEmpty || (outcome == .resumed && showsNothingButTheWay(to: path, walk: &walk))
        activateRoot(walk: &walk)
        var pending: Pending?
        var warnings: [String]?
        let reported: Decision.Outcome
        if let gate = firstUnmetCondition(path: path, page: definition, walk: &walk) {
            let presented = try presentGate(
                gate, path: path, page: page, definition: definition, coldStart: coldStart, walk: &walk)
            let entry = Pending(
                page: page, gate: names[presented.provider], condition: presented.condition,
                expiresAt: now.adding(seconds: graph.pendingExpirySeconds))
            if let older = walk.state.pending, older.page != page || older.gate != entry.gate {
                walk.note("pending \(page) replaces pending \(older.page)")
                if !older.isExpired(at: now) {
                    warnings = [
                        "pending page \(older.page) dropped: \(page) now waits behind \(entry.gate) in its place"
                    ]
                }
            }
            walk.note("pending \(page) until \(entry.expiresAt) behind \(entry.gate)")
            walk.state.pending = entry
            pending = entry
            reported = .gated
        } else {
            navigate(path, upTo: path.count, toFront: true, walk: &walk)
            arrangeStack(of: owner, for: page, definition: definition, coldStart: coldStart, walk: &walk)
            walk.emit(.display, owner, page: page, resolver: self)
            if outcome == .resumed {
                walk.state.pending = nil
            } else if let dropped = dropPendingIfGateStopped(walk: &walk), !dropped.isExpired(at: now) {
                warnings = ["pending page \(dropped.page) dropped: this decision dismissed \(dropped.gate), its gate"]
            }
            reported = outcome
        }
        return Decision(
            metadata: consume metadata, outcome: reported, page: page, path: [], pathIndices: path,
            plan: walk.finishedPlan(self), pending: pending, warnings: warnings, trace: walk.trace,
            createdAt: now)
    }

    /// True when the device shows nothing but part of the way to the page: every started coordinator is on `path`
    /// and shows at most its root page. A pending page gated on a cold start resumes from such a state, and is
    /// resumed as a cold start (its owner's stack built from the root page up).
    func showsNothingButTheWay(to path: IndexList, walk: inout Walk) -> Bool {
        for index in walk.state.started {
            walk.visits += 1
            guard path.contains(index) else { return false }
            guard let stack = walk.state.stack(of: index) else { continue }
            guard stack.count <= 1 else { return false }
            if let page = stack.first, page.id != rootDefinitions[index]?.id { return false }
        }
        return true
    }

    /// The index of the coordinator named `name`, if declared.
    ///
    /// A device's state names its coordinators, and reading it looks each name up. When every coordinator's name is
    /// ASCII, an ASCII name is found by its bytes (``NameIndex``), without hashing it with SipHash; any other name
    /// goes to a dictionary, which compares as `String` does (canonical equivalence: `"\u{212A}"`, the Kelvin sign,
    /// is `"K"`). Two ASCII strings are equivalent only when their bytes are equal, so both ways find the same
    /// coordinator (``NameTable``).
    func coordinatorIndex(_ name: String) -> Int? {
        indexByName[name]
    }

    /// The definition of the page `id` and the index of its coordinator, if declared.
    ///
    /// Found by the bytes of its two names when they are ASCII and the table was built (as for
    /// ``coordinatorIndex(_:)``); otherwise by the dictionary, which compares as `String` does.
    func pageEntry(_ id: PageID) -> (definition: PageDefinition, owner: Int)? {
        guard let pageIndex else { return pageEntries[id] }
        switch pageIndex.find(id.coordinator, id.name) {
        case .value(let index): return pageEntryList[index]
        case .absent: return nil
        case .notASCII: return pageEntries[id]
        }
    }

    /// Emits `activate app` unless the walk already starts with it.
    func activateRoot(walk: inout Walk) {
        if walk.plan.startsByActivating(rootIndex) { return }
        walk.emit(.activate, rootIndex, resolver: self)
    }

    /// Drops the pending link when the walk's steps stopped its gate; returns it when it did.
    @discardableResult
    func dropPendingIfGateStopped(walk: inout Walk) -> Pending? {
        guard let pending = walk.state.pending, !isStarted(pending.gate, in: walk.state) else { return nil }
        walk.note("pending \(pending.page) dropped: its gate \(pending.gate) was dismissed")
        walk.state.pending = nil
        return pending
    }
}

/// A decision and the device state its steps produce.
///
/// The state is kept as the walk left it (coordinators by index) and named only when asked for: a dry run never
/// needs it.
public struct Resolution: Sendable, Hashable {
    /// The decision.
    public internal(set) var decision: Decision
    /// The state after the decision's steps, coordinators by index.
    private(set) var navigation: NavigationState
    /// The resolver that names the state's coordinators.
    let resolver: Resolver

    /// The device's state after the decision's steps: persist it before replying.
    public var state: DeviceState { resolver.deviceState(navigation) }

    /// The decision alone, moved out, when the state is not wanted (a dry run).
    public consuming func takeDecision() -> Decision {
        decision
    }

    /// The decision and the state after its steps as the resolver holds it, moved out: the state to keep for the
    /// device's next decision (``Resolver/resolve(_:from:now:outcome:metadata:explain:)``).
    public consuming func take() -> (decision: Decision, state: ResolvedState) {
        var taken = NavigationState()
        swap(&taken, &navigation)  // moved, not copied part by part
        return (decision, ResolvedState(navigation: taken, resolver: resolver))
    }

    public static func == (lhs: Resolution, rhs: Resolution) -> Bool {
        lhs.decision == rhs.decision && lhs.state == rhs.state
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(decision)
        hasher.combine(state)
    }
}

/// Why a page could not be resolved or a flow could not finish.
public struct ResolveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public enum Code: String, Sendable, Hashable {
        /// The page is not declared in the graph.
        case unknownPage
        /// The page's owner (or a gate's provider) cannot be reached from the root.
        case unreachable
        /// A required condition has no providing coordinator.
        case noProvider
        /// `flowFinished` named a coordinator the graph does not declare.
        case unknownCoordinator
        /// `flowFinished` named a coordinator that provides no condition.
        case providesNothing
        /// `flowFinished` named a coordinator that is not started on the device.
        case notStarted
    }

    /// What was wrong.
    public let code: Code
    /// The page, coordinator or condition concerned.
    public let subject: String
    /// What happened and how to fix it.
    public let message: String

    /// An error from its parts.
    public init(code: Code, subject: String, message: String) {
        self.code = code
        self.subject = subject
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// A resolution in progress: the state as the steps so far leave it, the steps, and the trace when explaining.
struct Walk {
    var state: NavigationState
    /// The steps so far, by index.
    var plan: StepPlan
    var trace: [String]?
    /// How many coordinators the walk looked at: parents weighed, coordinators checked, entered or dismissed (for
    /// tests: it must not grow with the graph).
    var visits = 0

    /// A walk from `state`, with room for eight steps (most decisions have fewer: one allocation).
    ///
    /// A static function rather than an `init`: an `init` that stores into `self` part by part builds the walk in
    /// a temporary and then copies it, retaining and releasing each of its parts.
    static func starting(from state: consuming NavigationState, explain: Bool) -> Walk {
        var entries: [StepPlan.Entry] = []
        entries.reserveCapacity(8)
        return Walk(state: state, plan: StepPlan(entries: entries), trace: explain ? [] : nil)
    }

    /// Applies the step to the state and appends it to the plan.
    mutating func emit(
        _ action: Step.Action, _ coordinator: Int, parent: Int? = nil, child: Int? = nil, page: Page? = nil,
        resolver: Resolver
    ) {
        resolver.apply(action, coordinator, parent: parent, child: child, page: page, to: &state)
        plan.append(action, coordinator, child: child, parent: parent, page: page)
    }

    /// The plan so far, ready to be named and written.
    func finishedPlan(_ resolver: Resolver) -> StepPlan {
        plan.finished(by: resolver, foreign: state.foreign)
    }

    /// The steps so far, named.
    func steps(_ resolver: Resolver) -> [Step] {
        finishedPlan(resolver).steps
    }

    /// The state, moved out of the walk as it ends (an empty one is left in its place, with no copy).
    mutating func takeState() -> NavigationState {
        var taken = NavigationState()
        swap(&taken, &state)
        return taken
    }

    /// Adds a trace line (built only when explaining).
    mutating func note(_ line: @autoclosure () -> String) {
        if trace != nil { trace?.append(line()) }
    }
}
