import JSON

/// The type of a page parameter: `String`, `Int`, `Double`, `Bool`, `UUID`, an enum declared under `types:`, or a
/// list of one of those (`[String]`), which a repeated query key binds.
public indirect enum ParameterType: Sendable, Hashable, CustomStringConvertible {
    case string
    case int
    case double
    case bool
    case uuid
    /// A declared enum with its cases, e.g. `Sort: [price, rating]`.
    case enumeration(name: String, cases: [String])
    /// `[Element]`: every value of a repeated query key, in order; the element is not a list.
    case list(ParameterType)

    /// The Swift spelling of the type: `String`, `Int`, `Sort`, `[String]`, …
    public var description: String {
        switch self {
        case .string: return "String"
        case .int: return "Int"
        case .double: return "Double"
        case .bool: return "Bool"
        case .uuid: return "UUID"
        case .enumeration(let name, _): return name
        case .list(let element): return "[\(element)]"
        }
    }

    /// Converts link text (already percent-decoded) into a value of this type, or `nil` when it does not convert.
    /// A list converts one text into a list of one value.
    public func convert(_ text: Substring) -> Value? {
        switch self {
        case .string:
            return .string(String(text))
        case .int:
            guard !text.isEmpty, text.utf8.count <= 19 || (text.first == "-" && text.utf8.count <= 20) else {
                return nil
            }
            return Int(text).map(Value.int)
        case .double:
            return Array(text.utf8).withUnsafeBufferPointer { parseDouble($0) }.map(Value.double)
        case .bool:
            switch text {
            case "true", "1": return .bool(true)
            case "false", "0": return .bool(false)
            default: return nil
            }
        case .uuid:
            return PageUUID(uuidString: String(text)).map(Value.uuid)
        case .enumeration(_, let cases):
            return cases.contains(where: { $0 == text }) ? .enumCase(String(text)) : nil
        case .list(let element):
            return element.convert(text).map { .list([$0]) }
        }
    }

    /// Converts a JSON value (from a varlink request or a saved state) into a value of this type.
    public func convert(_ json: JSON) -> Value? {
        switch (self, json) {
        case (.int, .int(let i)): return .int(i)
        case (.double, .int(let i)): return .double(Double(i))
        case (.double, .double(let d)): return d.isFinite ? .double(d) : nil
        case (.list(let element), .array(let items)):
            var values: [Value] = []
            for item in items {
                guard let value = element.convert(item) else { return nil }
                values.append(value)
            }
            return .list(values)
        case (.list, _): return nil
        case (.bool, .bool(let b)): return .bool(b)
        case (_, .string(let s)): return convert(Substring(s))
        default: return nil
        }
    }

    /// The names of the built-in types, as declarations write them.
    public static let builtInNames = ["String", "Int", "Double", "Bool", "UUID"]

    /// True for types other than `String`: they rank above `String` parameters in matching.
    public var isTyped: Bool {
        if case .string = self { return false }
        return true
    }
}

