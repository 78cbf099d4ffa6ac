import CoordinatorGraph
import DeepLink
import Glibc
import JSON
import RouterContract
import Varlink

/// The loaded config with what is derived from it; replaced whole on reload.
final class ActiveConfig: Sendable {
    let generation: Int
    let graph: Graph
    let resolver: Resolver
    let reader: PayloadReader
    let warnings: [String]
    /// What it was loaded from, for ``copy()``.
    private let loaded: LoadedConfig

    init(_ loaded: LoadedConfig, generation: Int) {
        self.loaded = loaded
        self.generation = generation
        graph = loaded.graph
        resolver = Resolver(graph: loaded.graph)
        reader = PayloadReader(
            options: loaded.graph.payloadOptions)
        warnings = loaded.warnings.map(\.description)
    }

    /// The same config, generation included, built from a graph of its own (``LoadedConfig/refrozen()``): a lane
    /// serves from such a copy, so the loops never count references to the same graph, resolver or reader objects
    /// (an increment of a count another CPU just changed waits for its cache line).
    func copy() -> ActiveConfig {
        ActiveConfig(loaded.refrozen(), generation: generation)
    }
}

extension ActiveConfig {
    /// The payload reader for a call's `format` (`nil`: detected) and `strict`. Inlined: a call copies the reader
    /// out and destroys the copy after (≈ 80 instructions a request).
    @inline(__always)
    func reader(format: String?, strict: Bool) throws(VarlinkError) -> PayloadReader {
        guard format != nil || strict else { return reader }
        var options = reader.options
        if let format {
            guard let forced = PayloadFormat(rawValue: format), forced != .link else {
                throw VarlinkError.invalidParameter("format")
            }
            options.format = forced
        }
        options.strict = strict
        return PayloadReader(options: options)
    }
}

/// The `io.notifyd.Router` methods: routing, device state, history, monitors, stats and reload.
///
/// It runs on the event loop's thread only. State changes of a batch of requests are collected in
/// ``writes`` and committed together before any reply that depends on them is sent: by ``commitBatch()`` on the
/// loop's thread, or, with a ``StoreWorker``, on the worker's thread while the loop gathers the next batch
/// (``endBatch()``). Each durable reply names its batch; ``outcome(ofBatch:)`` says when it may go out.
final class RouterService: CallHandler {
    let settings: Settings
    let journal: Journal
    /// This loop's entries: its decisions are rendered here as they are made, and go to the journal's writer at the
    /// end of each batch, after the other entries this service logged before them.
    let loopJournal: JournalBatcher
    let store: (any DeviceStore)?
    let description: ServiceDescription
    var config: ActiveConfig {
        didSet { sharedConfig?.publish(config) }
    }
    /// The config as the lanes read it (see ``Lane``), when they run.
    var sharedConfig: SharedConfig?
    /// Takes in what the lanes reported (see ``LaneHub/collect()``) before stats and history are read.
    var collectLaneReports: (() -> Void)?
    /// The lanes' own counters and decisions (see ``LaneLedger``), when they run.
    var laneLedger: LaneLedger?
    /// Set once the server exists, by the owner of both, which keeps the server for as long as it keeps the service
    /// in use; cleared first thing in `deinit`. Not counted (see ``Uncounted``).
    var serverReference: Uncounted<Server>?
    var server: Server? { serverReference?.value }

