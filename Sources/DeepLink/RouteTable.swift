/// How a parameter's link text is checked and converted; plain values so the tables hold no references.
struct TypeCode: Equatable {
    enum Kind: UInt8 {
        case string, int, bool, uuid, enumeration
    }

    var kind: Kind
    /// Index into ``RouteTable/enums`` for an enumeration, else -1.
    var enumIndex: Int32

    static let string = TypeCode(kind: .string, enumIndex: -1)
}

/// All routes compiled into a trie over path segments, frozen into plain memory that the matcher reads without
/// reference counting or locks.
///
/// Each trie node has its literal children in one shared hash table keyed by (node, segment bytes), its typed
/// parameter edges (one per distinct type, ordered by the first route below them), one `String` edge, the routes
/// whose path ends there, and the routes whose catch-all starts there, both in route order. A lookup costs the same
/// whatever the number of routes.
final class RouteTable: @unchecked Sendable {
    // @unchecked: every buffer is written once in `init` and only read afterwards.
    struct Node {
        var typedStart: Int32 = 0
        var typedCount: Int32 = 0
        var stringChild: Int32 = -1
        var terminalStart: Int32 = 0
        var terminalCount: Int32 = 0
        var catchAllStart: Int32 = 0
        var catchAllCount: Int32 = 0
        var literalCount: Int32 = 0
        /// The lowest route index at or below this node (orders typed edges; names an example in traces).
        var firstRoute: Int32 = .max
        /// How many routes end at or below this node.
        var routeCount: Int32 = 0
    }

    struct TypedEdge {
        var type: TypeCode
        var child: Int32
    }

    struct LiteralEntry {
        var hash: UInt64
        var node: Int32
        var child: Int32
        var text: Span
    }

    /// Where one argument of a route's page comes from.
    struct Argument {
        enum Source: UInt8 {
            /// The path segment at `index`.
            case segment
            /// The segments from `index` on, joined by `/` (a catch-all).
            case rest
            /// The query item whose key is `queryKeys[index]`; the default when absent.
            case query
            /// Not bound by the pattern: the default.
            case unbound
        }

        var source: Source
        var index: Int32
        var type: TypeCode
        var hasDefault: Bool
    }

    struct RouteEntry {
        var argumentStart: Int32
        var argumentCount: Int32
    }

    /// The routes in declaration order.
    let routes: [Route]
    /// The accepted schemes and hosts.
    let policy: LinkPolicy
    /// Route indices of each page, in declaration order (the first is canonical).
    let routesByPage: [PageID: [Int]]
    /// Each route's page with its defaults in place (placeholders elsewhere), copied and filled in by a match.
    let templates: [Page]

    let nodes: UnsafeMutableBufferPointer<Node>
    let typedEdges: UnsafeMutableBufferPointer<TypedEdge>
    /// Terminal and catch-all route lists of all nodes.
    let routeLists: UnsafeMutableBufferPointer<Int32>
    /// Open addressing; each slot is an index into `literals` plus one, 0 when empty.
    let literalSlots: UnsafeMutableBufferPointer<Int32>
    let literals: UnsafeMutableBufferPointer<LiteralEntry>
    let routeEntries: UnsafeMutableBufferPointer<RouteEntry>
    let arguments: UnsafeMutableBufferPointer<Argument>
    let queryKeys: UnsafeMutableBufferPointer<Span>
    /// For each enumeration: the span of its cases in `enumCases`.
    let enums: UnsafeMutableBufferPointer<Span>
    let enumCases: UnsafeMutableBufferPointer<Span>
    /// Literal, query key and enum case bytes.
    let arena: UnsafeMutableBufferPointer<UInt8>
    /// The literal children of each node, sorted, for explain traces only.
    let literalNames: [[String]]
    /// The enumerations by index, for explain traces only.
    let enumTypes: [ParameterType]

