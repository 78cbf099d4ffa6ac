import Glibc
import JSON
import Varlink

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
            case .migrated(let migrated): server.value.adopt(migrated)
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
            case .migrated(let migrated):
                Sys.close(migrated.fd)
                cut += 1
            case .ended(let closed): cut += closed
            default: break
            }
        }
        queue.removeAll()
        return cut
    }
}