    var cache = DeviceStateCache()
    var writes: [StoreWrite] = []
    var batchDevices: [String] = []
    var batchDecisions: [JSONText] = []
    /// The stored decisions of this batch, journaled and counted once the batch is committed.
    var batchJournal: [DecisionJournalDetails] = []
    /// The number of the batch being gathered; durable replies carry it.
    private(set) var batchNumber: UInt64 = 1
    /// Every batch up to this number has its outcome.
    private var settledThrough: UInt64 = 0
    /// The latest batches whose commit failed (their clients get `StateNotSaved`); older ones have long been settled.
    private var failedBatches: [UInt64] = []
    /// Commits batches on a thread of its own; `nil` commits on the loop's thread.
    private(set) var worker: StoreWorker?
    /// The batch the worker is committing.
    private var inFlight: [StoreBatch] = []
    /// Reads the states the cache lacks while the worker commits (a connection of its own); `nil` without a worker,
    /// or when it could not be opened: the loop then waits for the commit and reads on the store's connection.
    private(set) var reader: (any DeviceStateReader)?
    /// Hears the other replicas' commits (a shared store only; see ``ReplicaListener``).
    var replicaListener: ReplicaListener?
    var recent = RecentDecisions(capacity: RecentDecisions.defaultCapacity)
    var monitors: [UInt64: ClientConnection] = [:] {
        didSet { laneLedger?.streaming = !monitors.isEmpty }
    }
    var stats = Stats()
    var ids = DecisionIDs()
    /// Where each decision's text is written before it is copied out (its buffer kept from one to the next).
    var decisionWriter = ByteWriter(capacity: 2048)
    /// The last times written in decisions: the next decisions are mostly made in the same millisecond.
    var timestampTexts = TimestampTexts()
    var buckets: [UInt32: TokenBucket] = [:]
    let startedAt = Sys.monotonicNanoseconds()
    let ownUID = getuid()
    /// Called after a reload attempt (the daemon tells systemd).
    var onReload: ((Result<Int, ConfigProblems>) -> Void)?

    init(settings: Settings, journal: Journal, store: (any DeviceStore)?, config: LoadedConfig) {
        self.settings = settings
        self.journal = journal
        self.loopJournal = JournalBatcher(journal: journal)
        self.store = store
        self.config = ActiveConfig(config, generation: 1)
        self.description = Self.serviceDescription()
    }

    deinit {
        serverReference = nil
        finishStore()
    }

    /// What `org.varlink.service.GetInfo` and `GetInterfaceDescription` answer (the lanes answer them too).
    static func serviceDescription() -> ServiceDescription {
        ServiceDescription(
            vendor: "notifyd", product: "notifyd", version: notifydVersion,
            url: "https://notifyd.example.org", interfaces: [RouterInterface.interface])
    }

    // MARK: CallHandler

    func handle(_ call: VarlinkCall, from connection: ClientConnection, outbox: Outbox) {
        let start = Sys.monotonicNanoseconds()
        stats.requests += 1
        defer { stats.latency.record(nanoseconds: Sys.monotonicNanoseconds() &- start) }
        if let reply = description.reply(toServiceCall: call) {
            if let error = reply.error { stats.countError(error) }
            if !call.oneway { outbox.send(reply, to: connection) }
            return
        }
        answer(oneway: call.oneway, to: connection, outbox: outbox) { () throws(VarlinkError) in
            _ = try description.validate(call)
            return try dispatch(call, connection: connection)
        }
    }

    func handle(_ call: VarlinkCallView, from connection: ClientConnection, outbox: Outbox) -> Bool {
        guard let (isRoute, parameters, subject) = RouteParameters.read(call) else { return false }
        // From here on, what `handle(_ call: VarlinkCall, …)` does for a call that conforms to its method.
        let start = Sys.monotonicNanoseconds()
        stats.requests += 1
        defer { stats.latency.record(nanoseconds: Sys.monotonicNanoseconds() &- start) }
        answer(oneway: call.oneway, to: connection, outbox: outbox) { () throws(VarlinkError) in
            try checkRate(connection)
            guard isRoute else {
                return try resolve(link: subject.stringValue ?? "", parameters: parameters, connection: connection)
            }
            return try route(parameters: parameters, connection: connection) {
                (reader, headers, explain) throws(PayloadError) in
                try reader.read(subject, headers: headers, explain: explain)
            }
        }
        return true
    }

