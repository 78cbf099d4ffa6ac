import DeepLink

/// Example values of each parameter type, from which `notifyctl diff` builds the pages of its corpus.
///
/// The one place that knows the types: a new parameter type is one line here, and its links come from the
/// canonical-link printer like every other's.
enum ExampleValues {
    /// Typical values of `type`: every case of an enum, both Booleans, one Int, one Double, one String, one UUID.
    static func of(_ type: ParameterType) -> [Value] {
        switch type {
        case .string: return [.string("example")]
        case .int: return [.int(42)]
        case .double: return [.double(2.5)]
        case .bool: return [.bool(true), .bool(false)]
        case .uuid: return [.uuid(sampleUUID)]
        case .enumeration(_, let cases): return cases.map(Value.enumCase)
        case .list(let element):
            // Two items, in an order the printer must keep; the empty list comes from a default of [].
            let items = of(element)
            guard let first = items.first else { return [] }
            return [.list([first, items.count > 1 ? items[1] : first])]
        }
    }

    /// The UUID of Apple's documentation examples.
    static let sampleUUID = PageUUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    /// Example pages of `declaration` (a page `id`): first every parameter at its default, or its type's first
    /// example; then each parameter in turn at each of its other values, the others as in the first. A parameter
    /// with a default is so left at it (its query binding absent from the link) and taken off it (the binding
    /// present); the count grows with the values, not with their product.
    static func pages(_ id: PageID, _ declaration: CaseDeclaration) -> [Page] {
        let parameters = declaration.parameters
        let choices = parameters.map { parameter in
            var values = parameter.defaultValue.map { [$0] } ?? []
            for value in of(parameter.type) where !values.contains(value) { values.append(value) }
            return values
        }
        guard !choices.contains(where: \.isEmpty) else { return [] }  // an enum without cases: no value at all
        let first = zip(parameters, choices).map { Page.Argument(label: $0.label, value: $1[0]) }
        var pages = [Page(id: id, arguments: first)]
        for (index, values) in choices.enumerated() {
            for value in values.dropFirst() {
                var arguments = first
                arguments[index] = Page.Argument(label: parameters[index].label, value: value)
                pages.append(Page(id: id, arguments: arguments))
            }
        }
        return pages
    }
}
