import CoordinatorGraph
import DeepLink
import Foundation
import JSON
import NotifyctlCore
import Testing

/// The generated Swift, compiled with the toolchain's `swiftc`, opens the same page as notifyd's matcher for every
/// link of a corpus, and prints the same canonical link.
///
/// One compilation per graph (config/shop.yaml and a generated graph of several hundred pages), `-Onone`; the driver
/// reads the corpus from a file and prints one line per link, which is compared with the daemon's answer.
@Suite(.serialized, .enabled(if: SwiftToolchain.swiftc != nil, "needs swiftc (set SWIFTC or put it on PATH)"))
struct CodegenAgreementTests {
    @Test func shopConfigAgreesWithTheDaemonOnEveryLink() throws {
        let graph = try CodegenCorpus.load(path: "config/shop.yaml")
        let corpus = CodegenCorpus.shopLinks + CodegenCorpus.canonicalLinks(graph) + CodegenCorpus.mutations(graph)
        try expectAgreement(graph, corpus: corpus, minimumMatches: 60)
    }

    @Test func largeGeneratedGraphAgreesWithTheDaemonOnEveryLink() throws {
        var generator = LargeGraphGenerator(seed: 0x5EED_C0DE)
        let text = generator.config(coordinators: 12, pagesPerCoordinator: 30)
        let graph = try CodegenCorpus.load(text: text, file: "large.json")
        #expect(graph.coordinators.reduce(0) { $0 + $1.pages.count } >= 300)
        // Every third canonical link and every fifth mutation keep the run short; the generated links add variety.
        var corpus = CodegenCorpus.canonicalLinks(graph).enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        corpus += CodegenCorpus.mutations(graph).enumerated().filter { $0.offset % 5 == 0 }.map(\.element)
        corpus += generator.links(for: graph, count: 3000)
        // `String` parameters and catch-alls at the root take almost any path: refusals come from schemes, hosts and
        // escapes here, and from types and literals in the graph below.
        corpus += generator.nonMatchingLinks(for: graph, count: 2400)
        let counts = try expectAgreement(graph, corpus: corpus, minimumMatches: 1500)
        #expect(
            counts.refused * 100 >= corpus.count * 15, "only \(counts.refused) of \(corpus.count) links are refused")
    }

    @Test func largeGraphOfTypedParametersAgreesWithTheDaemonOnValuesOfTheWrongType() throws {
        var generator = LargeGraphGenerator(seed: 0x0B0E_7E5E)
        generator.allowsStrings = false
        let text = generator.config(coordinators: 6, pagesPerCoordinator: 30)
        let graph = try CodegenCorpus.load(text: text, file: "typed.json")
        var corpus = CodegenCorpus.canonicalLinks(graph).enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        corpus += generator.links(for: graph, count: 1500)
        let refusals = generator.nonMatchingLinks(for: graph, count: 1000, kinds: [.wrongType, .unknownLiteral])
        #expect(refusals.count == 1000, "only \(refusals.count) links with a wrong type or literal are refused")
        corpus += refusals
        let counts = try expectAgreement(graph, corpus: corpus, minimumMatches: 800)
        #expect(
            counts.refused * 100 >= corpus.count * 15, "only \(counts.refused) of \(corpus.count) links are refused")
    }

    /// Keywords as names, non-ASCII names and literals, escapes in string defaults, a root pattern, a UUID default.
    static let unusualConfig = #"""
        {
          "version": 1,
          "app": { "name": "Ünïcode \"App\"", "schemes": ["x-app.v2"], "hosts": ["*.example.org", "example.org"] },
          "types": { "Kind": ["in", "default", "plain"], "Größe": ["klein", "groß"] },
          "coordinators": {
            "app": { "kind": "app", "children": ["main", "modal_flow"], "root": "main" },
            "main": { "kind": "tabs", "children": ["default", "straße"], "root": "default" },
            "default": {
              "kind": "stack",
              "pages": {
                "home": "/",
                "item(kind: Kind = default, inout: Int = -3)": "/items/{kind}?n={inout}",
                "text(value: String = \"a \\\"quoted\\\" \\\\ back\\tslash\", for: Bool = true)": "/text/{value}?for={for}",
                "uuid(id: UUID = \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\")": ["/u/{id}", "/u"]
              }
            },
            "straße": {
              "kind": "stack",
              "pages": { "größe(g: Größe)": "/gr%C3%B6%C3%9Fe/{g}", "rest(path: String)": "/r%20r/{path...}" }
            },
            "modal_flow": { "kind": "modal", "pages": { "step": "/step" } }
          }
        }
        """#

    @Test func unusualNamesAndValuesAgreeWithTheDaemon() throws {
        let graph = try CodegenCorpus.load(text: Self.unusualConfig, file: "unusual.json")
        var corpus = CodegenCorpus.canonicalLinks(graph) + CodegenCorpus.mutations(graph)
        corpus += [
            "/", "x-app.v2://", "X-App.V2:/", "https://a.example.org/u", "https://example.org/u/x",
            "https://a.b.example.org/u/e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "/text/%22q%22?for=false",
            "/text/x?for=true", "/gr%C3%B6%C3%9Fe/gro%C3%9F", "/größe/klein", "/gro%CC%88%C3%9Fe/klein",
            "/r%20r/a/b", "/r r/a", "/items/in?n=-3", "/items/default?n=4", "/items/in", "/step",
        ]
        try expectAgreement(graph, corpus: corpus, minimumMatches: 40)
    }

    /// `Double` parameters (in the path, in the query with a default, after an `Int` of the same shape) and
    /// Booleans spelled `1` and `0`: the generated parser reads and prints numbers as the daemon does.
    static let numbersConfig = #"""
        {
          "version": 1,
          "app": { "name": "Map", "schemes": ["map"] },
          "coordinators": {
            "app": { "kind": "app", "children": ["map"], "root": "map" },
            "map": {
              "kind": "stack",
              "pages": {
                "home": "/",
                "at(lat: Double, lon: Double, zoom: Double = 1.5, labels: Bool = true)":
                  "/at/{lat}/{lon}?zoom={zoom}&labels={labels}",
                "tile(n: Int)": "/t/{n}",
                "scale(x: Double = -0.25)": ["/t/{x}", "/scale"]
              }
            }
          }
        }
        """#

    @Test func numbersAndBooleansAgreeWithTheDaemon() throws {
        let graph = try CodegenCorpus.load(text: Self.numbersConfig, file: "numbers.json")
        var corpus = CodegenCorpus.canonicalLinks(graph) + CodegenCorpus.mutations(graph)
        for text in ["0", "1", "-1.5", "+3", "2.50", "1e3", "1E-2", "1e+16", "007.5", "-0", ".5", "5.", "nan", "1e999"]
        {
            corpus += ["/at/\(text)/\(text)", "/at/1/2?zoom=\(text)", "/t/\(text)"]
        }
        for text in ["true", "false", "1", "0", "TRUE", "01", "yes"] { corpus.append("/at/1/2?labels=\(text)") }
        corpus += ["/t/9223372036854775807", "/t/9223372036854775808", "/at/1/2?zoom=1e%2B2", "/scale"]
        try expectAgreement(graph, corpus: corpus, minimumMatches: 40)
    }

    /// List parameters bound by repeated query keys, with and without defaults, of every element type.
    static let listsConfig = #"""
        {
          "version": 1,
          "app": { "name": "Lists", "schemes": ["lists"], "hosts": ["lists.example.com"] },
          "types": { "Sort": ["price", "rating"] },
          "coordinators": {
            "app": { "kind": "app", "children": ["catalog"], "root": "catalog" },
            "catalog": {
              "kind": "stack",
              "pages": {
                "search(tags: [String] = [], sizes: [Int] = [], sort: Sort = price)":
                  "/search?tag={tags}&size={sizes}&sort={sort}",
                "compare(ids: [UUID], weights: [Double] = [1, 0.5], flags: [Bool] = [])":
                  "/compare?id={ids}&w={weights}&f={flags}",
                "pick(sorts: [Sort] = [price])": ["/pick?s={sorts}", "/p/{sorts}/x"]
              }
            }
          }
        }
        """#

    @Test func listsAgreeWithTheDaemon() throws {
        // The second pattern of `pick` binds a list in the path: the config loads only without it.
        let text = Self.listsConfig.replacingOccurrences(
            of: #"["/pick?s={sorts}", "/p/{sorts}/x"]"#, with: #""/pick?s={sorts}""#)
        let graph = try CodegenCorpus.load(text: text, file: "lists.json")
        let uuid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        var corpus = CodegenCorpus.canonicalLinks(graph) + CodegenCorpus.mutations(graph)
        corpus += [
            "/search?tag=b&tag=a&tag=b", "/search?tag=&tag=a+b&size=1&sort=rating&size=-2", "/search?size=1&size=x",
            "/compare?id=\(uuid)", "/compare?id=\(uuid)&id=\(uuid.lowercased())&w=2.5&w=-1&f=1&f=false",
            "/compare", "/compare?id=x", "/compare?id=\(uuid)&f=yes", "/pick", "/pick?s=rating&s=price",
            "/pick?s=Price", "lists://search?tag=%26&tag=%2B",
        ]
        try expectAgreement(graph, corpus: corpus, minimumMatches: 10)
    }

    /// The generated decoder reads a page object of notifyd's decisions whose list arguments are arrays (of
    /// strings, numbers and Booleans), and a lone value where the list has one item.
    @Test func theDecoderReadsListArgumentsAsArrays() throws {
        let text = Self.listsConfig.replacingOccurrences(
            of: #"["/pick?s={sorts}", "/p/{sorts}/x"]"#, with: #""/pick?s={sorts}""#)
        let graph = try CodegenCorpus.load(text: text, file: "lists.json")
        let uuid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        let links = [
            "/search?tag=b&tag=a&size=3&size=-1&sort=rating", "/compare?id=\(uuid)&w=2.5&w=-1&f=1&f=false", "/pick",
            "/search",
        ]
        let pages = try links.map { try #require(graph.matcher.match($0).page, "\($0)") }
        var objects = pages.map(\.json.serialized)
        objects.append(#"{"id": "catalog.search", "arguments": {"tags": "lone", "sizes": [1.0]}}"#)
        objects.append(#"{"id": "catalog.compare", "arguments": {"ids": ["x"]}}"#)
        let main = """
            import Foundation
            for line in try String(contentsOfFile: CommandLine.arguments[1], encoding: .utf8).split(separator: "\\n") {
                do {
                    let page = try JSONDecoder().decode(AppLink.self, from: Data(line.utf8))
                    print(page.description + "\\t" + (page.link ?? "-"))
                } catch {
                    print("error")
                }
            }

            """
        let directory = try SwiftToolchain.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("pages.jsonl")
        try Data(objects.joined(separator: "\n").utf8).write(to: input)
        let source = try SwiftGenerator(graph: graph, options: .init(sourceName: "lists.json")).generate()
        let executable = try SwiftToolchain.compile(["AppLink.swift": source, "main.swift": main], in: directory)
        let run = try SwiftToolchain.run(executable, [input.path], in: directory)
        try #require(run.status == 0, "the driver failed: \(run.errors)")
        var expected = pages.map { "\($0.description)\t\(graph.matcher.link(for: $0) ?? "-")" }
        expected.append(
            #"catalog.search(tags: ["lone"], sizes: [1], sort: .price)"# + "\t"
                + "lists://search?tag=lone&size=1")
        expected.append("error")
        #expect(run.output.split(separator: "\n").map(String.init) == expected)
    }

    /// The codes of the errors `config` is refused with (empty when it loads).
    static func refusals(_ config: String) -> [String] {
        guard case .failure(let failure) = ConfigLoader.load(Array(config.utf8), file: "config.json") else { return [] }
        return failure.errors.map(\.code)
    }

    @Test func aListInThePathAndAnOptionalSegmentBeforeAnotherAreRefused() {
        #expect(Self.refusals(Self.listsConfig) == ["pattern-parameter-type"])
        #expect(Self.refusals(Self.optionalConfig) == ["invalid-pattern"])
        let wrongType = Self.caseConfig.replacingOccurrences(
            of: #""caseInsensitivePaths": true"#, with: #""caseInsensitivePaths": "yes""#)
        #expect(Self.refusals(wrongType) == ["wrong-type"])
        let twice = Self.caseConfig.replacingOccurrences(of: #""/caf%C3%A9""#, with: #""/CART/Checkout""#)
        #expect(Self.refusals(twice) == ["duplicate-pattern"], "'/Cart/checkout' and '/CART/Checkout' are one path")
    }

    /// Optional last segments, next to a literal of the same place and after a pattern of the shorter path.
    static let optionalConfig = #"""
        {
          "version": 1,
          "app": { "name": "Opt", "schemes": ["opt"] },
          "types": { "Sort": ["price", "rating"] },
          "coordinators": {
            "app": { "kind": "app", "children": ["catalog"], "root": "catalog" },
            "catalog": {
              "kind": "stack",
              "pages": {
                "home": "/",
                "new": "/search/new",
                "search(q: String = \"\", page: Int = 1)": "/search/{q?}?page={page}",
                "orders(year: Int = 2026, sort: Sort = price)": ["/orders/{year?}", "/o/{sort?}/x"],
                "all": "/o",
                "byKind(sort: Sort = rating)": "/o/{sort?}"
              }
            }
          }
        }
        """#

    @Test func optionalSegmentsAgreeWithTheDaemon() throws {
        let text = Self.optionalConfig.replacingOccurrences(
            of: #"["/orders/{year?}", "/o/{sort?}/x"]"#, with: #""/orders/{year?}""#)
        let graph = try CodegenCorpus.load(text: text, file: "optional.json")
        var corpus = CodegenCorpus.canonicalLinks(graph) + CodegenCorpus.mutations(graph)
        corpus += [
            "/search", "/search/", "/search/new", "/search/New", "/search/a%20b?page=2", "/search?page=x",
            "/search/a/b", "/orders", "/orders/2024", "/orders/x", "/o", "/o/price", "/o/rating", "/o/other",
            "opt://search/%2F",
        ]
        try expectAgreement(graph, corpus: corpus, minimumMatches: 10)
    }

    /// Part-literal segments next to literals, typed and `String` parameters of the same place.
    static let partsConfig = #"""
        {
          "version": 1,
          "app": { "name": "Parts", "schemes": ["parts"], "hosts": ["parts.example.com"] },
          "types": { "Sort": ["price", "rating"] },
          "coordinators": {
            "app": { "kind": "app", "children": ["catalog"], "root": "catalog" },
            "catalog": {
              "kind": "stack",
              "pages": {
                "user(name: String)": "/@{name}",
                "status(version: Int)": "/v{version}/status",
                "beta(tag: String)": "/v{tag}/status",
                "page(id: Int, sort: Sort = price)": "/p/{id}.html?sort={sort}",
                "doc(name: String)": "/p/{name}.html",
                "sorted(by: Sort)": "/p/{by}",
                "slug(s: String)": "/p/{s}",
                "sale": "/p/sale.html",
                "file(name: String)": "/f/%C3%A9{name}%20x"
              }
            }
          }
        }
        """#

    @Test func partLiteralSegmentsAgreeWithTheDaemon() throws {
        let graph = try CodegenCorpus.load(text: Self.partsConfig, file: "parts.json")
        var corpus = CodegenCorpus.canonicalLinks(graph) + CodegenCorpus.mutations(graph)
        corpus += [
            "/@ann", "/@", "/%40a%20b", "/v2/status", "/v/status", "/vx/status", "/v-1/status", "/p/42.html",
            "/p/42.html?sort=rating", "/p/42.html?sort=x", "/p/.html", "/p/sale.html", "/p/rating.html", "/p/rating",
            "/p/x.htm", "/f/%C3%A9a%20x", "/f/éa x", "/f/%C3%A9%20x", "parts://@x", "https://parts.example.com/@x",
        ]
        try expectAgreement(graph, corpus: corpus, minimumMatches: 15)
    }

    /// `app.caseInsensitivePaths`: literals and part-literal text in any case, parameters and query keys exact.
    static let caseConfig = #"""
        {
          "version": 1,
          "app": { "name": "Case", "schemes": ["case"], "caseInsensitivePaths": true },
          "types": { "Sort": ["price", "rating"] },
          "coordinators": {
            "app": { "kind": "app", "children": ["catalog"], "root": "catalog" },
            "catalog": {
              "kind": "stack",
              "pages": {
                "checkout": "/Cart/checkout",
                "product(id: String)": "/products/{id}",
                "sorted(by: Sort)": "/sorted/{by}",
                "status(version: Int)": "/v{version}/Status.json",
                "search(q: String = \"\")": "/search?Q={q}",
                "cafe": "/caf%C3%A9"
              }
            }
          }
        }
        """#

    @Test func caseInsensitivePathsAgreeWithTheDaemon() throws {
        let graph = try CodegenCorpus.load(text: Self.caseConfig, file: "case.json")
        #expect(graph.matcher.policy.caseInsensitivePaths)
        var corpus = CodegenCorpus.canonicalLinks(graph) + CodegenCorpus.mutations(graph)
        corpus += [
            "/cart/checkout", "/CART/CHECKOUT", "/cArT/%43heckout", "/PRODUCTS/AbC", "/SORTED/rating", "/sorted/Rating",
            "/V2/status.JSON", "/v2/STATUS.json", "/search?Q=x", "/search?q=x", "/CAF%C3%A9", "/CAF%C3%89",
            "CASE://CART/checkout",
        ]
        try expectAgreement(graph, corpus: corpus, minimumMatches: 10)
    }

    /// Several parameters in one segment (`{slug}-{id}.html`, `{year}-{month}-{day}`), next to one-parameter
    /// part-literal segments and plain parameters of the same place, with a case-insensitive separator.
    static let severalPartsConfig = #"""
        {
          "version": 1,
          "app": { "name": "Split", "schemes": ["split"], "hosts": ["split.example.com"], "caseInsensitivePaths": true },
          "types": { "Sort": ["price", "rating"] },
          "coordinators": {
            "app": { "kind": "app", "children": ["catalog"], "root": "catalog" },
            "catalog": {
              "kind": "stack",
              "pages": {
                "product(slug: String, id: Int)": "/p/{slug}-{id}.html",
                "doc(name: String)": "/p/{name}.html",
                "day(year: Int, month: Int, day: Int)": "/{year}-{month}-{day}",
                "pair(a: String, b: String, page: Int = 1)": "/d/{a}_{b}?page={page}",
                "slug(s: String)": "/d/{s}",
                "item(n: Int, by: Sort)": "/i/v{n}X{by}",
                "overlap(a: String, b: Double)": "/o/{a}aa{b}",
                "uuid(u: UUID, n: Int)": "/u/{u}~{n}"
              }
            }
          }
        }
        """#

    @Test func severalParametersInOneSegmentAgreeWithTheDaemon() throws {
        let graph = try CodegenCorpus.load(text: Self.severalPartsConfig, file: "split.json")
        var corpus = CodegenCorpus.canonicalLinks(graph) + CodegenCorpus.mutations(graph)
        corpus += [
            "/p/shoes-42.html", "/p/running-shoes-42.html", "/p/-42.html", "/p/shoes-.html", "/p/a-b-c.html",
            "/P/x-1.HTML", "/2024-05-07", "/-1-2-3", "/2024--05-07", "/2024-05", "/2024-xx-07", "/1-2-3-4",
            "/d/a_b", "/d/a_b_c", "/d/_a", "/d/a_", "/d/ab", "/d/%C3%A9_x%20y?page=2", "/d/a_b?page=x",
            "/i/v3Xrating", "/i/v3xrating", "/i/V3xRATING", "/i/v3X5Xrating", "/i/vXrating", "/o/xaaa1.5",
            "/o/xaaaa2", "/o/aaa1", "/u/E621E1F8-C36C-495A-93FC-0C247A3E6E5F~7", "/u/x~7", "split://2024-1-1",
            "https://split.example.com/p/a-1.html",
        ]
        try expectAgreement(graph, corpus: corpus, minimumMatches: 20)
    }

    /// Like the daemon, the generated printer writes no link through a pattern that cannot carry a value: one holding
    /// its following separator would read back split elsewhere.
    @Test func severalParametersPrintLikeTheDaemon() throws {
        let graph = try CodegenCorpus.load(text: Self.severalPartsConfig, file: "split.json")
        let source = try SwiftGenerator(graph: graph, options: .init(sourceName: "split.json")).generate()
        let directory = try SwiftToolchain.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let main = #"""
            typealias P = CatalogCoordinatorPages.Page
            let pages: [P] = [
                .product(slug: "shoes", id: 42), .product(slug: "running-shoes", id: 42),
                .pair(a: "x", b: "y_z", page: 1), .pair(a: "x_y", b: "z", page: 1),
                .overlap(a: "x", b: 1.5), .overlap(a: "xa", b: 1.5), .day(year: -1, month: 2, day: 3),
            ]
            for page in pages { print(AppLink.catalog(page).link ?? "-") }
            """#
        let driver = try SwiftToolchain.compile(["AppLink.swift": source, "main.swift": main], in: directory)
        let run = try SwiftToolchain.run(driver, [], in: directory)
        try #require(run.status == 0, "driver failed: \(run.errors)")
        let expected = [
            "split://p/shoes-42.html", "-", "split://d/x_y_z", "-", "split://o/xaa1.5", "-", "split://-1-2-3",
        ]
        #expect(run.output.split(separator: "\n").map(String.init) == expected)
        func page(_ name: String, _ arguments: [(String, Value)]) -> Page {
            Page(
                id: PageID(coordinator: "catalog", name: String(name.dropFirst(8))),
                arguments: arguments.map { Page.Argument(label: $0.0, value: $0.1) })
        }
        let daemon = [
            page("catalog.product", [("slug", .string("shoes")), ("id", .int(42))]),
            page("catalog.product", [("slug", .string("running-shoes")), ("id", .int(42))]),
            page("catalog.pair", [("a", .string("x")), ("b", .string("y_z")), ("page", .int(1))]),
            page("catalog.pair", [("a", .string("x_y")), ("b", .string("z")), ("page", .int(1))]),
            page("catalog.overlap", [("a", .string("x")), ("b", .double(1.5))]),
            page("catalog.overlap", [("a", .string("xa")), ("b", .double(1.5))]),
            page("catalog.day", [("year", .int(-1)), ("month", .int(2)), ("day", .int(3))]),
        ].map { graph.matcher.link(for: $0) ?? "-" }
        #expect(daemon == expected)
    }

    @Test func extensionsLayoutCompilesAgainstTheAppsOwnCoordinatorTypes() throws {
        let graph = try CodegenCorpus.load(text: Self.unusualConfig, file: "unusual.json")
        let options = SwiftGenerator.Options(layout: .extensions, isPublic: true, sourceName: "unusual.json")
        let source = try SwiftGenerator(graph: graph, options: options).generate()
        let directory = try SwiftToolchain.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = """
            public final class DefaultCoordinator {}
            public struct StraßeCoordinator {}
            public enum ModalFlowCoordinator {}
            let page: AppLink = .straße(.größe(g: .groß))
            let other = DefaultCoordinator.Page.item()
            print(page, other, AppLink(link: "/items/in?n=2") ?? .default(.home))

            """
        _ = try SwiftToolchain.compile(["AppLink.swift": source, "main.swift": app], in: directory)
    }

    /// How a corpus went: links that opened a page, links refused, and matched links whose canonical link was
    /// printed and opened the same page again.
    struct AgreementCounts {
        var matched = 0
        var refused = 0
        var roundTrips = 0
    }

    /// Generates, compiles and runs the driver over `corpus`; every line must equal the daemon's, and every page the
    /// daemon can print a canonical link for must print it (as `link` and `url`) and open the same page from it.
    @discardableResult
    func expectAgreement(_ graph: Graph, corpus: [String], minimumMatches: Int) throws -> AgreementCounts {
        let source = try SwiftGenerator(graph: graph, options: .init(sourceName: "test.yaml")).generate()
        let directory = try SwiftToolchain.temporaryDirectory()
        // NOTIFYCTL_KEEP_CODEGEN=1 keeps the generated file, driver and corpus for a look after a failure.
        let keep = ProcessInfo.processInfo.environment["NOTIFYCTL_KEEP_CODEGEN"] == "1"
        defer { if !keep { try? FileManager.default.removeItem(at: directory) } }
        let linksFile = directory.appendingPathComponent("links.txt")
        try Data(corpus.map { CodegenCorpus.hex($0) }.joined(separator: "\n").utf8).write(to: linksFile)
        let driver = try SwiftToolchain.compile(
            ["AppLink.swift": source, "main.swift": CodegenCorpus.driverSource], in: directory)
        let run = try SwiftToolchain.run(driver, [linksFile.path], in: directory)
        try #require(run.status == 0, "driver failed: \(run.errors)")
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        try #require(lines.count == corpus.count, "the driver printed \(lines.count) lines for \(corpus.count) links")
        var mismatches: [String] = []
        var counts = AgreementCounts()
        for (link, line) in zip(corpus, lines) {
            let expected = CodegenCorpus.daemonLine(graph, link)
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            let generated = fields.prefix(3).joined(separator: "\t")
            if generated != expected {
                mismatches.append("\(CodegenCorpus.show(link)):\n  daemon:    \(expected)\n  generated: \(generated)")
            }
            guard expected != "-" else {
                counts.refused += 1
                continue
            }
            counts.matched += 1
            if fields.count > 3, fields[3] == "url-differs" {
                mismatches.append("\(CodegenCorpus.show(link)): AppLink(url:) differs from AppLink(link:)")
            }
            let daemon = expected.split(separator: "\t", omittingEmptySubsequences: false)
            guard daemon.count == 3, daemon[1] != "-" else { continue }
            // The daemon prints a canonical link for this page: printing must work and come back to the same page.
            if daemon[2] != "same" || fields.count < 5 || fields[2] != "same" || fields[4] != "url-round-trip" {
                let what = fields.count < 5 ? "no url check" : "link \(fields[1]): \(fields[2]), url: \(fields[4])"
                mismatches.append("\(CodegenCorpus.show(link)): printing does not round-trip (\(what))")
            } else {
                counts.roundTrips += 1
            }
        }
        let shown = mismatches.prefix(15).joined(separator: "\n")
        if !mismatches.isEmpty {
            Issue.record("\(mismatches.count) of \(corpus.count) links differ; the first ones:\n\(shown)")
        }
        #expect(counts.matched >= minimumMatches, "only \(counts.matched) links matched a page; the corpus is too thin")
        #expect(
            counts.roundTrips * 4 >= counts.matched * 3,
            "only \(counts.roundTrips) of \(counts.matched) matched links printed a canonical link that round-trips")
        return counts
    }
}

/// Links and expectations for the agreement tests.
enum CodegenCorpus {
    /// Reads links (hex-encoded UTF-8, one per line) and prints, per link, `description TAB canonical TAB
    /// round-trip TAB url-check TAB printed-url`, or `-` when the link opens no page. `printed-url` says whether
    /// `url` is the canonical link and opens the same page again (`-` for a page without a canonical link).
    static let driverSource = #"""
        import Foundation

        func bytes(fromHex hex: Substring) -> [UInt8] {
            var out: [UInt8] = []
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                out.append(UInt8(hex[index..<next], radix: 16) ?? 0)
                index = next
            }
            return out
        }

        let text = (try? String(contentsOfFile: CommandLine.arguments[1], encoding: .utf8)) ?? ""
        var output = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let link = String(decoding: bytes(fromHex: line), as: Swift.UTF8.self)
            guard let page = AppLink(link: link) else {
                output += "-\n"
                continue
            }
            let canonical = page.link
            let roundTrip = canonical.map { AppLink(link: $0) == page ? "same" : "different" } ?? "-"
            var urlCheck = "url-unchecked"
            if let url = URL(string: link), url.absoluteString == link {
                urlCheck = AppLink(url: url) == page ? "url-same" : "url-differs"
            }
            var printed = "-"
            if let canonical {
                if let url = page.url {
                    let same = url.absoluteString == canonical && AppLink(url: url) == page
                    printed = same ? "url-round-trip" : "url-different"
                } else {
                    printed = "url-nil"
                }
            }
            let fields: [String] = [page.description, canonical ?? "-", roundTrip, urlCheck, printed]
            output += fields.joined(separator: "\t") + "\n"
        }
        FileHandle.standardOutput.write(Data(output.utf8))

        """#

    /// What the daemon says about `link`, in the driver's format (without the url check).
    static func daemonLine(_ graph: Graph, _ link: String) -> String {
        guard let page = graph.matcher.match(link).page else { return "-" }
        let canonical = graph.matcher.link(for: page)
        let roundTrip = canonical.map { graph.matcher.match($0).page == page ? "same" : "different" } ?? "-"
        return page.description + "\t" + (canonical ?? "-") + "\t" + roundTrip
    }

    static func load(path: String) throws -> Graph {
        let url = Fixtures.repository.appendingPathComponent(path)
        let data = try Data(contentsOf: url)
        return try load(text: String(decoding: data, as: UTF8.self), file: path)
    }

    static func load(text: String, file: String) throws -> Graph {
        switch ConfigLoader.load(Array(text.utf8), file: file) {
        case .success(let loaded): return loaded.graph
        case .failure(let error):
            Issue.record(
                "the config does not load:\n\(error.errors.prefix(10).map(\.description).joined(separator: "\n"))")
            throw error
        }
    }

    static func hex(_ text: String) -> String {
        text.utf8.map { String(format: "%02x", $0) }.joined()
    }

    /// The link with control characters visible, for failure messages.
    static func show(_ link: String) -> String {
        let escaped = link.unicodeScalars.map {
            $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0)
        }
        return "'" + escaped.joined() + "'"
    }

    /// Hand-picked links for config/shop.yaml: every link form, host rule, escape and type edge notifyd handles.
    static let shopLinks: [String] = {
        var links = [
            // Link forms.
            "shop://offers/SUMMER", "shop:///offers/SUMMER", "shop:/offers/SUMMER", "shop:offers/SUMMER",
            "SHOP://offers/SUMMER", "Shop://promo/X", "/offers/SUMMER", "offers/SUMMER", "shop:", "shop://", "/",
            "shop:?a=b", "ftp://offers/SUMMER", "http://shop.example.com/cart", "HTTPS://shop.example.com/cart",
            "1shop://cart", "sh op://cart", "shop2://cart", "://cart", ":cart", "",
            // Hosts.
            "https://shop.example.com/cart", "https://SHOP.Example.COM/cart", "https://shop.example.com./cart",
            "https://shop.example.com../cart", "https://shop.example.com:443/cart", "https://shop.example.com:/cart",
            "https://shop.example.com:44a/cart", "https://m.shop.example.com/cart", "https://a.b.shop.example.com/cart",
            "https://.shop.example.com/cart", "https://..shop.example.com/cart", "https://a..shop.example.com/cart",
            "https://shop.example.com.evil.com/cart",
            "https://evilshop.example.com/cart",
            "https://u@shop.example.com/cart", "https://[::1]/cart", "https:shop.example.com/cart",
            "https:/shop.example.com/cart", "https://shop.example.com", "https://shop.example.com?x=1",
            "https://shop.example.com#cart", "https:///cart", "https://", "https://example.com/cart",
            "https://shop.example.com/cart?", "https://M.SHOP.EXAMPLE.COM.:8080/offers/A?ref=push#top",
            // Paths and escapes.
            "/cart/", "//cart//checkout//", "/cart/checkout/payment", "/cart/checkout/payment/extra",
            "/products/caf%C3%A9", "/products/café", "/products/cafe%CC%81", "/products/%F0%9F%98%80",
            "/products/a%2Fb", "/products/%2F", "/products/%25", "/products/%", "/products/%4", "/products/%zz",
            "/products/%00", "/products/%7F", "/products/%7f%41", "/products/%C3", "/products/%ED%A0%80",
            "/products/%C0%AF", "/products/%F4%90%80%80", "/products/a+b", "/products/a%20b", "/products/%3F",
            "/products/%23", "/products/a?b=c", "/products/a#b", "/products/x\u{9}y", "/products/x#\u{9}",
            "/products/%E2%80%A8", "/products/\"quoted\"", "/products/back%5Cslash", "/products/'",
            "/products/~!$()*,;:@",
            "/products/=&+", "/%63art", "/CART", "/cart%2Fcheckout", "/cart/%63heckout",
            // Read as a browser reads them: dot segments, backslashes in https links, hosts, ports, spaces.
            "/offers/../cart", "/offers/./SUMMER", "/a/b/../../cart", "/../../cart", "/offers/%2e%2e/cart",
            "/offers/%2E./cart/%2e", "/products/...", "/products/..x", "shop://offers/SUMMER/..",
            #"https://evil.com\.shop.example.com/cart"#, #"https://shop.example.com\offers\SUMMER"#,
            #"https://shop.example.com/offers\A?b=c\d"#, #"shop://offers/a\b"#,
            "https://shop example.com/cart", "https://sh%6Fp.example.com/cart", "https://shöp.example.com/cart",
            "https://shop.example.com:65535/cart", "https://shop.example.com:65536/cart",
            "https://shop.example.com:000443/cart", "https://x_y.shop.example.com/cart",
            " shop://cart", "shop://cart\n", "\t shop://offers/A \r\n", "   ", "shop://ca rt",
            "/products/a\u{202E}b", "/products/a%E2%80%AEb", "/products/%E2%81%A6x", "/products/x?q=%E2%80%AA",
            "/products/\u{2069}", "/products/%E2%80%A9", "/products/%E2%81%A5", "/products/x#\u{202E}",
            // Catch-all.
            "/info/shipping", "/info/shipping/returns", "/info/a%2Fb/c", "/info/a%2F%2Fb", "/info/%2F", "/info",
            "/info/", "/info//x//", "/info/x?y=z",
            // Int.
            "/account/orders/0", "/account/orders/-0", "/account/orders/+5", "/account/orders/007",
            "/account/orders/9223372036854775807", "/account/orders/9223372036854775808",
            "/account/orders/-9223372036854775808", "/account/orders/-9223372036854775809",
            "/account/orders/+9223372036854775807", "/account/orders/00000000000000000001",
            "/account/orders/1e3", "/account/orders/%31", "/account/orders/1%20", "/account/orders/-",
            "/account/orders/+", "/account/orders/0x1F", "/account/orders/١٢", "/pay/12", "/pay/-12", "/pay/x",
            // Bool in the query.
            "/account/orders", "/account/orders?archived=true", "/account/orders?archived=false",
            "/account/orders?archived=TRUE", "/account/orders?archived", "/account/orders?archived=",
            "/account/orders?archived=true&archived=false", "/account/orders?archived=x&archived=true",
            "/account/orders?ARCHIVED=true", "/account/orders?arch%69ved=true", "/account/orders?archived=tr%75e",
            "/account/orders?&&archived=true&&", "/account/orders?=true", "/account/orders?archived==true",
            // Enum and Int in the query, defaults.
            "/catalog/shoes", "/catalog/shoes?page=2", "/catalog/shoes?sort=rating", "/catalog/shoes?sort=Rating",
            "/catalog/shoes?sort=", "/catalog/shoes?page=2&sort=newest&extra=1", "/catalog/shoes?sort=price&page=1",
            "/catalog/shoes?page=x", "/catalog/shoes?page=+1", "/catalog/a+b?sort=rating", "/catalog/a%2Bb",
            "/catalog/%20?page=3", "/catalog/shoes?page=3&page=x", "/catalog/shoes?sort=newest+",
            "/catalog/shoes?s%6Frt=rating", "/catalog/shoes?page=%32", "/catalog/shoes?q=a%3Db%26c",
            "/catalog/shoes?sort=%", "/catalog/shoes?sort=%C3", "/catalog/shoes?x=%00",
            // UUID.
            "/deals/e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "/deals/E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
            "/deals/E621E1F8-c36c-495A-93fc-0C247A3E6E5F", "/deals/e621e1f8c36c495a93fc0c247a3e6e5f",
            "/deals/e621e1f8-c36c-495a-93fc-0c247a3e6e5", "/deals/{e621e1f8-c36c-495a-93fc-0c247a3e6e5f}",
            "/deals/g621e1f8-c36c-495a-93fc-0c247a3e6e5f", "/deals/00000000-0000-0000-0000-000000000000",
            "/deals/e621e1f8-c36c-495a-93fc-0c247a3e6e5f/x", "/deals", "/deals/", "/deals/deals",
            // Other pages.
            "/login", "/login/register", "/membership", "/welcome", "/welcome/x", "/notifications", "/cart/checkout",
        ]
        links.append("/products/" + String(repeating: "a", count: 4096 - "/products/".utf8.count))
        links.append("/products/" + String(repeating: "a", count: 4097 - "/products/".utf8.count))
        links.append("/products/" + String(repeating: "é", count: 1000))
        return links
    }()

    /// Every page's canonical link under each link form, from arguments the patterns themselves suggest.
    static func canonicalLinks(_ graph: Graph) -> [String] {
        var out: [String] = []
        for route in graph.matcher.routes {
            let samples = [
                "x", "A b", "é/ü", "1", "true", "-7", "rating", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "", "a+b&c=d#?",
            ]
            for sample in samples {
                var path = ""
                for segment in route.pattern.segments {
                    switch segment {
                    case .literal(let text): path += "/" + encode(text)
                    case .parameter, .catchAll: path += "/" + encode(sample)
                    case .part(let prefix, let names, let separators, let suffix):
                        // Each separator after the sample, so that several parameters split at it or, where the
                        // sample holds it, elsewhere.
                        let middle = separators.reduce(sample) { $0 + $1 + sample }
                        path += "/" + encode(prefix + middle + suffix)
                    }
                }
                let query = route.pattern.query.map { encode($0.key) + "=" + encode(sample) }
                out.append((path.isEmpty ? "/" : path) + (query.isEmpty ? "" : "?" + query.joined(separator: "&")))
            }
        }
        var forms: [String] = []
        let scheme = graph.matcher.policy.schemes.first
        let host = graph.matcher.policy.canonicalHost
        for path in out {
            forms.append(path)
            if let scheme { forms.append(scheme + "://" + path.dropFirst()) }
            if let host { forms.append("https://" + host + path) }
        }
        return forms
    }

    /// Links one edit away from each route's canonical link: a segment dropped or added, a typed value swapped for
    /// another type's, an escape broken.
    static func mutations(_ graph: Graph) -> [String] {
        var out: [String] = []
        let values = [
            "1", "-1", "true", "false", "red", "xl", "price", "newest", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "%41",
            "%2F", "+", "%",
        ]
        for route in graph.matcher.routes {
            let segments = route.pattern.segments.map { segment -> String in
                if case .literal(let text) = segment { return encode(text) }
                return "v"
            }
            for index in segments.indices {
                for value in values {
                    var changed = segments
                    changed[index] = value
                    out.append("/" + changed.joined(separator: "/"))
                }
                out.append("/" + segments.prefix(index).joined(separator: "/"))
            }
            out.append("/" + (segments + ["extra"]).joined(separator: "/"))
            for binding in route.pattern.query {
                for value in values {
                    out.append("/" + segments.joined(separator: "/") + "?" + encode(binding.key) + "=" + value)
                }
            }
        }
        return out
    }

    /// Percent-encodes everything but unreserved characters.
    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}

/// The `swiftc` of the toolchain running the tests, and running what it builds.
enum SwiftToolchain {
    /// `$SWIFTC`, else `swiftc` on `PATH`, else the usual toolchain locations.
    static let swiftc: String? = {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [String] = []
        if let explicit = environment["SWIFTC"] { candidates.append(explicit) }
        candidates += (environment["PATH"] ?? "").split(separator: ":").map { $0 + "/swiftc" }
        candidates += ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "notifyctl-codegen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Compiles `sources` (file name → text) into one executable, unoptimized; returns its path.
    static func compile(_ sources: [String: String], in directory: URL) throws -> String {
        let names = sources.keys.sorted()
        for name in names {
            try Data((sources[name] ?? "").utf8).write(to: directory.appendingPathComponent(name))
        }
        let executable = directory.appendingPathComponent("driver").path
        let compiler = try #require(swiftc)
        let result = try run(compiler, ["-Onone", "-swift-version", "6", "-o", executable] + names, in: directory)
        try #require(result.status == 0, "swiftc failed:\n\(result.errors.prefix(4000))")
        return executable
    }

    /// Type-checks `sources` (file name → text) as one module, without building it.
    static func typecheck(_ sources: [String: String], in directory: URL) throws {
        let names = sources.keys.sorted()
        for name in names {
            try Data((sources[name] ?? "").utf8).write(to: directory.appendingPathComponent(name))
        }
        let result = try run(try #require(swiftc), ["-typecheck", "-swift-version", "6"] + names, in: directory)
        try #require(result.status == 0, "swiftc failed:\n\(result.errors.prefix(4000))")
    }

    /// Runs `executable` in `directory` with its output and errors captured in files (no pipe can fill up) kept
    /// outside that directory.
    static func run(_ executable: String, _ arguments: [String], in directory: URL) throws -> Result {
        let captures = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: captures) }
        let outputURL = captures.appendingPathComponent("stdout")
        let errorsURL = captures.appendingPathComponent("stderr")
        try Data().write(to: outputURL)
        try Data().write(to: errorsURL)
        let output = try FileHandle(forWritingTo: outputURL)
        let errors = try FileHandle(forWritingTo: errorsURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try output.close()
        try errors.close()
        return Result(
            status: process.terminationStatus,
            output: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
            errors: String(decoding: try Data(contentsOf: errorsURL), as: UTF8.self))
    }
}
