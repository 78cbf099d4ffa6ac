import JSON

/// JSON paths and type checks shared by the payload readers. Paths are only built when something is reported.
enum PayloadPath {
    /// The path of `key` inside the object at `parent` (empty for the root): `aps.badge`, or `extras["a::b"]` when
    /// the key is not a plain word.
    static func child(_ parent: String, _ key: String) -> String {
        if isPlain(key) { return parent.isEmpty ? key : parent + "." + key }
        var quoted = ByteWriter(capacity: key.utf8.count + 8)
        JSON.writeString(key, into: &quoted)
        return parent + "[" + quoted.withBytes { String(decoding: $0, as: UTF8.self) } + "]"
    }

    /// The path of element `index` of the array at `parent`: `actions[1]`.
    static func element(_ parent: String, _ index: Int) -> String {
        parent + "[" + String(index) + "]"
    }

    /// How a path is shown: itself, or `$` for the root.
    static func shown(_ path: String) -> String { path.isEmpty ? "$" : path }

    /// True for keys made of ASCII letters, digits, `_` and `-` only.
    static func isPlain(_ key: String) -> Bool {
        guard !key.isEmpty else { return false }
        for b in key.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                continue
            default:
                return false
            }
        }
        return true
    }

    /// A `wrongType` error: `expected <expected>, found <kind>`.
    static func wrongType(_ path: String, expected: String, found: some JSONReadable) -> PayloadError {
        PayloadError(.wrongType, path: path, reason: "expected \(expected), found \(found.kindName)")
    }

    /// The value, checked to be an object, or a `wrongType` error naming `path`.
    static func object<V: JSONReadable>(_ value: V, _ path: @autoclosure () -> String) throws(PayloadError) -> V {
        guard value.isObject else { throw wrongType(path(), expected: "an object", found: value) }
        return value
    }

    /// The value as a string, or a `wrongType` error naming `path`.
    static func string(_ value: some JSONReadable, _ path: @autoclosure () -> String) throws(PayloadError) -> String {
        guard let string = value.stringValue else { throw wrongType(path(), expected: "a string", found: value) }
        return string
    }

    /// True when the value is a string, else a `wrongType` error naming `path`; builds no string.
    static func checkString(_ value: some JSONReadable, _ path: @autoclosure () -> String) throws(PayloadError) {
        guard value.isString else { throw wrongType(path(), expected: "a string", found: value) }
    }

    /// The value as an integer (a number without fraction), or a `wrongType` error naming `path`.
    static func integer(_ value: some JSONReadable, _ path: @autoclosure () -> String) throws(PayloadError) -> Int {
        guard let int = value.intValue else { throw wrongType(path(), expected: "an integer", found: value) }
        return int
    }

    /// Checks that the value is a number (without converting it), or a `wrongType` error naming `path`.
    static func checkNumber(_ value: some JSONReadable, _ path: @autoclosure () -> String) throws(PayloadError) {
        guard value.isNumber else { throw wrongType(path(), expected: "a number", found: value) }
    }

    /// The value as a number, or a `wrongType` error naming `path`.
    static func number(_ value: some JSONReadable, _ path: @autoclosure () -> String) throws(PayloadError) -> Double {
        guard let number = value.numberValue else { throw wrongType(path(), expected: "a number", found: value) }
        return number
    }

    /// Checks that the value is an array of strings, naming the first bad element.
    static func stringArray(_ value: some JSONReadable, _ path: @autoclosure () -> String) throws(PayloadError) {
        guard let array = value.elements else {
            throw wrongType(path(), expected: "an array of strings", found: value)
        }
        for (i, item) in array.enumerated() where !item.isString {
            throw wrongType(element(path(), i), expected: "a string", found: item)
        }
    }

    /// The text a payload value gives a `$key` category argument: strings as they are, numbers as decimal text,
    /// Booleans as `true`/`false`; `nil` for null, arrays and objects.
    static func argumentText(_ value: JSON) -> String? {
        switch value {
        case .string(let string): return string
        case .int(let int): return String(int)
        case .double(let double):
            if double.rounded() == double, abs(double) < 9.0e18 { return String(Int(double)) }
            return double.description
        case .bool(let bool): return bool ? "true" : "false"
        case .null, .array, .object: return nil
        }
    }
}
