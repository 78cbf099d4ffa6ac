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
    var arguments: [RouteTable.ArgumentEntry] = []
    var queryKeys: [Span] = []
    var enumTypes: [ParameterType] = []
    var enums: [Span] = []
    var enumCases: [Span] = []
    var arena: [UInt8] = []
    /// The literal text around the parameter of part-literal segments, by index; the same text shares an index.
    var parts: [RouteTable.Affixes] = []
    var partIndex: [[String]: Int32] = [:]
    var separators: [Span] = []
    var separatorTypes: [TypeCode] = []
    /// Literal text is stored with its ASCII letters small (``LinkPolicy/caseInsensitivePaths``).
    var ignoresCase = false

    mutating func insert(_ route: Route, index: Int32) {
        let declaration = route.declaration
        var node = 0
        var path = [0]
        for segment in route.pattern.segments {
            switch segment {
            case .literal(let written):
                let text = ignoresCase ? asciiLowercased(written) : written
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
                } else {
                    node = typedChild(node, type)
                }
            case .part(let prefix, let names, let separators, let suffix):
                var type = typeCode(declaration.parameter(names[names.count - 1])?.type ?? .string)
                type.part = affixes(
                    prefix, separators, names.dropLast().map { declaration.parameter($0)?.type ?? .string }, suffix)
                node = typedChild(node, type)
            case .catchAll:
                continue
            }
            path.append(node)
        }
        if route.pattern.catchAllName == nil {
            nodes[node].terminals.append(index)
            // `/search/{q?}` also ends where `/search` does: one route, two terminals, so that the table holds no
            // second pattern for the shorter path.
            if route.pattern.optionalName != nil { nodes[path[path.count - 2]].terminals.append(index) }
        } else {
            nodes[node].catchAlls.append(index)
        }
        for n in path {
            nodes[n].firstRoute = min(nodes[n].firstRoute, index)
            nodes[n].routeCount += 1
        }
        compileArguments(route)
    }

    /// The child of `node` along the conditional edge of `type`, added when missing.
    mutating func typedChild(_ node: Int, _ type: TypeCode) -> Int {
        if let edge = nodes[node].typed.first(where: { $0.type == type }) { return Int(edge.child) }
        let child = newNode()
        nodes[node].typed.append(RouteTable.TypedEdge(type: type, child: child))
        return Int(child)
    }

    /// The index of the affixes `prefix`…`suffix` with `separators` after parameters of `types`, stored once.
    mutating func affixes(
        _ prefix: String, _ separators: [String], _ types: [ParameterType], _ suffix: String
    )
        -> Int32
    {
        let texts = ([prefix, suffix] + separators).map { ignoresCase ? asciiLowercased($0) : $0 }
        let key = texts + types.map { "\($0)" }
        if let index = partIndex[key] { return index }
        var entry = RouteTable.Affixes(prefix: store(texts[0]), suffix: store(texts[1]))
        entry.separatorStart = Int32(self.separators.count)
        entry.separatorCount = Int32(separators.count)
        for (text, type) in zip(texts.dropFirst(2), types) {
            self.separators.append(store(text))
            separatorTypes.append(typeCode(type))
        }
        parts.append(entry)
        partIndex[key] = Int32(parts.count - 1)
        return Int32(parts.count - 1)
    }

    mutating func newNode() -> Int32 {
        nodes.append(DraftNode())
        return Int32(nodes.count - 1)
    }

    mutating func compileArguments(_ route: Route) {
        routeEntries.append(
            RouteTable.RouteEntry(
                argumentStart: Int32(arguments.count), argumentCount: Int32(route.declaration.parameters.count),
                page: route.page))
        for parameter in route.declaration.parameters {
            var source = RouteTable.Argument.Source.unbound
            var index: Int32 = 0
            for (depth, segment) in route.pattern.segments.enumerated() {
                switch segment {
                case .parameter(parameter.label):
                    source = .segment
                    index = Int32(depth)
                case .part(_, let names, _, _) where names.contains(parameter.label):
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
            var type = typeCode(parameter.type)
            for case .part(let prefix, let names, let separators, let suffix) in route.pattern.segments {
                guard let piece = names.firstIndex(of: parameter.label) else { continue }
                let types = names.dropLast().map { route.declaration.parameter($0)?.type ?? .string }
                type.part = affixes(prefix, separators, types, suffix)
                type.piece = Int16(piece)
            }
            let spec = RouteTable.Argument(
                source: source, index: index, type: type, hasDefault: parameter.defaultValue != nil)
            let template = Page.Argument(label: parameter.label, value: parameter.defaultValue ?? .bool(false))
            arguments.append(RouteTable.ArgumentEntry(spec: spec, template: template))
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
        case .double: return TypeCode(kind: .double, enumIndex: -1)
        case .bool: return TypeCode(kind: .bool, enumIndex: -1)
        case .uuid: return TypeCode(kind: .uuid, enumIndex: -1)
        case .enumeration(_, let cases):
            if let index = enumTypes.firstIndex(of: type) {
                return TypeCode(kind: .enumeration, enumIndex: Int32(index))
            }
            enumTypes.append(type)
            let start = Int32(enumCases.count)
            for c in cases { enumCases.append(store(c)) }
            enums.append(Span(start: start, end: Int32(enumCases.count)))
            return TypeCode(kind: .enumeration, enumIndex: Int32(enumTypes.count - 1))
        case .list(let element):
            var code = typeCode(element)
            code.isList = true
            return code
        }
    }
}
