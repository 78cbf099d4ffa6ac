import CoordinatorGraph
import DeepLink
import JSON
import Varlink

/// The loaded config with what is derived from it; replaced whole on reload.
final class ActiveConfig: Sendable {
    let generation: Int
    let graph: Graph
    let resolver: Resolver
    let reader: PayloadReader
    let warnings: [String]
    /// What it was loaded from, for ``copy()``.
    private let loaded: LoadedConfig

    init(_ loaded: LoadedConfig, generation: Int) {
        self.loaded = loaded
        self.generation = generation
        graph = loaded.graph
        resolver = Resolver(graph: loaded.graph)
        reader = PayloadReader(
            options: loaded.graph.payloadOptions)
        warnings = loaded.warnings.map(\.description)
    }

    /// The same config, generation included, built from a graph of its own (``LoadedConfig/refrozen()``): a lane
    /// serves from such a copy, so the loops never count references to the same graph, resolver or reader objects
    /// (an increment of a count another CPU just changed waits for its cache line).
    func copy() -> ActiveConfig {
        ActiveConfig(loaded.refrozen(), generation: generation)
    }
}

extension ActiveConfig {
    /// The payload reader for a call's `format` (`nil`: detected) and `strict`. Inlined: a call copies the reader
    /// out and destroys the copy after (≈ 80 instructions a request).
    @inline(__always)
    func reader(format: String?, strict: Bool) throws(VarlinkError) -> PayloadReader {
        guard format != nil || strict else { return reader }
        var options = reader.options
        if let format {
            guard let forced = PayloadFormat(rawValue: format), forced != .link else {
                throw VarlinkError.invalidParameter("format")
            }
            options.format = forced
        }
        options.strict = strict
        return PayloadReader(options: options)
    }
}
