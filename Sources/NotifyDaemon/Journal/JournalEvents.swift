/// The events notifyd journals, each with a stable `MESSAGE_ID` explained in `systemd/notifyd.catalog`.
///
/// The ids are part of the journal contract (docs/design.md §6): `journalctl MESSAGE_ID=…` finds every entry
/// of one kind across versions. Never change an id; add a new case (and a catalog section) instead.
public enum JournalEvent: String, Sendable, Hashable, CaseIterable {
    /// A routing decision was made (and, unless a dry run, persisted).
    case decisionMade
    /// A routing decision could not be stored; its client was answered `StateNotSaved`.
    case decisionNotSaved
    /// A payload or link was refused: invalid, too large, or no route.
    case payloadRejected
    /// A graph configuration was loaded (at start or on reload).
    case configLoaded
    /// A graph configuration was refused; the previous one stays in force.
    case configRejected
    /// The daemon is ready to serve.
    case started
    /// The daemon is shutting down.
    case stopping
    /// The daemon could not start (or its event loop failed) and exits.
    case startFailed
    /// The journal queue overflowed and entries were dropped.
    case entriesDropped
    /// The state store failed to read or write.
    case stateStoreError
    /// An event loop (a lane) stopped answering: the watchdog is no longer petted, and systemd restarts the daemon.
    case loopStalled

    /// The 128-bit `MESSAGE_ID`, as 32 lowercase hex digits.
    public var messageID: String {
        switch self {
        case .decisionMade: return "0de31a38b04a4d5e94ebaebc7713729e"
        case .decisionNotSaved: return "3949e55a4e44418da30fac617958f0b3"
        case .payloadRejected: return "fa9bed1a744b4b13aa66543be1ee786f"
        case .configLoaded: return "e448bb389d3f48a889266c25487ab56b"
        case .configRejected: return "20941f73619b4b1fa4a2338d8f21ac28"
        case .started: return "5cdd978295bc4e428edd3bc8aa55ae92"
        case .stopping: return "ed51089821f04033a636109d0bfbee2a"
        case .startFailed: return "bc0d67a8c78c4ca2966d73462c98e391"
        case .entriesDropped: return "877df5b47fcc4cb3b72d24f4241b928a"
        case .stateStoreError: return "be503e34ab654c6ab2f79cbee42e3d39"
        case .loopStalled: return "0538050527464594a6728b62845f7635"
        }
    }
}

/// Names of the journal fields notifyd writes (docs/design.md §6), for `Journal.log(_:priority:message:fields:)`.
public enum JournalField {
    /// The decision id (`Decision.id`).
    public static let decisionID = "NOTIFYD_DECISION_ID"
    /// The device the request named.
    public static let device = "NOTIFYD_DEVICE"
    /// `routed`, `gated`, `fallback`, `resumed`, `opened` or `silent`.
    public static let outcome = "NOTIFYD_OUTCOME"
    /// The page description, e.g. `cart.offer(id: "SUMMER")`; absent for `opened` and `silent`.
    public static let page = "NOTIFYD_PAGE"
    /// The coordinator path, joined with `/`; absent for `opened` and `silent`.
    public static let path = "NOTIFYD_PATH"
    /// The payload format and field the link came from, e.g. `apns:deeplink`.
    public static let source = "NOTIFYD_SOURCE"
    /// The link as received (escaped).
    public static let link = "NOTIFYD_LINK"
    /// The `apns-topic` header the push came with.
    public static let topic = "NOTIFYD_TOPIC"
    /// The client's uid (SO_PEERCRED).
    public static let peerUID = "NOTIFYD_PEER_UID"
    /// Why a payload, configuration or store operation was refused.
    public static let reason = "NOTIFYD_REASON"
    /// The payload field a rejection is about.
    public static let field = "NOTIFYD_FIELD"
    /// The configuration file.
    public static let config = "NOTIFYD_CONFIG"
    /// How many entries the journal queue dropped.
    public static let dropped = "NOTIFYD_DROPPED"
}
