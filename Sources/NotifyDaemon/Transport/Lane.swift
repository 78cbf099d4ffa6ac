import CoordinatorGraph
import DeepLink
import Glibc
import JSON
import RouterContract
import Synchronization
import Varlink

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

/// What a lane tells the main loop, in the order it happened.
enum LaneReport {
    /// A connection with a call the lane does not answer: the main loop serves it from now on, from that call.
    case migrated(ClientConnection)
    /// A dry run the lane answered (and recorded in its ``LaneLedger`` book), sent while the main loop has monitors.
    case decision(JSONText)
    /// A call of the varlink service (`GetInfo`, `GetInterfaceDescription`) the lane answered, with its error if any.
    case serviceCall(error: String?, nanoseconds: UInt64)
    /// A connection of `uid` closed on the lane.
    case closed(uid: UInt32)
    /// The lane closed a connection of `uid` that broke the protocol.
    case violation(VarlinkProtocolError, uid: UInt32)
    /// The lane has no connection left after ``LaneOrder/beginStop``.
    case drained
    /// The lane ended (``LaneOrder/end``), closing `cut` connections that still had work.
    case ended(cut: Int)
    /// Lane `lane` answers ``LaneOrder/ping(_:)``: its loop turns.
    case pong(lane: Int, sequence: UInt64)
}

/// What the main loop tells a lane.
enum LaneOrder {
    /// Serve this accepted connection.
    case open(fd: FileDescriptor, id: UInt64, peer: PeerCredentials)
    /// Stop when every connection has nothing left to answer or write (``Server/beginStop(drained:)``).
    case beginStop
    /// Close every connection and end the lane's loop.
    case end
    /// Answer with ``LaneReport/pong(lane:sequence:)`` (the watchdog's check that the lane's loop turns).
    case ping(UInt64)
}

/// Whether every lane answered the last ping: the main loop pets systemd's watchdog only then, so that a wedged lane
/// gets the daemon restarted as a wedged main loop does.
struct LaneWatch {
    /// The sequence number of the last ping sent (0: none yet).
    private(set) var sequence: UInt64 = 0
    /// The last sequence number each lane answered.
    private var answered: [UInt64]

    init(lanes: Int) {
        answered = Array(repeating: 0, count: lanes)
    }

    /// Lane `lane` answered ping `sequence`.
    mutating func pong(lane: Int, sequence: UInt64) {
        answered[lane] = max(answered[lane], sequence)
    }

    /// The lanes that have not answered the last ping (none before the first).
    var silent: [Int] {
        answered.indices.filter { answered[$0] < sequence }
    }

    /// Starts the next ping: its sequence number.
    mutating func nextPing() -> UInt64 {
        sequence += 1
        return sequence
    }
}

/// An event loop on a thread of its own that answers the dry runs of `Route` and `Resolve` made for no device:
/// they read nothing of the service's state, only the loaded config. `--event-loops N` starts N − 1 lanes beside the
/// main loop, which accepts every connection and hands some to the lanes in turn.
///
/// A lane answers such calls itself. The first call it does not answer (any other method, a device, a call that is
/// not a dry run, or one that fails) is put back, and the connection moves to the main loop with the replies the lane
/// queued before it: the main loop answers that call and everything after it, in order, as if the connection had
/// been its own from the start. A lane counts and keeps the decisions it makes in its book of the ``LaneLedger``
/// before it queues their replies, and the main loop reads the books when it answers `GetStats`, `GetDecision` or
/// `ListDecisions`; so once a client has a lane's reply, those calls see its decision. Decision ids come from a
/// generator of the lane's own: unique, but ordered within each loop only.
final class Lane: @unchecked Sendable {
    private let loop: EventLoop
    private let server: Server
    private let handler: LaneHandler
    private let orders: Mailbox<LaneOrder>
    private var thread: pthread_t?
    /// Its place among the lanes, from 0.
    let index: Int

