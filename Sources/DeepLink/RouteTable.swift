/// How a parameter's link text is checked and converted; plain values so the tables hold no references.
struct TypeCode: Equatable {
    enum Kind: UInt8 {
        case string, int, double, bool, uuid, enumeration
    }

    // The 32-bit fields first: 10 bytes, so that a typed edge (a type code and a child) is 16.
    /// Index into ``RouteTable/enums`` for an enumeration, else -1.
    var enumIndex: Int32
    /// For a part-literal segment (`v{version}`), the index of its text around the parameter in
    /// ``RouteTable/parts``; else -1.
    var part: Int32 = -1
    var kind: Kind
    /// A list of `kind`: every query item of the key, each converted.
    var isList = false
    /// For an argument bound in a part-literal segment of several parameters (`{slug}-{id}`), which of them: its
    /// piece of the segment's text; the last (or only) one is the separator count.
    var piece: Int16 = 0

    init(kind: Kind, enumIndex: Int32) {
        self.kind = kind
        self.enumIndex = enumIndex
    }

    static let string = TypeCode(kind: .string, enumIndex: -1)
}

/// All routes compiled into a trie over path segments, frozen into flat memory that the matcher reads without
/// reference counting or locks.
///
/// Each trie node has its literal children in one shared open-addressing hash table keyed by (node, segment bytes),
/// its typed parameter edges (one per distinct type, ordered by the first route below them), one `String` edge, the
/// routes whose path ends there, and the routes whose catch-all starts there, both in route order. A lookup costs the
/// same whatever the number of routes; the layout keeps the cache lines touched per segment to about two.
final class RouteTable: @unchecked Sendable {
    // @unchecked: every buffer is written once in `init` and only read afterwards.

    /// One trie node: 32 bytes, one cache line at most.
    struct Node {
        var typedStart: Int32 = 0
        var typedCount: Int32 = 0
        var stringChild: Int32 = -1
        /// The route itself when `terminalCount` is 1, else where the list starts in `routeLists`.
        var terminalStart: Int32 = 0
        var terminalCount: Int32 = 0
        /// The route itself when `catchAllCount` is 1, else where the list starts in `routeLists`.
        var catchAllStart: Int32 = 0
        var catchAllCount: Int32 = 0
        var literalCount: Int32 = 0
    }

    /// What traces and edge ordering need about a node.
    struct NodeStats {
        /// The lowest route index at or below this node.
        var firstRoute: Int32 = .max
        /// How many routes end at or below this node.
        var routeCount: Int32 = 0
    }

    /// The literal prefix and suffix of a part-literal segment, in the arena, and for several parameters the
    /// separators between them and the types of the parameters before each (the last parameter's is the edge's).
    struct Affixes {
        var prefix: Span
        var suffix: Span
        /// Into ``RouteTable/separators`` and ``RouteTable/separatorTypes``.
        var separatorStart: Int32 = 0
        var separatorCount: Int32 = 0
    }

    struct TypedEdge {
        var type: TypeCode
        var child: Int32
    }

    /// One slot of the literal hash table, 32 bytes so that a slot never straddles two cache lines; `node` is -1 in
    /// an empty slot. Literals up to 16 bytes are compared in place (`word0`, `word1`); for longer ones `word0`
    /// holds their first 8 bytes and `word1` where they start in the arena.
    struct LiteralSlot {
        var word0: UInt64 = 0
        var word1: UInt64 = 0
        /// The hash's upper half.
        var tag: UInt32 = 0
        var node: Int32 = -1
        var child: Int32 = -1
        var length: Int32 = 0
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

    /// An argument's source next to its label and default (a placeholder when there is none), so that building the
    /// page reads one place.
    struct ArgumentEntry {
        var spec: Argument
        var template: Page.Argument
    }

    /// Padded to 64 bytes: one cache line per route.
    struct RouteEntry {
        var argumentStart: Int32
        var argumentCount: Int32
        var page: PageID
        var padding: (UInt64, UInt64, UInt64) = (0, 0, 0)

        init(argumentStart: Int32, argumentCount: Int32, page: PageID) {
            self.argumentStart = argumentStart
            self.argumentCount = argumentCount
            self.page = page
        }
    }

    /// The routes in declaration order.
    let routes: [Route]
    /// The accepted schemes and hosts.
    let policy: LinkPolicy
    /// Route indices of each page, in declaration order (the first is canonical).
    let routesByPage: [PageID: [Int]]

