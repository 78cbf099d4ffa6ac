import CoordinatorGraph
import DeepLink
import Foundation
import JSON

/// The links (and category payloads) `notifyctl diff` routes with both configs.
///
/// Given with `--links FILE`, or synthesized from the configs themselves: every page's example values
/// (``ExampleValues``) printed through each of its patterns by the canonical-link printer
/// (``Matcher/links(for:origin:)``), each page once more on every other scheme and host either config allows (a
/// wildcard host as its `www.` subdomain), a link no pattern matches on each of them (the fallback), and an APNs
/// payload for every category. Links printed twice are routed once.
public struct LinkCorpus: Sendable {
    /// One source to route.
    public enum Item: Sendable, Hashable {
        /// A link, routed as `Resolve` routes it.
        case link(String)
        /// An APNs payload naming a category (`aps.category`), with a value for each key its page reads.
        case category(String, payload: JSONObject)

        /// The link, when the item is one.
        public var link: String? {
            if case .link(let link) = self { return link }
            return nil
        }

        /// How the item is shown: the link, or `category NAME`.
        public var label: String {
            switch self {
            case .link(let link): return link
            case .category(let name, _): return "category " + name
            }
        }
    }

    /// The sources, each once, in the order they are routed and printed.
    public private(set) var items: [Item] = []
    /// How many times each of ``items`` was given (a links file may repeat a link: each is a notification).
    public private(set) var counts: [Int] = []
    private var index: [Item: Int] = [:]

    /// An empty corpus.
    public init() {}

    /// Every source given, repeats included.
    public var total: Int { counts.reduce(0, +) }

    /// Adds `item`; with `counting`, a repeat counts once more (else it is only left out).
    public mutating func add(_ item: Item, counting: Bool = false) {
        if let at = index[item] {
            if counting { counts[at] += 1 }
            return
        }
        index[item] = items.count
        items.append(item)
        counts.append(1)
    }

    /// The path of the link that no pattern is expected to match, on each origin: its fallback decision.
    static let unmatchedPath = "/notifyd-diff/no-such-page"

    /// The corpus synthesized from `graphs` (the current config's and the candidate's).
    public static func synthesized(from graphs: [Graph]) -> LinkCorpus {
        var corpus = LinkCorpus()
        for graph in graphs {
            for page in graph.coordinators.flatMap(\.pages) where !page.patterns.isEmpty {
                for example in ExampleValues.pages(page.id, page.declaration) {
                    for link in graph.matcher.links(for: example) { corpus.add(.link(link)) }
                }
            }
        }
        // An app whose paths ignore case gets each page's first link in capitals too, so that turning the option on
        // or off is reviewed.
        for graph in graphs where graph.matcher.policy.caseInsensitivePaths {
            for page in graph.coordinators.flatMap(\.pages) where !page.patterns.isEmpty {
                guard let example = ExampleValues.pages(page.id, page.declaration).first,
                    let link = graph.matcher.links(for: example).first
                else { continue }
                corpus.add(.link(caseVariant(link)))
            }
        }
        var origins: [Link.Origin] = []
        for origin in graphs.flatMap(Self.origins) where !origins.contains(origin) { origins.append(origin) }
        for origin in origins {
            for graph in graphs {
                for page in graph.coordinators.flatMap(\.pages) where !page.patterns.isEmpty {
                    guard let example = ExampleValues.pages(page.id, page.declaration).first,
                        let link = graph.matcher.links(for: example, origin: origin).first
                    else { continue }
                    corpus.add(.link(link))
                }
            }
            corpus.add(.link(origin.link(unmatchedPath)))
        }
        var categories: [String] = []
        for graph in graphs {
            for name in graph.categories.keys.sorted() where !categories.contains(name) { categories.append(name) }
        }
        for name in categories { corpus.add(.category(name, payload: categoryPayload(name, graphs: graphs))) }
        return corpus
    }

    /// `link` with the ASCII letters before its query in capitals; the query (whose keys are case-sensitive) as it is.
    static func caseVariant(_ link: String) -> String {
        let query = link.firstIndex(of: "?") ?? link.endIndex
        let path = link[..<query].utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
        return String(decoding: path, as: UTF8.self) + link[query...]
    }

    /// Where links of `graph` may start: each scheme, each host (`*.example.com` as `www.example.com`).
    static func origins(of graph: Graph) -> [Link.Origin] {
        let policy = graph.matcher.policy
        let hosts = policy.hosts.map { $0.hasPrefix("*.") ? "www" + $0.dropFirst() : $0 }
        return policy.schemes.map(Link.Origin.scheme) + hosts.map(Link.Origin.host)
    }

    /// An APNs payload with `aps.category` `name` and, at the top level, an example value (as text, as payloads
    /// carry them) for each `$key` the category's page reads in any of `graphs`.
    static func categoryPayload(_ name: String, graphs: [Graph]) -> JSONObject {
        var payload: JSONObject = ["aps": ["category": .string(name)]]
        for graph in graphs {
            guard let expression = graph.categories[name], let page = graph.page(expression.page) else { continue }
            for (label, argument) in expression.arguments {
                guard case .payloadKey(let key) = argument, payload[key] == nil,
                    let type = page.declaration.parameter(label)?.type, let value = ExampleValues.of(type).first
                else { continue }
                payload[key] = .string(value.linkText)
            }
        }
        return payload
    }

    /// The links of a file: one a line, each routed once and counted as often as it is given; blank lines and
    /// lines starting with `#` are skipped, spaces around a link are not part of it.
    public static func read(_ bytes: [UInt8], name: String) throws(NotifyctlError) -> LinkCorpus {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .cannotRead(name, "it is not UTF-8 text; give one link a line")
        }
        var corpus = LinkCorpus()
        for line in text.split(whereSeparator: \.isNewline) {
            let link = line.trimmingCharacters(in: .whitespaces)
            if link.isEmpty || link.hasPrefix("#") { continue }
            corpus.add(.link(link), counting: true)
        }
        return corpus
    }
}
