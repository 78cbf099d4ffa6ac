import DeepLink
import JSON

extension Decision {
    /// The decision as the JSON of docs/design.md §3, keys in this order: `id`, `device`, `outcome`,
    /// `source`, `page`, `path`, `steps`, `pending`, `warnings` and `trace` (each only when present), `createdAt`.
    public var json: JSON {
        var object = JSONObject(distinctKeysWithValues: [
            "id": .string(id),
            "device": device.map(JSON.string) ?? .null,
            "outcome": .string(outcome.rawValue),
            "source": source?.json ?? .null,
            "page": page?.json ?? .null,
            "path": .array(path.map(JSON.string)),
            "steps": .array(steps.map(\.json)),
            "pending": pending?.json ?? .null,
        ])
        if let warnings { object.appendDistinct("warnings", .array(warnings.map(JSON.string))) }
        if let trace { object.appendDistinct("trace", .array(trace.map(JSON.string))) }
        object.appendDistinct("createdAt", .string(createdAt.rfc3339))
        return .object(object)
    }

    /// Appends the text of ``json`` without building it: the same bytes as `json.write(into:)`.
    public func writeJSON(into out: inout ByteWriter) {
        var timestamps = TimestampTexts()
        writeJSON(into: &out, timestamps: &timestamps)
    }

    /// Appends the text of ``json``, its times written through `timestamps` (kept by a writer of many decisions).
    public func writeJSON(into out: inout ByteWriter, timestamps: inout TimestampTexts) {
        JSON.writeRaw("{\"id\":", into: &out)
        decisionID.writeJSONString(into: &out)
        JSON.writeMember("device", device, into: &out)
        JSON.writeMember("outcome", outcome.rawValue, into: &out)
        JSON.writeRaw(",\"source\":", into: &out)
        if let source { source.writeJSON(into: &out) } else { JSON.writeRaw("null", into: &out) }
        JSON.writeRaw(",\"page\":", into: &out)
        // The step that displays the page copies its description from here rather than writing it again.
        var described: (page: Page, text: Range<Int>)? = nil
        if let page = self.page {
            described = (page: page, text: page.writeJSON(into: &out))
        } else {
            JSON.writeRaw("null", into: &out)
        }
        JSON.writeRaw(",\"path\":", into: &out)
        // The plan bound once, for the path and the steps: each binding of a plan kept in a variable is a copy.
        if let plan = self.plan {
            if let indices = pathIndices {
                plan.writeJSON(path: indices, into: &out)
            } else {
                Decision.writeStrings(path, into: &out)
            }
            JSON.writeRaw(",\"steps\":[", into: &out)
            plan.writeJSON(into: &out, described: described)
        } else {
            Decision.writeStrings(path, into: &out)
            JSON.writeRaw(",\"steps\":[", into: &out)
            namedSteps.withUnsafeBufferPointer { steps in  // each step borrowed in place, not copied out of the array
                for i in steps.indices {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    steps[i].writeJSON(into: &out)
                }
            }
        }
        JSON.writeRaw("],\"pending\":", into: &out)
        if let pending {
            pending.writeJSON(into: &out, timestamps: &timestamps)
        } else {
            JSON.writeRaw("null", into: &out)
        }
        if let warnings {
            JSON.writeRaw(",\"warnings\":", into: &out)
            Decision.writeStrings(warnings, into: &out)
        }
        if let trace {
            JSON.writeRaw(",\"trace\":", into: &out)
            Decision.writeStrings(trace, into: &out)
        }
        JSON.writeRaw(",\"createdAt\":\"", into: &out)
        timestamps.write(createdAt, into: &out)
        JSON.writeRaw("\"}", into: &out)
    }

    /// The text of ``json``.
    public var jsonText: JSONText {
        var writer = ByteWriter(capacity: 1024)
        return jsonText(reusing: &writer)
    }

