import CoordinatorGraph
import DeepLink
import JSON
import Varlink

extension VarlinkError {
    /// The batch's commit failed: the decision was not applied.
    static var stateNotSaved: VarlinkError {
        .stateNotSaved(reason: "the state store could not commit; the decision was not applied, try again")
    }
}

extension RouterService {
    // MARK: Route, Resolve

    func route(
        payload: JSON, parameters p: JSONObject, connection: ClientConnection
    ) throws(VarlinkError)
        -> MethodResult
    {
        var reader = config.reader
        if let name = p["format"]?.stringValue {
            guard let format = PayloadFormat(rawValue: name) else { throw VarlinkError.invalidParameter("format") }
            var options = reader.options
            options.format = format
            reader = PayloadReader(options: options)
        }
        let reading: PayloadReading
        do {
            reading = try reader.read(payload)
        } catch {
            stats.rejectedPayloads += 1
            journal.log(
                .payloadRejected, priority: .notice, message: "payload rejected: \(error)",
                fields: [
                    (JournalField.field, error.path), (JournalField.reason, error.reason),
                    (JournalField.peerUID, String(connection.peer.uid)),
                ])
            throw VarlinkError.invalidPayload(reason: error.reason, field: error.path)
        }
        stats.byFormat[reading.format, default: 0] += 1
        let explain = p["explain"]?.boolValue ?? false
        switch config.graph.target(for: reading.candidates, explain: explain) {
        case .success(let target):
            var trace = explain ? reading.warnings.map { "warning: \($0)" } : []
            trace += target.trace
            return try decide(target, link: target.source?.link, trace: trace, parameters: p, connection: connection)
        case .failure(let error):
            throw noRoute(error, connection: connection)
        }
    }

    func resolve(
        link: String, parameters p: JSONObject, connection: ClientConnection
    ) throws(VarlinkError)
        -> MethodResult
    {
        let explain = p["explain"]?.boolValue ?? false
        stats.byFormat[.link, default: 0] += 1
        let candidate = LinkCandidate(format: .link, field: "link", target: .link(link))
        switch config.graph.target(for: [candidate], explain: explain) {
        case .success(let target):
            let routed = RoutingTarget(page: target.page, outcome: target.outcome, source: nil, trace: target.trace)
            return try decide(routed, link: link, trace: target.trace, parameters: p, connection: connection)
        case .failure(let error):
            throw noRoute(error, connection: connection)
        }
    }

    private func noRoute(_ error: TargetError, connection: ClientConnection) -> VarlinkError {
        stats.rejectedPayloads += 1
        journal.log(
            .payloadRejected, priority: .notice, message: "no route: \(error)",
            fields: [
                (JournalField.link, error.link), (JournalField.reason, error.reasons.joined(separator: "; ")),
                (JournalField.peerUID, String(connection.peer.uid)),
            ])
        return VarlinkError.noRoute(link: error.link)
    }

    /// Walks the graph to the target for the request's device and records the decision.
    private func decide(
        _ target: RoutingTarget, link: String?, trace: [String], parameters p: JSONObject,
        connection: ClientConnection
    ) throws(VarlinkError) -> MethodResult {
        let device = p["device"]?.stringValue
        if let device, device.isEmpty || device.utf8.count > 256 {
            throw VarlinkError.invalidParameter("device")
        }
        let dryRun = p["dryRun"]?.boolValue ?? false
        let explain = p["explain"]?.boolValue ?? false
        let now = Timestamp(millisecondsSince1970: Sys.wallClockMilliseconds())
        let state = device.flatMap { loadState($0) }
        let metadata = DecisionMetadata(
            id: ids.make(milliseconds: now.millisecondsSince1970), device: device, source: target.source)
        let resolution: Resolution
        do {
            resolution = try config.resolver.resolve(
                target.page, state: state, now: now, outcome: target.outcome, metadata: metadata, explain: explain)
        } catch {
            throw mapResolveError(error)
        }
        var decision = resolution.decision
        if explain { decision.trace = trace + (decision.trace ?? []) }
        let text = decision.jsonText
        record(decision, text: text, link: link, dryRun: dryRun, connection: connection)
        guard !dryRun else { return .decision(text, durable: false) }
        if let device { saveState(resolution.state, for: device, now: now) }
        return .decision(text, durable: true)
    }

    func mapResolveError(_ error: ResolveError) -> VarlinkError {
        switch error.code {
        case .unknownPage, .unreachable, .noProvider: return .unknownPage(error.subject)
        case .unknownCoordinator: return .invalidParameter("coordinator")
        case .providesNothing, .notStarted: return .notPresented(coordinator: error.subject)
        }
    }

