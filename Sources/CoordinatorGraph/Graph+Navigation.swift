import DeepLink

extension CoordinatorKind {
    /// True for kinds presented over their parent (`modal`, `flow`): they are dismissed, not left running, when
    /// the user navigates away.
    public var isPresented: Bool {
        self == .modal || self == .flow
    }
}

extension Graph {
    /// The root page of a coordinator: its first declared page, if it has pages.
    public func rootPage(of coordinator: String) -> PageDefinition? {
        self.coordinator(coordinator)?.pages.first
    }

    /// A page of `definition` whose arguments come from `source`'s arguments with the same labels (converted
    /// through their link text when the types differ), or the parameter's default; `nil` when a parameter has
    /// neither.
    ///
    /// This is how a synthesized back stack propagates arguments: `comments(slug:)` with `back: read` puts
    /// `read(slug:)` with the same slug beneath it.
    public func page(_ definition: PageDefinition, argumentsFrom source: Page) -> Page? {
        var arguments: [Page.Argument] = []
        arguments.reserveCapacity(definition.declaration.parameters.count)
        for parameter in definition.declaration.parameters {
            if let value = source[parameter.label], let typed = Graph.convert(value, to: parameter.type) {
                arguments.append(Page.Argument(label: parameter.label, value: typed))
            } else if let value = parameter.defaultValue {
                arguments.append(Page.Argument(label: parameter.label, value: value))
            } else {
                return nil
            }
        }
        return Page(id: definition.id, arguments: arguments)
    }

    static func convert(_ value: Value, to type: ParameterType) -> Value? {
        switch (value, type) {
        case (.string, .string), (.int, .int), (.double, .double), (.bool, .bool), (.uuid, .uuid): return value
        case (.list(let items), .list(let element)):
            var converted: [Value] = []
            for item in items {
                guard let value = convert(item, to: element) else { return nil }
                converted.append(value)
            }
            return .list(converted)
        case (.list, _), (_, .list): return nil
        default: return type.convert(Substring(value.linkText))
        }
    }
}
