import DeepLink

/// A place in a config file: `shop.yaml:42:7`.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file name as given to the loader.
    public let file: String
    /// 1-based line.
    public let line: Int
    /// 1-based column.
    public let column: Int

    /// A location from its parts.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}

/// The kind of a coordinator, which decides how the resolver enters and leaves it.
public enum CoordinatorKind: String, Sendable, Hashable, CaseIterable {
    /// The root; exactly one.
    case app
    /// Children are tabs: switching tabs stops nothing.
    case tabs
    /// A navigation stack of pages.
    case stack
    /// Presented over the current context.
    case modal
    /// A linear multi-step flow (onboarding): pages are steps, finishing it ends the flow.
    case flow
}

/// One declared page of a coordinator: its case, its link patterns, its gates and its back page.
public final class PageDefinition: Sendable {
    /// `coordinator.case`.
    public let id: PageID
    /// The Swift case with typed parameters.
    public let declaration: CaseDeclaration
    /// Link patterns in declaration order; the first is canonical.
    public let patterns: [LinkPattern]
    /// Conditions this page needs, in declared order (the coordinator's own come first, see ``Graph/requirements(of:)``).
    public let requires: [String]
    /// The case name of the page beneath this one in a synthesized back stack (same coordinator).
    public let back: String?
    /// Where the page is declared.
    public let location: SourceLocation

    /// A page definition from its parts.
    public init(
        id: PageID, declaration: CaseDeclaration, patterns: [LinkPattern], requires: [String] = [], back: String? = nil,
        location: SourceLocation
    ) {
        self.id = id
        self.declaration = declaration
        self.patterns = patterns
        self.requires = requires
        self.back = back
        self.location = location
    }
}

/// A coordinator of the app: a node of the graph.
public struct Coordinator: Sendable {
    /// Its name, unique in the graph (`cart`).
    public let name: String
    /// How it behaves.
    public let kind: CoordinatorKind
    /// Children declared under `children:` (tabs of a `tabs`, child coordinators of `app`, …).
    public let children: [String]
    /// The active child on cold start (`app`, `tabs`), when declared.
    public let root: String?
    /// Parents declared under `parents:` (for coordinators reachable under several parents).
    public let parents: [String]
    /// Conditions every page here needs, in declared order.
    public let requires: [String]
    /// Conditions that finishing this coordinator satisfies.
    public let provides: [String]
    /// Pages in declaration order; for a `stack` the first is its root page.
    public let pages: [PageDefinition]
    /// Where the coordinator is declared.
    public let location: SourceLocation

    /// A coordinator from its parts.
    public init(
        name: String, kind: CoordinatorKind, children: [String] = [], root: String? = nil, parents: [String] = [],
        requires: [String] = [], provides: [String] = [], pages: [PageDefinition] = [], location: SourceLocation
    ) {
        self.name = name
        self.kind = kind
        self.children = children
        self.root = root
        self.parents = parents
        self.requires = requires
        self.provides = provides
        self.pages = pages
        self.location = location
    }
}

/// The `app:` section: name, allowed schemes and hosts, fallback page.
public struct AppSettings: Sendable {
    /// The app's display name.
    public let name: String
    /// Custom schemes (`shop`), lower-cased.
    public let schemes: [String]
    /// Universal-link hosts (https only); `*.example.com` allowed.
    public let hosts: [String]
    /// The page used when no pattern matches.
    public let fallback: PageExpression?
    /// `caseInsensitivePaths`: literal path text compared ignoring the case of ASCII letters.
    public let caseInsensitivePaths: Bool

    /// Settings from their parts.
    public init(
        name: String, schemes: [String], hosts: [String], fallback: PageExpression?, caseInsensitivePaths: Bool = false
    ) {
        self.name = name
        self.schemes = schemes
        self.hosts = hosts
        self.fallback = fallback
        self.caseInsensitivePaths = caseInsensitivePaths
    }
}

