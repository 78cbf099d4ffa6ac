import CoordinatorGraph
import Glibc
import JSON
import Varlink

/// The `notifyd` process: settings, config, store, socket, signals, systemd, and the event loop.
public enum NotifyDaemon {
    /// Runs the daemon until SIGTERM or SIGINT; returns the exit status.
    public static func main(arguments: [String], environment: [String: String]) -> Int32 {
        if arguments.count == 2, arguments[0] == "--print-message-id" {
            // For scripts and tests that filter the journal: `journalctl MESSAGE_ID=$(notifyd --print-message-id decisionMade)`.
            guard let event = JournalEvent(rawValue: arguments[1]) else {
                writeStderr(
                    "unknown event '\(arguments[1])'; one of: \(JournalEvent.allCases.map(\.rawValue).joined(separator: ", "))\n"
                )
                return 2
            }
            print(event.messageID)
            return 0
        }
        let settings: Settings
        do {
            settings = try Settings.parse(arguments, environment: environment)
        } catch {
            if error.isHelp {
                print(error.description)
                return 0
            }
            writeStderr("notifyd: " + error.description + "\n")
            return 2
        }
        maskGroupAndOthers()
        signal(SIGPIPE, SIG_IGN)
        // Signals go to a signalfd; block them before the journal thread starts so it inherits the mask.
        let signals: sigset_t
        do {
            signals = try Sys.blockSignals([SIGTERM, SIGINT, SIGHUP])
        } catch {
            writeStderr("notifyd: \(error)\n")
            return 1
        }
        let journal = Journal(target: journalTarget(settings.logTarget))
        defer { journal.flush() }
        do {
            try run(settings: settings, journal: journal, signals: signals)
            return 0
        } catch {
            reportFailure(error, journal: journal, configPath: settings.configPath)
            return 1
        }
    }

    /// Adds group and others to the process's file mode mask, while the daemon has one thread: the socket it binds
    /// is then its user's alone until it is given its mode, and its state files are private. (The mask is the
    /// process's: changed later, it would also apply to whatever another thread is making at that moment.)
    static func maskGroupAndOthers() {
        let current = umask(0o077)
        umask(current | 0o077)
    }

    /// Journals why the daemon cannot start (or stopped serving) under its own `MESSAGE_ID`, repeats it on stderr
    /// when the journal is not stderr already, and tells systemd.
    static func reportFailure(_ error: StartupError, journal: Journal, configPath: String) {
        journal.log(
            .startFailed, priority: .error, message: "notifyd failed: \(error.message)",
            fields: [(JournalField.reason, error.message), (JournalField.config, configPath)])
        journal.flush()
        if journal.target != .console {
            writeStderr("notifyd: \(error.message)\n" + error.details.map { "  \($0)\n" }.joined())
        }
        _ = Systemd.notify("STATUS=failed: \(error.message)")
    }

    /// A reason the daemon cannot start or keep running.
    struct StartupError: Error {
        /// One line.
        let message: String
        /// Lines that go with it (the findings of a rejected config), already journaled where they arose.
        var details: [String] = []
    }

    static func journalTarget(_ target: Settings.LogTarget) -> Journal.Target {
        switch target {
        case .journal: return .journal
        case .console: return .console
        case .auto: return Systemd.journalAvailable() ? .journal : .console
        }
    }

