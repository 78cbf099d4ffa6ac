import CoordinatorGraph
import DeepLink
import Glibc
import JSON
import RouterContract
import Varlink

/// The `io.notifyd.Router` methods: routing, device state, history, monitors, stats and reload.
///
/// It runs on the event loop's thread only. The state changes of its methods join the batch its ``pipeline``
/// gathers, and their durable replies name that batch (see ``CommitPipeline``).
final class RouterService: CallHandler, CommitSettlement {
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
    /// Gathers the state changes of each batch of requests and commits them (see ``CommitPipeline``).
    let pipeline: CommitPipeline
    /// Hears the other replicas' commits (a shared store only; see ``ReplicaListener``).
    var replicaListener: ReplicaListener?
    var recent = RecentDecisions(capacity: RecentDecisions.defaultCapacity)
    var monitors: [UInt64: ClientConnection] = [:] {
        didSet { laneLedger?.streaming = !monitors.isEmpty }
    }
    var stats = Stats()
    /// Decision ids, and where each decision's text is written before it is copied out.
    var desk = DecisionDesk()
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
        self.pipeline = CommitPipeline(store: store)
        pipeline.settlement = self
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
            outbox.sendDurable(VarlinkReply(parameters: parameters), batch: pipeline.number, to: connection) {
                VarlinkError.stateNotSaved.reply
            }
        case .decision(let text, let durable):
            if durable {
                outbox.enqueue(
                    .durable(
                        batch: pipeline.number, success: .decision(text), failure: { VarlinkError.stateNotSaved.reply }),
                    to: connection)
            } else {
                outbox.enqueue(.ready(.decision(text)), to: connection)
            }
        case .dryRunWritten:
            desk.writer.withBytes { outbox.enqueueDecision($0, to: connection) }
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
        if !monitors.isEmpty { pipeline.decisions.append(text) }
    }

    /// Ends the batch when decisions wait for the monitors (``LaneHub/collect()`` calls it): their replies are then
    /// queued, and the server writes them at the end of the turn.
    func streamGathered() {
        if !pipeline.decisions.isEmpty { pipeline.endBatch() }
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

    // MARK: dispatch

    enum MethodResult {
        case reply(JSONObject)
        /// Sent only once the batch's state is committed.
        case durable(JSONObject)
        /// `{"decision": …}` from the decision's text; `durable` as for ``durable(_:)``.
        case decision(JSONText, durable: Bool)
        /// `{"decision": …}` from the text of a dry run's decision, left in the ``desk``'s writer (sent at once, from
        /// there: no text of its own made).
        case dryRunWritten
        /// A monitor: replies follow as decisions are made.
        case streaming
    }

    /// Runs the method `call` names from the table built from the IDL (see ``MethodTable``), once its caller may
    /// and its rate allows.
    private func dispatch(_ call: VarlinkCall, connection: ClientConnection) throws(VarlinkError) -> MethodResult {
        guard let method = Self.methods.method(call.method) else {
            throw VarlinkError.methodNotImplemented(call.method)
        }
        if method.access == .privileged { try requirePrivilege(connection) }
        if method.rateLimited { try checkRate(connection) }
        if method.readsLaneBooks { collectLaneReports?() }
        return try method.handler(self, call, connection)
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

}

/// The daemon's version, reported by `GetInfo`.
let notifydVersion = "0.1.0"
