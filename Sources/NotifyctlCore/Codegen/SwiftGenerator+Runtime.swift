extension SwiftGenerator {
    /// The link matcher and printer every generated file ends with: the same for every config, driven by the
    /// tables above it.
    ///
    /// It follows notifyd's `Matcher` step by step (DeepLink/LinkScanner, RouteTable, Matcher+Search,
    /// Matcher+CanonicalLink), so that a link opens the same page in the app as in the daemon: the same scheme and
    /// host checks, the same per-segment percent-decoding on bytes, the same trie with literal, typed, `String` and
    /// catch-all edges tried in that order with backtracking, the same query rules, and the same canonical link
    /// with its round-trip check. The codegen agreement test compiles it and compares it with the daemon on many
    /// links; change both together.
    static let runtime = #"""
        // MARK: - Matching and printing links (the same for every config)

        extension AppLink.Routing {
            /// A parameter's type, as links spell it.
            indirect enum Kind: Hashable, Sendable {
                case string, int, double, bool, uuid
                /// An enum of `types:`, by its index in `enums`.
                case enumeration(Int)
                /// Every value of a repeated query key.
                case list(Kind)
            }

            /// One argument of a page, whatever its type.
            enum Value: Hashable, Sendable {
                case string(String)
                case int(Int)
                case double(Double)
                case bool(Bool)
                case uuid(UUID)
                case enumCase(String)
                indirect case list([Value])

                var stringValue: String? {
                    if case .string(let v) = self { return v }
                    return nil
                }
                var intValue: Int? {
                    if case .int(let v) = self { return v }
                    return nil
                }
                var doubleValue: Double? {
                    if case .double(let v) = self { return v }
                    return nil
                }
                var boolValue: Bool? {
                    if case .bool(let v) = self { return v }
                    return nil
                }
                var uuidValue: UUID? {
                    if case .uuid(let v) = self { return v }
                    return nil
                }
                var caseName: String? {
                    if case .enumCase(let v) = self { return v }
                    return nil
                }
                func enumeration<T: Swift.RawRepresentable>() -> T? where T.RawValue == String {
                    caseName.flatMap(T.init(rawValue:))
                }
                /// The items of a list, each as `element` reads it; nil when one does not fit.
                func list<T>(_ element: (Value) -> T?) -> [T]? {
                    guard case .list(let items) = self else { return nil }
                    var out: [T] = []
                    for item in items {
                        guard let value = element(item) else { return nil }
                        out.append(value)
                    }
                    return out
                }
            }

            /// One declared page: its id, its parameters' labels, types and defaults.
            struct PageInfo {
                let id: String
                let labels: [String]
                let kinds: [Kind]
                let defaults: [Value?]
            }

            /// One path segment of a pattern; parameters are indices into the page's parameters.
            enum Segment {
                case literal(String)
                case parameter(Int)
                case catchAll(Int)
                /// `prefix{a}sep{b}suffix` in one segment: its parameters with a separator between each two.
                case part(String, [Int], [String], String)
            }

            /// One `key={name}` query binding of a pattern.
            struct Binding {
                let key: String
                let parameter: Int
            }

            /// One pattern of one page.
            struct Route {
                let page: Int
                let path: [Segment]
                let query: [Binding]
                /// The last segment is `{name?}`: a link may leave it out.
                var optionalLast = false
            }

            /// Where a matched route takes an argument from.
            enum Source {
                case segment(Int)
                /// The segment at the depth without the prefix's and suffix's bytes, split at the separators: the
                /// piece of the parameter.
                case part(Int, prefix: Int, suffix: Int, separators: [[UInt8]], piece: Int)
                case rest
                case query([UInt8])
                case unbound
            }

            /// A node of the route trie.
            struct Node {
                var literals: [[UInt8]: Int] = [:]
                var typed: [(kind: Kind, child: Int)] = []
                /// Part-literal edges, tried after literals and before `typed`.
                var parts: [(prefix: [UInt8], separators: [[UInt8]], suffix: [UInt8], kinds: [Kind], child: Int)] = []
                var stringChild = -1
                var terminals: [Int] = []
                var catchAlls: [Int] = []
                var firstRoute = Int.max
            }

            /// The routes compiled into a trie over path segments, built once.
            struct Table {
                var nodes = [Node()]
                var sources: [[Source]] = []
                var routesByPage: [[Int]] = []
                var enumCases: [[[UInt8]]] = []

                init() {
                    enumCases = AppLink.Routing.enums.map { $0.map { Array($0.utf8) } }
                    routesByPage = Array(repeating: [], count: AppLink.Routing.pages.count)
                    for (index, route) in AppLink.Routing.routes.enumerated() { insert(route, index) }
                    let firstRoutes = nodes.map(\.firstRoute)
                    for i in nodes.indices {
                        nodes[i].typed.sort { firstRoutes[$0.child] < firstRoutes[$1.child] }
                        nodes[i].parts.sort { firstRoutes[$0.child] < firstRoutes[$1.child] }
                    }
                }

                mutating func insert(_ route: Route, _ index: Int) {
                    let page = AppLink.Routing.pages[route.page]
                    routesByPage[route.page].append(index)
                    var node = 0
                    var path = [0]
                    var catchAll = false
                    for segment in route.path {
                        switch segment {
                        case .literal(let text):
                            let bytes = fold(Array(text.utf8))
                            if let child = nodes[node].literals[bytes] {
                                node = child
                            } else {
                                nodes.append(Node())
                                nodes[node].literals[bytes] = nodes.count - 1
                                node = nodes.count - 1
                            }
                        case .parameter(let k):
                            let kind = page.kinds[k]
                            if kind == .string {
                                if nodes[node].stringChild < 0 {
                                    nodes.append(Node())
                                    nodes[node].stringChild = nodes.count - 1
                                }
                                node = nodes[node].stringChild
                            } else if let edge = nodes[node].typed.first(where: { $0.kind == kind }) {
                                node = edge.child
                            } else {
                                nodes.append(Node())
                                nodes[node].typed.append((kind, nodes.count - 1))
                                node = nodes.count - 1
                            }
                        case .part(let prefix, let ks, let separators, let suffix):
                            let (p, s, kinds) = (fold(Array(prefix.utf8)), fold(Array(suffix.utf8)), ks.map { page.kinds[$0] })
                            let m = separators.map { fold(Array($0.utf8)) }
                            if let edge = nodes[node].parts.first(where: {
                                $0.prefix == p && $0.suffix == s && $0.separators == m && $0.kinds == kinds
                            }) {
                                node = edge.child
                            } else {
                                nodes.append(Node())
                                nodes[node].parts.append((p, m, s, kinds, nodes.count - 1))
                                node = nodes.count - 1
                            }
                        case .catchAll:
                            catchAll = true
                            continue
                        }
                        path.append(node)
                    }
                    if catchAll {
                        nodes[node].catchAlls.append(index)
                    } else {
                        nodes[node].terminals.append(index)
                        if route.optionalLast { nodes[path[path.count - 2]].terminals.append(index) }
                    }
                    for n in path { nodes[n].firstRoute = Swift.min(nodes[n].firstRoute, index) }
                    var sources: [Source] = []
                    for k in page.labels.indices {
                        var source = Source.unbound
                        for (depth, segment) in route.path.enumerated() {
                            switch segment {
                            case .parameter(k): source = .segment(depth)
                            case .part(let prefix, let ks, let separators, let suffix) where ks.contains(k):
                                source = .part(
                                    depth, prefix: prefix.utf8.count, suffix: suffix.utf8.count,
                                    separators: separators.map { fold(Array($0.utf8)) }, piece: ks.firstIndex(of: k)!)
                            case .catchAll(k): source = .rest
                            default: break
                            }
                        }
                        if let binding = route.query.first(where: { $0.parameter == k }) {
                            source = .query(Array(binding.key.utf8))
                        }
                        sources.append(source)
                    }
                    self.sources.append(sources)
                }
            }

            static let table = Table()

            /// A link split into percent-decoded path segments and query items.
            struct Link {
                var segments: [[UInt8]] = []
                var query: [(key: [UInt8], value: [UInt8])] = []

                func value(_ key: [UInt8]) -> [UInt8]? {
                    query.first(where: { $0.key == key })?.value
                }

                func values(_ key: [UInt8]) -> [[UInt8]] {
                    query.filter { $0.key == key }.map(\.value)
                }

                func rest(from depth: Int) -> [UInt8] {
                    Array(segments[depth...].joined(separator: [0x2F]))
                }
            }

            // MARK: Matching

            /// The page and arguments `text` opens, or nil when it opens none.
            static func match(_ text: String) -> (page: Int, values: [Value])? {
                guard let link = scan(text), let (route, restFrom) = search(0, 0, link) else { return nil }
                let page = pages[routes[route].page]
                var values: [Value] = []
                for (k, source) in table.sources[route].enumerated() {
                    if case .list = page.kinds[k], case .query(let key) = source {
                        let items = link.values(key).compactMap { convert($0, page.kinds[k]) }
                        guard let value = items.isEmpty ? page.defaults[k] : .list(items) else { return nil }
                        values.append(value)
                        continue
                    }
                    let text: [UInt8]?
                    switch source {
                    case .segment(let depth): text = depth < link.segments.count ? link.segments[depth] : nil
                    case .part(let depth, let prefix, let suffix, let separators, let piece):
                        text = split(Array(link.segments[depth].dropFirst(prefix).dropLast(suffix)), separators)?[piece]
                    case .rest: text = link.rest(from: restFrom)
                    case .query(let key): text = link.value(key)
                    case .unbound: text = nil
                    }
                    guard let value = text.flatMap({ convert($0, page.kinds[k]) }) ?? page.defaults[k] else {
                        return nil
                    }
                    values.append(value)
                }
                return (routes[route].page, values)
            }

            /// The page `id` (`cart.offer`) with arguments written as in links, a list's as its items; labels left
            /// out take their defaults. Nil for an unknown page or label, a missing argument, a value that does not
            /// convert, or several values for a parameter that is not a list.
            static func page(id: String, arguments: [String: [String]]) -> (page: Int, values: [Value])? {
                guard let index = pages.firstIndex(where: { $0.id == id }) else { return nil }
                let info = pages[index]
                guard arguments.keys.allSatisfy(info.labels.contains) else { return nil }
                var values: [Value] = []
                for (k, label) in info.labels.enumerated() {
                    let value: Value?
                    if let texts = arguments[label] {
                        if case .list = info.kinds[k] {
                            let items = texts.compactMap { convert(Array($0.utf8), info.kinds[k]) }
                            value = items.count == texts.count ? .list(items) : nil
                        } else {
                            value = texts.count == 1 ? convert(Array(texts[0].utf8), info.kinds[k]) : nil
                        }
                    } else {
                        value = info.defaults[k]
                    }
                    guard let value else { return nil }
                    values.append(value)
                }
                return (index, values)
            }

            /// Depth-first in precedence order: literal, typed parameters, `String` parameter, catch-all.
            static func search(_ index: Int, _ depth: Int, _ link: Link) -> (route: Int, restFrom: Int)? {
                let node = table.nodes[index]
                guard depth < link.segments.count else {
                    for route in node.terminals where accepts(route, -1, link) { return (route, -1) }
                    return nil
                }
                let segment = link.segments[depth]
                let folded = fold(segment)
                if let child = node.literals[folded], let found = search(child, depth + 1, link) { return found }
                for edge in node.parts
                where segment.count > edge.prefix.count + edge.suffix.count && folded.starts(with: edge.prefix)
                    && folded.reversed().starts(with: edge.suffix.reversed())
                {
                    let text = Array(segment.dropFirst(edge.prefix.count).dropLast(edge.suffix.count))
                    guard let pieces = split(text, edge.separators),
                        Swift.zip(pieces, edge.kinds).allSatisfy({ convert($0, $1) != nil })
                    else { continue }
                    if let found = search(edge.child, depth + 1, link) { return found }
                }
                for edge in node.typed where convert(segment, edge.kind) != nil {
                    if let found = search(edge.child, depth + 1, link) { return found }
                }
                if node.stringChild >= 0, let found = search(node.stringChild, depth + 1, link) { return found }
                for route in node.catchAlls where accepts(route, depth, link) { return (route, depth) }
                return nil
            }

            /// True when the query and the defaults supply every argument of a route whose path matched.
            static func accepts(_ route: Int, _ restFrom: Int, _ link: Link) -> Bool {
                let page = pages[routes[route].page]
                for (k, source) in table.sources[route].enumerated() {
                    switch source {
                    case .segment, .part:
                        continue
                    case .rest:
                        if page.kinds[k] != .string, convert(link.rest(from: restFrom), page.kinds[k]) == nil {
                            return false
                        }
                    case .query(let key):
                        if case .list = page.kinds[k] {
                            let values = link.values(key)
                            if values.contains(where: { convert($0, page.kinds[k]) == nil }) { return false }
                            if values.isEmpty, page.defaults[k] == nil { return false }
                        } else if let value = link.value(key) {
                            if convert(value, page.kinds[k]) == nil { return false }
                        } else if page.defaults[k] == nil {
                            return false
                        }
                    case .unbound:
                        if page.defaults[k] == nil { return false }
                    }
                }
                return true
            }

            /// The value of link text as `kind` (an item of a list as its element), or nil when it does not convert.
            static func convert(_ text: [UInt8], _ kind: Kind) -> Value? {
                switch kind {
                case .list(let element): return convert(text, element)
                case .string: return .string(String(decoding: text, as: Swift.UTF8.self))
                case .int: return parseInt(text).map(Value.int)
                case .double: return parseDouble(text).map(Value.double)
                case .bool:
                    if text == Array("true".utf8) || text == Array("1".utf8) { return .bool(true) }
                    if text == Array("false".utf8) || text == Array("0".utf8) { return .bool(false) }
                    return nil
                case .uuid: return parseUUID(text).map(Value.uuid)
                case .enumeration(let index):
                    guard table.enumCases[index].contains(text) else { return nil }
                    return .enumCase(String(decoding: text, as: Swift.UTF8.self))
                }
            }

            /// `[+-]digits[.digits][(e|E)[+-]digits]`, at most 64 characters, finite; nil otherwise.
            static func parseDouble(_ b: [UInt8]) -> Double? {
                guard !b.isEmpty, b.count <= 64 else { return nil }
                var i = 0
                if b[0] == 0x2D || b[0] == 0x2B { i = 1 }
                func digits() -> Bool {
                    let start = i
                    while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
                    return i > start
                }
                guard digits() else { return nil }
                if i < b.count, b[i] == 0x2E {
                    i += 1
                    guard digits() else { return nil }
                }
                if i < b.count, b[i] == 0x65 || b[i] == 0x45 {
                    i += 1
                    if i < b.count, b[i] == 0x2D || b[i] == 0x2B { i += 1 }
                    guard digits() else { return nil }
                }
                guard i == b.count, let d = Double(String(decoding: b, as: Swift.UTF8.self)), d.isFinite else { return nil }
                return d
            }

            /// `text` cut at `separators` (folded): each piece but the last is the shortest non-empty text up to the
            /// first following occurrence of its separator, the last is the rest, not empty; never retried.
            static func split(_ text: [UInt8], _ separators: [[UInt8]]) -> [[UInt8]]? {
                let folded = fold(text)
                var pieces: [[UInt8]] = []
                var start = 0
                for separator in separators {
                    guard let end = firstOccurrence(separator, folded, from: start + 1) else { return nil }
                    pieces.append(Array(text[start..<end]))
                    start = end + separator.count
                }
                guard start < text.count else { return nil }
                pieces.append(Array(text[start...]))
                return pieces
            }

            /// Where `needle` first starts in `text` at or after `from`.
            static func firstOccurrence(_ needle: [UInt8], _ text: [UInt8], from: Int) -> Int? {
                var i = from
                while i + needle.count <= text.count {
                    if text[i..<(i + needle.count)].elementsEqual(needle) { return i }
                    i += 1
                }
                return nil
            }

            /// Literal path text as the table compares it: with ASCII capitals made small when the app's paths are
            /// case-insensitive, else as it is.
            static func fold(_ bytes: [UInt8]) -> [UInt8] {
                guard caseInsensitivePaths else { return bytes }
                return bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            }

            /// An optional sign and decimal digits: at most 19 characters, 20 with `-`; nil on overflow.
            static func parseInt(_ b: [UInt8]) -> Int? {
                guard !b.isEmpty, b.count <= 19 || (b.count <= 20 && b[0] == 0x2D) else { return nil }
                var i = 0
                let negative = b[0] == 0x2D
                if b[0] == 0x2D || b[0] == 0x2B { i = 1 }
                guard i < b.count else { return nil }
                var value = 0
                while i < b.count {
                    guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                    let (m, o1) = value.multipliedReportingOverflow(by: 10)
                    let (s, o2) = m.subtractingReportingOverflow(Int(b[i] - 0x30))
                    guard !o1, !o2 else { return nil }
                    value = s
                    i += 1
                }
                if negative { return value }
                return value == .min ? nil : -value
            }

            /// `8-4-4-4-12` hexadecimal digits, either case.
            static func parseUUID(_ b: [UInt8]) -> UUID? {
                guard b.count == 36, b[8] == 0x2D, b[13] == 0x2D, b[18] == 0x2D, b[23] == 0x2D else { return nil }
                var raw = [UInt8]()
                var i = 0
                while i < 36 {
                    if i == 8 || i == 13 || i == 18 || i == 23 {
                        i += 1
                        continue
                    }
                    guard let hi = hexValue(b[i]), let lo = hexValue(b[i + 1]) else { return nil }
                    raw.append(hi << 4 | lo)
                    i += 2
                }
                return UUID(
                    uuid: (
                        raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                        raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]
                    ))
            }

            static func hexValue(_ b: UInt8) -> UInt8? {
                switch b {
                case 0x30...0x39: return b - 0x30
                case 0x61...0x66: return b - 0x61 + 10
                case 0x41...0x46: return b - 0x41 + 10
                default: return nil
                }
            }

            // MARK: Scanning

            /// Checks the scheme or host and splits the path and query; nil for a link notifyd rejects.
            static func scan(_ text: String) -> Link? {
                // Spaces and control characters around a link are not part of it, as in a browser.
                var bytes = Array(text.utf8)
                while let last = bytes.last, last <= 0x20 { bytes.removeLast() }
                let lead = bytes.prefix { $0 <= 0x20 }.count
                if lead > 0 { bytes.removeFirst(lead) }
                guard !bytes.isEmpty, bytes.count <= maximumLength else { return nil }
                var end = bytes.count
                var queryStart = -1
                for (i, b) in bytes.enumerated() {
                    if b < 0x20 || b == 0x7F { return nil }
                    if b == 0x3F, queryStart < 0 { queryStart = i }
                    if b == 0x23 {
                        end = i
                        break
                    }
                }
                if queryStart < 0 { queryStart = end }
                let pathStart: Int
                if bytes[0] == 0x2F {
                    pathStart = 0
                } else {
                    guard let colon = schemeEnd(bytes, queryStart) else { return nil }
                    let scheme = bytes[0..<colon]
                    if equalsFolded(scheme, Array("https".utf8)) {
                        // A browser reads a backslash before the query of an https link as a slash.
                        for k in 0..<queryStart where bytes[k] == 0x5C { bytes[k] = 0x2F }
                        guard let start = authorityEnd(bytes, from: colon + 1, to: queryStart) else { return nil }
                        pathStart = start
                    } else if schemes.contains(where: { equalsFolded(scheme, Array($0.utf8)) }) {
                        // The authority of `shop://offers/SUMMER` is the first path segment.
                        pathStart = colon + 1
                    } else {
                        return nil
                    }
                }
                var link = Link()
                var i = pathStart
                while i < queryStart {
                    if bytes[i] == 0x2F {
                        i += 1
                        continue
                    }
                    let start = i
                    while i < queryStart, bytes[i] != 0x2F { i += 1 }
                    guard let segment = decode(bytes[start..<i], plusIsSpace: false) else { return nil }
                    // Dot segments are resolved as a browser resolves them.
                    if segment == [0x2E] { continue }
                    if segment == [0x2E, 0x2E] {
                        if !link.segments.isEmpty { link.segments.removeLast() }
                        continue
                    }
                    link.segments.append(segment)
                }
                i = queryStart + 1
                while end - queryStart > 1, i < end {
                    let start = i
                    var separator = -1
                    while i < end, bytes[i] != 0x26 {
                        if bytes[i] == 0x3D, separator < 0 { separator = i }
                        i += 1
                    }
                    let itemEnd = i
                    i += 1
                    guard itemEnd > start else { continue }
                    guard let key = decode(bytes[start..<(separator < 0 ? itemEnd : separator)], plusIsSpace: true)
                    else { return nil }
                    var value: [UInt8] = []
                    if separator >= 0 {
                        guard let decoded = decode(bytes[(separator + 1)..<itemEnd], plusIsSpace: true) else {
                            return nil
                        }
                        value = decoded
                    }
                    link.query.append((key, value))
                }
                return link
            }

            /// The index of the `:` ending a scheme (`ALPHA *(ALPHA / DIGIT / + / - / .)`) before `end`.
            static func schemeEnd(_ bytes: [UInt8], _ end: Int) -> Int? {
                var i = 0
                while i < end {
                    switch bytes[i] {
                    case 0x61...0x7A, 0x41...0x5A: break
                    case 0x30...0x39, 0x2B, 0x2D, 0x2E: if i == 0 { return nil }
                    case 0x3A: return i == 0 ? nil : i
                    default: return nil
                    }
                    i += 1
                }
                return nil
            }

            /// Checks `//host[:port]` of an https link; returns where its path starts.
            static func authorityEnd(_ bytes: [UInt8], from start: Int, to end: Int) -> Int? {
                guard start + 1 < end, bytes[start] == 0x2F, bytes[start + 1] == 0x2F else { return nil }
                let hostStart = start + 2
                var authorityEnd = hostStart
                while authorityEnd < end, bytes[authorityEnd] != 0x2F { authorityEnd += 1 }
                let authority = bytes[hostStart..<authorityEnd]
                guard !authority.contains(0x40), !authority.isEmpty, authority.first != 0x5B else { return nil }
                var hostEnd = authorityEnd
                if let colon = authority.firstIndex(of: 0x3A) {
                    let port = bytes[(colon + 1)..<authorityEnd]
                    guard port.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), port.count <= 5,
                        port.reduce(0, { $0 * 10 + Int($1 - 0x30) }) <= 65535
                    else { return nil }
                    hostEnd = colon
                }
                var host = bytes[hostStart..<hostEnd]
                // A DNS name: letters, digits, '-' and '_' in non-empty labels; one trailing dot.
                let labels = host.split(separator: 0x2E, omittingEmptySubsequences: false)
                for (k, label) in labels.enumerated() where label.isEmpty && !(k == labels.count - 1 && k > 0) {
                    return nil
                }
                let nameBytes: (UInt8) -> Bool = {
                    ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39)
                        || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E
                }
                guard host.allSatisfy(nameBytes) else { return nil }
                if host.last == 0x2E { host = host.dropLast() }
                guard !host.isEmpty else { return nil }
                for allowed in hosts {
                    if allowed.hasPrefix("*.") {
                        let suffix = Array(allowed.utf8.dropFirst())
                        if host.count > suffix.count, equalsFolded(host.suffix(suffix.count), suffix),
                            host.first != 0x2E
                        {
                            return authorityEnd
                        }
                    } else if equalsFolded(host, Array(allowed.utf8)) {
                        return authorityEnd
                    }
                }
                return nil
            }

            /// Compares bytes with ASCII letters folded to lower case; `lower` is lower-case already.
            static func equalsFolded(_ bytes: Swift.ArraySlice<UInt8>, _ lower: [UInt8]) -> Bool {
                guard bytes.count == lower.count else { return false }
                return Swift.zip(bytes, lower).allSatisfy { ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) == $1 }
            }

            /// Decodes `%XX` (and `+` as a space in the query); nil for a bad escape, a control character or
            /// invalid UTF-8.
            static func decode(_ bytes: Swift.ArraySlice<UInt8>, plusIsSpace: Bool) -> [UInt8]? {
                var out: [UInt8] = []
                out.reserveCapacity(bytes.count)
                var i = bytes.startIndex
                while i < bytes.endIndex {
                    let b = bytes[i]
                    if b == 0x25 {
                        guard i + 2 < bytes.endIndex, let hi = hexValue(bytes[i + 1]), let lo = hexValue(bytes[i + 2])
                        else { return nil }
                        out.append(hi << 4 | lo)
                        i += 3
                    } else {
                        out.append(plusIsSpace && b == 0x2B ? 0x20 : b)
                        i += 1
                    }
                }
                guard !out.contains(where: { $0 < 0x20 || $0 == 0x7F }), isValidUTF8(out) else { return nil }
                // No invisible bidirectional controls (U+202A–U+202E, U+2066–U+2069).
                for k in out.indices.dropLast(2) where out[k] == 0xE2 {
                    switch (out[k + 1], out[k + 2]) {
                    case (0x80, 0xAA...0xAE), (0x81, 0xA6...0xA9): return nil
                    default: continue
                    }
                }
                return out
            }

            /// Well-formed UTF-8: no overlong forms, surrogates or code points past U+10FFFF.
            static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
                var i = 0
                while i < bytes.count {
                    let b0 = bytes[i]
                    if b0 < 0x80 {
                        i += 1
                        continue
                    }
                    let length: Int
                    var low: UInt8 = 0x80
                    var high: UInt8 = 0xBF
                    switch b0 {
                    case 0xC2...0xDF: length = 2
                    case 0xE0: (length, low) = (3, 0xA0)
                    case 0xE1...0xEC, 0xEE...0xEF: length = 3
                    case 0xED: (length, high) = (3, 0x9F)
                    case 0xF0: (length, low) = (4, 0x90)
                    case 0xF1...0xF3: length = 4
                    case 0xF4: (length, high) = (4, 0x8F)
                    default: return false
                    }
                    guard i + length <= bytes.count, bytes[i + 1] >= low, bytes[i + 1] <= high else { return false }
                    for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return false }
                    i += length
                }
                return true
            }

            // MARK: Printing

            /// The canonical link of a page: its first pattern that carries the arguments and opens the same page
            /// again, with the first scheme, else `https://` and the first host that is not a wildcard.
            static func link(page: Int, values: [Value]) -> String? {
                guard pages.indices.contains(page), values.count == pages[page].kinds.count else { return nil }
                for route in table.routesByPage[page] {
                    guard let path = pathAndQuery(routes[route], values) else { continue }
                    let link: String
                    if let scheme = schemes.first {
                        link = scheme + "://" + path.dropFirst()
                    } else if let host = hosts.first(where: { !$0.hasPrefix("*.") }) {
                        link = "https://" + host + path
                    } else {
                        link = path
                    }
                    if let found = match(link), found.page == page, found.values == values { return link }
                }
                return nil
            }

            static func pathAndQuery(_ route: Route, _ values: [Value]) -> String? {
                var path = ""
                for (index, segment) in route.path.enumerated() {
                    switch segment {
                    case .literal(let text):
                        path += "/" + percentEncode(text, query: false)
                    case .parameter(let k):
                        if case .list = values[k] { return nil }
                        if route.optionalLast, index == route.path.count - 1, values[k] == pages[route.page].defaults[k] {
                            continue
                        }
                        let text = linkText(values[k])
                        guard !text.isEmpty else { return nil }
                        path += "/" + percentEncode(text, query: false)
                    case .part(let prefix, let ks, let separators, let suffix):
                        var segment = prefix
                        for (n, k) in ks.enumerated() {
                            if case .list = values[k] { return nil }
                            let text = linkText(values[k])
                            guard !text.isEmpty else { return nil }
                            segment += text
                            guard n < separators.count else { continue }
                            // A value holding its separator would read back split elsewhere.
                            let written = fold(Array((text + separators[n]).utf8))
                            guard firstOccurrence(fold(Array(separators[n].utf8)), written, from: 1) == text.utf8.count
                            else { return nil }
                            segment += separators[n]
                        }
                        path += "/" + percentEncode(segment + suffix, query: false)
                    case .catchAll(let k):
                        let parts = linkText(values[k]).split(separator: "/", omittingEmptySubsequences: false)
                        guard !parts.contains(where: \.isEmpty) else { return nil }
                        for part in parts { path += "/" + percentEncode(String(part), query: false) }
                    }
                }
                if path.isEmpty { path = "/" }
                var separator = "?"
                for binding in route.query where values[binding.parameter] != pages[route.page].defaults[binding.parameter] {
                    var items = [values[binding.parameter]]
                    if case .list(let list) = values[binding.parameter] { items = list }
                    for item in items {
                        let value = linkText(item)
                        path += separator + percentEncode(binding.key, query: true) + "=" + percentEncode(value, query: true)
                        separator = "&"
                    }
                }
                return path
            }

            static func linkText(_ value: Value) -> String {
                switch value {
                case .string(let s): return s
                case .int(let i): return String(i)
                case .double(let d): return d.description.hasSuffix(".0") ? String(d.description.dropLast(2)) : d.description
                case .bool(let b): return b ? "true" : "false"
                case .uuid(let u): return u.uuidString
                case .enumCase(let c): return c
                case .list(let items): return items.map(linkText).joined(separator: ",")
                }
            }

            /// Unreserved characters and a few safe delimiters stay; everything else becomes `%XX`.
            static func percentEncode(_ text: String, query: Bool) -> String {
                let digits = Array("0123456789ABCDEF".utf8)
                var out: [UInt8] = []
                for b in text.utf8 {
                    switch b {
                    case 0x61...0x7A, 0x41...0x5A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E, 0x21, 0x24, 0x27, 0x28, 0x29,
                        0x2A, 0x2C, 0x3B, 0x3A, 0x40:
                        out.append(b)
                    case 0x3D, 0x26, 0x2B:
                        if query { out += [0x25, digits[Int(b >> 4)], digits[Int(b & 0xF)]] } else { out.append(b) }
                    default:
                        out += [0x25, digits[Int(b >> 4)], digits[Int(b & 0xF)]]
                    }
                }
                return String(decoding: out, as: Swift.UTF8.self)
            }

            /// `cart.offer(id: "SUMMER")`, as notifyd describes pages.
            static func describe(page: Int, values: [Value]) -> String {
                let info = pages[page]
                guard !values.isEmpty else { return info.id }
                let arguments = Swift.zip(info.labels, values).map { label, value in label + ": " + describe(value) }
                return info.id + "(" + arguments.joined(separator: ", ") + ")"
            }

            /// One argument as Swift source: `"SUMMER"`, `42`, `.price`, `["a", "b"]`.
            static func describe(_ value: Value) -> String {
                switch value {
                case .string(let s): return quoted(s)
                case .int(let i): return String(i)
                case .double(let d): return d.description
                case .bool(let b): return b ? "true" : "false"
                case .uuid(let u): return quoted(u.uuidString)
                case .enumCase(let c): return "." + c
                case .list(let items): return "[" + items.map(describe).joined(separator: ", ") + "]"
                }
            }

            static func quoted(_ s: String) -> String {
                var out = "\""
                for scalar in s.unicodeScalars {
                    switch scalar {
                    case "\"": out += "\\\""
                    case "\\": out += "\\\\"
                    case "\n": out += "\\n"
                    case "\r": out += "\\r"
                    case "\t": out += "\\t"
                    case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                        out += "\\u{" + String(scalar.value, radix: 16) + "}"
                    default: out.unicodeScalars.append(scalar)
                    }
                }
                return out + "\""
            }
        }

        """#
}