    /// Lane `index` reporting to `reports`; `nil` when its loop or mailbox cannot be made.
    init?(
        index: Int, settings: Settings, config: SharedConfig, ledger: LaneLedger, journal: Journal,
        reports: Mailbox<LaneReport>
    ) {
        guard let loop = try? EventLoop(), let orders = Mailbox<LaneOrder>() else { return nil }
        self.index = index
        self.loop = loop
        self.orders = orders
        handler = LaneHandler(
            config: config, lane: index, ledger: ledger, journal: journal, reports: reports,
            maxMessageBytes: settings.maxMessageBytes)
        server = Server(loop: loop, listenFD: nil, settings: settings, handler: handler)
        handler.serverReference = Uncounted(server)
        server.migrate = { connection in reports.post(.migrated(connection)) }
    }

    /// Starts the lane's thread; false when it cannot be started.
    func start() -> Bool {
        do {
            try server.start()
            try loop.register(orders.descriptor, events: Poll.input) { [me = Uncounted(self)] _ in
                me.value.obey()
            }
            // After the server's own hook has written the turn's replies: the turn's entries go to the journal.
            loop.afterEachBatch { [handler] in handler.loopJournal.submit() }
        } catch {
            return false
        }
        thread = Threads.start { [self] in
            // A failing epoll_wait ends the lane; its connections stay open until the daemon exits.
            _ = try? self.loop.run()
        }
        return thread != nil
    }

    /// Sends `order` to the lane's thread.
    func send(_ order: LaneOrder) {
        orders.post(order)
    }

    /// Waits for the lane's thread to end (after ``LaneOrder/end``).
    func join() {
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    /// Runs on the lane's thread: carries out the orders received.
    private func obey() {
        for order in orders.take() {
            switch order {
            case .open(let fd, let id, let peer):
                if !server.open(fd, id: id, peer: peer) { handler.reports.post(.closed(uid: peer.uid)) }
            case .beginStop:
                let reports = handler.reports
                server.beginStop { reports.post(.drained) }
            case .end:
                handler.loopJournal.submit()
                handler.reports.post(.ended(cut: server.closeAll()))
                loop.stop()
            case .ping(let sequence):
                handler.reports.post(.pong(lane: index, sequence: sequence))
            }
        }
    }
}

/// A lane's calls: device-less dry runs of `Route` and `Resolve`, answered from the shared config, and the varlink
/// service's own (`GetInfo`, `GetInterfaceDescription`, which clients often call first on a connection). Everything
/// else is left to the main loop (the lane's server migrates the connection; see ``Lane``).
final class LaneHandler: CallHandler {
    let config: SharedConfig
    /// Which lane this is: its copy of the config.
    let lane: Int
    let reports: Mailbox<LaneReport>
    /// Where the lane counts and keeps its decisions.
    let ledger: LaneLedger
    /// The lane's entries: its decisions are rendered on its thread as it makes them.
    let loopJournal: JournalBatcher
    let maxMessageBytes: Int
    /// Set once the lane's server exists; both live as long as the lane.
    var serverReference: Uncounted<Server>?
    /// Decision ids of the lane's own, and where each decision's text is written.
    private var desk = DecisionDesk()
    private let description = RouterService.serviceDescription()
    /// The lane's copy of the config, and the ``SharedConfig/version`` it was taken at.
    private var loaded: (config: ActiveConfig, version: UInt64)

    init(
        config: SharedConfig, lane: Int, ledger: LaneLedger, journal: Journal, reports: Mailbox<LaneReport>,
        maxMessageBytes: Int
    ) {
        self.config = config
        self.lane = lane
        let version = config.version
        loaded = (config.value(lane: lane), version)
        self.ledger = ledger
        self.loopJournal = JournalBatcher(journal: journal)
        self.reports = reports
        self.maxMessageBytes = maxMessageBytes
    }

    func handle(_ call: VarlinkCall, from connection: ClientConnection, outbox: Outbox) {
        preconditionFailure("a lane's server migrates the connection of a call its handler does not answer")
    }

