import CoordinatorGraph
import DeepLink
import JSON
import Varlink

/// Makes, without a daemon, the decision notifyd would give a device it has never seen (a cold start).
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
            throw OfflineRouteError(.noRoute(link: error.link, reasons: error.reasons), trace: explain ? error.trace : nil)
        }
        return (try decide(target, explain: explain, id: id, now: now), reading.warnings)
    }

    /// The decision for a link, as `Resolve` gives it (no source).
    public func resolve(_ link: String, explain: Bool, id: String, now: Timestamp) throws(OfflineRouteError) -> Decision
    {
        let candidate = LinkCandidate(format: .link, field: "link", target: .link(link))
        switch graph.target(for: [candidate], explain: explain) {
        case .success(let found):
            let target = RoutingTarget(
                page: found.page, outcome: found.outcome, source: nil, trace: found.trace, warnings: found.warnings)
            return try decide(target, explain: explain, id: id, now: now)
        case .failure(let error):
            throw OfflineRouteError(.noRoute(link: error.link, reasons: error.reasons), trace: explain ? error.trace : nil)
        }
    }

    func decide(
        _ target: RoutingTarget, explain: Bool, id: String, now: Timestamp
    ) throws(OfflineRouteError) -> Decision {
        let metadata = DecisionMetadata(id: id, device: nil, source: target.source)
        do throws(ResolveError) {
            return try resolver.decide(target, from: nil, now: now, metadata: metadata, explain: explain).decision
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
