import CoordinatorGraph
import JSON

/// `graph CONFIG --format dot|mermaid|tree`: the coordinator graph as a picture or a tree.
extension Command {
    /// `graph CONFIG [--format F]`.
    public static let graph = Command(
        name: "graph", summary: "Draw the coordinator graph: Graphviz dot, Mermaid, or a tree",
        arguments: [ArgumentSpec("CONFIG", help: "The config file (YAML or JSON), e.g. config/shop.yaml")],
        options: [.graphFormat],
        discussion: """
            Shows each coordinator with its kind, how it runs under its parents (tab, root, presents, starts),
            its pages with their link patterns and back pages, its gates (requires) with an edge to each
            provider, and what finishing it provides. With --json, the graph as notifyd's GetGraph returns it.
              notifyctl graph config/shop.yaml                       a tree (coloured on a terminal)
              notifyctl graph config/shop.yaml --format dot | dot -Tpng -o shop-graph.png
              notifyctl graph config/shop.yaml --format mermaid      paste into a ```mermaid block
            """,
        group: .offline, synopsis: "graph CONFIG [--format dot|mermaid|tree]",
        json: "Print the graph object, as notifyd's GetGraph returns it (instead of --format)"
    ) { invocation, context throws(NotifyctlError) in
        let loaded = try OfflineConfig.load(invocation.arguments[0], context: context)
        for warning in loaded.warnings { context.warn(warning.description) }
        if invocation.wantsJSON {
            context.print(loaded.graph.json.prettyPrinted() + "\n")
            return .success
        }
        let format = invocation.value(.graphFormat).flatMap(GraphRenderer.Format.init(rawValue:)) ?? .tree
        context.print(GraphRenderer(graph: loaded.graph).render(format, style: context.style))
        return .success
    }
}

extension OptionSpec {
    /// `--format F` of `graph`.
    public static let graphFormat = OptionSpec(
        "format", value: .choice(placeholder: "F", choices: GraphRenderer.Format.allCases.map(\.rawValue)),
        help: "dot (Graphviz), mermaid (Markdown), or tree (default; for the terminal)")
}