    init(_ routes: [Route], policy: LinkPolicy) {
        self.routes = routes
        self.policy = policy
        var byPage: [PageID: [Int]] = [:]
        for (i, route) in routes.enumerated() { byPage[route.page, default: []].append(i) }
        self.routesByPage = byPage
        self.templates = routes.map { route in
            Page(
                id: route.page,
                arguments: route.declaration.parameters.map {
                    Page.Argument(label: $0.label, value: $0.defaultValue ?? .bool(false))
                })
        }
        var builder = RouteTableBuilder()
        for (index, route) in routes.enumerated() { builder.insert(route, index: Int32(index)) }
        var nodes: [Node] = []
        var typedEdges: [TypedEdge] = []
        var routeLists: [Int32] = []
        var literalEntries: [LiteralEntry] = []
        var arena = builder.arena
        var names: [[String]] = []
        let firstRoutes = builder.nodes.map(\.firstRoute)
        for (index, draft) in builder.nodes.enumerated() {
            var node = Node()
            let typed = draft.typed.sorted { firstRoutes[Int($0.child)] < firstRoutes[Int($1.child)] }
            node.typedStart = Int32(typedEdges.count)
            node.typedCount = Int32(typed.count)
            typedEdges += typed
            node.stringChild = draft.stringChild
            node.terminalStart = Int32(routeLists.count)
            node.terminalCount = Int32(draft.terminals.count)
            routeLists += draft.terminals
            node.catchAllStart = Int32(routeLists.count)
            node.catchAllCount = Int32(draft.catchAlls.count)
            routeLists += draft.catchAlls
            node.literalCount = Int32(draft.literals.count)
            node.firstRoute = draft.firstRoute
            node.routeCount = draft.routeCount
            nodes.append(node)
            names.append(draft.literals.keys.sorted())
            for (text, child) in draft.literals {
                let start = Int32(arena.count)
                arena += Array(text.utf8)
                let span = Span(start: start, end: Int32(arena.count))
                let hash = arena.withUnsafeBufferPointer {
                    hashSegment(UnsafeBufferPointer(rebasing: $0[Int(span.start)..<Int(span.end)]), node: Int32(index))
                }
                literalEntries.append(LiteralEntry(hash: hash, node: Int32(index), child: child, text: span))
            }
        }
        var capacity = 8
        while capacity < literalEntries.count * 2 { capacity *= 2 }
        var slots = [Int32](repeating: 0, count: capacity)
        for (i, entry) in literalEntries.enumerated() {
            var slot = Int(truncatingIfNeeded: entry.hash) & (capacity - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Int32(i + 1)
        }
        self.nodes = freeze(nodes)
        self.typedEdges = freeze(typedEdges)
        self.routeLists = freeze(routeLists)
        self.literalSlots = freeze(slots)
        self.literals = freeze(literalEntries)
        self.routeEntries = freeze(builder.routeEntries)
        self.arguments = freeze(builder.arguments)
        self.queryKeys = freeze(builder.queryKeys)
        self.enums = freeze(builder.enums)
        self.enumCases = freeze(builder.enumCases)
        self.arena = freeze(arena)
        self.literalNames = names
        self.enumTypes = builder.enumTypes
    }

    deinit {
        nodes.deallocate()
        typedEdges.deallocate()
        routeLists.deallocate()
        literalSlots.deallocate()
        literals.deallocate()
        routeEntries.deallocate()
        arguments.deallocate()
        queryKeys.deallocate()
        enums.deallocate()
        enumCases.deallocate()
        arena.deallocate()
    }

    @inline(__always)
    func bytes(_ span: Span) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: arena[Int(span.start)..<Int(span.end)])
    }

    /// The child of `node` for the literal segment `segment`, or -1.
    @inline(__always)
    func literalChild(_ node: Int32, _ segment: UnsafeBufferPointer<UInt8>) -> Int32 {
        let hash = hashSegment(segment, node: node)
        let mask = literalSlots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entryIndex = literalSlots[slot]
            if entryIndex == 0 { return -1 }
            let entry = literals[Int(entryIndex) - 1]
            if entry.hash == hash, entry.node == node, bytesEqual(bytes(entry.text), segment) { return entry.child }
            slot = (slot + 1) & mask
        }
    }

    /// True when `text` converts to `type`.
    @inline(__always)
    func accepts(_ text: UnsafeBufferPointer<UInt8>, _ type: TypeCode) -> Bool {
        switch type.kind {
        case .string: return true
        case .int: return parseInt(text) != nil
        case .bool: return parseBool(text) != nil
        case .uuid: return parseUUID(text) != nil
        case .enumeration: return enumCase(text, type.enumIndex) >= 0
        }
    }

    /// The value of `text` as `type`, which must accept it.
    @inline(__always)
    func value(_ text: UnsafeBufferPointer<UInt8>, _ type: TypeCode) -> Value? {
        switch type.kind {
        case .string: return .string(String(decoding: text, as: UTF8.self))
        case .int: return parseInt(text).map(Value.int)
        case .bool: return parseBool(text).map(Value.bool)
        case .uuid: return parseUUID(text).map(Value.uuid)
        case .enumeration:
            return enumCase(text, type.enumIndex) >= 0 ? .enumCase(String(decoding: text, as: UTF8.self)) : nil
        }
    }

    /// The index of the case of enumeration `index` spelled `text`, or -1.
    func enumCase(_ text: UnsafeBufferPointer<UInt8>, _ index: Int32) -> Int {
        let cases = enums[Int(index)]
        for i in Int(cases.start)..<Int(cases.end) where bytesEqual(bytes(enumCases[i]), text) {
            return i - Int(cases.start)
        }
        return -1
    }
}

private func freeze<T>(_ array: [T]) -> UnsafeMutableBufferPointer<T> {
    let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(array.count, 1))
    _ = buffer.initialize(from: array)
    return UnsafeMutableBufferPointer(rebasing: buffer[0..<array.count])
}