    static func run(settings: Settings, journal: Journal, signals: sigset_t) throws(StartupError) {
        let loaded: LoadedConfig
        switch RouterService.loadConfig(
            path: settings.configPath, beforeParsing: RouterService.extendTimeoutForLargeConfig)
        {
        case .success(let config): loaded = config
        case .failure(let problems):
            let findings = problems.findings
            let count = RouterService.problems(findings.count)
            journal.log(
                .configRejected, priority: .error,
                message: "config \(settings.configPath) rejected (\(count)), notifyd cannot start:", lines: findings,
                fields: [
                    (JournalField.config, settings.configPath), (JournalField.reason, findings.joined(separator: "; ")),
                ])
            throw StartupError(message: "config \(settings.configPath) is invalid (\(count))", details: findings)
        }
        journal.log(
            .configLoaded, priority: .info,
            message: "config \(settings.configPath) loaded (generation 1, \(loaded.graph.coordinators.count) "
                + "coordinators, \(loaded.warnings.count) warnings)",
            fields: [(JournalField.config, settings.configPath)])
        for warning in loaded.warnings {
            journal.log(
                .configLoaded, priority: .warning, message: "config warning: \(warning)",
                fields: [(JournalField.config, settings.configPath)])
        }

        var store: (any DeviceStore)?
        if let url = settings.storeURL {
            do {
                store = try PostgresStore(conninfo: url, historyLimit: settings.historyLimit)
            } catch {
                throw StartupError(message: "cannot open the state store: \(error)")
            }
        } else if let directory = settings.stateDirectory {
            try StateDirectory.create(directory)
            extendTimeoutForLargeDatabase(in: directory)
            do {
                store = try StateStore(directory: directory, historyLimit: settings.historyLimit)
            } catch {
                // Journaled once, as the start failure.
                throw StartupError(message: "cannot open the state store: \(error)")
            }
        }

        let (listenFD, activated) = try listeningSocket(settings)
        defer {
            if !activated { unlink(settings.socketPath) }
        }

        let loop: EventLoop
        do {
            loop = try EventLoop()
        } catch {
            throw StartupError(message: "\(error)")
        }
        let service = RouterService(settings: settings, journal: journal, store: store, config: loaded)
        let server = Server(
            loop: loop, listenFD: listenFD, settings: settings, handler: service, commits: service.pipeline)
        service.serverReference = Uncounted(server)
        // Both live until this function returns: the loop's closures and the service use them without holding them.
        defer { withExtendedLifetime((service, server)) {} }
        service.pruneExpiredPending()
        var stopping = false
        // The closures below are kept by the loop and the service: they do not hold the service and the server, so
        // the service (and with it the state store, closed and checkpointed) is released when this function ends.
        // They run only while this function holds both (the `defer` above), and hold them uncounted (see
        // `Uncounted`: a weak reference would slow every retain of them on the loop).
        let (serviceReference, serverReference) = (Uncounted(service), Uncounted(server))
        let lanes = try startLanes(settings: settings, service: service, server: server, loop: loop)
        var rejectedReload: Int?
        let status = { () -> String in
            let (service, server) = (serviceReference.value, serverReference.value)
            return "STATUS=serving generation \(service.config.generation): \(service.stats.decisions) decisions, "
                + "\(service.stats.rejectedPayloads) rejected, \(server.connectionCount) connections"
                + (rejectedReload.map { "; last reload rejected (\(RouterService.problems($0)))" } ?? "")
        }

        service.onReload = { result in
            switch result {
            case .success: rejectedReload = nil
            case .failure(let problems): rejectedReload = problems.findings.count
            }
            _ = Systemd.notify("READY=1\n" + status())
        }

        do {
            // SQLite commits on a thread of its own: the loop gathers the next batch meanwhile.
            try server.start(commitDescriptor: service.startStoreWorker())
            watchReplicas(loop, serviceReference)
            // The journal's writer is woken a few milliseconds after a batch logged something, not for every
            // entry: formatting entries stays off the clients' round trips, and a busy stretch of requests costs
            // one wake-up (a quarter-full queue wakes it at once).
            journal.wakesPerBatch = true
            // The decisions of the turn, rendered as they were made, go to the writer after the turn's replies.
            loop.afterEachBatch { serviceReference.value.loopJournal.submit() }
            var journalWakeScheduled = false
            loop.afterEachBatch { [unowned loop] in
                guard !journalWakeScheduled, journal.hasWaitingEntries else { return }
                journalWakeScheduled = true
                loop.schedule(after: 5_000_000) {
                    journalWakeScheduled = false
                    journal.wakeWriter()
                }
            }
            let signalFD = try Sys.signalDescriptor(signals)
            try loop.register(signalFD, events: Poll.input) { [unowned loop] _ in
                while let signal = try? Sys.readSignal(signalFD) {
                    switch signal {
                    case SIGHUP:
                        _ = try? serviceReference.value.reload()
                    default:
                        guard !stopping else {
                            // A second signal does not wait for the clients.
                            loop.stop()
                            continue
                        }
                        stopping = true
                        _ = Systemd.notify("STOPPING=1")
                        journal.log(.stopping, priority: .info, message: "stopping on signal \(signal)", fields: [])
                        // Requests already sent are answered while their clients read; the wait is bounded.
                        loop.schedule(after: stopGraceNanoseconds) { loop.stop() }
                        if let lanes {
                            // Every loop finishes its connections; those the lanes migrate meanwhile are served here,
                            // and the loop stops once the lanes are done and this loop's last connection is closed.
                            var lanesDrained = false
                            lanes.beginStop {
                                lanesDrained = true
                                if serverReference.value.connectionCount == 0 { loop.stop() }
                            }
                            serverReference.value.beginStop { if lanesDrained { loop.stop() } }
                        } else {
                            serverReference.value.beginStop { loop.stop() }
                        }
                    }
                }
            }
        } catch {
            throw StartupError(message: "cannot start serving: \(error)")
        }

        if let interval = Systemd.watchdogIntervalMicroseconds(), interval > 0 {
            // Sent from the loop itself: a wedged loop stops petting and systemd restarts it. With lanes, only once
            // every lane answered the last ping, so that a wedged lane stops it too.
            var reported = false
            loop.schedule(after: interval * 1000 / 2, repeating: true) {
                let silent = lanes?.silentLanesThenPing() ?? []
                guard silent.isEmpty else {
                    if !reported {
                        reported = true
                        journal.log(
                            .loopStalled, priority: .error,
                            message: "lane \(silent.map(String.init).joined(separator: ", ")) did not answer within "
                                + "\(interval / 2000) ms: the watchdog is no longer told the daemon is alive",
                            fields: [])
                    }
                    return
                }
                reported = false
                _ = Systemd.notify("WATCHDOG=1")
            }
        }
        var lastStatus = ""
        loop.schedule(after: 2_000_000_000, repeating: true) {
            let s = status()
            if s != lastStatus {
                lastStatus = s
                _ = Systemd.notify(s)
            }
        }
        // Pending links that expired leave the stored states (the resolver ignores them anyway).
        loop.schedule(after: 60_000_000_000, repeating: true) { serviceReference.value.pruneExpiredPending() }

        journal.log(
            .started, priority: .info,
            message: "notifyd \(notifydVersion) serving \(loaded.graph.app.name) on "
                + (activated ? "the socket passed by systemd" : settings.socketPath) + " ("
                + "\(loaded.graph.coordinators.count) coordinators, state "
                + (settings.storeURL.map { "in PostgreSQL at \(PGConnection.withoutPassword($0))" }
                    ?? settings.stateDirectory.map { "in \($0)" } ?? "in memory") + ")",
            fields: [(JournalField.config, settings.configPath)])
        _ = Systemd.notify("READY=1\n" + status())

        do {
            try loop.run()
        } catch {
            throw StartupError(message: "event loop failed: \(error)")
        }
        let cut = (lanes?.end() ?? 0) + server.closeAll()
        if cut > 0 {
            journal.log(
                .stopping, priority: .warning,
                message: "closed \(cut) connections that still had requests or replies in flight when stopping",
                fields: [])
        }
        // What was accepted is stored before the store closes: the last commit, and calls whose clients left.
        service.finishStore()
    }