/// A typed argument value of a page.
public enum Value: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case int(Int)
    /// A finite number; `-0.0` and `0.0` are equal, as `Double` says.
    case double(Double)
    case bool(Bool)
    case uuid(PageUUID)
    /// A case of a declared enum, without the leading dot.
    case enumCase(String)
    /// The values of a list parameter, in the order of the link's query items.
    indirect case list([Value])

    /// The value as Swift source: `"SUMMER"`, `42`, `true`, `.price`, `UUID(uuidString: "…")!` is avoided: UUIDs print quoted.
    public var description: String {
        switch self {
        case .string(let s): return Value.swiftStringLiteral(s)
        case .int(let i): return String(i)
        case .double(let d): return d.description
        case .bool(let b): return b ? "true" : "false"
        case .uuid(let u): return Value.swiftStringLiteral(u.uuidString)
        case .enumCase(let c): return "." + c
        case .list(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
        }
    }

    /// The value as it appears in a link, before percent-encoding; a list's items joined by `,` (a list is written
    /// as one query item per value, see ``Matcher/link(for:)``).
    public var linkText: String {
        switch self {
        case .string(let s): return s
        case .int(let i): return String(i)
        case .double(let d): return Value.linkText(d)
        case .bool(let b): return b ? "true" : "false"
        case .uuid(let u): return u.uuidString
        case .enumCase(let c): return c
        case .list(let items): return items.map(\.linkText).joined(separator: ",")
        }
    }

    /// The value in decision JSON: strings, integers and Booleans as such; UUIDs and enum cases as strings; lists
    /// as arrays.
    public var json: JSON {
        switch self {
        case .string(let s): return .string(s)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .bool(let b): return .bool(b)
        case .uuid(let u): return .string(u.uuidString)
        case .enumCase(let c): return .string(c)
        case .list(let items): return .array(items.map(\.json))
        }
    }

    /// Appends the text of ``json`` without building it.
    public func writeJSON(into out: inout ByteWriter) {
        switch self {
        case .string(let s): JSON.writeString(s, into: &out)
        case .int(let i): JSON.writeInt(i, into: &out)
        case .double(let d): JSON.double(d).write(into: &out)
        case .bool(let b): b ? JSON.writeRaw("true", into: &out) : JSON.writeRaw("false", into: &out)
        case .uuid(let u): JSON.writeString(u.uuidString, into: &out)
        case .enumCase(let c): JSON.writeString(c, into: &out)
        case .list(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.writeJSON(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    /// Appends ``description`` as UTF-8.
    public func writeDescription(into out: inout ByteWriter) {
        switch self {
        case .string(let s): Value.writeSwiftStringLiteral(s, into: &out)
        case .int(let i): JSON.writeInt(i, into: &out)
        case .double(let d): out.append(utf8: d.description)
        case .bool(let b): b ? JSON.writeRaw("true", into: &out) : JSON.writeRaw("false", into: &out)
        case .uuid(let u): Value.writeSwiftStringLiteral(u.uuidString, into: &out)
        case .enumCase(let c):
            out.append(UInt8(ascii: "."))
            out.append(utf8: c)
        case .list(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { JSON.writeRaw(", ", into: &out) }
                item.writeDescription(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    /// A `Double` as links write it: the shortest text that reads back as the same number, without a `.0` for a
    /// whole number (`2`, `0.5`, `-1.25`, `1e+16`).
    static func linkText(_ d: Double) -> String {
        let text = d.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// True for a ``list(_:)``.
    public var isList: Bool {
        if case .list = self { return true }
        return false
    }

    /// True when the value's description is its text as it is, or that text between quotes: a string value with
    /// no byte its Swift literal escapes (a quote, a backslash, a control character, DEL).
    var isDescribedPlainly: Bool {
        guard case .string(let text) = self else { return true }
        return text.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C && $0 != 0x7F }
    }

    /// Appends ``swiftStringLiteral(_:)`` of `s` as UTF-8 (the escapes are all ASCII, so bytes map one by one).
    static func writeSwiftStringLiteral(_ s: String, into out: inout ByteWriter) {
        out.append(UInt8(ascii: "\""))
        defer { out.append(UInt8(ascii: "\"")) }
        if out.appendIfPlain(s) { return }  // most values: nothing to escape, no byte loop
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case 0x0A: JSON.writeRaw("\\n", into: &out)
            case 0x0D: JSON.writeRaw("\\r", into: &out)
            case 0x09: JSON.writeRaw("\\t", into: &out)
            case 0x00..<0x20, 0x7F:
                JSON.writeRaw("\\u{", into: &out)
                out.append(utf8: String(byte, radix: 16))
                out.append(UInt8(ascii: "}"))
            default: out.append(byte)
            }
        }
    }

    static func swiftStringLiteral(_ s: String) -> String {
        var bytes = ByteWriter(capacity: s.utf8.count + 2)
        writeSwiftStringLiteral(s, into: &bytes)
        return bytes.withBytes { String(decoding: $0, as: UTF8.self) }
    }
}

/// One parameter of a page case: `page: Int = 1`.
public struct Parameter: Sendable, Hashable, CustomStringConvertible {
    /// The argument label, e.g. `id`.
    public let label: String
    /// The declared type.
    public let type: ParameterType
    /// The default value, when declared.
    public let defaultValue: Value?

    /// A parameter with a label, type and optional default.
    public init(label: String, type: ParameterType, defaultValue: Value? = nil) {
        self.label = label
        self.type = type
        self.defaultValue = defaultValue
    }

    /// The Swift spelling: `page: Int = 1`.
    public var description: String {
        var s = "\(label): \(type)"
        if let defaultValue { s += " = \(defaultValue)" }
        return s
    }
}

/// Identifies a page: the coordinator that owns it and the case name, written `cart.offer`.
public struct PageID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The owning coordinator's name.
    public let coordinator: String
    /// The case name within that coordinator's `Page` enum.
    public let name: String

    /// A page id from its two parts.
    public init(coordinator: String, name: String) {
        self.coordinator = coordinator
        self.name = name
    }

    /// Parses `coordinator.case`; `nil` unless there is exactly one dot with text on both sides.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        self.init(coordinator: String(parts[0]), name: String(parts[1]))
    }

    /// `coordinator.case`.
    public var description: String { "\(coordinator).\(name)" }

    /// Appends ``description`` as a JSON string, written from the two parts (no string is built).
    public func writeJSONString(into out: inout ByteWriter) {
        out.append(UInt8(ascii: "\""))
        JSON.writeStringContents(coordinator, into: &out)
        out.append(UInt8(ascii: "."))
        JSON.writeStringContents(name, into: &out)
        out.append(UInt8(ascii: "\""))
    }

    public static func < (lhs: PageID, rhs: PageID) -> Bool { lhs.description < rhs.description }
}

/// A page value: a case of a coordinator's `Page` enum with its typed arguments, e.g. `cart.offer(id: "SUMMER")`.
public struct Page: Sendable, Hashable, CustomStringConvertible {
    /// Which case of which coordinator.
    public let id: PageID
    /// Labelled arguments in declaration order (defaults filled in).
    public let arguments: [Argument]

    /// One labelled argument.
    public struct Argument: Sendable, Hashable {
        /// The parameter label.
        public let label: String
        /// The typed value.
        public let value: Value

        /// An argument from its label and value.
        public init(label: String, value: Value) {
            self.label = label
            self.value = value
        }
    }

    /// A page from its id and arguments (in declaration order).
    public init(id: PageID, arguments: [Argument] = []) {
        self.id = id
        self.arguments = arguments
    }

    /// The value for `label`, if the page has that argument.
    public subscript(label: String) -> Value? {
        arguments.first(where: { $0.label == label })?.value
    }

    /// Swift-like rendering: `cart.offer(id: "SUMMER")`, or `catalog.home` without arguments.
    public var description: String {
        guard !arguments.isEmpty else { return id.description }
        var bytes = ByteWriter(capacity: 64)
        writeDescription(into: &bytes)
        return bytes.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends ``description`` as UTF-8.
    public func writeDescription(into out: inout ByteWriter) {
        out.append(utf8: id.coordinator)
        out.append(UInt8(ascii: "."))
        out.append(utf8: id.name)
        guard !arguments.isEmpty else { return }
        out.append(UInt8(ascii: "("))
        for (i, argument) in arguments.enumerated() {
            if i > 0 { JSON.writeRaw(", ", into: &out) }
            out.append(utf8: argument.label)
            JSON.writeRaw(": ", into: &out)
            argument.value.writeDescription(into: &out)
        }
        out.append(UInt8(ascii: ")"))
    }

    /// The page object of the decision contract: `{"id", "arguments", "description"}`.
    public var json: JSON {
        .object(["id": .string(id.description), "arguments": argumentsJSON, "description": .string(description)])
    }

    /// The arguments as the page object's `arguments`: an object of the values by label, in declaration order.
    public var argumentsJSON: JSON {
        var args = JSONObject()
        for a in arguments { args[a.label] = a.value.json }
        return .object(args)
    }

    /// Appends the text of ``json`` without building it.
    ///
    /// - Returns: where in `out` the description was written, quotes included, for a caller that writes it again
    ///   (``ByteWriter/appendCopy(of:)``). The description of a page without arguments, its id, is copied from the
    ///   id written before it.
    @discardableResult
    public func writeJSON(into out: inout ByteWriter) -> Range<Int> {
        JSON.writeRaw("{\"id\":", into: &out)
        let idStart = out.count
        id.writeJSONString(into: &out)
        let idText = idStart..<out.count
        JSON.writeRaw(",\"arguments\":", into: &out)
        writeArgumentsJSON(into: &out)
        JSON.writeRaw(",\"description\":", into: &out)
        let start = out.count
        if arguments.isEmpty {
            out.appendCopy(of: idText)
        } else {
            writeDescriptionJSONString(into: &out)
        }
        let description = start..<out.count
        out.append(UInt8(ascii: "}"))
        return description
    }

    /// Appends the text of ``argumentsJSON`` without building it.
    public func writeArgumentsJSON(into out: inout ByteWriter) {
        out.append(UInt8(ascii: "{"))
        for (i, argument) in arguments.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSON.writeString(argument.label, into: &out)
            out.append(UInt8(ascii: ":"))
            argument.value.writeJSON(into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends ``description`` as a quoted JSON string.
    ///
    /// When no argument's text needs an escape (the common case: its string values hold no quote, backslash or
    /// control character), the description is written in place, each string value's quotes escaped; otherwise it
    /// is built first and then escaped.
    public func writeDescriptionJSONString(into out: inout ByteWriter) {
        guard !arguments.isEmpty else {
            id.writeJSONString(into: &out)  // the description of a page without arguments is its id
            return
        }
        let mark = out.count
        if writeDescriptionInPlace(into: &out) { return }
        out.truncate(to: mark)
        var text = ByteWriter(capacity: 64)
        writeDescription(into: &text)
        text.withBytes { JSON.writeString(utf8: $0, into: &out) }
    }

    /// The description written in place as a JSON string, the arguments read where they are (not copied); false,
    /// part of it written, at a string value whose Swift literal escapes a byte. A short value is judged and written
    /// in one step (``ByteWriter/appendIfPlain(_:)``), others after ``Value/isDescribedPlainly``.
    private func writeDescriptionInPlace(into out: inout ByteWriter) -> Bool {
        out.append(UInt8(ascii: "\""))
        JSON.writeStringContents(id.coordinator, into: &out)
        out.append(UInt8(ascii: "."))
        JSON.writeStringContents(id.name, into: &out)
        out.append(UInt8(ascii: "("))
        let written = arguments.withUnsafeBufferPointer { arguments in
            for i in arguments.indices {
                if i > 0 { JSON.writeRaw(", ", into: &out) }
                JSON.writeStringContents(arguments[i].label, into: &out)
                JSON.writeRaw(": ", into: &out)
                switch arguments[i].value {
                case .string(let text):
                    JSON.writeRaw("\\\"", into: &out)
                    if !out.appendIfPlain(text) {
                        guard arguments[i].value.isDescribedPlainly else { return false }
                        JSON.writeStringContents(text, into: &out)
                    }
                    JSON.writeRaw("\\\"", into: &out)
                case .uuid(let uuid):
                    JSON.writeRaw("\\\"", into: &out)
                    out.append(utf8: uuid.uuidString)
                    JSON.writeRaw("\\\"", into: &out)
                case .int, .double, .bool:
                    arguments[i].value.writeDescription(into: &out)
                case .enumCase(let name):
                    out.append(UInt8(ascii: "."))
                    JSON.writeStringContents(name, into: &out)
                case .list:
                    return false  // built and escaped as a whole
                }
            }
            return true
        }
        guard written else { return false }
        out.append(UInt8(ascii: ")"))
        out.append(UInt8(ascii: "\""))
        return true
    }
}
