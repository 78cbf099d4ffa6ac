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
            let isHelp = arguments.contains("--help") || arguments.contains("-h")
            writeStderr(error.description + "\n")
            return isHelp ? 0 : 2
        }
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
            journal.log(.stopping, priority: .error, message: "notifyd failed: \(error.message)", fields: [])
            journal.flush()
            if journal.target != .console { writeStderr("notifyd: \(error.message)\n") }
            _ = Systemd.notify("STATUS=failed: \(error.message)")
            return 1
        }
    }

    /// A reason the daemon cannot start or keep running.
    struct StartupError: Error {
        let message: String
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
        switch RouterService.loadConfig(path: settings.configPath) {
        case .success(let config): loaded = config
        case .failure(let problems):
            let findings = problems.findings
            journal.log(
                .configRejected, priority: .error,
                message: "config \(settings.configPath) rejected: " + findings.joined(separator: "; "),
                fields: [
                    (JournalField.config, settings.configPath), (JournalField.reason, findings.joined(separator: "\n")),
                ])
            throw StartupError(
                message: "config \(settings.configPath) is invalid:\n  " + findings.joined(separator: "\n  "))
        }
        for warning in loaded.warnings {
            journal.log(.configLoaded, priority: .warning, message: "config warning: \(warning)", fields: [])
        }

        var store: StateStore?
        if let directory = settings.stateDirectory {
            do {
                store = try StateStore(directory: directory, historyLimit: settings.historyLimit)
            } catch {
                journal.log(
                    .stateStoreError, priority: .error, message: "cannot open the state store: \(error)",
                    fields: [(JournalField.reason, error.description)])
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
        let server = Server(loop: loop, listenFD: listenFD, settings: settings, handler: service)
        service.server = server
        var stopping = false

        func status() -> String {
            "STATUS=serving generation \(service.config.generation): \(service.stats.decisions) decisions, "
                + "\(service.stats.rejectedPayloads) rejected, \(server.connectionCount) connections"
        }

        service.onReload = { result in
            switch result {
            case .success: _ = Systemd.notify("READY=1\n" + status())
            case .failure(let problems):
                _ = Systemd.notify(
                    "READY=1\nSTATUS=config rejected (\(problems.findings.count) problems); still serving")
            }
        }

        do {
            try server.start()
            // The journal's writer is woken a few milliseconds after a batch logged something, not for every
            // entry: formatting entries stays off the clients' round trips, and a busy stretch of requests costs
            // one wake-up (a quarter-full queue wakes it at once).
            journal.wakesPerBatch = true
            var journalWakeScheduled = false
            loop.afterEachBatch {
                guard !journalWakeScheduled, journal.hasWaitingEntries else { return }
                journalWakeScheduled = true
                loop.schedule(after: 5_000_000) {
                    journalWakeScheduled = false
                    journal.wakeWriter()
                }
            }
            let signalFD = try Sys.signalDescriptor(signals)
            try loop.register(signalFD, events: Poll.input) { _ in
                while let signal = try? Sys.readSignal(signalFD) {
                    switch signal {
                    case SIGHUP:
                        _ = Systemd.notify("RELOADING=1\nMONOTONIC_USEC=\(Sys.monotonicNanoseconds() / 1000)")
                        _ = try? service.reload()
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
                        server.beginStop { loop.stop() }
                    }
                }
            }
        } catch {
            throw StartupError(message: "cannot start serving: \(error)")
        }

        if let interval = Systemd.watchdogIntervalMicroseconds(), interval > 0 {
            // Sent from the loop itself: a wedged loop stops petting and systemd restarts it.
            loop.schedule(after: interval * 1000 / 2, repeating: true) { _ = Systemd.notify("WATCHDOG=1") }
        }
        var lastStatus = ""
        loop.schedule(after: 2_000_000_000, repeating: true) {
            let s = status()
            if s != lastStatus {
                lastStatus = s
                _ = Systemd.notify(s)
            }
        }

        journal.log(
            .started, priority: .info,
            message: "notifyd \(notifydVersion) serving \(loaded.graph.app.name) on "
                + (activated ? "the socket passed by systemd" : settings.socketPath) + " ("
                + "\(loaded.graph.coordinators.count) coordinators, state "
                + (settings.stateDirectory.map { "in \($0)" } ?? "in memory") + ")",
            fields: [(JournalField.config, settings.configPath)])
        _ = Systemd.notify("READY=1\n" + status())

        do {
            try loop.run()
        } catch {
            throw StartupError(message: "event loop failed: \(error)")
        }
        let cut = server.closeAll()
        if cut > 0 {
            journal.log(
                .stopping, priority: .warning,
                message: "closed \(cut) connections that still had requests or replies in flight when stopping",
                fields: [])
        }
    }

    /// How long a stop waits for clients to read the replies to the requests they had sent (systemd's
    /// `TimeoutStopSec=` is longer).
    static let stopGraceNanoseconds: UInt64 = 5_000_000_000

    /// The socket passed by systemd (named `varlink`, or the only one), else one bound at `--socket`.
    static func listeningSocket(_ settings: Settings) throws(StartupError) -> (fd: Int32, activated: Bool) {
        let passed = Systemd.listenFileDescriptors()
        if let chosen = passed.first(where: { $0.name == "varlink" }) ?? (passed.count == 1 ? passed.first : nil) {
            guard Systemd.isUnixStreamListener(chosen.fd) else {
                throw StartupError(
                    message: "the socket systemd passed (fd \(chosen.fd)) is not a listening Unix stream socket")
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