    /// Starts the lanes `--event-loops` asks for beside the main loop (see ``Lane``): the main loop's server hands
    /// them connections in turn, and takes in what they report. `nil` with one event loop.
    static func startLanes(
        settings: Settings, service: RouterService, server: Server, loop: EventLoop
    ) throws(StartupError) -> LaneHub? {
        guard settings.eventLoops > 1 else { return nil }
        guard let lanes = LaneHub(count: settings.eventLoops - 1, settings: settings, service: service, server: server)
        else {
            throw StartupError(message: "cannot start \(settings.eventLoops - 1) lanes beside the main event loop")
        }
        let hub = Uncounted(lanes)
        do {
            try loop.register(lanes.reports.descriptor, events: Poll.input) { _ in hub.value.collect() }
        } catch {
            lanes.end()
            throw StartupError(message: "cannot watch the lanes' reports: \(error)")
        }
        service.sharedConfig = lanes.config
        service.laneLedger = lanes.ledger
        service.collectLaneReports = { hub.value.collect() }
        server.handOff = { fd, id, peer in hub.value.place(fd, id: id, peer: peer) }
        return lanes
    }

    /// Watches the other replicas' commits when the store is shared (``RouterService/replicasNotified()``); once the
    /// listener's connection broke, tries to connect it again every second.
    static func watchReplicas(_ loop: EventLoop, _ serviceReference: Uncounted<RouterService>) {
        var watched: FileDescriptor?
        func watch(_ fd: FileDescriptor?) {
            guard let fd,
                (try? loop.register(
                    fd, events: Poll.input,
                    handler: { [unowned loop] _ in
                        guard !serviceReference.value.replicasNotified(), let fd = watched else { return }
                        loop.unregister(fd)
                        watched = nil
                    })) != nil
            else { return }
            watched = fd
        }
        guard let fd = serviceReference.value.startReplicaListener() else { return }
        watch(fd)
        loop.schedule(after: 1_000_000_000, repeating: true) {
            guard watched == nil else { return }
            watch(serviceReference.value.reconnectReplicaListener())
        }
    }

