import CoordinatorGraph
import DeepLink
import JSON
import RouterContract
import Varlink

extension VarlinkError {
    /// The batch's commit failed: the decision was not applied.
    static var stateNotSaved: VarlinkError {
        .stateNotSaved(reason: "the state store could not commit; the decision was not applied, try again")
    }
}

/// A device state kept in memory as the resolver of its config generation holds it, with that generation.
struct CachedState {
    /// `nil` for a device forgotten by a batch not committed yet: the store may still hold its old state.
    var state: ResolvedState?
    var generation: Int
}

/// The parameters of Route and Resolve besides the payload or link.
struct RouteParameters {
    var device: String? = nil
    var dryRun = false
    var explain = false
    var format: String? = nil
    var strict = false
    /// `Route`'s transport headers, as given (checked when the payload is read).
    var headers: [(name: String, value: String)]? = nil

    /// The defaults: no device, not a dry run, no trace, the format detected, not strict, no headers.
    init() {}

    /// The parameters of a call checked against its method's declaration (the absent ones, and `null`, read as
    /// their defaults).
    init(_ p: JSONObject) {
        device = p["device"]?.stringValue
        dryRun = p["dryRun"]?.boolValue ?? false
        explain = p["explain"]?.boolValue ?? false
        format = p["format"]?.stringValue
        strict = p["strict"]?.boolValue ?? false
        if case .object(let given) = p["headers"] {
            headers = given.members.map { ($0.key, $0.value.stringValue ?? "") }
        }
    }

    /// A `Route` or `Resolve` call on a tape that is neither `more` nor `upgrade`, with the parameters ``read(_:route:)``
    /// reads; `nil` for any other call.
    static func read(_ call: VarlinkCallView) -> (isRoute: Bool, parameters: RouteParameters, subject: JSONTape.Value)?
    {
        let isRoute: Bool
        if call.method.isString("io.notifyd.Router.Route") {
            isRoute = true
        } else if call.method.isString("io.notifyd.Router.Resolve") {
            isRoute = false
        } else {
            return nil
        }
        guard !call.more, !call.upgrade, let p = call.parameters, let (parameters, subject) = read(p, route: isRoute)
        else { return nil }
        return (isRoute, parameters, subject)
    }

    /// The parameters of a Route (or, when `route` is false, a Resolve) call on a tape, with its payload (or
    /// link); `nil` unless every parameter is declared and of its declared type (not `null`) and the payload or link
    /// is there: any other call goes through the interface's checks, which say what is wrong.
    static func read(_ p: JSONTape.Value, route: Bool) -> (parameters: RouteParameters, subject: JSONTape.Value)? {
        var parameters = RouteParameters()
        var subject: JSONTape.Value? = nil
        for (key, value) in p.rawMembers {
            if route ? key.isString("payload") : key.isString("link") {
                guard route ? value.isObject : value.isString else { return nil }
                subject = value
            } else if key.isString("device") {
                guard let device = value.stringValue else { return nil }
                parameters.device = device
            } else if key.isString("dryRun") {
                guard let flag = value.boolValue else { return nil }
                parameters.dryRun = flag
            } else if key.isString("explain") {
                guard let flag = value.boolValue else { return nil }
                parameters.explain = flag
            } else if route, key.isString("format") {
                guard let format = value.stringValue else { return nil }
                parameters.format = format
            } else if route, key.isString("strict") {
                guard let flag = value.boolValue else { return nil }
                parameters.strict = flag
            } else if route, key.isString("headers") {
                guard value.isObject else { return nil }
                var headers: [(name: String, value: String)] = []
                for (name, header) in value.members {
                    guard let text = header.stringValue else { return nil }
                    headers.append((name, text))
                }
                parameters.headers = headers
            } else {
                return nil
            }
        }
        guard let subject else { return nil }
        return (parameters, subject)
    }
}

extension RouterService {
    // MARK: Route, Resolve