    /// Runs a method and answers with its result, or with the error it threw (counted); nothing for `oneway`.
    @inline(__always)
    private func answer(
        oneway: Bool, to connection: ClientConnection, outbox: Outbox,
        _ method: () throws(VarlinkError) -> MethodResult
    ) {
        let result: MethodResult
        do throws(VarlinkError) {
            result = try method()
        } catch {
            stats.countError(error.name)
            if !oneway { outbox.send(error.reply, to: connection) }
            return
        }
        if !oneway { deliver(result, to: connection, outbox: outbox) }
    }

    /// Sends a method's result: at once, or once its batch is committed.
    private func deliver(_ result: MethodResult, to connection: ClientConnection, outbox: Outbox) {
        switch result {
        case .reply(let parameters):
            outbox.send(VarlinkReply(parameters: parameters), to: connection)
        case .durable(let parameters):
            outbox.sendDurable(VarlinkReply(parameters: parameters), batch: batchNumber, to: connection) {
                VarlinkError.stateNotSaved.reply
            }
        case .decision(let text, let durable):
            if durable {
                outbox.enqueue(
                    .durable(
                        batch: batchNumber, success: .decision(text), failure: { VarlinkError.stateNotSaved.reply }),
                    to: connection)
            } else {
                outbox.enqueue(.ready(.decision(text)), to: connection)
            }
        case .dryRunWritten:
            decisionWriter.withBytes { outbox.enqueueDecision($0, to: connection) }
        case .streaming:
            break
        }
    }

    func connectionClosed(_ connection: ClientConnection) {
        monitors[connection.id] = nil
    }

    func protocolViolation(_ error: VarlinkProtocolError, connection: ClientConnection) {
        stats.protocolViolations += 1
        if error.code == .messageTooLarge, let outbox = server?.sharedOutbox {
            // The message's size: the server reads an over-long message to its NUL before reporting it.
            let size = error.size ?? settings.maxMessageBytes + 1
            outbox.send(VarlinkError.payloadTooLarge(size: size, max: settings.maxMessageBytes).reply, to: connection)
        }
        journalViolation(error, uid: connection.peer.uid)
    }

    /// Journals a protocol violation that closed a connection of `uid`.
    func journalViolation(_ error: VarlinkProtocolError, uid: UInt32) {
        loopJournal.log(
            .payloadRejected, priority: .warning, message: "closing connection of uid \(uid): \(error)",
            fields: [(JournalField.peerUID, String(uid)), (JournalField.reason, error.description)])
    }

    /// A dry run a lane answered (counted and kept in its ``LaneLedger`` book), sent here while monitors wait: it is
    /// streamed to them as one made on this loop.
    func laneDecision(_ text: JSONText) {
        if !monitors.isEmpty { batchDecisions.append(text) }
    }

    /// Ends the batch when decisions wait for the monitors (``LaneHub/collect()`` calls it): their replies are then
    /// queued, and the server writes them at the end of the turn.
    func streamGathered() {
        if !batchDecisions.isEmpty { endBatch() }
    }

    /// A call of the varlink service a lane answered, with the error it answered if any.
    func laneServiceCall(error: String?, nanoseconds: UInt64) {
        stats.requests += 1
        stats.latency.record(nanoseconds: nanoseconds)
        if let error { stats.countError(error) }
    }

    /// A lane closed a connection of `uid` that broke the protocol.
    func laneViolation(_ error: VarlinkProtocolError, uid: UInt32) {
        stats.protocolViolations += 1
        journalViolation(error, uid: uid)
    }

    /// Commits the batch gathered so far on the loop's thread (waiting for the worker's commit first) and settles it:
    /// its stored decisions are journaled and counted, every decision of it goes to the monitors. False when the
    /// commit failed: the batch's states are dropped from the cache and its clients get `StateNotSaved`.
    @discardableResult
    func commitBatch() -> Bool {
        finishInFlight(wait: true)
        var failure: StoreError?
        if let store, !writes.isEmpty {
            do {
                try store.commit(takeWrites())
            } catch {
                failure = error
            }
        }
        settleCurrent(failure: failure)
        return failure == nil
    }

