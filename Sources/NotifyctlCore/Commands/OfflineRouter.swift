import CoordinatorGraph
import DeepLink
import JSON
import RouterContract
import Varlink

/// Makes, without a daemon, the decision notifyd would give a device it has never seen (a cold start), or one in a
/// given state (``replay(_:link:state:id:now:)``).
///
/// The same pipeline as the daemon: the payload is read with the graph's payload options and the headers given, the
/// page (or its absence) is chosen with ``Graph/target(for:explain:)-(PayloadReading,_)``, and the decision is made
/// with no device state. Failures are the error
/// replies the daemon would send (`InvalidPayload`, `NoRoute`, `UnknownPage`), so they print the same way.
public struct OfflineRouter: Sendable {
    /// The graph decided against.
    public let graph: Graph
    let resolver: Resolver

    /// A router for `graph`.
    public init(graph: Graph) {
        self.graph = graph
        self.resolver = Resolver(graph: graph)
    }

    /// The decision for a notification payload; `format` forces the payload format, `headers` are the transport
    /// headers it came with.
    ///
    /// With `explain`, the payload's warnings open the trace (`warning: …`), as the daemon writes them.
    public func route(
        _ payload: JSONObject, format: PayloadFormat? = nil, strict: Bool = false,
        headers: [(name: String, value: String)] = [], explain: Bool, id: String, now: Timestamp
    ) throws(OfflineRouteError) -> (decision: Decision, warnings: [PayloadWarning]) {
        var options = graph.payloadOptions
        options.strict = strict
        options.format = format
        let reading: PayloadReading
        do throws(PayloadError) {
            let given = headers.isEmpty ? PushHeaders() : try PushHeaders(headers)
            reading = try PayloadReader(options: options).read(.object(payload), headers: given, explain: explain)
        } catch {
            if error.code == .tooLarge, let size = error.size, let max = error.maxSize {
                throw OfflineRouteError(.payloadTooLarge(size: size, max: max), reasons: [error.reason])
            }
            throw OfflineRouteError(.invalidPayload(reason: error.reason, field: error.path))
        }
        let target: RoutingTarget
        switch graph.target(for: reading, explain: explain) {
        case .success(let found): target = found
        case .failure(let error):
            throw OfflineRouteError(
                .noRoute(link: error.link, reasons: error.reasons), trace: explain ? error.trace : nil)
        }
        return (try decide(target, explain: explain, id: id, now: now), reading.warnings)
    }

    /// The decision for a link, as `Resolve` gives it (its source the `link` parameter).
    public func resolve(_ link: String, explain: Bool, id: String, now: Timestamp) throws(OfflineRouteError) -> Decision
    {
        let candidate = LinkCandidate(format: .link, field: "link", target: .link(link))
        return try decide(target(for: candidate, explain: explain), explain: explain, id: id, now: now)
    }

    /// The decision for the link of a stored decision's `source` (its format and field kept), for a device that
    /// stood in `state` (`nil`: never seen) at `now`: what `notifyctl replay` compares with the decision stored.
    public func replay(
        _ source: DecisionSource, link: String, state: DeviceState?, id: String, now: Timestamp
    ) throws(OfflineRouteError) -> Decision {
        let format = PayloadFormat(rawValue: source.format) ?? .link
        let candidate = LinkCandidate(format: format, field: source.field, target: .link(link))
        return try decide(target(for: candidate, explain: false), explain: false, id: id, now: now, state: state)
    }

    /// The target of one link candidate, or the `NoRoute` the daemon would answer.
    func target(for candidate: LinkCandidate, explain: Bool) throws(OfflineRouteError) -> RoutingTarget {
        switch graph.target(for: [candidate], explain: explain) {
        case .success(let found): return found
        case .failure(let error):
            throw OfflineRouteError(
                .noRoute(link: error.link, reasons: error.reasons), trace: explain ? error.trace : nil)
        }
    }

    func decide(
        _ target: RoutingTarget, explain: Bool, id: String, now: Timestamp, state: DeviceState? = nil
    ) throws(OfflineRouteError) -> Decision {
        let metadata = DecisionMetadata(id: id, device: nil, source: target.source)
        do throws(ResolveError) {
            let start = state.map { resolver.resolved($0) }
            return try resolver.decide(target, from: start, now: now, metadata: metadata, explain: explain).decision
        } catch {
            // As the daemon answers: the page or its path does not fit the graph.
            throw OfflineRouteError(.unknownPage(error.subject), reasons: [error.message])
        }
    }
}

/// Why an offline decision failed: the error reply the daemon would send, and the reasons behind it.
public struct OfflineRouteError: Error, Sendable, Hashable {
    /// The daemon's error for the same request.
    public let reply: VarlinkError
    /// Why each candidate was rejected, or what the resolver said.
    public let reasons: [String]
    /// With explain, when no page was found: every candidate tried and why it was rejected.
    public let trace: [String]?

    /// An error from its parts.
    public init(_ reply: VarlinkError, reasons: [String] = [], trace: [String]? = nil) {
        self.reply = reply
        self.reasons = reasons
        self.trace = trace
    }

    /// The error as notifyctl prints it: the daemon's error, with the reasons among its parameters (as the daemon
    /// sends them with `NoRoute`) and, with explain, the trace.
    public var notifyctlError: NotifyctlError {
        var reply = reply
        if !reasons.isEmpty, reply.parameters["reasons"] == nil {
            reply.parameters["reasons"] = .array(reasons.map { .string($0) })
        }
        var error = ErrorPrinter.error(for: reply)
        if reply.name != RouterInterface.method("NoRoute") { error.details += reasons.map(SafeText.clean) }
        guard let trace else { return error }
        return error.explained(by: trace)
    }
}