    func handle(_ call: VarlinkCallView, from connection: ClientConnection, outbox: Outbox) -> Bool {
        guard let (isRoute, parameters, subject) = RouteParameters.read(call), parameters.dryRun,
            parameters.device == nil
        else { return false }
        let start = Sys.monotonicNanoseconds()
        let config = currentConfig()
        // The main loop's Route and Resolve find the target, and make and write the decision, the same way; a call
        // that fails here is answered by the main loop, which reports why (and journals it).
        let target: RoutingTarget
        let format: PayloadFormat
        if isRoute {
            guard
                case .success(let found) = config.routeTarget(
                    parameters,
                    read: { (reader, headers, explain) throws(PayloadError) in
                        try reader.read(subject, headers: headers, explain: explain)
                    })
            else { return false }
            (target, format) = found
        } else {
            guard let link = subject.stringValue,
                case .success(let found) = config.resolveTarget(link, explain: parameters.explain)
            else { return false }
            (target, format) = (found, .link)
        }
        let now = Timestamp(millisecondsSince1970: Sys.wallClockMilliseconds())
        guard
            let decision = try? desk.resolve(
                target, from: nil, device: nil, config: config, now: now, explain: parameters.explain
            ).takeDecision()
        else { return false }
        // The text stays in the desk's writer: the book and the reply copy it from there.
        desk.writeDryRun(decision)
        let (id, outcome) = (decision.decisionID, decision.outcome)
        loopJournal.log(
            .decisionMade, priority: .info,
            // The link is journaled from the decision's source.
            details: DecisionJournalDetails(decision: decision, link: nil, dryRun: true, peerUID: connection.peer.uid))
        desk.writer.withBytes { text in
            ledger.record(
                lane: lane, id: id, text: text, outcome: outcome, format: format,
                nanoseconds: Sys.monotonicNanoseconds() &- start)
            if ledger.streaming { reports.post(.decision(JSONText(bytes: Array(text)))) }
            if !call.oneway { outbox.enqueueDecision(text, to: connection) }
        }
        return true
    }

    /// The config loaded now: the lane's copy, taken again (under the lock) only after a reload published one.
    @inline(__always)
    private func currentConfig() -> ActiveConfig {
        let version = config.version
        if version != loaded.version { loaded = (config.value(lane: lane), version) }
        return loaded.config
    }

    func answerOnLane(_ call: VarlinkCall, from connection: ClientConnection, outbox: Outbox) -> Bool {
        let start = Sys.monotonicNanoseconds()
        guard let reply = description.reply(toServiceCall: call) else { return false }
        if !call.oneway { outbox.send(reply, to: connection) }
        reports.post(.serviceCall(error: reply.error, nanoseconds: Sys.monotonicNanoseconds() &- start))
        return true
    }

    func connectionClosed(_ connection: ClientConnection) {
        reports.post(.closed(uid: connection.peer.uid))
    }

    func protocolViolation(_ error: VarlinkProtocolError, connection: ClientConnection) {
        if error.code == .messageTooLarge, let outbox = serverReference?.value.sharedOutbox {
            let size = error.size ?? maxMessageBytes + 1
            outbox.send(VarlinkError.payloadTooLarge(size: size, max: maxMessageBytes).reply, to: connection)
        }
        reports.post(.violation(error, uid: connection.peer.uid))
    }
}

/// The main loop's side of the lanes: hands accepted connections out in turn, takes in what the lanes report, and
/// stops them.
final class LaneHub {
    let reports: Mailbox<LaneReport>
    let config: SharedConfig
    let ledger: LaneLedger
    private let lanes: [Lane]
    private let service: Uncounted<RouterService>
    private let server: Uncounted<Server>
    /// The loop the next accepted connection goes to: 0 the main loop, then each lane.
    private var turn = 0
    /// Reports taken and not handled yet: a report handled may lead to a call that collects again (a migrated
    /// connection asking for stats); that call only queues what it took, and the reports are handled in order.
    private var queue: [LaneReport] = []
    private var collecting = false
    private var drainedLanes = 0
    private var onDrained: (() -> Void)?
    private var watch: LaneWatch