    /// Ends a turn of the loop: the worker's finished commits are settled, and what this batch gathered goes to the
    /// worker. While the worker commits, it keeps gathering until it holds ``queuedBatchWrites`` writes, then waits
    /// behind the commit. Without a worker, with nothing to write, or with a few writes only
    /// (``inlineCommitWrites``) and the worker idle, the batch is committed and settled at once.
    func endBatch() {
        defer { loopJournal.submit() }
        finishInFlight(wait: false)
        guard !writes.isEmpty || !batchDecisions.isEmpty || !batchJournal.isEmpty else { return }
        guard let worker, !writes.isEmpty, store != nil else {
            if inFlight.isEmpty { commitBatch() }
            return
        }
        if !inFlight.isEmpty {
            guard writes.count >= Self.queuedBatchWrites else { return }
        } else if writes.count <= Self.inlineCommitWrites {
            // A few writes (a client alone, a quiet moment) are committed here: handing them over would only add
            // the worker's wake-up to the client's wait, with nothing else for the loop to do meanwhile.
            commitBatch()
            return
        }
        inFlight.append(gathered)
        worker.submit(takeWrites())
        startNextBatch()
    }

    /// The writes gathered, for the store to commit: it then holds the only reference to them, and moves each out
    /// rather than copying it (see ``StateStore/commit(_:)``). The next batch starts with a buffer of the same size.
    private func takeWrites() -> [StoreWrite] {
        var taken: [StoreWrite] = []
        taken.reserveCapacity(writes.capacity)
        swap(&taken, &writes)
        return taken
    }

    /// Batches of at most this many writes (a stored decision is two: the history row and the state) are committed on
    /// the loop's thread even with a worker.
    static let inlineCommitWrites = 8

    /// A batch gathered while the worker commits goes behind the commit once it holds this many writes (a stored
    /// decision is two: the history row and the state), not when the commit is over. The commits are then smaller
    /// than all that was gathered meanwhile, and their replies go out sooner: a client that waits for them sends its
    /// next calls while the worker commits the batches behind. Side by side with one batch in flight at a time
    /// (4 connections × 64 calls in flight, durable decisions): more decisions a second, and fewer idle CPUs.
    static let queuedBatchWrites = 128

    /// True when the worker's oldest commit is over and waits to be settled, when the worker commits and
    /// ``queuedBatchWrites`` writes are gathered, or when the worker is idle and more than ``inlineCommitWrites``
    /// are (``endBatch()`` hands them over).
    var batchIsDue: Bool {
        guard let worker else { return false }
        if inFlight.isEmpty { return writes.count > Self.inlineCommitWrites }
        return worker.isDone || writes.count >= Self.queuedBatchWrites
    }

    /// Whether batch `number` was committed; `nil` while its commit is not over.
    func outcome(ofBatch number: UInt64) -> Bool? {
        guard number <= settledThrough else { return nil }
        return !failedBatches.contains(number)
    }

    /// Commits on a worker thread from now on (the daemon's setting), and checkpoints the store's log on another;
    /// stays on the loop's thread when the worker cannot be started. Returns the descriptor that becomes readable when
    /// a commit is over.
    func startStoreWorker() -> FileDescriptor? {
        guard worker == nil, let store else { return nil }
        startCheckpointer(store)
        guard let started = StoreWorker(store: store) else { return nil }
        worker = started
        do {
            reader = try store.makeReader()
        } catch {
            loopJournal.log(
                .stateStoreError, priority: .warning,
                message: "states the cache lacks are read after the commit that runs: \(error)",
                fields: [(JournalField.reason, error.description)])
        }
        return started.descriptor
    }