    let nodes: UnsafeMutableBufferPointer<Node>
    let nodeStats: UnsafeMutableBufferPointer<NodeStats>
    let typedEdges: UnsafeMutableBufferPointer<TypedEdge>
    /// Terminal and catch-all route lists of all nodes.
    let routeLists: UnsafeMutableBufferPointer<Int32>
    let literalSlots: UnsafeMutableBufferPointer<LiteralSlot>
    let routeEntries: UnsafeMutableBufferPointer<RouteEntry>
    let arguments: UnsafeMutableBufferPointer<ArgumentEntry>
    let queryKeys: UnsafeMutableBufferPointer<Span>
    /// For each enumeration: the span of its cases in `enumCases`.
    let enums: UnsafeMutableBufferPointer<Span>
    let enumCases: UnsafeMutableBufferPointer<Span>
    let parts: UnsafeMutableBufferPointer<Affixes>
    /// The separators of part-literal segments of several parameters, in the arena, and the type of the parameter
    /// before each.
    let separators: UnsafeMutableBufferPointer<Span>
    let separatorTypes: UnsafeMutableBufferPointer<TypeCode>
    /// Long literal, query key and enum case bytes.
    let arena: UnsafeMutableBufferPointer<UInt8>
    /// The literal children of each node, sorted, for explain traces only.
    let literalNames: [[String]]
    /// The enumerations by index, for explain traces only.
    let enumTypes: [ParameterType]
    /// Literal text was stored with its ASCII letters small, and segments are compared so.
    let ignoresCase: Bool

    init(_ routes: [Route], policy: LinkPolicy) {
        self.routes = routes
        self.policy = policy
        var byPage: [PageID: [Int]] = [:]
        for (i, route) in routes.enumerated() { byPage[route.page, default: []].append(i) }
        self.routesByPage = byPage
        var builder = RouteTableBuilder()
        builder.ignoresCase = policy.caseInsensitivePaths
        for (index, route) in routes.enumerated() { builder.insert(route, index: Int32(index)) }
        var nodes: [Node] = []
        var stats: [NodeStats] = []
        var typedEdges: [TypedEdge] = []
        var routeLists: [Int32] = []
        var slots: [LiteralSlot] = []
        var arena = builder.arena
        var names: [[String]] = []
        let literalCount = builder.nodes.reduce(0) { $0 + $1.literals.count }
        var capacity = 8
        while capacity * 2 < literalCount * 3 { capacity *= 2 }
        slots = Array(repeating: LiteralSlot(), count: capacity)
        let firstRoutes = builder.nodes.map(\.firstRoute)
        for (index, draft) in builder.nodes.enumerated() {
            var node = Node()
            // Part-literal edges (`v{n}`) before plain typed ones, each in the order of their first routes.
            let rank = { (edge: TypedEdge) in (edge.type.part < 0 ? 1 : 0, firstRoutes[Int(edge.child)]) }
            let typed = draft.typed.sorted { rank($0) < rank($1) }
            node.typedStart = Int32(typedEdges.count)
            node.typedCount = Int32(typed.count)
            typedEdges += typed
            node.stringChild = draft.stringChild
            // A list of one route (the usual case) is stored in the node itself: one memory access less.
            node.terminalCount = Int32(draft.terminals.count)
            node.terminalStart = draft.terminals.count == 1 ? draft.terminals[0] : Int32(routeLists.count)
            if draft.terminals.count > 1 { routeLists += draft.terminals }
            node.catchAllCount = Int32(draft.catchAlls.count)
            node.catchAllStart = draft.catchAlls.count == 1 ? draft.catchAlls[0] : Int32(routeLists.count)
            if draft.catchAlls.count > 1 { routeLists += draft.catchAlls }
            node.literalCount = Int32(draft.literals.count)
            nodes.append(node)
            stats.append(NodeStats(firstRoute: draft.firstRoute, routeCount: draft.routeCount))
            names.append(draft.literals.keys.sorted())
            for (text, child) in draft.literals {
                var entry = LiteralSlot()
                let bytes = Array(text.utf8)
                let hash = bytes.withUnsafeBufferPointer { b in
                    (entry.word0, entry.word1) = leadingWords(b)
                    return hashSegment(b, node: Int32(index))
                }
                entry.tag = UInt32(truncatingIfNeeded: hash >> 32)
                entry.node = Int32(index)
                entry.child = child
                entry.length = Int32(bytes.count)
                if bytes.count > 16 {
                    entry.word1 = UInt64(arena.count)
                    arena += bytes
                }
                var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
                while slots[slot].node >= 0 { slot = (slot + 1) & (capacity - 1) }
                slots[slot] = entry
            }
        }
        self.nodes = freeze(nodes, alignment: 64)
        self.nodeStats = freeze(stats)
        self.typedEdges = freeze(typedEdges)
        self.routeLists = freeze(routeLists)
        self.literalSlots = freeze(slots, alignment: 64)
        self.routeEntries = freeze(builder.routeEntries, alignment: 64)
        self.arguments = freeze(builder.arguments, alignment: 64)
        self.queryKeys = freeze(builder.queryKeys)
        self.enums = freeze(builder.enums)
        self.enumCases = freeze(builder.enumCases)
        self.parts = freeze(builder.parts)
        self.separators = freeze(builder.separators)
        self.separatorTypes = freeze(builder.separatorTypes)
        self.arena = freeze(arena)
        self.literalNames = names
        self.enumTypes = builder.enumTypes
        self.ignoresCase = policy.caseInsensitivePaths
    }

