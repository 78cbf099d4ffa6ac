import CoordinatorGraph
import DeepLink
import JSON
import RouterContract
import Varlink

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
