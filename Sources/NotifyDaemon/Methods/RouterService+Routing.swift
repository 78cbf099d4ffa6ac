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
        if let device { try Self.checkDevice(device) }
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
        try Self.checkDevice(device)
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
}