    /// The text of ``json``, written in `writer` (emptied first, its buffer kept for the next decision): one
    /// allocation, the text's, where ``jsonText`` also allocates and frees a buffer to write in.
    public func jsonText(reusing writer: inout ByteWriter) -> JSONText {
        var timestamps = TimestampTexts()
        return jsonText(reusing: &writer, timestamps: &timestamps)
    }

    /// The text of ``json``, written in `writer` as ``jsonText(reusing:)`` does, its times through `timestamps`.
    public func jsonText(reusing writer: inout ByteWriter, timestamps: inout TimestampTexts) -> JSONText {
        writer.truncate(to: 0)
        writeJSON(into: &writer, timestamps: &timestamps)
        return JSONText(bytes: writer.withBytes { Array($0) })
    }

    static func writeStrings(_ strings: [String], into out: inout ByteWriter) {
        out.append(UInt8(ascii: "["))
        for (i, s) in strings.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSON.writeString(s, into: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// Reads a decision written by ``json``.
    ///
    /// With a `graph`, pages are checked and typed against it (and each step's ``Step/pageValue`` is filled, so
    /// ``Resolver/apply(_:to:)`` can replay the decision). Without one (a client printing what the daemon sent),
    /// pages are typed loosely and steps keep only their page descriptions. `warnings` and `trace` may be absent; so may
    /// `device`, `source` and `pending` (meaning `null`).
    public init(json: JSON, graph: Graph? = nil) throws(JSONDecodeError) {
        let root = "$"
        let object = try JSONReader.object(json, at: root)
        try JSONReader.checkKeys(
            object,
            allowed: [
                "id", "device", "outcome", "source", "page", "path", "steps", "pending", "warnings", "trace",
                "createdAt",
            ],
            at: root)
        let id = try JSONReader.string(try JSONReader.required(object, "id", at: root), at: "$.id")
        let device = try Decision.optionalString(object["device"], at: "$.device")
        let outcomeText = try JSONReader.string(try JSONReader.required(object, "outcome", at: root), at: "$.outcome")
        guard let outcome = Outcome(rawValue: outcomeText) else {
            throw JSONDecodeError(
                code: .invalidValue, path: "$.outcome",
                message: "unknown outcome '\(outcomeText)'; expected one of "
                    + Outcome.allCases.map(\.rawValue).joined(separator: ", "))
        }
        var source: DecisionSource?
        if let sourceJSON = object["source"], !sourceJSON.isNull {
            source = try DecisionSource(json: sourceJSON, at: "$.source")
        }
        let pageJSON = try JSONReader.required(object, "page", at: root)
        var page: Page? = nil
        if pageJSON.isNull {
            guard !outcome.navigates else {
                throw JSONDecodeError(
                    code: .invalidValue, path: "$.page", message: "a \(outcome.rawValue) decision needs a page")
            }
        } else if let graph {
            page = try PageCoding.decode(pageJSON, graph: graph, at: "$.page")
        } else {
            page = try PageCoding.decodeLoosely(pageJSON, at: "$.page")
        }
        let path = try JSONReader.strings(try JSONReader.required(object, "path", at: root), at: "$.path")
        var steps: [Step] = []
        for (i, stepJSON) in try JSONReader.array(try JSONReader.required(object, "steps", at: root), at: "$.steps")
            .enumerated()
        {
            steps.append(try Step(json: stepJSON, graph: graph, at: JSONReader.element("$.steps", i)))
        }
        var pending: Pending?
        if let pendingJSON = object["pending"], !pendingJSON.isNull {
            if let graph {
                pending = try Pending(json: pendingJSON, graph: graph, at: "$.pending")
            } else {
                pending = try Pending(looseJSON: pendingJSON, at: "$.pending")
            }
        }
        let warnings = try object["warnings"].map { (j) throws(JSONDecodeError) in
            try JSONReader.strings(j, at: "$.warnings")
        }
        let trace = try object["trace"].map { (j) throws(JSONDecodeError) in try JSONReader.strings(j, at: "$.trace") }
        let createdAt = try Pending.timestamp(object, "createdAt", at: root)
        self.init(
            id: id, device: device, outcome: outcome, source: source, page: page, path: path, steps: steps,
            pending: pending, warnings: warnings, trace: trace, createdAt: createdAt)
    }

    static func optionalString(_ json: JSON?, at path: String) throws(JSONDecodeError) -> String? {
        guard let json, !json.isNull else { return nil }
        return try JSONReader.string(json, at: path)
    }
}

extension DecisionSource {
    /// `{"format", "field", "link"}` with `link` possibly `null`, and `topic` when there is one.
    public var json: JSON {
        var object = JSONObject(distinctKeysWithValues: [
            "format": .string(format), "field": .string(field), "link": link.map(JSON.string) ?? .null,
        ])
        if let topic { object.appendDistinct("topic", .string(topic)) }
        return .object(object)
    }

    /// Appends the text of ``json`` without building it.
    public func writeJSON(into out: inout ByteWriter) {
        out.append(UInt8(ascii: "{"))
        JSON.writeMember("format", format, first: true, into: &out)
        JSON.writeMember("field", field, into: &out)
        JSON.writeMember("link", link, into: &out)
        if let topic { JSON.writeMember("topic", topic, into: &out) }
        out.append(UInt8(ascii: "}"))
    }

    /// Reads `{"format", "field", "link", "topic"}`; `link` and `topic` may be absent or `null`.
    public init(json: JSON, at path: String = "$") throws(JSONDecodeError) {
        let object = try JSONReader.object(json, at: path)
        try JSONReader.checkKeys(object, allowed: ["format", "field", "link", "topic"], at: path)
        let format = try JSONReader.string(
            try JSONReader.required(object, "format", at: path), at: JSONReader.member(path, "format"))
        let field = try JSONReader.string(
            try JSONReader.required(object, "field", at: path), at: JSONReader.member(path, "field"))
        let link = try Decision.optionalString(object["link"], at: JSONReader.member(path, "link"))
        let topic = try Decision.optionalString(object["topic"], at: JSONReader.member(path, "topic"))
        self.init(format: format, field: field, link: link, topic: topic)
    }
}

extension Step {
    /// `{"action", "coordinator"}` plus `child`, `parent` and `page` when set; a page known as a value
    /// (``pageValue``) also as its structured form, `pageId` and `arguments`, as in the page object of the contract.
    public var json: JSON {
        var object = JSONObject(distinctKeysWithValues: [
            "action": .string(action.rawValue), "coordinator": .string(coordinator),
        ])
        if let child { object.appendDistinct("child", .string(child)) }
        if let parent { object.appendDistinct("parent", .string(parent)) }
        if let page { object.appendDistinct("page", .string(page)) }
        if page != nil, let pageValue {
            object.appendDistinct("pageId", .string(pageValue.id.description))
            object.appendDistinct("arguments", pageValue.argumentsJSON)
        }
        return .object(object)
    }

    /// Appends the text of ``json`` without building it.
    public func writeJSON(into out: inout ByteWriter) {
        out.append(action.jsonHead)
        JSON.writeStringContents(coordinator, into: &out)
        out.append(UInt8(ascii: "\""))
        if let child { JSON.writeMember("child", child, into: &out) }
        if let parent { JSON.writeMember("parent", parent, into: &out) }
        if let page {
            JSON.writeMember("page", page, into: &out)
            pageValue?.writeStepMembers(into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Reads a step. Its page is typed into ``pageValue`` from its structured form (`pageId`, `arguments`), or,
    /// without one (a decision stored before steps carried it), from its description when a `graph` is given; with a
    /// `graph` the page is checked against it, and a description must describe the page of the structured form.
    public init(json: JSON, graph: Graph? = nil, at path: String = "$") throws(JSONDecodeError) {
        let object = try JSONReader.object(json, at: path)
        try JSONReader.checkKeys(
            object, allowed: ["action", "coordinator", "child", "parent", "page", "pageId", "arguments"], at: path)
        let actionPath = JSONReader.member(path, "action")
        let actionText = try JSONReader.string(try JSONReader.required(object, "action", at: path), at: actionPath)
        guard let action = Action(rawValue: actionText) else {
            throw JSONDecodeError(
                code: .invalidValue, path: actionPath,
                message: "unknown action '\(actionText)'; expected one of: "
                    + Action.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let coordinator = try JSONReader.string(
            try JSONReader.required(object, "coordinator", at: path), at: JSONReader.member(path, "coordinator"))
        let child = try Decision.optionalString(object["child"], at: JSONReader.member(path, "child"))
        let parent = try Decision.optionalString(object["parent"], at: JSONReader.member(path, "parent"))
        let pagePath = JSONReader.member(path, "page")
        let page = try Decision.optionalString(object["page"], at: pagePath)
        if let graph, graph.coordinator(coordinator) == nil {
            throw JSONDecodeError(
                code: .unknownCoordinator, path: JSONReader.member(path, "coordinator"),
                message: "unknown coordinator '\(coordinator)'; the graph does not declare it")
        }
        let pageValue = try Step.pageValue(object, description: page, graph: graph, at: path)
        self.init(action, coordinator, child: child, parent: parent, page: page, pageValue: pageValue)
    }

    /// The step's page as a value: from `pageId` and `arguments` when the step carries them, else from the
    /// description when there is a graph to type it with; `nil` for a step without a page.
    private static func pageValue(
        _ object: JSONObject, description: String?, graph: Graph?, at path: String
    ) throws(JSONDecodeError) -> Page? {
        let pagePath = JSONReader.member(path, "page")
        let idPath = JSONReader.member(path, "pageId")
        let argumentsPath = JSONReader.member(path, "arguments")
        guard let idJSON = object["pageId"] else {
            if object["arguments"] != nil {
                throw JSONDecodeError(
                    code: .missingKey, path: idPath, message: "a step with the arguments of a page names its 'pageId'")
            }
            guard let description, let graph else { return nil }
            return try PageCoding.parseDescription(description, graph: graph, at: pagePath)
        }
        guard let description else {
            throw JSONDecodeError(
                code: .missingKey, path: pagePath, message: "a step with a 'pageId' describes its page in 'page'")
        }
        let id = try JSONReader.string(idJSON, at: idPath)
        guard let graph else {
            return try PageCoding.decodeLoosely(
                id: id, arguments: object["arguments"], description: description, idPath: idPath,
                argumentsPath: argumentsPath)
        }
        let page = try PageCoding.decode(
            id: id, arguments: object["arguments"], graph: graph, idPath: idPath, argumentsPath: argumentsPath)
        guard page.description == description else {
            throw JSONDecodeError(
                code: .invalidValue, path: pagePath,
                message: "'\(description)' does not describe the step's page, \(page.description)")
        }
        return page
    }
}

extension Page {
    /// Appends the members that carry a step's page as a value after its description: `,"pageId":…,"arguments":{…}`.
    func writeStepMembers(into out: inout ByteWriter) {
        JSON.writeRaw(",\"pageId\":", into: &out)
        id.writeJSONString(into: &out)
        JSON.writeRaw(",\"arguments\":", into: &out)
        writeArgumentsJSON(into: &out)
    }
}

extension Step.Action {
    /// The start of a step's JSON up to its coordinator's name: `{"action":"start","coordinator":"`.
    var jsonHead: StaticString {
        switch self {
        case .start: return #"{"action":"start","coordinator":""#
        case .activate: return #"{"action":"activate","coordinator":""#
        case .selectTab: return #"{"action":"selectTab","coordinator":""#
        case .present: return #"{"action":"present","coordinator":""#
        case .dismiss: return #"{"action":"dismiss","coordinator":""#
        case .popTo: return #"{"action":"popTo","coordinator":""#
        case .push: return #"{"action":"push","coordinator":""#
        case .setRoot: return #"{"action":"setRoot","coordinator":""#
        case .display: return #"{"action":"display","coordinator":""#
        }
    }
}
