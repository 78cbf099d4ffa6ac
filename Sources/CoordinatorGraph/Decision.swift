import DeepLink
import JSON

/// A routing decision (docs/design.md §3): which page, the coordinators from the root to its owner, the ordered steps
/// that bring the device there, and the pending page when a gate is presented first; or, for a push with no page to
/// open, that the app opens where it is (`opened`) or that there is nothing to open (`silent`).
///
/// Built by ``Resolver``; written and read as the JSON of docs/design.md §3 (`Decision+JSON.swift`). The step
/// grammar is documented on ``Resolver``.
public struct Decision: Sendable, Hashable {
    /// How the page was reached, or why there is none.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// A matched link routed to its page.
        case routed
        /// A condition is unmet: a providing flow is presented first and the page is pending.
        case gated
        /// No candidate routed (none matched, or each was refused); the app's fallback page was routed.
        case fallback
        /// A pending page continued after its gate was satisfied.
        case resumed
        /// A visible notification with no usable link: the app comes forward where it is. No page, no steps.
        case opened
        /// Nothing to tap (a background update, a badge, data only), or a push that never navigates (a Live
        /// Activity event, a non-alert push type). No page, no steps, never gated.
        case silent

        /// True when the decision has a page and steps that change the device's state; false for `opened` and
        /// `silent`, which leave it as it was.
        public var navigates: Bool {
            switch self {
            case .routed, .gated, .fallback, .resumed: return true
            case .opened, .silent: return false
            }
        }
    }

    /// The decision's fields, kept in one box shared by copies: a decision passes from the resolver to the reply,
    /// the journal and the history, and each copy of a dozen reference-counted fields cost ≈ 460 instructions. A
    /// copy is one reference; changing a field of a shared decision copies the box first.
    struct Fields {
        /// The id, device and source, as the caller gave them: moved into the box whole, not field by field.
        var metadata: DecisionMetadata
        var outcome: Outcome
        var page: Page?
        /// The path by name; empty while ``pathIndices`` holds it.
        var path: [String]
        /// The path as the resolver made it, coordinators by index, named by ``plan``.
        var pathIndices: IndexList?
        var namedSteps: [Step]
        var plan: StepPlan?
        var pending: Pending?
        var warnings: [String]?
        var trace: [String]?
        var createdAt: Timestamp

        /// Moves the path kept as indices to ``path``, by name.
        mutating func namePath() {
            guard let indices = pathIndices, let plan else { return }
            path = plan.names(of: indices)
            pathIndices = nil
        }
    }

    /// The box. Its fields change only while no other decision refers to it (``fields``' `_modify`), so sharing
    /// it between threads is safe. Overlapping accesses to one decision are caught at compile time, on the
    /// decision itself, so the box's field goes without the runtime check (≈ 60 instructions per access).
    final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var fields: Fields

        init(_ fields: consuming Fields) {
            self.fields = fields
        }
    }

    private var storage: Storage

    /// The fields; changed in place when this decision alone refers to them.
    var fields: Fields {
        @inline(__always) get { storage.fields }
        @inline(__always) _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
            yield &storage.fields
        }
    }

    /// The decision's id (given by the caller), as text.
    public var id: String {
        get { storage.fields.metadata.decisionID.description }
        set { fields.metadata.decisionID = DecisionID(newValue) }
    }
    /// The decision's id (given by the caller): a UUID is kept as its bits and written without making its text.
    public var decisionID: DecisionID {
        get { storage.fields.metadata.decisionID }
        set { fields.metadata.decisionID = newValue }
    }
    /// The device the decision is for, when known.
    public var device: String? {
        get { storage.fields.metadata.device }
        set { fields.metadata.device = newValue }
    }
    /// How the page was reached.
    public var outcome: Outcome {
        get { storage.fields.outcome }
        set { fields.outcome = newValue }
    }
    /// Where the link came from, when it came from a payload.
    public var source: DecisionSource? {
        get { storage.fields.metadata.source }
        set { fields.metadata.source = newValue }
    }
    /// The page routed to (for `gated`, the page that waits); `nil` for `opened` and `silent`.
    public var page: Page? {
        get { storage.fields.page }
        set { fields.page = newValue }
    }
    /// The coordinators from the root to the page's owner.
    ///
    /// A decision the resolver made keeps its path as the resolver's indices, named by its ``plan`` here when it is
    /// read (no array of names built for a decision whose path is only written); its text is written from the
    /// names the resolver escaped once. Changing it, or the steps, keeps it by name from then on.
    public var path: [String] {
        get {
            guard let indices = storage.fields.pathIndices, let plan = storage.fields.plan else {
                return storage.fields.path
            }
            return plan.names(of: indices)
        }
        _modify {
            fields.namePath()
            yield &fields.path
        }
    }

    /// Calls `body` with each of ``path``'s names in order, without building the array when the path is kept as
    /// indices.
    public func forEachPathName(_ body: (String) -> Void) {
        if let indices = storage.fields.pathIndices, let resolver = storage.fields.plan?.resolver {
            // The resolver and the foreign names, not the whole plan, copied out of the box.
            StepPlan.forEachName(of: indices, resolver: resolver, foreign: storage.fields.plan?.foreign ?? [], body)
        } else {
            for name in storage.fields.path { body(name) }
        }
    }

    /// True when the path is kept as the resolver's indices of its own coordinators and every coordinator of its
    /// graph is named by an ASCII identifier (``Resolver/namesArePlain``): ``writePlainPath(separator:into:)`` then
    /// writes it.
    public var pathIsPlain: Bool {
        guard let indices = storage.fields.pathIndices, let resolver = storage.fields.plan?.resolver,
            resolver.namesArePlain
        else { return false }
        for i in 0..<indices.count where indices[i] >= resolver.names.count { return false }
        return true
    }

    /// Appends the path's names separated by `separator`, copied from the bytes the resolver keeps of them; only
    /// when ``pathIsPlain``.
    public func writePlainPath(separator: UInt8, into out: inout ByteWriter) {
        guard let indices = storage.fields.pathIndices, let resolver = storage.fields.plan?.resolver else {
            preconditionFailure("a plain path is kept as a resolver's indices")
        }
        for i in 0..<indices.count {
            if i > 0 { out.append(separator) }
            resolver.escapedNames.write(indices[i], into: &out)
        }
    }

    /// The path as the resolver made it, by index (`nil` when it is kept by name).
    var pathIndices: IndexList? { storage.fields.pathIndices }
    /// The ordered steps: the minimal diff from the device's state, or the cold-start path.
    ///
    /// A decision the resolver made keeps its steps as the resolver's indices and names them here, when they are
    /// read; its text is written from the indices (``writeJSON(into:)``).
    public var steps: [Step] {
        get { storage.fields.plan?.steps ?? storage.fields.namedSteps }
        set {
            fields.namePath()  // the path's names are the plan's too
            fields.namedSteps = newValue
            fields.plan = nil
        }
    }
    /// The steps as given (decoded, or built by hand); empty while ``plan`` holds them.
    var namedSteps: [Step] { storage.fields.namedSteps }
    /// The steps as the resolver made them.
    var plan: StepPlan? { storage.fields.plan }
    /// The page kept until its gate finishes (`gated` only).
    public var pending: Pending? {
        get { storage.fields.pending }
        set { fields.pending = newValue }
    }
    /// What the payload carried that notifyd did not use (unknown `aps` keys, …); `nil` when nothing.
    public var warnings: [String]? {
        get { storage.fields.warnings }
        _modify { yield &fields.warnings }
    }
    /// Why, line by line; `nil` unless an explanation was asked for.
    public var trace: [String]? {
        get { storage.fields.trace }
        _modify { yield &fields.trace }
    }
    /// When the decision was made.
    public var createdAt: Timestamp {
        get { storage.fields.createdAt }
        set { fields.createdAt = newValue }
    }

    /// A decision from its parts.
    public init(
        id: String, device: String? = nil, outcome: Outcome, source: DecisionSource? = nil, page: Page?,
        path: [String], steps: [Step], pending: Pending? = nil, warnings: [String]? = nil, trace: [String]? = nil,
        createdAt: Timestamp
    ) {
        self.init(
            metadata: DecisionMetadata(id: id, device: device, source: source), outcome: outcome, page: page,
            path: path, namedSteps: steps, plan: nil, pending: pending, warnings: warnings, trace: trace,
            createdAt: createdAt)
    }

    /// A decision whose steps are `namedSteps`, or the resolver's `plan`; `metadata` moves into it.
    init(
        metadata: consuming DecisionMetadata, outcome: Outcome, page: Page?, path: [String],
        pathIndices: IndexList? = nil, namedSteps: [Step] = [], plan: StepPlan?, pending: Pending?,
        warnings: [String]? = nil, trace: [String]?, createdAt: Timestamp
    ) {
        precondition(pathIndices == nil || plan != nil, "a path kept by index is named by the plan")
        storage = Storage(
            Fields(
                metadata: consume metadata, outcome: outcome, page: page, path: path,
                pathIndices: pathIndices, namedSteps: namedSteps, plan: plan, pending: pending, warnings: warnings,
                trace: trace,
                createdAt: createdAt))
    }

    /// Decisions are equal when their JSON is (steps compared by name, however they are kept).
    public static func == (lhs: Decision, rhs: Decision) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.decisionID == rhs.decisionID && lhs.device == rhs.device && lhs.outcome == rhs.outcome
            && lhs.source == rhs.source
            && lhs.page == rhs.page && lhs.path == rhs.path && lhs.steps == rhs.steps && lhs.pending == rhs.pending
            && lhs.warnings == rhs.warnings && lhs.trace == rhs.trace && lhs.createdAt == rhs.createdAt
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(decisionID)
        hasher.combine(device)
        hasher.combine(outcome)
        hasher.combine(source)
        hasher.combine(page)
        hasher.combine(path)
        hasher.combine(steps)
        hasher.combine(pending)
        hasher.combine(warnings)
        hasher.combine(trace)
        hasher.combine(createdAt)
    }
}