/// A fast 64-bit hash of a segment's bytes, seeded with the trie node. Literal keys come from the config, so
/// flooding one bucket from links is not possible.
@inline(__always)
func hashSegment(_ bytes: UnsafeBufferPointer<UInt8>, node: Int32) -> UInt64 {
    var h = UInt64(truncatingIfNeeded: node) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count) &* 0xC2B2_AE3D_27D4_EB4F
    var i = 0
    if let base = bytes.baseAddress {
        while i + 8 <= bytes.count {
            h = (h ^ UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 29
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < bytes.count {
            tail |= UInt64(base[i]) << shift
            shift += 8
            i += 1
        }
        h = (h ^ tail) &* 0x9E37_79B9_7F4A_7C15
    }
    h ^= h >> 32
    h = h &* 0xBF58_476D_1CE4_E5B9
    return h ^ (h >> 29)
}

/// The mutable draft of a ``RouteTable``.
struct RouteTableBuilder {
    struct DraftNode {
        var literals: [String: Int32] = [:]
        var typed: [RouteTable.TypedEdge] = []
        var stringChild: Int32 = -1
        var terminals: [Int32] = []
        var catchAlls: [Int32] = []
        var firstRoute: Int32 = .max
        var routeCount: Int32 = 0
    }

    var nodes: [DraftNode] = [DraftNode()]
    var routeEntries: [RouteTable.RouteEntry] = []
    var arguments: [RouteTable.Argument] = []
    var queryKeys: [Span] = []
    var enumTypes: [ParameterType] = []
    var enums: [Span] = []
    var enumCases: [Span] = []
    var arena: [UInt8] = []

    mutating func insert(_ route: Route, index: Int32) {
        let declaration = route.declaration
        var node = 0
        var path = [0]
        for segment in route.pattern.segments {
            switch segment {
            case .literal(let text):
                if let child = nodes[node].literals[text] {
                    node = Int(child)
                } else {
                    let child = newNode()
                    nodes[node].literals[text] = child
                    node = Int(child)
                }
            case .parameter(let name):
                let type = typeCode(declaration.parameter(name)?.type ?? .string)
                if type == .string {
                    if nodes[node].stringChild < 0 { nodes[node].stringChild = newNode() }
                    node = Int(nodes[node].stringChild)
                } else if let edge = nodes[node].typed.first(where: { $0.type == type }) {
                    node = Int(edge.child)
                } else {
                    let child = newNode()
                    nodes[node].typed.append(RouteTable.TypedEdge(type: type, child: child))
                    node = Int(child)
                }
            case .catchAll:
                continue
            }
            path.append(node)
        }
        if route.pattern.catchAllName == nil {
            nodes[node].terminals.append(index)
        } else {
            nodes[node].catchAlls.append(index)
        }
        for n in path {
            nodes[n].firstRoute = min(nodes[n].firstRoute, index)
            nodes[n].routeCount += 1
        }
        compileArguments(route)
    }

    mutating func newNode() -> Int32 {
        nodes.append(DraftNode())
        return Int32(nodes.count - 1)
    }

    mutating func compileArguments(_ route: Route) {
        routeEntries.append(
            RouteTable.RouteEntry(
                argumentStart: Int32(arguments.count), argumentCount: Int32(route.declaration.parameters.count)))
        for parameter in route.declaration.parameters {
            var source = RouteTable.Argument.Source.unbound
            var index: Int32 = 0
            for (depth, segment) in route.pattern.segments.enumerated() {
                switch segment {
                case .parameter(parameter.label):
                    source = .segment
                    index = Int32(depth)
                case .catchAll(parameter.label):
                    source = .rest
                    index = Int32(depth)
                default: break
                }
            }
            if let binding = route.pattern.query.first(where: { $0.name == parameter.label }) {
                source = .query
                index = Int32(queryKeys.count)
                queryKeys.append(store(binding.key))
            }
            arguments.append(
                RouteTable.Argument(
                    source: source, index: index, type: typeCode(parameter.type),
                    hasDefault: parameter.defaultValue != nil))
        }
    }

    mutating func store(_ text: String) -> Span {
        let start = Int32(arena.count)
        arena += Array(text.utf8)
        return Span(start: start, end: Int32(arena.count))
    }

    mutating func typeCode(_ type: ParameterType) -> TypeCode {
        switch type {
        case .string: return .string
        case .int: return TypeCode(kind: .int, enumIndex: -1)
        case .bool: return TypeCode(kind: .bool, enumIndex: -1)
        case .uuid: return TypeCode(kind: .uuid, enumIndex: -1)
        case .enumeration(_, let cases):
            if let index = enumTypes.firstIndex(of: type) { return TypeCode(kind: .enumeration, enumIndex: Int32(index)) }
            enumTypes.append(type)
            let start = Int32(enumCases.count)
            for c in cases { enumCases.append(store(c)) }
            enums.append(Span(start: start, end: Int32(enumCases.count)))
            return TypeCode(kind: .enumeration, enumIndex: Int32(enumTypes.count - 1))
        }
    }
}
