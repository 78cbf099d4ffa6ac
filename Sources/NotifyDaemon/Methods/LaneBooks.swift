import CoordinatorGraph
import DeepLink
import JSON
import Synchronization

/// The loaded config as lanes read it: the main loop publishes each reload here.
final class SharedConfig: Sendable {
    /// Each lane's copy of the config loaded now.
    private let current: Mutex<[ActiveConfig]>
    /// How many times a config was published: a lane takes the lock only when this moved since it last looked
    /// (``LaneHandler``), not for each call.
    private let published = Atomic<UInt64>(0)

    /// Copies of `config` for `lanes` lanes.
    init(_ config: ActiveConfig, lanes: Int) {
        current = Mutex((0..<lanes).map { _ in config.copy() })
    }

    /// The config loaded now, as lane `lane` serves it.
    func value(lane: Int) -> ActiveConfig { current.withLock { $0[lane] } }

    /// The number of configs published so far. Read before ``value(lane:)``: a lane that saw this number has at
    /// least the config published with it.
    var version: UInt64 { published.load(ordering: .acquiring) }

    /// Makes the lanes' copies of `config` (on the caller's thread, before any lane sees them), then hands them out.
    func publish(_ config: ActiveConfig) {
        let copies = current.withLock { $0.count }
        let fresh = (0..<copies).map { _ in config.copy() }
        current.withLock { $0 = fresh }
        published.add(1, ordering: .releasing)
    }
}

/// What each lane keeps of the dry runs it answers, for the main loop to read when it answers `GetStats`,
/// `GetDecision` or `ListDecisions`: the lane's counters and latest decisions, each lane's under a lock of its own.
///
/// A lane records a decision here before it queues the reply, so once a client has a lane's reply those calls see
/// its decision. Keeping them on the lane spares the main loop a report, a copy and a free for each decision the
/// lanes make; a decision crosses to the main loop only while monitors wait for decisions (``streaming``).
final class LaneLedger: Sendable {
    /// One lane's counters and decisions.
    struct Book {
        var stats = Stats()
        var recent: RecentDecisions
    }

    /// Each lane's book, by lane index.
    private let books: [LockedBook]
    /// Whether the main loop has monitors: the lanes then send it each decision to stream.
    private let monitorsWaiting = Atomic<Bool>(false)

    private final class LockedBook: Sendable {
        let book: Mutex<Book>

        init(capacity: Int) {
            book = Mutex(Book(recent: RecentDecisions(capacity: capacity)))
        }
    }

    /// Books for `lanes` lanes, each keeping up to `capacity` decisions.
    init(lanes: Int, capacity: Int) {
        books = (0..<lanes).map { _ in LockedBook(capacity: capacity) }
    }

    /// Lane `lane` answered a dry run: it is counted, and its id and text (`text`, borrowed) kept in the lane's book.
    func record(
        lane: Int, id: DecisionID, text: UnsafeBufferPointer<UInt8>, outcome: Decision.Outcome, format: PayloadFormat,
        nanoseconds: UInt64
    ) {
        books[lane].book.withLock { book in
            book.stats.requests &+= 1
            book.stats.laneDecisions &+= 1
            book.stats.decisions &+= 1
            book.stats.latency.record(nanoseconds: nanoseconds)
            book.stats.byFormat.add(format)
            book.stats.byOutcome.add(outcome)
            book.recent.append(id: id, device: nil, text: text)
        }
    }

    /// Whether the lanes send their decisions to the main loop, for its monitors.
    var streaming: Bool {
        get { monitorsWaiting.load(ordering: .acquiring) }
        set { monitorsWaiting.store(newValue, ordering: .releasing) }
    }

    /// Every lane's counters added to `stats`.
    func addStats(to stats: inout Stats) {
        for locked in books { stats.add(locked.book.withLock { $0.stats }) }
    }

    /// The decision `id` kept by a lane.
    func find(id: String) -> RecentDecisions.Entry? {
        for locked in books {
            if let entry = locked.book.withLock({ $0.recent.find(id: id) }) { return entry }
        }
        return nil
    }

    /// The decisions the lanes keep, each lane's newest first.
    func newestFirst() -> [[RecentDecisions.Entry]] {
        books.map { locked in locked.book.withLock { $0.recent.newestFirst() } }
    }
}
