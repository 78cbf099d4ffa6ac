import CoordinatorGraph
import DeepLink
import Foundation
import JSON

/// A reproducible pseudo-random source (SplitMix64), so that a failing corpus can be regenerated.
struct SplitMix {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<n`.
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }

    mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }

    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
}

/// A large config whose patterns overlap on purpose: literals that look like values (`1`, `true`, `red`), enums
/// sharing cases (so that the order of typed branches matters), typed and `String` parameters and catch-alls at the
/// same positions, query bindings with and without defaults, literals that need escapes. Patterns of identical shape are avoided (the validator rejects them); shadowed ones are kept.
struct LargeGraphGenerator {
    var random: SplitMix
    /// False for a graph of literals and typed parameters only (no `String` parameter, no catch-all), where a value
    /// of the wrong type or an unknown literal is refused instead of falling through to a `String` pattern.
    var allowsStrings = true

    init(seed: UInt64) {
        random = SplitMix(state: seed)
    }

    static let types: [(String, [String])] = [
        ("Color", ["red", "green", "blue"]), ("Size", ["s", "m", "l", "xl"]), ("Mode", ["on", "off", "red", "s"]),
    ]
    static let literals = ["a", "b", "c", "items", "1", "true", "red", "xl", "caf%C3%A9", "a%2Fb", "sp%20ace", "on"]
    static let typeNames = ["Int", "Double", "Bool", "UUID", "Color", "Size", "Mode"]
    static let queryKeys = ["page", "sort", "flag", "q", "id", "k%20ey"]
    static let uuid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"

    /// The config as JSON text.
    mutating func config(coordinators: Int, pagesPerCoordinator: Int) -> String {
        var shapes: Set<String> = []
        var coordinatorObjects = JSONObject()
        let names = (0..<coordinators).map { "c\($0)" }
        coordinatorObjects["app"] = .object([
            "kind": "app", "children": .array(names.map { .string($0) }), "root": "c0",
        ])
        for name in names {
            var pages = JSONObject()
            for index in 0..<pagesPerCoordinator {
                guard let (declaration, patterns) = page(index, shapes: &shapes) else { continue }
                pages[declaration] = patterns.count == 1 ? .string(patterns[0]) : .array(patterns.map { .string($0) })
            }
            coordinatorObjects[name] = .object(["kind": "stack", "pages": .object(pages)])
        }
        var types = JSONObject()
        for (name, cases) in Self.types { types[name] = .array(cases.map { .string($0) }) }
        let root: JSON = [
            "version": 1,
            "app": [
                "name": "Large", "schemes": ["big"], "hosts": ["big.example.com", "*.big.example.com"],
            ],
            "types": .object(types),
            "coordinators": .object(coordinatorObjects),
        ]
        return root.prettyPrinted()
    }

    /// One page: its declaration and one or two patterns of shapes not used before.
    mutating func page(_ index: Int, shapes: inout Set<String>) -> (String, [String])? {
        for _ in 0..<30 {
            var parameters: [String] = []
            var path: [String] = []
            var shape: [String] = []
            let depth = random.int(5)
            for d in 0..<depth {
                let roll = random.int(100)
                if roll < 40 {
                    let literal = random.pick(Self.literals)
                    path.append(literal)
                    shape.append("=" + (literal.removingPercentEncoding ?? literal))
                } else if roll < 68 || !allowsStrings {
                    let type = random.pick(Self.typeNames)
                    parameters.append("p\(d): \(type)")
                    path.append("{p\(d)}")
                    shape.append(type)
                } else if roll < 90 || d < depth - 1 {
                    parameters.append("p\(d): String")
                    path.append("{p\(d)}")
                    shape.append("String")
                } else {
                    parameters.append("p\(d): String")
                    path.append("{p\(d)...}")
                    shape.append("*")
                }
            }
            var query: [String] = []
            var queryShape: [String] = []
            var keys = Self.queryKeys
            for q in 0..<random.int(3) {
                let key = keys.remove(at: random.int(keys.count))
                let type = random.pick(Self.typeNames + (allowsStrings ? ["String"] : []))
                var parameter = "q\(q): \(type)"
                if random.chance(65) { parameter += " = " + defaultValue(type) }
                parameters.append(parameter)
                query.append("\(key)={q\(q)}")
                queryShape.append((key.removingPercentEncoding ?? key) + ":" + type)
            }
            if random.chance(10) {
                let type = random.pick(Self.typeNames + (allowsStrings ? ["String"] : []))
                parameters.append("u0: \(type) = " + defaultValue(type))
            }
            let key = shape.joined(separator: "/") + "?" + queryShape.sorted().joined(separator: "&")
            guard !shapes.contains(key) else { continue }
            shapes.insert(key)
            let text = "/" + path.joined(separator: "/") + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
            var patterns = [text]
            let alternate = "alt" + String(index % 3)
            let alternateKey = "=\(alternate)/" + key
            if random.chance(20), !shapes.contains(alternateKey) {
                shapes.insert(alternateKey)
                patterns.append("/\(alternate)" + (text == "/" ? "" : text))
            }
            let declaration =
                parameters.isEmpty ? "page\(index)" : "page\(index)(" + parameters.joined(separator: ", ") + ")"
            return (declaration, patterns)
        }
        return nil
    }

    mutating func defaultValue(_ type: String) -> String {
        switch type {
        case "Int": return String(random.int(200) - 50)
        case "Double": return random.pick(["0.5", "-2", "1e3", "0", "12.25"])
        case "Bool": return random.chance(50) ? "true" : "false"
        case "UUID": return "\"\(Self.uuid)\""
        case "String": return random.pick(["\"x\"", "\"\"", "\"a b\"", "\"é\"", "\"1\""])
        default:
            let cases = Self.types.first { $0.0 == type }?.1 ?? []
            return random.pick(cases)
        }
    }

    /// Values of each type as they appear in links (already percent-encoded), a few of them invalid.
    static func values(_ type: ParameterType) -> [String] {
        switch type {
        case .int: return ["0", "1", "-1", "+3", "42", "007", "9223372036854775807", "9223372036854775808", "x", "1.5"]
        case .double:
            return ["0", "1", "-1.5", "+3", "2.50", "1e3", "1E-2", "007.5", "-0", "x", ".5", "5.", "nan", "inf", "%31"]
        case .bool: return ["true", "false", "true", "TRUE", "1", "0"]
        case .uuid:
            return [
                uuid, uuid.lowercased(), "E621E1F8C36C495A93FC0C247A3E6E5F", "%45621E1F8-C36C-495A-93FC-0C247A3E6E5F",
            ]
        case .enumeration(_, let cases): return cases + cases + ["RED", "purple", "%72ed"]
        case .string:
            return [
                "x", "hello", "a%20b", "%C3%A9", "1", "true", "red", "a%2Fb", "%25", "+", "a+b", "%F0%9F%98%80",
                "a%2Bb",
                "x%26y%3Dz",
            ]
        case .list(let element): return values(element)
        }
    }

    /// `count` links built from the graph's patterns: mostly matching ones with varied values, query order and
    /// link forms; some with a value of the wrong type, a changed literal, an extra or missing segment; some noise.
    mutating func links(for graph: Graph, count: Int) -> [String] {
        let routes = graph.matcher.routes
        let anyValues = [
            ParameterType.int, .bool, .uuid, .string, .enumeration(name: "Color", cases: ["red", "green", "blue"]),
        ]
        .flatMap(Self.values)
        var out: [String] = []
        while out.count < count {
            var path: [String] = []
            var query: [String] = []
            if random.chance(10) {
                for _ in 0..<random.int(6) { path.append(random.pick(anyValues + Self.literals)) }
                if random.chance(50) { query.append(random.pick(Self.queryKeys) + "=" + random.pick(anyValues)) }
            } else {
                let route = random.pick(routes)
                for segment in route.pattern.segments {
                    switch segment {
                    case .literal(let text):
                        path.append(random.chance(3) ? random.pick(Self.literals) : CodegenCorpus.encode(text))
                    case .parameter(let name):
                        let type = route.declaration.parameter(name)?.type ?? .string
                        path.append(random.chance(12) ? random.pick(anyValues) : random.pick(Self.values(type)))
                    case .catchAll:
                        for _ in 0...random.int(3) { path.append(random.pick(Self.values(.string))) }
                    case .part(let prefix, let names, let separators, let suffix):
                        var middle = random.pick(anyValues)
                        for separator in separators.prefix(names.count - 1) {
                            middle += CodegenCorpus.encode(separator) + random.pick(anyValues)
                        }
                        path.append(CodegenCorpus.encode(prefix) + middle + CodegenCorpus.encode(suffix))
                    }
                }
                if random.chance(5) { path.append(random.pick(anyValues)) }
                if random.chance(5), !path.isEmpty { path.removeLast() }
                for binding in route.pattern.query where random.chance(75) {
                    let type = route.declaration.parameter(binding.name)?.type ?? .string
                    let value = random.chance(10) ? random.pick(anyValues) : random.pick(Self.values(type))
                    query.append(CodegenCorpus.encode(binding.key) + "=" + value)
                }
                if random.chance(20) { query.append("extra=" + random.pick(anyValues)) }
                if random.chance(15), let first = query.first, let key = first.split(separator: "=").first {
                    query.append(key + "=" + random.pick(anyValues))  // a repeated key: the first one counts
                }
                for i in query.indices.reversed() where i > 0 { query.swapAt(i, random.int(i + 1)) }
            }
            let text = "/" + path.joined(separator: "/") + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
            switch random.int(6) {
            case 0: out.append("big://" + text.dropFirst())
            case 1: out.append("https://big.example.com" + text)
            case 2: out.append("https://M.Big.Example.com" + text)
            case 3: out.append("big:" + text)
            default: out.append(text)
            }
        }
        return out
    }

    /// How a link is made not to match.
    enum Refusal: CaseIterable {
        /// A scheme or host the app does not declare.
        case foreign
        /// A malformed escape or a control character.
        case broken
        /// A path value that does not convert to its parameter's type.
        case wrongType
        /// A literal segment changed, or an extra segment.
        case unknownLiteral
    }

    /// `count` links the graph must refuse, made in turn in each of `kinds`. Each starts from a pattern's link; one
    /// that another pattern still matches (a `String` parameter or a catch-all takes almost anything) is dropped, so
    /// every link kept is one the daemon's matcher refuses. Fewer than `count` when too few could be made.
    mutating func nonMatchingLinks(
        for graph: Graph, count: Int, kinds: [Refusal] = Refusal.allCases
    ) -> [String] {
        let routes = graph.matcher.routes
        let foreign = [
            "bigx://", "big2:", "ftp://", "http://big.example.com/", "https://big.example.org/",
            "https://evilbig.example.com/", "https://big.example.com.evil.com/", "https://u@big.example.com/",
            "https://big.example.com:x/", "https://[::1]/", "https://.big.example.com/", "https:big.example.com/",
        ]
        let broken = ["%zz", "%", "%C3", "%00", "%7F", "a%2", "%ED%A0%80", "%C0%AF", "%F4%90%80%80", "a\u{1}b"]
        var out: [String] = []
        var attempts = 0
        while out.count < count, attempts < count * 40 {
            attempts += 1
            let route = random.pick(routes)
            var path: [String] = []
            var typed: [(index: Int, type: ParameterType)] = []
            var literals: [Int] = []
            for segment in route.pattern.segments {
                switch segment {
                case .literal(let text):
                    literals.append(path.count)
                    path.append(CodegenCorpus.encode(text))
                case .parameter(let name):
                    let type = route.declaration.parameter(name)?.type ?? .string
                    if type != .string { typed.append((path.count, type)) }
                    path.append(Self.values(type)[0])
                case .catchAll, .part:
                    path.append("x")
                }
            }
            var query = route.pattern.query.map { binding -> String in
                let type = route.declaration.parameter(binding.name)?.type ?? .string
                return CodegenCorpus.encode(binding.key) + "=" + Self.values(type)[0]
            }
            var prefix = "/"
            switch kinds[attempts % kinds.count] {
            case .foreign:
                prefix = random.pick(foreign)
            case .broken:
                if !path.isEmpty, random.chance(70) {
                    path[random.int(path.count)] = random.pick(broken)
                } else {
                    query.append("k=" + random.pick(broken))
                }
            case .wrongType:
                guard let (index, type) = typed.isEmpty ? nil : random.pick(typed) else { continue }
                path[index] = random.pick(Self.wrongValues(type))
            case .unknownLiteral:
                if !literals.isEmpty, random.chance(60) {
                    path[random.pick(literals)] = "zz\(random.int(100))"
                } else {
                    path.append("extra")
                }
            }
            let link = prefix + path.joined(separator: "/") + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
            if graph.matcher.match(link).page == nil { out.append(link) }
        }
        return out
    }

    /// Values that do not convert to `type` (already percent-encoded).
    static func wrongValues(_ type: ParameterType) -> [String] {
        switch type {
        case .int: return ["x", "1.5", "true", "1e3", "0x1F", "9223372036854775808", "-", "%31%2E"]
        case .double: return ["x", ".5", "5.", "1e", "0x1F", "nan", "inf", "-", "1,5", "1e999"]
        case .bool: return ["yes", "TRUE", "True", "tru", "01", "2"]
        case .uuid:
            return ["E621E1F8", "E621E1F8C36C495A93FC0C247A3E6E5F", "g621e1f8-c36c-495a-93fc-0c247a3e6e5f", "1"]
        case .enumeration(_, let cases): return ["purple", "RED", "Xl", "%72e"] + cases.map { $0 + "x" }
        case .string, .list: return []
        }
    }
}