    /// Routes the payload that `read` reads (from a tree or a tape) with the reader the parameters ask for.
    func route(
        parameters p: RouteParameters, connection: ClientConnection,
        read: (PayloadReader, PushHeaders, Bool) throws(PayloadError) -> PayloadReading
    ) throws(VarlinkError)
        -> MethodResult
    {
        switch config.routeTarget(p, read: read) {
        case .success(let found):
            stats.byFormat.add(found.format)
            // The link is journaled from the decision's source.
            return try decide(found.target, link: nil, parameters: p, connection: connection)
        case .failure(.reader(let error)):
            throw error
        case .failure(.payload(let error)):
            stats.rejectedPayloads += 1
            var fields = [
                (JournalField.field, error.path), (JournalField.reason, error.reason),
                (JournalField.peerUID, String(connection.peer.uid)),
            ]
            if let device = p.device { fields.append((JournalField.device, device)) }
            loopJournal.log(.payloadRejected, priority: .notice, message: "payload rejected: \(error)", fields: fields)
            if error.code == .tooLarge, let size = error.size, let max = error.maxSize {
                throw VarlinkError.payloadTooLarge(size: size, max: max)
            }
            throw VarlinkError.invalidPayload(reason: error.reason, field: error.path)
        case .failure(.noRoute(let error, let format)):
            stats.byFormat.add(format)
            throw noRoute(error, device: p.device, connection: connection)
        }
    }

    func resolve(
        link: String, parameters p: RouteParameters, connection: ClientConnection
    ) throws(VarlinkError)
        -> MethodResult
    {
        stats.byFormat.add(.link)
        switch config.resolveTarget(link, explain: p.explain) {
        case .success(let target):
            return try decide(target, link: nil, parameters: p, connection: connection)
        case .failure(let error):
            throw noRoute(error, device: p.device, connection: connection)
        }
    }

    private func noRoute(_ error: TargetError, device: String?, connection: ClientConnection) -> VarlinkError {
        stats.rejectedPayloads += 1
        var fields = [
            (JournalField.link, error.link), (JournalField.reason, error.reasons.joined(separator: "; ")),
            (JournalField.peerUID, String(connection.peer.uid)),
        ]
        if let device { fields.append((JournalField.device, device)) }
        loopJournal.log(.payloadRejected, priority: .notice, message: "\(error)", fields: fields)
        return VarlinkError.noRoute(link: error.link, reasons: error.reasons)
    }

    /// Walks the graph to the target for the request's device and records the decision.
    private func decide(
        _ target: RoutingTarget, link: String?, parameters p: RouteParameters, connection: ClientConnection
    ) throws(VarlinkError) -> MethodResult {
        let device = p.device
        if let device, device.isEmpty || device.utf8.count > 256 {
            throw VarlinkError.invalidParameter("device")
        }
        let dryRun = p.dryRun
        let explain = p.explain
        let now = Timestamp(millisecondsSince1970: Sys.wallClockMilliseconds())
        let state = try device.flatMap { (d) throws(VarlinkError) in try loadState(d) }
        var decision: Decision
        var next: ResolvedState?
        do {
            let resolution = try desk.resolve(
                target, from: state, device: device, config: config, now: now, explain: explain)
            // A dry run leaves the device as it was: its next state is not kept; nor is it for an opened or silent
            // decision, which changes nothing.
            if dryRun || device == nil || !target.outcome.navigates {
                decision = resolution.takeDecision()
            } else {
                (decision, next) = resolution.take()
            }
        } catch {
            throw mapResolveError(error)
        }
        guard !dryRun else {
            // The text stays in the desk's writer: the history and the reply copy it from there.
            desk.writeDryRun(decision)
            recordDryRun(decision, link: link, peerUID: connection.peer.uid)
            return .dryRunWritten
        }
        let text = desk.text(of: decision)
        record(
            decision, text: text, link: link, peerUID: connection.peer.uid,
            stateBefore: state.map(StoreWrite.StateBefore.state) ?? .coldStart)
        if let device, let next { saveState(next, for: device, now: now) }
        return .decision(text, durable: true)
    }

