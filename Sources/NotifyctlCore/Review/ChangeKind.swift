import CoordinatorGraph
import DeepLink
import JSON

/// Why a source leads somewhere else under a candidate config: the kind of config change behind it, as far as the
/// two destinations and the two configs tell.
///
/// Cases are listed in the order the changes are printed: what stops working first, then what goes elsewhere, then
/// what only changes on the way, then what starts working.
public enum ChangeKind: String, Sendable, Hashable, CaseIterable {
    /// A universal link's host is no longer allowed: the link is refused, or opens the fallback page.
    case hostRemoved = "host-removed"
    /// A custom scheme is no longer allowed: the link is refused, or opens the fallback page.
    case schemeRemoved = "scheme-removed"
    /// The app no longer has a fallback page (or it cannot be built): a link no pattern matches is refused.
    case fallbackRemoved = "fallback-removed"
    /// Refused now for another reason.
    case nowRefused = "now-refused"
    /// No pattern matches the link any more: it opens the fallback page.
    case patternRemoved = "pattern-removed"
    /// The page it opened is gone, and the link opens another page the current config has.
    case pageRemoved = "page-removed"
    /// The page it opened is gone, and the page it opens now is new: the same page under another name.
    case pageRenamed = "page-renamed"
    /// The page it opened is still there, but a pattern now takes the link to another page.
    case patternMoved = "pattern-moved"
    /// The same page, with other arguments (a changed type, default or binding).
    case argumentsChanged = "arguments-changed"
    /// The page is now gated: a `requires` was added (or its provider changed).
    case gateAdded = "gate-added"
    /// The page is no longer gated.
    case gateRemoved = "gate-removed"
    /// Another flow, or another condition, is in front of the page.
    case gateChanged = "gate-changed"
    /// The same page, reached through other coordinators.
    case pathChanged = "path-changed"
    /// Both configs use the fallback page, and it is another page now.
    case fallbackChanged = "fallback-changed"
    /// A pattern now matches a link that opened the fallback page.
    case patternAdded = "pattern-added"
    /// A link refused before now opens the fallback page.
    case fallbackAdded = "fallback-added"
    /// A universal link's host is newly allowed.
    case hostAdded = "host-added"
    /// A custom scheme is newly allowed.
    case schemeAdded = "scheme-added"
    /// Refused before, routed now for another reason.
    case nowRouted = "now-routed"
    /// Any other change of outcome (e.g. to or from an outcome this notifyctl does not know).
    case outcomeChanged = "outcome-changed"

    /// The heading of the kind's group: `gate added`.
    public var title: String { rawValue.replacingOccurrences(of: "-", with: " ") }

    /// The kind of change from `before` (the current config's, or the stored decision) to `after` (the
    /// candidate's), or `nil` when both lead to the same place. `link` is the link routed, when there was one: it
    /// tells a removed host or scheme from other refusals.
    public static func of(
        before: Destination, after: Destination, link: String?, current: ConfigFacts, candidate: ConfigFacts
    ) -> ChangeKind? {
        guard !before.differences(from: after).isEmpty else { return nil }
        let fallback = Decision.Outcome.fallback.rawValue
        // A link's origin let in by one config only: refused by the other, or sent to its fallback page with the
        // refusal as a warning.
        if let link {
            switch (current.refusal(of: link), candidate.refusal(of: link)) {
            case (nil, .some(let refused)): return refused == .hostNotAllowed ? .hostRemoved : .schemeRemoved
            case (.some(let refused), nil): return refused == .hostNotAllowed ? .hostAdded : .schemeAdded
            default: break
            }
        }
        if after.isRefused { return before.outcome == fallback ? .fallbackRemoved : .nowRefused }
        if before.isRefused { return after.outcome == fallback ? .fallbackAdded : .nowRouted }
        switch (before.outcome == fallback, after.outcome == fallback) {
        case (true, true) where before.pageDescription != after.pageDescription: return .fallbackChanged
        case (false, true): return .patternRemoved
        case (true, false): return .patternAdded
        default: break
        }
        if let old = before.pageID, let new = after.pageID, old != new {
            switch (candidate.declares(old), current.declares(new)) {
            case (false, false): return .pageRenamed
            case (false, true): return .pageRemoved
            default: return .patternMoved
            }
        }
        if before.pageDescription != after.pageDescription { return .argumentsChanged }
        switch (before.gate, after.gate) {
        case (nil, .some): return .gateAdded
        case (.some, nil): return .gateRemoved
        case (.some(let old), .some(let new)) where old != new: return .gateChanged
        default: break
        }
        if before.path != after.path { return .pathChanged }
        return .outcomeChanged
    }
}

/// What the classification needs to know of a config: its pages and which links it lets in.
///
/// Made from a loaded graph, or from the graph a daemon serves (`GetGraph`), whose config file may not be at hand.
public struct ConfigFacts: Sendable {
    /// Every page id the config declares.
    public let pageIDs: Set<String>
    /// The schemes and hosts it accepts.
    public let policy: LinkPolicy

    /// The facts of a loaded config.
    public init(graph: Graph) {
        pageIDs = Set(graph.coordinators.flatMap { $0.pages.map(\.id.description) })
        policy = graph.matcher.policy
    }

    /// The facts of the graph object `GetGraph` returns; what it lacks is left empty.
    public init(graphJSON graph: JSON) {
        var ids: Set<String> = []
        for coordinator in graph["coordinators"]?.arrayValue ?? [] {
            for page in coordinator["pages"]?.arrayValue ?? [] {
                if let id = page["id"]?.stringValue { ids.insert(id) }
            }
        }
        pageIDs = ids
        let app = graph["app"]
        policy = LinkPolicy(
            schemes: app?["schemes"]?.arrayValue?.compactMap(\.stringValue) ?? [],
            hosts: app?["hosts"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }

    /// True when the config declares the page `id`.
    public func declares(_ id: String) -> Bool { pageIDs.contains(id) }

    /// Why the config refuses `link` by its scheme or host (`schemeNotAllowed` or `hostNotAllowed`), or `nil` when
    /// it lets the link in (a malformed link is not refused for its origin).
    public func refusal(of link: String) -> LinkError.Code? {
        do throws(LinkError) {
            _ = try Link.parse(link, policy: policy)
            return nil
        } catch {
            return error.code == .schemeNotAllowed || error.code == .hostNotAllowed ? error.code : nil
        }
    }
}