/// Where a decision came from: the payload format, the field that carried the link (or, with no link, the field
/// that decided the outcome), the link itself, and the push's topic.
public struct DecisionSource: Sendable, Hashable {
    /// The payload format (`apns`, `fcm`, `fcm-legacy`, `ntfy`, `gotify`, `webpush`, `expo`, `link`).
    public var format: String
    /// The payload field that carried the link (`deeplink`, `aps.category`, …); for `opened` and `silent`, what
    /// made the notification visible or not (`aps.alert`, `aps.content-available`, `headers.apns-push-type`, …).
    public var field: String
    /// The link as received, when there was one (categories name a page without a link).
    public var link: String?
    /// The `apns-topic` header the push came with, when given.
    public var topic: String?

    /// A source from its parts.
    public init(format: String, field: String, link: String?, topic: String? = nil) {
        self.format = format
        self.field = field
        self.link = link
        self.topic = topic
    }
}

/// What the caller knows about a decision before it is made: its id, the device, the link's source.
public struct DecisionMetadata: Sendable, Hashable {
    /// The decision's id.
    public var decisionID: DecisionID
    /// The device the decision is for, when known.
    public var device: String?
    /// Where the link came from.
    public var source: DecisionSource?

    /// The decision's id, as text.
    public var id: String {
        get { decisionID.description }
        set { decisionID = DecisionID(newValue) }
    }

