import CoordinatorGraph
import DeepLink
import Glibc
import JSON
import RouterContract
import Synchronization
import Varlink

/// What a lane tells the main loop, in the order it happened.
enum LaneReport: Sendable {
    /// A connection with a call the lane does not answer: the main loop serves it from now on, from that call.
    case migrated(MigratedConnection)
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
enum LaneOrder: Sendable {
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
///
/// `@unchecked Sendable`: its loop, server and handler are used only on the lane's thread once ``start()`` has
/// started it (the closures the loop runs); the main loop's thread makes it, starts it, and then only calls
/// ``send(_:)`` (the `Sendable` mailbox) and ``join()``, after the thread ended.
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
