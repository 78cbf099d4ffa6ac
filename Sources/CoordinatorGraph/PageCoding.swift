import DeepLink
import JSON

/// Reads the page object of the contract (`{"id", "arguments", "description"}`) and page descriptions
/// (`cart.offer(id: "SUMMER")`) back into typed ``Page`` values.
enum PageCoding {
    /// A page object checked against the graph: the page must be declared, every argument must be a declared
    /// parameter of the right type, missing ones take their defaults. `description` is accepted and ignored
    /// (it is recomputed from the value).
    static func decode(_ json: JSON, graph: Graph, at path: String) throws(JSONDecodeError) -> Page {
        let object = try JSONReader.object(json, at: path)
        try JSONReader.checkKeys(object, allowed: ["id", "arguments", "description"], at: path)
        let idPath = JSONReader.member(path, "id")
        let idText = try JSONReader.string(try JSONReader.required(object, "id", at: path), at: idPath)
        return try decode(
            id: idText, arguments: object["arguments"], graph: graph, idPath: idPath,
            argumentsPath: JSONReader.member(path, "arguments"))
    }

    /// A page's structured form, its id and its arguments (`nil`: none given), checked against the graph as
    /// ``decode(_:graph:at:)`` checks a page object; `idPath` and `argumentsPath` say where they are (a page object's
    /// `id` and `arguments`, a step's `pageId` and `arguments`).
    static func decode(
        id idText: String, arguments: JSON?, graph: Graph, idPath: String, argumentsPath: String
    ) throws(JSONDecodeError) -> Page {
        let definition = try pageDefinition(idText, graph: graph, at: idPath)
        let given =
            try arguments.map { (json) throws(JSONDecodeError) in
                try JSONReader.object(json, at: argumentsPath)
            } ?? JSONObject()
        for (label, _) in given where !definition.declaration.parameters.contains(where: { $0.label == label }) {
            throw JSONDecodeError(
                code: .invalidArgument, path: JSONReader.member(argumentsPath, label),
                message: "\(definition.id) has no parameter '\(label)'; its parameters: \(signature(definition))")
        }
        var arguments: [Page.Argument] = []
        for parameter in definition.declaration.parameters {
            let argumentPath = JSONReader.member(argumentsPath, parameter.label)
            if let value = given[parameter.label] {
                guard let typed = parameter.type.convert(value) else {
                    throw JSONDecodeError(
                        code: .invalidArgument, path: argumentPath,
                        message: "expected a value of type \(parameter.type) for '\(parameter.label)'")
                }
                arguments.append(Page.Argument(label: parameter.label, value: typed))
            } else if let value = parameter.defaultValue {
                arguments.append(Page.Argument(label: parameter.label, value: value))
            } else {
                throw JSONDecodeError(
                    code: .invalidArgument, path: argumentPath,
                    message: "missing argument '\(parameter.label)' of \(definition.id)(\(signature(definition)))")
            }
        }
        return Page(id: definition.id, arguments: arguments)
    }

    /// A page object read without a graph: strings, integers and Booleans become values of those kinds, except
    /// that a string argument the description writes as `label: .case` is read as an enum case (so the value
    /// prints as it was received).
    static func decodeLoosely(_ json: JSON, at path: String) throws(JSONDecodeError) -> Page {
        let object = try JSONReader.object(json, at: path)
        try JSONReader.checkKeys(object, allowed: ["id", "arguments", "description"], at: path)
        let idPath = JSONReader.member(path, "id")
        let idText = try JSONReader.string(try JSONReader.required(object, "id", at: path), at: idPath)
        let descriptionPath = JSONReader.member(path, "description")
        let description = try object["description"].map { (json) throws(JSONDecodeError) in
            try JSONReader.string(json, at: descriptionPath)
        }
        return try decodeLoosely(
            id: idText, arguments: object["arguments"], description: description, idPath: idPath,
            argumentsPath: JSONReader.member(path, "arguments"))
    }

