import DeepLink

extension Validator {
    /// Categories and the fallback name declared pages, with arguments that fit the page's parameters.
    mutating func checkExpressions() {
        for category in draft.categories {
            guard let e = category.expression else { continue }
            checkExpression(e, code: "category-arguments", what: "category '\(category.name.value)'", allowsKeys: true)
        }
        if let fallback = draft.app?.fallback {
            checkExpression(fallback, code: "fallback-arguments", what: "'app.fallback'", allowsKeys: false)
        }
    }

    /// The page exists; every label is a parameter; literals convert to the parameter's type; every
    /// parameter without a default is given. `$key` arguments are read from the payload, so the fallback
    /// (used for bare links too) may not have them.
    private mutating func checkExpression(_ e: ExpressionDraft, code: String, what: String, allowsKeys: Bool) {
        let id = e.expression.page
        guard let c = coordinator(id.coordinator) else {
            unknownCoordinator(Located(value: id.coordinator, location: e.location), in: "the page of \(what)")
            return
        }
        guard let page = page(id.name, in: c) else {
            let pages = c.pages.map(\.name).joined(separator: ", ")
            error(
                "unknown-page", at: e.location,
                "no page '\(id.name)' in '\(c.name.value)' for \(what); expected one of: \(pages)")
            return
        }
        guard let declaration = page.declaration else { return }
        for argument in e.expression.arguments {
            guard let parameter = declaration.parameter(argument.label) else {
                let labels = declaration.parameters.map(\.label)
                let known =
                    labels.isEmpty ? "it takes no arguments" : "its labels are \(labels.joined(separator: ", "))"
                error(code, at: e.location, "'\(argument.label)' is not a parameter of '\(declaration)'; \(known)")
                continue
            }
            switch argument.value {
            case .payloadKey(let key):
                if !allowsKeys {
                    error(
                        code, at: e.location,
                        "\(what) cannot read '$\(key)': a bare link has no payload; give '\(argument.label)' a literal")
                }
            case .literal(let text):
                if parameter.type.convert(Substring(text)) == nil {
                    error(
                        code, at: e.location,
                        "'\(text)' is not a valid \(parameter.type) for '\(parameter.label)' of '\(declaration)'")
                }
            }
        }
        let given = Set(e.expression.arguments.map(\.label))
        for parameter in declaration.parameters where parameter.defaultValue == nil && !given.contains(parameter.label)
        {
            error(
                code, at: e.location,
                "\(what) does not give '\(parameter.label)' of '\(declaration)'; "
                    + "add '\(parameter.label): …' (a value or a $payloadKey)")
        }
    }
}