    func mapResolveError(_ error: ResolveError) -> VarlinkError {
        switch error.code {
        case .unknownPage, .unreachable, .noProvider: return .unknownPage(error.subject)
        case .providesNothing: return .providesNothing(coordinator: error.subject, reason: error.message)
        case .unknownCoordinator, .notStarted: return flowFinishedError(error, state: nil)
        }
    }

    // MARK: FlowFinished

    func flowFinished(
        device: String, coordinator: String, connection: ClientConnection
    ) throws(VarlinkError)
        -> MethodResult
    {
        guard let state = try loadState(device)?.state else { throw VarlinkError.unknownDevice(device) }
        let now = Timestamp(millisecondsSince1970: Sys.wallClockMilliseconds())
        let result: FlowFinishedResult
        do {
            result = try config.resolver.flowFinished(
                coordinator, state: state, now: now,
                metadata: DecisionMetadata(id: desk.ids.make(milliseconds: now.millisecondsSince1970), device: device))
        } catch {
            throw flowFinishedError(error, state: state)
        }
        var reply: JSONObject = ["resumed": .null, "state": result.state.json, "dropped": .null]
        if let decision = result.decision {
            record(
                decision, text: desk.text(of: decision), link: nil,
                peerUID: connection.peer.uid)
            reply["resumed"] = decision.json
        }
        switch result.status {
        case .expired:
            let page =
                result.expired.map { "\($0.page) expired at \($0.expiresAt.rfc3339)" } ?? "the pending page expired"
            reply["dropped"] = .string("\(page), before \(coordinator) finished")
        case .gateStopped:
            reply["dropped"] = .string("the pending page waited for another gate, dismissed with \(coordinator)")
        case .resumed, .gated, .nothingPending, .stillWaiting:
            break
        }
        saveState(config.resolver.resolved(result.state), for: device, now: now)
        return .durable(reply)
    }

    /// FlowFinished's refusal: a coordinator the graph does not declare names the nearest one that can finish;
    /// one that is not presented lists those of `state` that are.
    func flowFinishedError(_ error: ResolveError, state: DeviceState?) -> VarlinkError {
        let graph = config.graph
        let finishable = { (name: String) in graph.coordinator(name).map { !$0.provides.isEmpty } ?? false }
        switch error.code {
        case .unknownCoordinator:
            let names = graph.coordinators.map(\.name).filter(finishable)
            return .invalidName(
                parameter: "coordinator", value: error.subject,
                reason: "no coordinator '\(error.subject)' in the graph",
                suggestion: NameSuggestion.closest(to: error.subject, in: names))
        case .notStarted:
            return .notPresented(coordinator: error.subject, presented: (state?.started ?? []).filter(finishable))
        case .unknownPage, .unreachable, .noProvider, .providesNothing:
            return mapResolveError(error)
        }
    }

    // MARK: recording

    /// Keeps a decision that is not a dry run: with a store, it joins the batch's commit, with the state its device
    /// started from, and is counted and journaled once the commit succeeded; without one, at once.
    func record(
        _ decision: consuming Decision, text: JSONText, link: String?, peerUID: UInt32,
        stateBefore: StoreWrite.StateBefore = .notRecorded
    ) {
        pipeline.writes.append(
            .decision(
                id: decision.id, device: decision.device, createdMs: decision.createdAt.millisecondsSince1970,
                outcome: decision.outcome.rawValue, page: decision.page, decision: text, stateBefore: stateBefore))
        let (id, device) = (decision.decisionID, decision.device)
        // The decision moves into the journal's details: the journal thread renders it later.
        let details = DecisionJournalDetails(
            decision: consume decision, link: link, dryRun: false, peerUID: peerUID)
        // Kept for the monitors, which see it once its batch is settled.
        if !monitors.isEmpty { pipeline.decisions.append(text) }
        if store == nil {
            countAndJournal(consume details)
            recent.append(id: id, device: device, text: text)
        } else {
            pipeline.journal.append(details)
        }
    }