    /// A page's structured form read without a graph, as ``decodeLoosely(_:at:)`` reads a page object; `description`
    /// is the page's description when it came with it.
    static func decodeLoosely(
        id idText: String, arguments json: JSON?, description: String?, idPath: String, argumentsPath: String
    ) throws(JSONDecodeError) -> Page {
        guard let id = PageID(idText) else {
            throw JSONDecodeError(
                code: .unknownPage, path: idPath, message: "'\(idText)' is not a page id; expected 'coordinator.case'")
        }
        var arguments: [Page.Argument] = []
        if let json {
            for (label, value) in try JSONReader.object(json, at: argumentsPath) {
                // A list's items are read as the scalars are; its enum cases stay strings (typed by the graph).
                let typed: Value?
                if case .array(let items) = value {
                    let values = items.compactMap { looseValue($0, label: label, description: nil) }
                    typed = values.count == items.count ? .list(values) : nil
                } else {
                    typed = looseValue(value, label: label, description: description)
                }
                guard let typed else {
                    throw JSONReader.wrongType(
                        value, expected: "a string, a number, a Boolean or a list of them",
                        at: JSONReader.member(argumentsPath, label))
                }
                arguments.append(Page.Argument(label: label, value: typed))
            }
        }
        return Page(id: id, arguments: arguments)
    }

    /// A scalar argument read without a graph: a string is an enum case when the description spells it so.
    static func looseValue(_ value: JSON, label: String, description: String?) -> Value? {
        switch value {
        case .int(let i): return .int(i)
        case .double(let d) where d.isFinite: return .double(d)
        case .bool(let b): return .bool(b)
        case .string(let s):
            let enumSpelling = label + ": ." + s
            let isCase = description.map { $0.contains(enumSpelling + ",") || $0.contains(enumSpelling + ")") } ?? false
            return isCase ? .enumCase(s) : .string(s)
        default: return nil
        }
    }

    /// A page description (`cart.offer(id: "SUMMER")`, `catalog.category(slug: "x", page: 2, sort: .price)`) typed
    /// against the graph; missing arguments take their defaults.
    static func parseDescription(_ text: String, graph: Graph, at path: String) throws(JSONDecodeError) -> Page {
        let expression: PageExpression
        do {
            expression = try PageExpression.parse(text)
        } catch {
            throw JSONDecodeError(code: .invalidValue, path: path, message: error.description)
        }
        let definition = try pageDefinition(expression.page.description, graph: graph, at: path)
        var arguments: [Page.Argument] = []
        for parameter in definition.declaration.parameters {
            if let written = expression.arguments.first(where: { $0.label == parameter.label }) {
                guard case .literal(let literal) = written.value, let value = parameter.type.convert(Substring(literal))
                else {
                    throw JSONDecodeError(
                        code: .invalidArgument, path: path,
                        message: "expected a value of type \(parameter.type) for '\(parameter.label)' in '\(text)'")
                }
                arguments.append(Page.Argument(label: parameter.label, value: value))
            } else if let value = parameter.defaultValue {
                arguments.append(Page.Argument(label: parameter.label, value: value))
            } else {
                throw JSONDecodeError(
                    code: .invalidArgument, path: path, message: "missing argument '\(parameter.label)' in '\(text)'")
            }
        }
        for written in expression.arguments
        where !definition.declaration.parameters.contains(where: { $0.label == written.label }) {
            throw JSONDecodeError(
                code: .invalidArgument, path: path, message: "\(definition.id) has no parameter '\(written.label)'")
        }
        return Page(id: definition.id, arguments: arguments)
    }

    static func pageDefinition(
        _ idText: String, graph: Graph, at path: String
    ) throws(JSONDecodeError)
        -> PageDefinition
    {
        guard let id = PageID(idText) else {
            throw JSONDecodeError(
                code: .unknownPage, path: path, message: "'\(idText)' is not a page id; expected 'coordinator.case'")
        }
        guard let definition = graph.page(id) else {
            let owner = graph.coordinator(id.coordinator)
            let hint =
                owner.map { "; \($0.name) declares: \($0.pages.map(\.id.name).joined(separator: ", "))" }
                ?? "; no coordinator '\(id.coordinator)' is declared"
            throw JSONDecodeError(code: .unknownPage, path: path, message: "unknown page '\(idText)'\(hint)")
        }
        return definition
    }

    static func signature(_ definition: PageDefinition) -> String {
        definition.declaration.parameters.map(\.description).joined(separator: ", ")
    }
}