    /// Checkpoints the store's log on a thread of its own; without that thread the committing thread checkpoints.
    private func startCheckpointer(_ store: any DeviceStore) {
        let journal = journal
        do {
            try store.startBackgroundWork { error in
                journal.log(
                    .stateStoreError, priority: .warning,
                    message: "checkpoint failed (the decisions stay in the write-ahead log): \(error)",
                    fields: [(JournalField.reason, error.description)])
            }
        } catch {
            loopJournal.log(
                .stateStoreError, priority: .warning,
                message: "checkpoints run on the committing thread: \(error)",
                fields: [(JournalField.reason, error.description)])
        }
    }

    /// Settles everything: waits for the worker's commit, commits what is gathered, and ends the worker's thread.
    func finishStore() {
        commitBatch()
        worker?.stop()
        worker = nil
        reader = nil  // closed before the store's connection, which, closing last, removes the log
        loopJournal.submit()
    }

    /// The devices of the batches the worker was handed and that are not settled yet.
    var inFlightDevices: [String] { inFlight.flatMap(\.devices) }

    /// True while the worker commits batches (the store is its own until then).
    var hasCommitInFlight: Bool { !inFlight.isEmpty }

    /// How many batches the worker was handed whose outcome is not settled yet.
    var batchesInFlight: Int { inFlight.count }

    /// Blocks until the worker's commits are over, so that the store can be read on the loop's thread (their
    /// outcomes are settled later, as usual).
    func waitForStore() {
        if !inFlight.isEmpty { worker?.waitUntilDone() }
    }

    /// Settles the worker's batches whose commits are over, oldest first (or, with `wait`, all of them once they
    /// are). A batch behind a failed one fails with it (see ``StoreWorker``).
    private func finishInFlight(wait: Bool) {
        guard let worker else { return }
        var wait = wait
        var failed: StoreError?
        while let batch = inFlight.first, wait || worker.isDone {
            inFlight.removeFirst()
            let failure: StoreError?
            switch worker.collect() {
            case .success: failure = nil
            case .failure(let error): failure = error
            }
            settle(batch, failure: failure)
            if let failure {
                // The batches behind it fail with it, uncommitted: settled now, in order, before the one gathered.
                failed = failure
                wait = true
            }
        }
        guard let failed, !writes.isEmpty else { return }
        // The batch gathered meanwhile was made on the states that were not saved: it is not saved either.
        settleCurrent(failure: failed)
    }

    /// Settles the batch gathered so far (committed, or failed with `failure`) and starts the next.
    private func settleCurrent(failure: StoreError?) {
        settle(gathered, failure: failure)
        startNextBatch()
    }

    /// What the batch gathered so far settles (its writes go to the store apart).
    private var gathered: StoreBatch {
        StoreBatch(number: batchNumber, devices: batchDevices, decisions: batchDecisions, journal: batchJournal)
    }

    private func startNextBatch() {
        writes.removeAll(keepingCapacity: true)
        batchDevices.removeAll(keepingCapacity: true)
        batchDecisions.removeAll(keepingCapacity: true)
        batchJournal.removeAll(keepingCapacity: true)
        batchNumber += 1
    }

    private func settle(_ batch: StoreBatch, failure: StoreError?) {
        settledThrough = batch.number
        guard let failure else {
            for details in batch.journal { countAndJournal(details) }
            for decision in batch.decisions { broadcast(decision) }
            return
        }
        stats.storeFailures += 1
        failedBatches.append(batch.number)
        if failedBatches.count > 64 { failedBatches.removeFirst(failedBatches.count - 64) }
        // The cached states of this batch were never saved: forget them so the next request reads the store.
        for device in batch.devices { cache[device] = nil }
        loopJournal.log(
            .stateStoreError, priority: .error, message: "state not saved: \(failure)",
            fields: [(JournalField.reason, failure.description)])
        journalNotSaved(batch.journal, failure: failure)
    }

    // MARK: dispatch

    enum MethodResult {
        case reply(JSONObject)
        /// Sent only once the batch's state is committed.
        case durable(JSONObject)
        /// `{"decision": …}` from the decision's text; `durable` as for ``durable(_:)``.
        case decision(JSONText, durable: Bool)
        /// `{"decision": …}` from the text of a dry run's decision, left in ``decisionWriter`` (sent at once, from
        /// there: no text of its own made).
        case dryRunWritten
        /// A monitor: replies follow as decisions are made.
        case streaming
    }

