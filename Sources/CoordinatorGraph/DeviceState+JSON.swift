import DeepLink
import JSON

extension DeviceState: JSONWritable {
    /// The state as the JSON of docs/design.md §3:
    /// `{"path", "started", "tabs", "stacks", "conditions", "pending"}`.
    ///
    /// `tabs` and `stacks` are written with their keys sorted, so equal states serialize identically.
    public var json: JSON {
        var tabsObject = JSONObject()
        for key in tabs.keys.sorted() { tabsObject[key] = .string(tabs[key] ?? "") }
        var stacksObject = JSONObject()
        for key in stacks.keys.sorted() { stacksObject[key] = .array((stacks[key] ?? []).map(\.json)) }
        return .object([
            "path": .array(path.map(JSON.string)),
            "started": .array(started.map(JSON.string)),
            "tabs": .object(tabsObject),
            "stacks": .object(stacksObject),
            "conditions": .array(conditions.map(JSON.string)),
            "pending": pending?.json ?? .null,
        ])
    }

    /// Appends the text of ``json`` without building it: the same bytes as `json.write(into:)`.
    public func writeJSON(into out: inout ByteWriter) {
        JSON.writeRaw("{\"path\":", into: &out)
        Decision.writeStrings(path, into: &out)
        JSON.writeRaw(",\"started\":", into: &out)
        Decision.writeStrings(started, into: &out)
        JSON.writeRaw(",\"tabs\":{", into: &out)
        Self.forEachInKeyOrder(tabs) { i, key, child in
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSON.writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
            JSON.writeString(child, into: &out)
        }
        JSON.writeRaw("},\"stacks\":{", into: &out)
        Self.forEachInKeyOrder(stacks) { i, key, pages in
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSON.writeString(key, into: &out)
            JSON.writeRaw(":[", into: &out)
            for (j, page) in pages.enumerated() {
                if j > 0 { out.append(UInt8(ascii: ",")) }
                page.writeJSON(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        JSON.writeRaw("},\"conditions\":", into: &out)
        Decision.writeStrings(conditions, into: &out)
        JSON.writeRaw(",\"pending\":", into: &out)
        if let pending { pending.writeJSON(into: &out) } else { JSON.writeRaw("null", into: &out) }
        out.append(UInt8(ascii: "}"))
    }

    /// Calls `body` with each entry of `dictionary` and its position, keys in order: sorted with their values (no
    /// lookup per key afterwards), and without sorting (nor the array it needs) for one entry, as most states have.
    private static func forEachInKeyOrder<Value>(
        _ dictionary: [String: Value], _ body: (Int, String, Value) -> Void
    ) {
        guard dictionary.count > 1 else {
            for (key, value) in dictionary { body(0, key, value) }
            return
        }
        for (i, entry) in dictionary.sorted(by: { $0.key < $1.key }).enumerated() { body(i, entry.key, entry.value) }
    }

    /// The text of ``json``.
    public var jsonText: JSONText {
        JSONText(writing: self, capacity: 512)
    }

    /// Reads a state from the JSON of docs/design.md §3, checking every name against `graph`.
    ///
    /// Absent keys mean empty (`pending` absent means none). Coordinators in `path` that are missing from
    /// `started` are added to it. Throws, naming the JSON path, for: a value of the wrong kind, an unknown key,
    /// an unknown coordinator or page, a page argument that does not type-check, a `path` that does not start
    /// with the root or repeats a coordinator, a `tabs` entry whose key is not a `tabs` coordinator or whose
    /// value is not one of its children, a stack holding another coordinator's page, an invalid `expiresAt`.
    public init(json: JSON, graph: Graph) throws(JSONDecodeError) {
        let root = "$"
        let object = try JSONReader.object(json, at: root)
        try JSONReader.checkKeys(
            object, allowed: ["path", "started", "tabs", "stacks", "conditions", "pending"], at: root)

        let pathPath = JSONReader.member(root, "path")
        let path =
            try object["path"].map { (j) throws(JSONDecodeError) in try JSONReader.strings(j, at: pathPath) } ?? []
        for (i, name) in path.enumerated() {
            let at = JSONReader.element(pathPath, i)
            let coordinator = try Self.coordinator(name, graph: graph, at: at)
            if i == 0, coordinator.kind != .app {
                throw JSONDecodeError(
                    code: .invalidValue, path: at, message: "the path must start with the root coordinator (kind app)")
            }
            if path[..<i].contains(name) {
                throw JSONDecodeError(code: .invalidValue, path: at, message: "'\(name)' appears twice in the path")
            }
        }

        let startedPath = JSONReader.member(root, "started")
        var started =
            try object["started"].map { (j) throws(JSONDecodeError) in try JSONReader.strings(j, at: startedPath) }
            ?? []
        for (i, name) in started.enumerated() {
            _ = try Self.coordinator(name, graph: graph, at: JSONReader.element(startedPath, i))
        }
        var deduplicated: [String] = []
        for name in started + path where !deduplicated.contains(name) { deduplicated.append(name) }
        started = deduplicated

        let tabsPath = JSONReader.member(root, "tabs")
        var tabs: [String: String] = [:]
        if let tabsJSON = object["tabs"] {
            for (key, value) in try JSONReader.object(tabsJSON, at: tabsPath) {
                let at = JSONReader.member(tabsPath, key)
                let coordinator = try Self.coordinator(key, graph: graph, at: at)
                guard coordinator.kind == .tabs else {
                    throw JSONDecodeError(
                        code: .invalidValue, path: at,
                        message: "'\(key)' is a \(coordinator.kind) coordinator, not tabs")
                }
                let child = try JSONReader.string(value, at: at)
                guard coordinator.children.contains(child) else {
                    throw JSONDecodeError(
                        code: .invalidValue, path: at,
                        message: "'\(child)' is not a tab of '\(key)'; its tabs: "
                            + coordinator.children.joined(separator: ", "))
                }
                tabs[key] = child
            }
        }

        let stacksPath = JSONReader.member(root, "stacks")
        var stacks: [String: [Page]] = [:]
        if let stacksJSON = object["stacks"] {
            for (key, value) in try JSONReader.object(stacksJSON, at: stacksPath) {
                let at = JSONReader.member(stacksPath, key)
                _ = try Self.coordinator(key, graph: graph, at: at)
                var pages: [Page] = []
                for (i, element) in try JSONReader.array(value, at: at).enumerated() {
                    let pageAt = JSONReader.element(at, i)
                    let page = try PageCoding.decode(element, graph: graph, at: pageAt)
                    guard page.id.coordinator == key else {
                        throw JSONDecodeError(
                            code: .invalidValue, path: JSONReader.member(pageAt, "id"),
                            message:
                                "page '\(page.id)' belongs to '\(page.id.coordinator)', not to the stack of '\(key)'")
                    }
                    pages.append(page)
                }
                if !pages.isEmpty { stacks[key] = pages }
            }
        }

        let conditionsPath = JSONReader.member(root, "conditions")
        var conditions: [String] = []
        if let conditionsJSON = object["conditions"] {
            for condition in try JSONReader.strings(conditionsJSON, at: conditionsPath)
            where !conditions.contains(condition) {
                conditions.append(condition)
            }
        }

        let pendingPath = JSONReader.member(root, "pending")
        var pending: Pending?
        if let pendingJSON = object["pending"], !pendingJSON.isNull {
            pending = try Pending(json: pendingJSON, graph: graph, at: pendingPath)
        }
        self.init(
            path: path, started: started, tabs: tabs, stacks: stacks, conditions: conditions, pending: pending)
    }

    static func coordinator(_ name: String, graph: Graph, at path: String) throws(JSONDecodeError) -> Coordinator {
        guard let coordinator = graph.coordinator(name) else {
            throw JSONDecodeError(
                code: .unknownCoordinator, path: path,
                message: "unknown coordinator '\(name)'; the graph does not declare it")
        }
        return coordinator
    }
}

extension Pending {
    /// `{"page", "gate", "condition", "expiresAt"}` with `expiresAt` in RFC 3339 UTC.
    public var json: JSON {
        .object([
            "page": page.json,
            "gate": .string(gate),
            "condition": .string(condition),
            "expiresAt": .string(expiresAt.rfc3339),
        ])
    }

    /// Appends the text of ``json`` without building it.
    public func writeJSON(into out: inout ByteWriter) {
        var timestamps = TimestampTexts()
        writeJSON(into: &out, timestamps: &timestamps)
    }

    /// Appends the text of ``json``, its expiry written through `timestamps`.
    public func writeJSON(into out: inout ByteWriter, timestamps: inout TimestampTexts) {
        JSON.writeRaw("{\"page\":", into: &out)
        page.writeJSON(into: &out)
        JSON.writeMember("gate", gate, into: &out)
        JSON.writeMember("condition", condition, into: &out)
        JSON.writeRaw(",\"expiresAt\":\"", into: &out)
        timestamps.write(expiresAt, into: &out)
        JSON.writeRaw("\"}", into: &out)
    }

    /// Reads a pending page, checking the page and the gate against `graph`; `path` names the object in error
    /// messages (`$.pending`).
    public init(json: JSON, graph: Graph, at path: String = "$") throws(JSONDecodeError) {
        let object = try JSONReader.object(json, at: path)
        try JSONReader.checkKeys(object, allowed: ["page", "gate", "condition", "expiresAt"], at: path)
        let page = try PageCoding.decode(
            try JSONReader.required(object, "page", at: path), graph: graph, at: JSONReader.member(path, "page"))
        let gatePath = JSONReader.member(path, "gate")
        let gate = try JSONReader.string(try JSONReader.required(object, "gate", at: path), at: gatePath)
        _ = try DeviceState.coordinator(gate, graph: graph, at: gatePath)
        let condition = try JSONReader.string(
            try JSONReader.required(object, "condition", at: path), at: JSONReader.member(path, "condition"))
        let expiresAt = try Pending.timestamp(object, "expiresAt", at: path)
        self.init(page: page, gate: gate, condition: condition, expiresAt: expiresAt)
    }

    /// Reads a pending page without a graph (pages are typed loosely, see ``Decision/init(json:graph:)``).
    init(looseJSON json: JSON, at path: String) throws(JSONDecodeError) {
        let object = try JSONReader.object(json, at: path)
        try JSONReader.checkKeys(object, allowed: ["page", "gate", "condition", "expiresAt"], at: path)
        let page = try PageCoding.decodeLoosely(
            try JSONReader.required(object, "page", at: path), at: JSONReader.member(path, "page"))
        let gate = try JSONReader.string(
            try JSONReader.required(object, "gate", at: path), at: JSONReader.member(path, "gate"))
        let condition = try JSONReader.string(
            try JSONReader.required(object, "condition", at: path), at: JSONReader.member(path, "condition"))
        let expiresAt = try Pending.timestamp(object, "expiresAt", at: path)
        self.init(page: page, gate: gate, condition: condition, expiresAt: expiresAt)
    }

    static func timestamp(_ object: JSONObject, _ key: String, at path: String) throws(JSONDecodeError) -> Timestamp {
        let at = JSONReader.member(path, key)
        let text = try JSONReader.string(try JSONReader.required(object, key, at: path), at: at)
        guard let timestamp = Timestamp(rfc3339: text) else {
            throw JSONDecodeError(
                code: .invalidTimestamp, path: at,
                message: "'\(text)' is not an RFC 3339 timestamp; expected e.g. 2024-05-01T12:00:00.000Z")
        }
        return timestamp
    }
}
