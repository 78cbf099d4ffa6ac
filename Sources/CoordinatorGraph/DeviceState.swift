import DeepLink

/// The navigation state of one device: what is on screen, what is alive, what the user has unlocked.
///
/// A value: the resolver reads one and returns the next (``Resolution/state``); applying a ``Decision`` to a
/// state gives the state the decision's steps produce (``Resolver/apply(_:to:)``). Stored by the daemon and
/// exchanged through `GetState`/`SetState` as the JSON of docs/design.md §3 (see `DeviceState+JSON.swift`).
///
/// Invariants the resolver keeps (``init(json:graph:)`` checks the names): `path` starts with the
/// root, every coordinator in `path` is in `started`, and a presented coordinator (`modal`, `flow`) is started
/// only while it is in `path`.
public struct DeviceState: Sendable, Hashable {
    /// The visible chain of coordinators from the root to the top-most one, presented modals included:
    /// `["app", "main", "cart", "payment"]`. Empty before the first decision.
    public var path: [String]
    /// Every coordinator started and still alive, in the order they were started (tabs keep their stacks
    /// when not selected).
    public var started: [String]
    /// The selected child of each `tabs` coordinator that has one.
    public var tabs: [String: String]
    /// The page stack of each coordinator that shows pages, bottom first; an empty stack has no entry.
    public var stacks: [String: [Page]]
    /// Satisfied conditions, in the order they were satisfied.
    public var conditions: [String]
    /// The page waiting for a gate to finish, if any.
    public var pending: Pending?

    /// A state from its parts; the defaults give the state of a device never seen (nothing started).
    public init(
        path: [String] = [], started: [String] = [], tabs: [String: String] = [:], stacks: [String: [Page]] = [:],
        conditions: [String] = [], pending: Pending? = nil
    ) {
        self.path = path
        self.started = started
        self.tabs = tabs
        self.stacks = stacks
        self.conditions = conditions
        self.pending = pending
    }

    /// The state of a device never seen: nothing started, no condition satisfied, nothing pending.
    public static let initial = DeviceState()

    /// The top-most visible coordinator, if any.
    public var top: String? { path.last }

    /// True when `coordinator` is started.
    public func isStarted(_ coordinator: String) -> Bool {
        started.contains(coordinator)
    }

    /// True when `condition` is satisfied.
    public func isSatisfied(_ condition: String) -> Bool {
        conditions.contains(condition)
    }

    /// The page stack of `coordinator`, bottom first (empty when it has none).
    public func stack(of coordinator: String) -> [Page] {
        stacks[coordinator] ?? []
    }
}

/// A page kept until the gate in front of it finishes: the page, the providing coordinator presented, the
/// condition it waits for, and when it stops being worth resuming.
public struct Pending: Sendable, Hashable {
    /// The page the user was sent to.
    public var page: Page
    /// The providing coordinator presented for it (`login`).
    public var gate: String
    /// The condition the page waits for (`session`).
    public var condition: String
    /// After this instant the page is dropped instead of resumed.
    public var expiresAt: Timestamp

    /// A pending page from its parts.
    public init(page: Page, gate: String, condition: String, expiresAt: Timestamp) {
        self.page = page
        self.gate = gate
        self.condition = condition
        self.expiresAt = expiresAt
    }

    /// True when the page may no longer be resumed at `now` (expiry is inclusive).
    public func isExpired(at now: Timestamp) -> Bool {
        now >= expiresAt
    }
}