    // MARK: FlowFinished

    func flowFinished(
        device: String, coordinator: String, connection: ClientConnection
    ) throws(VarlinkError)
        -> MethodResult
    {
        guard let state = loadState(device) else { throw VarlinkError.unknownDevice(device) }
        let now = Timestamp(millisecondsSince1970: Sys.wallClockMilliseconds())
        let result: FlowFinishedResult
        do {
            result = try config.resolver.flowFinished(
                coordinator, state: state, now: now,
                metadata: DecisionMetadata(id: ids.make(milliseconds: now.millisecondsSince1970), device: device))
        } catch {
            throw mapResolveError(error)
        }
        var reply: JSONObject = ["resumed": .null, "state": result.state.json, "dropped": .null]
        if let decision = result.decision {
            record(decision, text: decision.jsonText, link: nil, dryRun: false, connection: connection)
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
        saveState(result.state, for: device, now: now)
        return .durable(reply)
    }

    // MARK: recording

    /// Counts, journals, and keeps the decision; non-dry-run decisions join the batch's commit.
    func record(_ decision: Decision, text: JSONText, link: String?, dryRun: Bool, connection: ClientConnection) {
        stats.decisions += 1
        stats.byOutcome[decision.outcome, default: 0] += 1
        journal.log(
            .decisionMade, priority: .info,
            details: DecisionJournalDetails(
                decision: decision, link: link, dryRun: dryRun, peerUID: connection.peer.uid))
        batchDecisions.append(text)
        if dryRun || store == nil {
            recent.append(id: decision.id, device: decision.device, text: text)
        }
        if !dryRun {
            writes.append(
                .decision(
                    id: decision.id, device: decision.device, createdMs: decision.createdAt.millisecondsSince1970,
                    outcome: decision.outcome.rawValue, page: decision.page.description, decision: text))
        }
    }

    /// The device's state: from the cache, else the store; `nil` for a device never seen.
    func loadState(_ device: String) -> DeviceState? {
        if let state = cache[device] { return state }
        guard let store else { return nil }
        let json: JSON?
        do {
            json = try store.deviceState(device)
        } catch {
            journal.log(
                .stateStoreError, priority: .error, message: "cannot read state of \(device): \(error)",
                fields: [(JournalField.device, device), (JournalField.reason, error.description)])
            return nil
        }
        guard let json else { return nil }
        do {
            let state = try DeviceState(json: json, graph: config.graph)
            cacheState(state, for: device)
            return state
        } catch {
            // Saved under an older graph that no longer has these coordinators: start cold, say so.
            journal.log(
                .stateStoreError, priority: .warning,
                message: "saved state of \(device) does not fit the loaded graph (\(error)); starting cold",
                fields: [(JournalField.device, device), (JournalField.reason, error.description)])
            return nil
        }
    }

    func saveState(_ state: DeviceState, for device: String, now: Timestamp) {
        cacheState(state, for: device)
        batchDevices.append(device)
        writes.append(
            .stateText(
                device: device, text: state.jsonText, pendingExpiresMs: state.pending?.expiresAt.millisecondsSince1970,
                updatedMs: now.millisecondsSince1970))
    }

    private func cacheState(_ state: DeviceState, for device: String) {
        if cache.count >= 200_000, cache[device] == nil, store != nil, writes.isEmpty {
            cache.removeAll(keepingCapacity: true)
        }
        cache[device] = state
    }
}

/// A decision's journal entry, formatted on the journal's thread: `MESSAGE` "routed cart.offer(id: …) for D" and the
/// decision fields of DESIGN.md §6.
struct DecisionJournalDetails: JournalDetails {
    let decision: Decision
    let link: String?
    let dryRun: Bool
    let peerUID: UInt32

    func render() -> (message: String, fields: [(String, String)]) {
        let page = decision.page.description
        var fields: [(String, String)] = [
            (JournalField.decisionID, decision.id),
            (JournalField.outcome, decision.outcome.rawValue),
            (JournalField.page, page),
            (JournalField.path, decision.path.joined(separator: "/")),
            (JournalField.peerUID, String(peerUID)),
        ]
        if let device = decision.device { fields.append((JournalField.device, device)) }
        if let source = decision.source { fields.append((JournalField.source, "\(source.format):\(source.field)")) }
        if let link { fields.append((JournalField.link, link)) }
        let message =
            "\(decision.outcome.rawValue) \(page)" + (decision.device.map { " for \($0)" } ?? "")
            + (dryRun ? " (dry run)" : "")
        return (message, fields)
    }
}