    /// Metadata from its parts.
    public init(id: DecisionID, device: String? = nil, source: DecisionSource? = nil) {
        self.decisionID = id
        self.device = device
        self.source = source
    }

    /// Metadata from its parts, the id given as text.
    public init(id: String, device: String? = nil, source: DecisionSource? = nil) {
        self.init(id: DecisionID(id), device: device, source: source)
    }
}

/// One step of a decision: an action on a coordinator, with the child, parent or page it involves.
///
/// See ``Resolver`` for the grammar and ``Resolver/apply(_:to:)`` for what each step does to a ``DeviceState``.
public struct Step: Sendable, Hashable, CustomStringConvertible {
    /// What the step does.
    public enum Action: String, Sendable, Hashable, CaseIterable {
        /// Create and start a child coordinator under `parent`.
        case start
        /// Reuse a coordinator already started and bring it to the front.
        case activate
        /// Select the tab `child` of a `tabs` coordinator.
        case selectTab
        /// Present a `modal`/`flow` coordinator over `parent`.
        case present
        /// Dismiss a presented coordinator (it stops).
        case dismiss
        /// Pop the coordinator's stack down to `page` (which stays).
        case popTo
        /// Push `page` on the coordinator's stack.
        case push
        /// Replace the coordinator's stack by `page` alone.
        case setRoot
        /// Show `page` on the coordinator (pushed unless it is already the top).
        case display
    }

    /// What the step does.
    public var action: Action
    /// The coordinator acted on.
    public var coordinator: String
    /// The tab selected (`selectTab`).
    public var child: String?
    /// The coordinator started or presented under (`start`, `present`).
    public var parent: String?
    /// The page's description (`popTo`, `push`, `setRoot`, `display`): `cart.offer(id: "SUMMER")`.
    public var page: String?
    /// The typed page of ``page``, when known: always for steps the resolver makes; for decoded decisions when the
    /// step carried its structured form (`pageId`, `arguments`) or a graph was given. Written beside ``page`` as that
    /// structured form.
    public var pageValue: Page?

    /// A step from its parts; for page steps prefer ``init(_:_:page:)``.
    public init(
        _ action: Action, _ coordinator: String, child: String? = nil, parent: String? = nil, page: String? = nil,
        pageValue: Page? = nil
    ) {
        self.action = action
        self.coordinator = coordinator
        self.child = child
        self.parent = parent
        self.page = page ?? pageValue?.description
        self.pageValue = pageValue
    }

    /// A page step (`popTo`, `push`, `setRoot`, `display`) with its typed page.
    public init(_ action: Action, _ coordinator: String, page: Page) {
        self.init(action, coordinator, page: page.description, pageValue: page)
    }

    /// One line for humans and tests: `activate app`, `selectTab main cart`, `start cart in main`,
    /// `present login over cart`, `dismiss payment`, `push cart cart.cart`, `display cart cart.offer(id: "S")`.
    public var description: String {
        var out = action.rawValue + " " + coordinator
        if let child { out += " " + child }
        if let parent { out += (action == .present ? " over " : " in ") + parent }
        if let page { out += " " + page }
        return out
    }

    /// Steps are equal when they do the same: ``pageValue`` is the page ``page`` describes and is not compared (a
    /// page read without a graph has its arguments typed loosely, a UUID as a string).
    public static func == (lhs: Step, rhs: Step) -> Bool {
        lhs.action == rhs.action && lhs.coordinator == rhs.coordinator && lhs.child == rhs.child
            && lhs.parent == rhs.parent && lhs.page == rhs.page
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(action)
        hasher.combine(coordinator)
        hasher.combine(child)
        hasher.combine(parent)
        hasher.combine(page)
    }
}