    /// Keeps a dry run whose text is in the ``desk``'s writer: counted, journaled and kept at once, from the writer's
    /// bytes. Monitors see it once its batch is settled; with none, a batch of dry runs has nothing to settle
    /// (``CommitPipeline/endBatch()`` then returns at once).
    func recordDryRun(_ decision: consuming Decision, link: String?, peerUID: UInt32) {
        let (id, device) = (decision.decisionID, decision.device)
        countAndJournal(DecisionJournalDetails(decision: consume decision, link: link, dryRun: true, peerUID: peerUID))
        desk.writer.withBytes { text in
            if !monitors.isEmpty { pipeline.decisions.append(JSONText(bytes: Array(text))) }
            recent.append(id: id, device: device, text: text)
        }
    }

    /// Journals stored decisions whose commit failed (their clients get `StateNotSaved`).
    func journalNotSaved(_ batch: [DecisionJournalDetails], failure: StoreError) {
        for var details in batch {
            details.notSaved = failure.description
            loopJournal.log(.decisionNotSaved, priority: .error, details: details)
        }
    }

    func countAndJournal(_ details: consuming DecisionJournalDetails) {
        stats.decisions += 1
        stats.byOutcome.add(details.decision.outcome)
        loopJournal.log(.decisionMade, priority: .info, details: details)
    }

    /// The device's state: from the cache, else the store; `nil` for a device never seen, or one whose state does
    /// not fit the loaded graph (it starts cold, and the journal says so).
    ///
    /// A state cached under an earlier config generation is checked against the loaded graph before use: a reload
    /// keeps the cache, so a state written earlier in the batch (not committed yet) is never read back stale from
    /// the store.
    ///
    /// - Throws: `StateUnreadable` when the store cannot read the device's state (a damaged database).
    func loadState(_ device: String) throws(VarlinkError) -> ResolvedState? {
        if let cached = cache.find(device) {
            guard let state = cached.state else { return nil }
            if cached.generation == config.generation { return state }
            return checkedAgainstGraph(state.state.json, device: device)
        }
        guard let store else { return nil }
        let json: JSON?
        do {
            if let reader = pipeline.reader {
                json = try reader.deviceState(device)  // no waiting for the commit that runs: see StateReader
            } else {
                pipeline.waitForStore()
                json = try store.deviceState(device)
            }
        } catch {
            stats.storeFailures += 1
            loopJournal.log(
                .stateStoreError, priority: .error, message: "cannot read state of \(device): \(error)",
                fields: [(JournalField.device, device), (JournalField.reason, error.description)])
            throw VarlinkError.stateUnreadable(reason: "the state of device \(device) could not be read: \(error)")
        }
        guard let json else { return nil }
        return checkedAgainstGraph(json, device: device)
    }

    /// The state in `json` read against the loaded graph and cached; `nil` (start cold, journaled) when it does not
    /// fit, e.g. saved under an older graph that no longer has its coordinators or pages.
    private func checkedAgainstGraph(_ json: JSON, device: String) -> ResolvedState? {
        do {
            let state = config.resolver.resolved(try DeviceState(json: json, graph: config.graph))
            cacheState(state, for: device)
            return state
        } catch {
            cache[device] = nil
            loopJournal.log(
                .stateStoreError, priority: .warning,
                message: "saved state of \(device) does not fit the loaded graph (\(error)); starting cold",
                fields: [(JournalField.device, device), (JournalField.reason, error.description)])
            return nil
        }
    }

    func saveState(_ state: ResolvedState, for device: String, now: Timestamp) {
        cacheState(state, for: device)
        pipeline.devices.append(device)
        pipeline.writes.append(
            .stateValue(
                device: device, value: state, pendingExpiresMs: state.pending?.expiresAt.millisecondsSince1970,
                updatedMs: now.millisecondsSince1970))
    }