    deinit {
        release(nodes)
        release(nodeStats)
        release(typedEdges)
        release(routeLists)
        release(literalSlots)
        release(routeEntries)
        release(arguments)
        release(queryKeys)
        release(enums)
        release(enumCases)
        release(parts)
        release(separators)
        release(separatorTypes)
        release(arena)
    }

    @inline(__always)
    func bytes(_ span: Span) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: arena[Int(span.start)..<Int(span.end)])
    }

    /// The child of `node` for the literal segment `segment`, or -1.
    @inline(__always)
    func literalChild(_ node: Int32, _ segment: UnsafeBufferPointer<UInt8>) -> Int32 {
        let hash = hashSegment(segment, node: node)
        let tag = UInt32(truncatingIfNeeded: hash >> 32)
        let mask = literalSlots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = literalSlots[slot]
            if entry.node < 0 { return -1 }
            if entry.tag == tag, entry.node == node, Int(entry.length) == segment.count {
                let (w0, w1) = leadingWords(segment)
                if segment.count <= 16 {
                    if w0 == entry.word0, w1 == entry.word1 { return entry.child }
                } else if w0 == entry.word0 {
                    let start = Int(truncatingIfNeeded: entry.word1)
                    let stored = UnsafeBufferPointer(rebasing: arena[start..<start + segment.count])
                    if bytesEqual(stored, segment) { return entry.child }
                }
            }
            slot = (slot + 1) & mask
        }
    }

    /// ``literalChild(_:_:)`` for a table that ignores case: the segment with its ASCII letters made small.
    func literalChildIgnoringCase(_ node: Int32, _ segment: UnsafeBufferPointer<UInt8>) -> Int32 {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(segment.count, 1)) { buffer in
            for i in 0..<segment.count { buffer[i] = asciiLowercased(segment[i]) }
            return literalChild(node, UnsafeBufferPointer(rebasing: buffer[..<segment.count]))
        }
    }

    /// The `i`th route whose path ends at `node`.
    @inline(__always)
    func terminal(_ node: Node, _ i: Int) -> Int32 {
        node.terminalCount == 1 ? node.terminalStart : routeLists[Int(node.terminalStart) + i]
    }

    /// The `i`th route whose catch-all starts at `node`.
    @inline(__always)
    func catchAll(_ node: Node, _ i: Int) -> Int32 {
        node.catchAllCount == 1 ? node.catchAllStart : routeLists[Int(node.catchAllStart) + i]
    }

    /// True when `text` converts to `type`.
    @inline(__always)
    func accepts(_ text: UnsafeBufferPointer<UInt8>, _ type: TypeCode) -> Bool {
        switch type.kind {
        case .string: return true
        case .int: return parseInt(text) != nil
        case .double: return parseDouble(text) != nil
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
        case .double: return parseDouble(text).map(Value.double)
        case .bool: return parseBool(text).map(Value.bool)
        case .uuid: return parseUUID(text).map(Value.uuid)
        case .enumeration:
            return enumCase(text, type.enumIndex) >= 0 ? .enumCase(String(decoding: text, as: UTF8.self)) : nil
        }
    }

    /// The text of `segment` between the affixes `part`, or `nil` when it does not start and end with them or
    /// nothing is left between.
    @inline(__always)
    func middle(_ segment: UnsafeBufferPointer<UInt8>, _ part: Int32) -> UnsafeBufferPointer<UInt8>? {
        let affixes = parts[Int(part)]
        let prefix = bytes(affixes.prefix)
        let suffix = bytes(affixes.suffix)
        guard segment.count > prefix.count + suffix.count else { return nil }
        let head = UnsafeBufferPointer(rebasing: segment[..<prefix.count])
        let tail = UnsafeBufferPointer(rebasing: segment[(segment.count - suffix.count)...])
        if ignoresCase {
            guard bytesEqualIgnoringCase(prefix, head), bytesEqualIgnoringCase(suffix, tail) else { return nil }
        } else {
            guard bytesEqual(head, prefix), bytesEqual(tail, suffix) else { return nil }
        }
        let text = UnsafeBufferPointer(rebasing: segment[prefix.count..<(segment.count - suffix.count)])
        guard affixes.separatorCount > 0 else { return text }
        guard let last = pieceRange(text, affixes, Int(affixes.separatorCount), checking: true) else { return nil }
        return UnsafeBufferPointer(rebasing: text[last])
    }

    /// The span of `span` between the affixes `part` (which the trie walk checked), and of that the piece of
    /// parameter `piece`.
    @inline(__always)
    func middle(_ span: Span, _ part: Int32, piece: Int16, _ link: LinkView) -> Span {
        let affixes = parts[Int(part)]
        let text = Span(start: span.start + Int32(affixes.prefix.count), end: span.end - Int32(affixes.suffix.count))
        guard affixes.separatorCount > 0, let range = pieceRange(link.bytes(text), affixes, Int(piece), checking: false)
        else { return text }
        return Span(start: text.start + Int32(range.lowerBound), end: text.start + Int32(range.upperBound))
    }

    /// Where parameter `piece` of a part-literal segment of several parameters lies in `text` (the segment without
    /// its affixes): each parameter but the last takes the shortest non-empty text up to the first following
    /// occurrence of its separator, the last the rest, not empty. `nil` when a separator is missing, the last piece
    /// is empty or (`checking`) a piece before `piece` does not convert. Linear in the text's length times the
    /// separators' lengths: a split is never retried.
    func pieceRange(
        _ text: UnsafeBufferPointer<UInt8>, _ affixes: Affixes, _ piece: Int, checking: Bool
    )
        -> Range<Int>?
    {
        var start = 0
        for i in 0..<Int(affixes.separatorCount) {
            let k = Int(affixes.separatorStart) + i
            let separator = bytes(separators[k])
            guard let end = firstOccurrence(separator, in: text, from: start + 1) else { return nil }
            if i == piece { return start..<end }
            if checking, !accepts(UnsafeBufferPointer(rebasing: text[start..<end]), separatorTypes[k]) { return nil }
            start = end + separator.count
        }
        return start < text.count ? start..<text.count : nil
    }

    /// The first index at or after `from` where `needle` starts in `text`.
    @inline(__always)
    func firstOccurrence(_ needle: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let first = needle.first, text.count >= needle.count else { return nil }
        var i = from
        while i <= text.count - needle.count {
            if text[i] == first || (ignoresCase && asciiLowercased(text[i]) == first) {
                let candidate = UnsafeBufferPointer(rebasing: text[i..<(i + needle.count)])
                if ignoresCase ? bytesEqualIgnoringCase(needle, candidate) : bytesEqual(candidate, needle) { return i }
            }
            i += 1
        }
        return nil
    }

    /// `prefix{…}suffix` of `part`, for traces.
    func partText(_ part: Int32) -> String {
        let affixes = parts[Int(part)]
        var text = String(decoding: bytes(affixes.prefix), as: UTF8.self) + "{…}"
        for k in Int(affixes.separatorStart)..<Int(affixes.separatorStart + affixes.separatorCount) {
            text += String(decoding: bytes(separators[k]), as: UTF8.self) + "{…}"
        }
        return text + String(decoding: bytes(affixes.suffix), as: UTF8.self)
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

/// The first sixteen bytes of `bytes` as two little-endian words, zero-padded.
@inline(__always)
func leadingWords(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
    var words: (UInt64, UInt64) = (0, 0)
    if let base = bytes.baseAddress {
        withUnsafeMutableBytes(of: &words) { $0.baseAddress!.copyMemory(from: base, byteCount: min(bytes.count, 16)) }
    }
    return words
}

private func release<T>(_ buffer: UnsafeMutableBufferPointer<T>) {
    _ = buffer.deinitialize()
    buffer.deallocate()
}

private func freeze<T>(_ array: [T], alignment: Int = MemoryLayout<T>.alignment) -> UnsafeMutableBufferPointer<T> {
    let raw = UnsafeMutableRawPointer.allocate(
        byteCount: max(array.count, 1) * MemoryLayout<T>.stride, alignment: max(alignment, MemoryLayout<T>.alignment))
    let start = raw.bindMemory(to: T.self, capacity: array.count)
    let buffer = UnsafeMutableBufferPointer(start: start, count: array.count)
    _ = buffer.initialize(from: array)
    return buffer
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
        if i < bytes.count {
            var tail: UInt64 = 0
            withUnsafeMutableBytes(of: &tail) { $0.baseAddress!.copyMemory(from: base + i, byteCount: bytes.count - i) }
            h = (h ^ tail) &* 0x9E37_79B9_7F4A_7C15
        }
    }
    h ^= h >> 32
    h = h &* 0xBF58_476D_1CE4_E5B9
    return h ^ (h >> 29)
}