    /// Asks systemd for more time before opening a large database: opening reads every page once
    /// (`PRAGMA quick_check`, about 0.3 s for 150 MB from the page cache, more from a cold disk).
    static func extendTimeoutForLargeDatabase(in directory: String) {
        var info = stat()
        guard stat(StateStore.path(in: directory), &info) == 0, info.st_size >= 64 << 20 else { return }
        // 10 s, plus 1 s per 10 MiB: ten times what a cold read at 100 MB/s needs.
        let microseconds = 10_000_000 + UInt64(info.st_size) / (10 << 20) * 1_000_000
        _ = Systemd.notify("EXTEND_TIMEOUT_USEC=\(microseconds)")
    }

    /// How long a stop waits for clients to read the replies to the requests they had sent (systemd's
    /// `TimeoutStopSec=` is longer).
    static let stopGraceNanoseconds: UInt64 = 5_000_000_000

    /// The socket passed by systemd (named `varlink`, or the only one), else one bound at `--socket`.
    static func listeningSocket(_ settings: Settings) throws(StartupError) -> (fd: FileDescriptor, activated: Bool) {
        let passed = Systemd.listenFileDescriptors()
        if let chosen = passed.first(where: { $0.name == "varlink" }) ?? (passed.count == 1 ? passed.first : nil) {
            guard Systemd.isUnixStreamListener(chosen.fd) else {
                throw StartupError(
                    message:
                        "the socket systemd passed (fd \(chosen.fd.rawValue)) is not a listening Unix stream socket")
            }
            do {
                return (try UnixListener.adopt(fd: chosen.fd), true)
            } catch {
                throw StartupError(message: error.message)
            }
        }
        do {
            return (try UnixListener.bind(path: settings.socketPath, mode: mode_t(settings.socketMode)), false)
        } catch {
            throw StartupError(message: error.message)
        }
    }

    static func writeStderr(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(2, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
    }
}