    private func dispatch(_ call: VarlinkCall, connection: ClientConnection) throws(VarlinkError) -> MethodResult {
        let p = call.parameters
        switch call.memberName {
        case "Route":
            try checkRate(connection)
            let payload = p["payload"] ?? .null
            return try route(parameters: RouteParameters(p), connection: connection) {
                (reader, headers, explain) throws(PayloadError) in
                try reader.read(payload, headers: headers, explain: explain)
            }
        case "Resolve":
            try checkRate(connection)
            return try resolve(
                link: p["link"]?.stringValue ?? "", parameters: RouteParameters(p), connection: connection)
        case "FlowFinished":
            return try flowFinished(
                device: p["device"]?.stringValue ?? "", coordinator: p["coordinator"]?.stringValue ?? "",
                connection: connection)
        case "GetState":
            return .reply(try getState(device: p["device"]?.stringValue ?? ""))
        case "SetState":
            try requirePrivilege(connection)
            return try setState(device: p["device"]?.stringValue ?? "", state: p["state"] ?? .null)
        case "ForgetDevice":
            try requirePrivilege(connection)
            return try forget(device: p["device"]?.stringValue ?? "")
        case "GetDecision":
            collectLaneReports?()
            return .reply(try getDecision(id: p["id"]?.stringValue ?? ""))
        case "ListDecisions":
            collectLaneReports?()
            return .reply(try listDecisions(device: p["device"]?.stringValue, limit: p["limit"]?.intValue))
        case "ListHistory":
            return .reply(
                try listHistory(
                    device: p["device"]?.stringValue, since: p["since"]?.stringValue, before: p["before"]?.intValue,
                    limit: p["limit"]?.intValue))
        case "Monitor":
            guard call.more else { throw VarlinkError.expectedMore }
            // A oneway call asks for no replies: there is nothing to stream to it, so it is not registered.
            guard !call.oneway else { return .streaming }
            monitors[connection.id] = connection
            connection.isStreaming = true
            return .streaming
        case "GetGraph":
            return .reply(["graph": config.graph.json])
        case "GetStats":
            collectLaneReports?()
            return .reply(["stats": statsJSON()])
        case "Reload":
            try requirePrivilege(connection)
            return .reply(try reload())
        default:
            throw VarlinkError.methodNotImplemented(call.method)
        }
    }

    /// Root, the daemon's own uid and the `--allow-uid` list may change state and reload.
    private func requirePrivilege(_ connection: ClientConnection) throws(VarlinkError) {
        let uid = connection.peer.uid
        guard uid == 0 || uid == ownUID || settings.allowedUIDs.contains(uid) else {
            throw VarlinkError.permissionDenied
        }
    }

    private func checkRate(_ connection: ClientConnection) throws(VarlinkError) {
        guard settings.rateLimitPerUID > 0 else { return }
        let now = Sys.monotonicNanoseconds()
        var bucket = buckets[connection.peer.uid] ?? TokenBucket(rate: settings.rateLimitPerUID, now: now)
        defer { buckets[connection.peer.uid] = bucket }
        if let wait = bucket.take(now: now) {
            throw VarlinkError.rateLimited(retryAfterMs: wait)
        }
    }

    /// Streams `decision` to every monitor; a monitor that does not keep up is dropped.
    func broadcast(_ decision: JSONText) {
        guard !monitors.isEmpty, let outbox = server?.sharedOutbox else { return }
        var reply: [UInt8] = []
        VarlinkReply.encode(member: "decision", valueJSON: decision.bytes, continues: true, into: &reply)
        for (id, connection) in monitors {
            if connection.pendingOutputBytes > settings.maxOutputBytes {
                monitors[id] = nil
                stats.monitorsDropped += 1
                server?.close(connection)
                continue
            }
            outbox.enqueue(.ready(.encoded(reply)), to: connection)
        }
    }

