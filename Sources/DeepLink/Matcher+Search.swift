extension Matcher {
    /// Depth-first search in precedence order: literal, typed parameters, `String` parameter, catch-all. Returns the
    /// first route that fully matches and, for a catch-all, the segment where its rest starts (else -1).
    func search(node index: Int32, depth: Int, _ link: LinkView, _ trace: inout [String]?) -> (Int32, Int32)? {
        let table = self.table
        let node = table.nodes[Int(index)]
        guard depth < link.segments.count else {
            for i in 0..<Int(node.terminalCount) {
                let route = table.terminal(node, i)
                if accepts(route: route, restFrom: -1, link, &trace) { return (route, -1) }
            }
            if node.terminalCount == 0, trace != nil {
                trace?.append("\(example(below: index)): the link ends after \(depth) segment(s)")
            }
            return nil
        }
        let segment = link.bytes(link.segments[depth])
        if node.literalCount > 0 {
            let child =
                table.ignoresCase ? table.literalChildIgnoringCase(index, segment) : table.literalChild(index, segment)
            if child >= 0 {
                if let found = search(node: child, depth: depth + 1, link, &trace) { return found }
            } else if trace != nil {
                let names = table.literalNames[Int(index)]
                let expected =
                    names.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (names.count > 5 ? ", …" : "")
                let text = link.text(link.segments[depth])
                trace?.append("segment \(depth + 1) '\(text)' is no literal here (expected \(expected))")
            }
        }
        for i in 0..<Int(node.typedCount) {
            let edge = table.typedEdges[Int(node.typedStart) + i]
            var text = segment
            if edge.type.part >= 0 {
                guard let middle = table.middle(segment, edge.type.part) else {
                    if trace != nil {
                        let shown = link.text(link.segments[depth])
                        trace?.append(
                            "\(example(below: edge.child)): '\(shown)' is not \(table.partText(edge.type.part))")
                    }
                    continue
                }
                text = middle
            }
            guard table.accepts(text, edge.type) else {
                if trace != nil {
                    let reason = mismatch(String(decoding: text, as: UTF8.self), edge.type)
                    trace?.append("\(example(below: edge.child)): \(reason)")
                }
                continue
            }
            if let found = search(node: edge.child, depth: depth + 1, link, &trace) { return found }
        }
        if node.stringChild >= 0 {
            if let found = search(node: node.stringChild, depth: depth + 1, link, &trace) { return found }
        }
        for i in 0..<Int(node.catchAllCount) {
            let route = table.catchAll(node, i)
            if accepts(route: route, restFrom: Int32(depth), link, &trace) { return (route, Int32(depth)) }
        }
        return nil
    }

    /// True when the query and defaults can supply every argument of the route (its path already matched).
    func accepts(route index: Int32, restFrom: Int32, _ link: LinkView, _ trace: inout [String]?) -> Bool {
        let table = self.table
        let entry = table.routeEntries[Int(index)]
        for k in 0..<Int(entry.argumentCount) {
            let argument = table.arguments[Int(entry.argumentStart) + k].spec
            switch argument.source {
            case .segment:
                continue
            case .rest:
                guard argument.type.kind != .string else { continue }
                let rest = link.rest(from: Int(restFrom))
                if !table.accepts(link.bytes(rest), argument.type) {
                    if trace != nil {
                        trace?.append("\(routes[Int(index)].pattern): \(mismatch(link.text(rest), argument.type))")
                    }
                    return false
                }
            case .query where argument.type.isList:
                let key = table.bytes(table.queryKeys[Int(argument.index)])
                let values = link.queryValues(key)
                for value in values where !table.accepts(link.bytes(value), argument.type) {
                    if trace != nil { traceQuery(route: index, key, mismatch: value, argument.type, link, &trace) }
                    return false
                }
                if values.isEmpty, !argument.hasDefault {
                    if trace != nil { traceQuery(route: index, key, missing: k, &trace) }
                    return false
                }
            case .query:
                let key = table.bytes(table.queryKeys[Int(argument.index)])
                if let value = link.queryValue(key) {
                    if !table.accepts(link.bytes(value), argument.type) {
                        if trace != nil { traceQuery(route: index, key, mismatch: value, argument.type, link, &trace) }
                        return false
                    }
                } else if !argument.hasDefault {
                    if trace != nil { traceQuery(route: index, key, missing: k, &trace) }
                    return false
                }
            case .unbound:
                if !argument.hasDefault {
                    if trace != nil {
                        let label = routes[Int(index)].declaration.parameters[k].label
                        trace?.append(
                            "\(routes[Int(index)].pattern): '\(label)' is not bound by the pattern and has no default")
                    }
                    return false
                }
            }
        }
        return true
    }

    /// Traces a query value of a route that does not convert to its type.
    func traceQuery(
        route index: Int32, _ key: UnsafeBufferPointer<UInt8>, mismatch value: Span, _ type: TypeCode,
        _ link: LinkView, _ trace: inout [String]?
    ) {
        let keyText = String(decoding: key, as: UTF8.self)
        trace?.append("\(routes[Int(index)].pattern): query '\(keyText)': \(mismatch(link.text(value), type))")
    }

    /// Traces a query key a route needs (its argument `k` has no default) and the link lacks.
    func traceQuery(route index: Int32, _ key: UnsafeBufferPointer<UInt8>, missing k: Int, _ trace: inout [String]?) {
        let label = routes[Int(index)].declaration.parameters[k].label
        let keyText = String(decoding: key, as: UTF8.self)
        trace?.append("\(routes[Int(index)].pattern): the query has no '\(keyText)' and '\(label)' has no default")
    }

    /// The page of an accepted route, arguments in declaration order.
    func makePage(route index: Int32, restFrom: Int32, _ link: LinkView) -> Page {
        let entry = table.routeEntries[Int(index)]
        let start = Int(entry.argumentStart)
        // Array literals for the usual arities: their storage type is resolved at compile time, unlike a general
        // array initializer's, which looks the type up at run time on every call.
        switch entry.argumentCount {
        case 0:
            return Page(id: entry.page)
        case 1:
            return Page(id: entry.page, arguments: [argument(start, restFrom, link)])
        case 2:
            return Page(
                id: entry.page, arguments: [argument(start, restFrom, link), argument(start + 1, restFrom, link)])
        case 3:
            return Page(
                id: entry.page,
                arguments: [
                    argument(start, restFrom, link), argument(start + 1, restFrom, link),
                    argument(start + 2, restFrom, link),
                ])
        case 4:
            return Page(
                id: entry.page,
                arguments: [
                    argument(start, restFrom, link), argument(start + 1, restFrom, link),
                    argument(start + 2, restFrom, link), argument(start + 3, restFrom, link),
                ])
        default:
            return Page(
                id: entry.page,
                arguments: (start..<start + Int(entry.argumentCount)).map { argument($0, restFrom, link) })
        }
    }

    /// One argument of an accepted route: its bound value, or its default.
    @inline(__always)
    func argument(_ index: Int, _ restFrom: Int32, _ link: LinkView) -> Page.Argument {
        let argument = table.arguments[index]
        let spec = argument.spec
        if spec.type.isList { return listArgument(argument, link) }
        let span: Span?
        switch spec.source {
        // An optional last segment the link leaves out keeps the default.
        case .segment where spec.type.part >= 0:
            span = table.middle(link.segments[Int(spec.index)], spec.type.part, piece: spec.type.piece, link)
        case .segment: span = Int(spec.index) < link.segments.count ? link.segments[Int(spec.index)] : nil
        case .rest: span = link.rest(from: Int(restFrom))
        case .query: span = link.queryValue(table.bytes(table.queryKeys[Int(spec.index)]))
        case .unbound: span = nil
        }
        // The trie walk and `accepts(route:)` checked every conversion; absent values keep the default.
        if let span, let value = table.value(link.bytes(span), spec.type) {
            return Page.Argument(label: argument.template.label, value: value)
        }
        return argument.template
    }

    /// A list argument of an accepted route: every value of its query key, or its default when there is none.
    func listArgument(_ argument: RouteTable.ArgumentEntry, _ link: LinkView) -> Page.Argument {
        let key = table.bytes(table.queryKeys[Int(argument.spec.index)])
        let values = link.queryValues(key).compactMap { table.value(link.bytes($0), argument.spec.type) }
        guard !values.isEmpty else { return argument.template }
        return Page.Argument(label: argument.template.label, value: .list(values))
    }

    /// The first pattern at or below a trie node, with how many more share that position (for traces).
    func example(below node: Int32) -> String {
        let n = table.nodeStats[Int(node)]
        guard n.firstRoute != .max else { return "(no pattern)" }
        let text = routes[Int(n.firstRoute)].pattern.text
        return n.routeCount > 1 ? "\(text) (and \(n.routeCount - 1) more)" : text
    }

    func mismatch(_ text: String, _ type: TypeCode) -> String {
        switch type.kind {
        case .string: return "'\(text)' is not a String"
        case .int: return "'\(text)' is not an Int"
        case .double: return "'\(text)' is not a Double (digits, an optional fraction and exponent)"
        case .bool: return "'\(text)' is not a Bool (true, false, 1 or 0)"
        case .uuid: return "'\(text)' is not a UUID"
        case .enumeration:
            let type = table.enumTypes[Int(type.enumIndex)]
            guard case .enumeration(let name, let names) = type else { return "'\(text)' is not a \(type)" }
            return "'\(text)' is not a case of \(name) (\(names.joined(separator: ", ")))"
        }
    }
}