/// The frozen coordinator graph: validated, indexed, with its compiled link matcher.
///
/// Built once by ``ConfigLoader`` (or directly from validated parts in tests) and shared
/// read-only by every request; it never changes, a reload builds a new one.
public final class Graph: Sendable {
    /// The `app:` section.
    public let app: AppSettings
    /// Paths to payload keys that carry a link, in lookup order (`links.keys`), as written (``LinkKeyPath``).
    public let linkKeys: [String]
    /// What a tap on a visible notification without a usable link leads to (`links.unlinked`, default `open`).
    public let unlinked: PayloadOptions.Unlinked
    /// How long a pending (gated) page waits for its gate, in seconds (`links.pendingExpiry`, default 600).
    public let pendingExpirySeconds: Int
    /// Enums declared under `types:`.
    public let types: [String: [String]]
    /// `aps.category` / `click_action` → page.
    public let categories: [String: PageExpression]
    /// Every coordinator in declaration order.
    public let coordinators: [Coordinator]
    /// All page patterns compiled together.
    public let matcher: Matcher

    let indexByName: [String: Int]
    let parentsByName: [String: [String]]
    let pagesByID: [PageID: PageDefinition]

    /// A graph from validated parts. The caller (the loader) has checked every reference;
    /// an unknown name here is a programming error.
    public init(
        app: AppSettings, linkKeys: [String] = ["deeplink", "url", "link"], pendingExpirySeconds: Int = 600,
        unlinked: PayloadOptions.Unlinked = .open, types: [String: [String]] = [:],
        categories: [String: PageExpression] = [:], coordinators: [Coordinator]
    ) {
        self.app = app
        self.linkKeys = linkKeys
        self.unlinked = unlinked
        self.pendingExpirySeconds = pendingExpirySeconds
        self.types = types
        self.categories = categories
        self.coordinators = coordinators
        var index: [String: Int] = [:]
        var pages: [PageID: PageDefinition] = [:]
        var routes: [Route] = []
        for (i, c) in coordinators.enumerated() {
            index[c.name] = i
            for p in c.pages {
                pages[p.id] = p
                for pattern in p.patterns {
                    routes.append(Route(page: p.id, declaration: p.declaration, pattern: pattern))
                }
            }
        }
        var parents: [String: [String]] = [:]
        for c in coordinators {
            for child in c.children where !(parents[child]?.contains(c.name) ?? false) {
                parents[child, default: []].append(c.name)
            }
        }
        for c in coordinators {
            for p in c.parents where !(parents[c.name]?.contains(p) ?? false) {
                parents[c.name, default: []].append(p)
            }
        }
        self.indexByName = index
        self.pagesByID = pages
        self.parentsByName = parents
        self.matcher = Matcher(
            routes: routes,
            policy: LinkPolicy(schemes: app.schemes, hosts: app.hosts, caseInsensitivePaths: app.caseInsensitivePaths))
    }

    /// The root coordinator (kind `app`).
    public var root: Coordinator {
        coordinators.first(where: { $0.kind == .app })!
    }

    /// The coordinator named `name`, if declared.
    public func coordinator(_ name: String) -> Coordinator? {
        indexByName[name].map { coordinators[$0] }
    }

    /// The page with this id, if declared.
    public func page(_ id: PageID) -> PageDefinition? {
        pagesByID[id]
    }

    /// The coordinators under which `name` can run: those listing it in `children`, then its own `parents`,
    /// in declaration order.
    public func parents(of name: String) -> [String] {
        parentsByName[name] ?? []
    }

    /// Coordinators whose `provides` includes `condition`, in declaration order.
    public func providers(of condition: String) -> [String] {
        coordinators.filter { $0.provides.contains(condition) }.map(\.name)
    }

    /// Every condition the page needs: its coordinator's `requires` then the page's own, without repeats.
    public func requirements(of page: PageID) -> [String] {
        var out: [String] = []
        for r in (coordinator(page.coordinator)?.requires ?? []) + (self.page(page)?.requires ?? [])
        where !out.contains(r) {
            out.append(r)
        }
        return out
    }
}
