import CoordinatorGraph
import DeepLink
import JSON
import Varlink

/// Why Route or Resolve found no target: what the main loop answers and journals, and what makes a lane leave the
/// call to the main loop.
enum RoutingRefusal: Error {
    /// The `format` or `strict` parameter asks for no reader there is.
    case reader(VarlinkError)
    /// The payload (or its headers) could not be read.
    case payload(PayloadError)
    /// The payload was read, in `format`, and its links lead nowhere in the graph.
    case noRoute(TargetError, format: PayloadFormat)
}

extension ActiveConfig {
    /// The target of a `Route` call: its payload, read by `read` (from a tree or a tape) with the reader the
    /// parameters ask for, matched against the graph; and the payload's format.
    func routeTarget(
        _ p: RouteParameters, read: (PayloadReader, PushHeaders, Bool) throws(PayloadError) -> PayloadReading
    ) -> Result<(target: RoutingTarget, format: PayloadFormat), RoutingRefusal> {
        let reader: PayloadReader
        do {
            reader = try self.reader(format: p.format, strict: p.strict)
        } catch {
            return .failure(.reader(error))
        }
        let reading: PayloadReading
        do {
            let headers = try p.headers.map { (pairs) throws(PayloadError) in try PushHeaders(pairs) } ?? PushHeaders()
            reading = try read(reader, headers, p.explain)
        } catch {
            return .failure(.payload(error))
        }
        switch graph.target(for: reading, explain: p.explain) {
        case .success(let target): return .success((target, reading.format))
        case .failure(let error): return .failure(.noRoute(error, format: reading.format))
        }
    }

    /// The target of a `Resolve` call's link. Its source names the link (format and field `link`): stored with the
    /// decision, it can be replayed.
    func resolveTarget(_ link: String, explain: Bool) -> Result<RoutingTarget, TargetError> {
        graph.target(for: [LinkCandidate(format: .link, field: "link", target: .link(link))], explain: explain)
    }
}

/// What making a decision and its text takes on one loop, the main loop's or a lane's: the loop's decision ids, the
/// writer a decision's text is written into (its buffer kept from one to the next), and the last times written
/// (the next decisions are mostly made in the same millisecond).
struct DecisionDesk: ~Copyable {
    var ids = DecisionIDs()
    var writer = ByteWriter(capacity: 2048)
    var timestampTexts = TimestampTexts()

    /// Walks `config`'s graph to `target` from `state` (none: a cold start) for `device`, made `now`.
    mutating func resolve(
        _ target: RoutingTarget, from state: ResolvedState?, device: String?, config: ActiveConfig, now: Timestamp,
        explain: Bool
    ) throws(ResolveError) -> Resolution {
        let id = ids.make(milliseconds: now.millisecondsSince1970)
        // The metadata made here moves into the decision.
        return try config.resolver.decide(
            target, from: state, now: now, metadata: DecisionMetadata(id: id, device: device, source: target.source),
            explain: explain)
    }

    /// Writes a dry run's text into ``writer``, where the reply and the books copy it from (it gets no text of its
    /// own).
    mutating func writeDryRun(_ decision: borrowing Decision) {
        writer.truncate(to: 0)
        decision.writeJSON(into: &writer, timestamps: &timestampTexts)
    }

    /// The text of a decision that is kept, made with ``writer``'s buffer.
    mutating func text(of decision: borrowing Decision) -> JSONText {
        decision.jsonText(reusing: &writer, timestamps: &timestampTexts)
    }
}
