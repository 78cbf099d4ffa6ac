import CoordinatorGraph
import DeepLink

/// Draws a coordinator graph: Graphviz `dot`, Mermaid for Markdown, or a tree for the terminal.
///
/// All three show the same things: each coordinator with its kind, how it hangs under its parents (tab, root child,
/// presented modal, started flow), its pages with their link patterns and back pages, its gates (`requires`) with
/// edges to the providers, and what finishing it provides. The output is stable: the same graph gives the same text.
public struct GraphRenderer: Sendable {
    /// The formats of `notifyctl graph --format`.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// Graphviz: `notifyctl graph CONFIG --format dot | dot -Tpng -o graph.png`.
        case dot
        /// A Mermaid flowchart, to paste into a Markdown code block marked `mermaid`.
        case mermaid
        /// A tree drawn with box characters, coloured on a terminal.
        case tree
    }

    /// The graph drawn.
    public let graph: Graph

    /// A renderer for `graph`.
    public init(graph: Graph) {
        self.graph = graph
    }

    /// The graph in `format`; `style` colours the tree (the other formats ignore it).
    public func render(_ format: Format, style: Style = .plain) -> String {
        switch format {
        case .dot: return dot()
        case .mermaid: return mermaid()
        case .tree: return tree(style: style)
        }
    }

    // MARK: - What every format shows

    /// One parent → child edge of the hierarchy.
    struct Edge {
        let parent: String
        let child: String
        /// `root`, `tab`, `tab · root`, `presents`, `starts`.
        let label: String
        /// The child is the parent's root (drawn bold).
        let isRoot: Bool
    }

    /// One gate: a coordinator (or one of its pages) requires a condition that `provider` provides.
    struct Gate {
        let coordinator: String
        /// The page's case name when the page itself requires the condition.
        let page: String?
        let condition: String
        let provider: String
    }

    /// The coordinators that run under `name`: its `children`, then those naming it under `parents`.
    func children(of name: String) -> [String] {
        guard let coordinator = graph.coordinator(name) else { return [] }
        var out = coordinator.children
        for other in graph.coordinators where other.parents.contains(name) && !out.contains(other.name) {
            out.append(other.name)
        }
        return out
    }

    /// Every hierarchy edge, parents in declaration order.
    var edges: [Edge] {
        graph.coordinators.flatMap { parent in
            children(of: parent.name).map { child in
                Edge(parent: parent.name, child: child, label: relation(parent, child), isRoot: parent.root == child)
            }
        }
    }

    /// How `child` runs under `parent`, in a word or two.
    func relation(_ parent: Coordinator, _ child: String) -> String {
        let isRoot = parent.root == child
        if parent.kind == .tabs { return isRoot ? "tab · root" : "tab" }
        if isRoot { return "root" }
        switch graph.coordinator(child)?.kind {
        case .modal: return "presents"
        default: return "starts"
        }
    }

    /// Every gate: coordinator-wide conditions first, then each page's own, each to every provider.
    var gates: [Gate] {
        var out: [Gate] = []
        for coordinator in graph.coordinators {
            for condition in coordinator.requires {
                for provider in graph.providers(of: condition) {
                    out.append(Gate(coordinator: coordinator.name, page: nil, condition: condition, provider: provider))
                }
            }
            for page in coordinator.pages {
                for condition in page.requires where !coordinator.requires.contains(condition) {
                    for provider in graph.providers(of: condition) {
                        out.append(
                            Gate(
                                coordinator: coordinator.name, page: page.declaration.name, condition: condition,
                                provider: provider))
                    }
                }
            }
        }
        return out
    }

    /// The conditions named anywhere, in the order first declared (`requires` or `provides`).
    var conditions: [String] {
        var out: [String] = []
        for coordinator in graph.coordinators {
            for condition in coordinator.requires + coordinator.provides + coordinator.pages.flatMap(\.requires)
            where !out.contains(condition) {
                out.append(condition)
            }
        }
        return out
    }

    /// `/cart/checkout`, `/offers/{id}, /promo/{id}`, or `no link`.
    static func patterns(_ page: PageDefinition) -> String {
        page.patterns.isEmpty ? "no link" : page.patterns.map(\.text).joined(separator: ", ")
    }

    /// `requires session · back cart`, or empty.
    static func pageNotes(_ page: PageDefinition, in coordinator: Coordinator) -> String {
        var notes: [String] = []
        let own = page.requires.filter { !coordinator.requires.contains($0) }
        if !own.isEmpty { notes.append("requires " + own.joined(separator: ", ")) }
        if let back = page.back { notes.append("back " + back) }
        return notes.joined(separator: " · ")
    }

    /// `schemes shop · hosts shop.example.com · fallback catalog.home`.
    var appSummary: String {
        var parts: [String] = []
        if !graph.app.schemes.isEmpty { parts.append("schemes " + graph.app.schemes.joined(separator: ", ")) }
        if !graph.app.hosts.isEmpty { parts.append("hosts " + graph.app.hosts.joined(separator: ", ")) }
        if let fallback = graph.app.fallback { parts.append("fallback " + fallback.description) }
        return parts.joined(separator: " · ")
    }
}
