import CoordinatorGraph
import DeepLink
import JSON
import Varlink

/// Makes, without a daemon, the decision notifyd would give a device it has never seen (a cold start), or one in a
/// given state (``replay(_:link:state:id:now:)``).
///
/// The same pipeline as the daemon: the payload is read with the graph's link keys and categories, the page is
/// chosen with ``Graph/target(for:explain:)``, and it is resolved with no device state. Failures are the error
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

    /// The decision for a notification payload; `format` forces the payload format.
    ///
    /// With `explain`, the payload's warnings open the trace (`warning: …`), as the daemon writes them.
    public func route(
        _ payload: JSONObject, format: PayloadFormat? = nil, strict: Bool = false, explain: Bool, id: String,
        now: Timestamp
    ) throws(OfflineRouteError) -> (decision: Decision, warnings: [PayloadWarning]) {
        let options = PayloadOptions(
            linkKeys: graph.linkKeys, categories: graph.categories, strict: strict, format: format)
        let reading: PayloadReading
        do throws(PayloadError) {
            reading = try PayloadReader(options: options).read(.object(payload))
        } catch {
            if error.code == .tooLarge, let size = error.size, let max = error.maxSize {
                throw OfflineRouteError(.payloadTooLarge(size: size, max: max), reasons: [error.reason])
            }
            throw OfflineRouteError(.invalidPayload(reason: error.reason, field: error.path))
        }
        let warnings = explain ? reading.warnings.map { "warning: \($0)" } : []
        var decision = try decide(
            reading.candidates, reportSource: true, explain: explain, traceStart: warnings, id: id, now: now)
        if !reading.warnings.isEmpty {
            let warnings = reading.warnings.map(\.description)
            decision.warnings = decision.warnings.map { warnings + $0 } ?? warnings
        }
        return (decision, reading.warnings)
    }

    /// The decision for a link, as `Resolve` gives it (its source the `link` parameter).
    public func resolve(_ link: String, explain: Bool, id: String, now: Timestamp) throws(OfflineRouteError) -> Decision
    {
        let candidate = LinkCandidate(format: .link, field: "link", target: .link(link))
        return try decide([candidate], reportSource: true, explain: explain, traceStart: [], id: id, now: now)
    }

    /// The decision for the link of a stored decision's `source` (its format and field kept), for a device that
    /// stood in `state` (`nil`: never seen) at `now`: what `notifyctl replay` compares with the decision stored.
    public func replay(
        _ source: DecisionSource, link: String, state: DeviceState?, id: String, now: Timestamp
    ) throws(OfflineRouteError) -> Decision {
        let format = PayloadFormat(rawValue: source.format) ?? .link
        let candidate = LinkCandidate(format: format, field: source.field, target: .link(link))
        return try decide(
            [candidate], reportSource: true, explain: false, traceStart: [], id: id, now: now, state: state)
    }

    func decide(
        _ candidates: [LinkCandidate], reportSource: Bool, explain: Bool, traceStart: [String], id: String,
        now: Timestamp, state: DeviceState? = nil
    ) throws(OfflineRouteError) -> Decision {
        let target: RoutingTarget
        switch graph.target(for: candidates, explain: explain) {
        case .success(let found): target = found
        case .failure(let error):
            throw OfflineRouteError(
                .noRoute(link: error.link), reasons: error.reasons, trace: explain ? traceStart + error.trace : nil)
        }
        let metadata = DecisionMetadata(id: id, device: nil, source: reportSource ? target.source : nil)
        let resolution: Resolution
        do throws(ResolveError) {
            resolution = try resolver.resolve(
                target.page, state: state, now: now, outcome: target.outcome, metadata: metadata, explain: explain)
        } catch {
            // As the daemon answers: the page or its path does not fit the graph.
            throw OfflineRouteError(.unknownPage(error.subject), reasons: [error.message])
        }
        var decision = resolution.decision
        if explain { decision.trace = traceStart + target.trace + (decision.trace ?? []) }
        return decision
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