    /// `count` lanes started beside the main loop of `server` and `service`; `nil` when one cannot be started (the
    /// ones started are ended).
    init?(count: Int, settings: Settings, service: RouterService, server: Server) {
        guard let reports = Mailbox<LaneReport>() else { return nil }
        let config = SharedConfig(service.config, lanes: count)
        // The main loop and the lanes share the history's size: each keeps its part of the newest decisions.
        let capacity = RecentDecisions.capacity(ofLoops: count + 1)
        service.recent = RecentDecisions(capacity: capacity)
        let ledger = LaneLedger(lanes: count, capacity: capacity)
        var lanes: [Lane] = []
        for index in 0..<count {
            guard
                let lane = Lane(
                    index: index, settings: settings, config: config, ledger: ledger, journal: service.journal,
                    reports: reports),
                lane.start()
            else {
                for started in lanes {
                    started.send(.end)
                    started.join()
                }
                return nil
            }
            lanes.append(lane)
        }
        self.reports = reports
        self.config = config
        self.ledger = ledger
        self.lanes = lanes
        self.service = Uncounted(service)
        self.server = Uncounted(server)
        watch = LaneWatch(lanes: count)
    }

    /// How many event loops serve clients: the main loop and the lanes.
    var loopCount: Int { lanes.count + 1 }

    /// Takes an accepted connection for the lane whose turn it is; false on the main loop's turn.
    func place(_ fd: FileDescriptor, id: UInt64, peer: PeerCredentials) -> Bool {
        let lane = turn
        turn = (turn + 1) % loopCount
        guard lane > 0 else { return false }
        lanes[lane - 1].send(.open(fd: fd, id: id, peer: peer))
        return true
    }

    /// Handles what the lanes reported, in order.
    func collect() {
        if queue.isEmpty {
            queue = reports.take()  // the list itself, its reports not copied one by one
        } else {
            queue.append(contentsOf: reports.take())
        }
        guard !collecting else { return }
        collecting = true
        defer { collecting = false }
        var next = 0
        while next < queue.count {
            // Moved out, an empty report left in its place: a copy would count references to what it holds.
            var report = LaneReport.ended(cut: 0)
            swap(&report, &queue[next])
            next += 1
            switch report {
            case .migrated(let connection): server.value.adopt(connection)
            case .decision(let text): service.value.laneDecision(text)
            case .serviceCall(let error, let nanoseconds):
                service.value.laneServiceCall(error: error, nanoseconds: nanoseconds)
            case .closed(let uid): server.value.laneConnectionClosed(uid: uid)
            case .violation(let error, let uid):
                server.value.countLaneDrop()
                service.value.laneViolation(error, uid: uid)
            case .drained:
                drainedLanes += 1
                if drainedLanes == lanes.count, let drained = onDrained {
                    onDrained = nil
                    drained()
                }
            case .ended:
                break
            case .pong(let lane, let sequence):
                watch.pong(lane: lane, sequence: sequence)
            }
        }
        queue.removeAll(keepingCapacity: true)
        // The lanes' decisions go to the monitors now, not with the next reply this loop writes.
        service.value.streamGathered()
    }

    /// For the watchdog: the lanes that did not answer the last ping (in the time since it was sent), then sends the
    /// next one. Empty when every lane's loop turns.
    func silentLanesThenPing() -> [Int] {
        collect()
        let silent = watch.silent
        let sequence = watch.nextPing()
        for lane in lanes { lane.send(.ping(sequence)) }
        return silent
    }

    /// Stops handing out connections and asks each lane to finish its connections; `drained` runs once they all
    /// have. Connections a lane migrates meanwhile are served here as usual.
    func beginStop(drained: @escaping () -> Void) {
        server.value.stopAccepting()
        onDrained = drained
        for lane in lanes { lane.send(.beginStop) }
    }

    /// Ends every lane and waits for its thread. Returns how many connections were cut: those a lane was still
    /// serving, and those it had just migrated (closed here).
    @discardableResult
    func end() -> Int {
        for lane in lanes { lane.send(.end) }
        for lane in lanes { lane.join() }
        var cut = 0
        for report in queue + reports.take() {
            switch report {
            case .migrated(let connection):
                Sys.close(connection.fd)
                cut += 1
            case .ended(let closed): cut += closed
            default: break
            }
        }
        queue.removeAll()
        return cut
    }
}