    func cacheState(_ state: ResolvedState?, for device: String) {
        if cache.count >= 200_000, !cache.contains(device), store != nil, pipeline.isIdle {
            cache.removeAll()
        }
        cache[device] = CachedState(state: state, generation: config.generation)
    }
}

/// A decision's journal entry, formatted on the journal's thread: `MESSAGE` "routed cart.offer(id: …) for D" (or
/// "opened for D", "silent for D") and the decision fields of docs/design.md §6: without a page, no `NOTIFYD_PAGE` and no
/// `NOTIFYD_PATH`; `NOTIFYD_TOPIC` when the push came with an `apns-topic`.
struct DecisionJournalDetails: JournalDetails {
    let decision: Decision
    /// The link of a decision without a source (a Resolve's); a decision with one is journaled with its
    /// source's link (the same text, not copied here).
    let link: String?
    let dryRun: Bool
    let peerUID: UInt32
    /// Why the decision's commit failed; `nil` for a decision made.
    var notSaved: String?

    /// Its fields are named by ``JournalField`` constants only.
    var fieldNamesAreKnownValid: Bool { true }

    func render(into entry: inout JournalRecord) {
        write(into: &entry)
    }

    /// "routed cart.offer(id: …) for D (dry run)", then the fields, written as bytes (no text built on the way).
    func write<Writer: JournalEntryWriter & ~Copyable>(into entry: inout Writer) {
        // The closures below capture these locals only: one that used a stored property would capture the details
        // whole, and copy them (their references counted) twice for each entry.
        let decision = decision
        let id = decision.decisionID
        let page = decision.page
        let device = decision.device
        let outcome = decision.outcome
        let (dryRun, notSaved, peerUID) = (dryRun, notSaved != nil, peerUID)
        var description = 0..<0
        let plain = entry.writeMessage { out in
            if notSaved { out.append("not saved, the client was told StateNotSaved: ") }
            out.append(utf8: outcome.rawValue)
            if let page {
                out.append(UInt8(ascii: " "))
                let start = out.count
                page.writeDescription(into: &out)
                description = start..<out.count
            }
            if let device {
                out.append(" for ")
                out.append(utf8: device)
            }
            if dryRun { out.append(" (dry run)") }
        }
        // A UUID, an outcome's name and a number are written as they are (nothing in them to escape or quote).
        if id.isUUID {
            entry.plainField(JournalKey.decisionID) { id.write(into: &$0) }
        } else {
            entry.field(JournalKey.decisionID) { id.write(into: &$0) }
        }
        entry.plainField(JournalKey.outcome) { $0.append(utf8: outcome.rawValue) }
        if let page {
            if plain {
                entry.field(JournalKey.page, copyingMessageBytes: description)  // written once
            } else {
                entry.field(JournalKey.page) { page.writeDescription(into: &$0) }
            }
        }
        if page == nil {
            // An opened or silent decision has no path.
        } else if decision.pathIsPlain {
            // The resolver's coordinators, each an ASCII identifier: copied from the bytes it keeps of their names.
            entry.plainField(JournalKey.path) { decision.writePlainPath(separator: UInt8(ascii: "/"), into: &$0) }
        } else {
            entry.field(JournalKey.path) { out in
                var first = true
                decision.forEachPathName { name in
                    if !first { out.append(UInt8(ascii: "/")) }
                    first = false
                    out.append(utf8: name)
                }
            }
        }
        entry.plainField(JournalKey.peerUID) { JSON.writeInt(Int(peerUID), into: &$0) }
        if let device { entry.field(JournalKey.device, device) }
        if let source = decision.source {
            entry.field(JournalKey.source) { out in
                out.append(utf8: source.format)
                out.append(UInt8(ascii: ":"))
                out.append(utf8: source.field)
            }
            if link == nil, let sourceLink = source.link { entry.field(JournalKey.link, sourceLink) }
            if let topic = source.topic { entry.field(JournalKey.topic, topic) }
        }
        if let link { entry.field(JournalKey.link, link) }
        if let reason = self.notSaved { entry.field(JournalKey.reason, reason) }
    }
}