    // MARK: stats

    func statsJSON() -> JSON {
        var stats = self.stats
        laneLedger?.addStats(to: &stats)
        let uptime = Double(Sys.monotonicNanoseconds() &- startedAt) / 1e9
        var o: JSONObject = [
            "uptimeSeconds": .double((uptime * 1000).rounded() / 1000),
            // The process answering: under socket activation a client's SO_PEERCRED names systemd, which made the
            // listening socket, not notifyd.
            "pid": .int(Int(getpid())),
            "configGeneration": .int(config.generation),
            // The main loop and its lanes (`--event-loops`).
            "eventLoops": .int(sharedConfig == nil ? 1 : settings.eventLoops),
            "requests": .int(stats.requests),
            "decisions": .int(stats.decisions),
            "laneDecisions": .int(stats.laneDecisions),
            "outcomes": Stats.object(stats.byOutcome),
            "formats": Stats.object(stats.byFormat),
            "errors": Stats.object(stats.errors),
            "rejectedPayloads": .int(stats.rejectedPayloads),
            "protocolViolations": .int(stats.protocolViolations),
            "storeFailures": .int(stats.storeFailures),
            "monitors": .int(monitors.count),
            "monitorsDropped": .int(stats.monitorsDropped),
            "journalDropped": .int(journal.droppedCount),
            "latencyMicroseconds": [
                "p50": .double(Double(stats.latency.percentile(0.50)) / 1000),
                "p90": .double(Double(stats.latency.percentile(0.90)) / 1000),
                "p99": .double(Double(stats.latency.percentile(0.99)) / 1000),
                "max": .double(Double(stats.latency.maxNanoseconds) / 1000),
                "count": .int(Int(stats.latency.total)),
                "sumMicroseconds": .double(Double(stats.latency.sumNanoseconds / 1000)),
            ],
            "residentBytes": .int(Sys.residentSetBytes()),
            "openFileDescriptors": .int(Sys.openFileDescriptorCount()),
            "cachedDevices": .int(cache.count),
        ]
        if let server {
            o["connections"] = [
                "open": .int(server.connectionCount), "accepted": .int(server.acceptedTotal),
                "refused": .int(server.refusedTotal), "dropped": .int(server.droppedTotal),
            ]
        }
        waitForStore()
        if let store {
            // Which store serves and its health, with its counts when it can give them (a PostgreSQL server that
            // is down cannot: the store is then `down`, its health the reason).
            let counts = try? store.counts()  // first: it reconnects a store whose server came back
            var fields = store.statsFields()
            if let counts {
                fields["devices"] = .int(counts.devices)
                fields["pendingLinks"] = .int(counts.pendingLinks)
                fields["decisions"] = .int(counts.decisions)
            }
            o["store"] = .object(fields)
        }
        return .object(o)
    }
}

/// The daemon's version, reported by `GetInfo`.
let notifydVersion = "0.1.0"

/// A per-uid token bucket: `rate` requests per second, bursts up to one second's worth.
struct TokenBucket {
    let rate: Int
    var tokens: Double
    var last: UInt64

    init(rate: Int, now: UInt64) {
        self.rate = rate
        tokens = Double(rate)
        last = now
    }

    /// Takes a token; returns the milliseconds to wait when there is none.
    mutating func take(now: UInt64) -> Int? {
        tokens = min(Double(rate), tokens + Double(now &- last) / 1e9 * Double(rate))
        last = now
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        return max(1, Int(((1 - tokens) / Double(rate) * 1000).rounded(.up)))
    }
}

/// A batch of requests' stored results: what is settled once its commit is over.
struct StoreBatch {
    let number: UInt64
    /// The devices whose states it writes (cached before the commit).
    let devices: [String]
    /// Every decision made in it, for the monitors.
    let decisions: [JSONText]
    /// Its stored decisions, journaled once committed.
    let journal: [DecisionJournalDetails]
}
