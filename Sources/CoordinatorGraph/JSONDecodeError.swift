import JSON

/// A JSON document (a device state, a decision) that does not have the expected shape or names something the
/// graph does not declare.
///
/// `path` is where in the document: `$.stacks.cart[1].id`.
public struct JSONDecodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public enum Code: String, Sendable, Hashable {
        /// A value of another JSON kind was expected (an array, a string, …).
        case wrongType
        /// A required key is absent.
        case missingKey
        /// A key the shape does not define.
        case unknownKey
        /// A coordinator name the graph does not declare.
        case unknownCoordinator
        /// A page id the graph does not declare.
        case unknownPage
        /// A page argument that is missing, not declared, or of the wrong type.
        case invalidArgument
        /// A timestamp that is not RFC 3339.
        case invalidTimestamp
        /// A value that is well-typed but not allowed here (an unknown outcome, a tab that is not a child, …).
        case invalidValue
    }

    /// What was wrong.
    public let code: Code
    /// Where in the document, as a JSONPath: `$.stacks.cart[1].id`.
    public let path: String
    /// What was expected and how to fix it.
    public let message: String

    /// An error from its parts.
    public init(code: Code, path: String, message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}

/// Helpers that read an expected JSON shape and report the path on failure.
enum JSONReader {
    /// `base.key`, or `base["key"]` when the key is not a plain identifier.
    static func member(_ base: String, _ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.utf8.allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
            }
        if plain { return base + "." + key }
        return base + "[" + JSON.string(key).serialized + "]"
    }

    /// `base[index]`.
    static func element(_ base: String, _ index: Int) -> String {
        base + "[" + String(index) + "]"
    }

    static func object(_ json: JSON, at path: String) throws(JSONDecodeError) -> JSONObject {
        guard case .object(let o) = json else { throw wrongType(json, expected: "an object", at: path) }
        return o
    }

    static func array(_ json: JSON, at path: String) throws(JSONDecodeError) -> [JSON] {
        guard case .array(let a) = json else { throw wrongType(json, expected: "an array", at: path) }
        return a
    }

    static func string(_ json: JSON, at path: String) throws(JSONDecodeError) -> String {
        guard case .string(let s) = json else { throw wrongType(json, expected: "a string", at: path) }
        return s
    }

    static func strings(_ json: JSON, at path: String) throws(JSONDecodeError) -> [String] {
        var out: [String] = []
        for (i, element) in try array(json, at: path).enumerated() {
            out.append(try string(element, at: JSONReader.element(path, i)))
        }
        return out
    }

    /// Throws `unknownKey` for the first key of `object` not in `allowed`.
    static func checkKeys(_ object: JSONObject, allowed: [String], at path: String) throws(JSONDecodeError) {
        for (key, _) in object where !allowed.contains(key) {
            throw JSONDecodeError(
                code: .unknownKey, path: member(path, key),
                message: "unknown key '\(key)'; expected one of: \(allowed.joined(separator: ", "))")
        }
    }

    static func required(_ object: JSONObject, _ key: String, at path: String) throws(JSONDecodeError) -> JSON {
        guard let value = object[key] else {
            throw JSONDecodeError(code: .missingKey, path: member(path, key), message: "missing key '\(key)'")
        }
        return value
    }

    static func wrongType(_ json: JSON, expected: String, at path: String) -> JSONDecodeError {
        JSONDecodeError(code: .wrongType, path: path, message: "expected \(expected), found \(json.kindName)")
    }
}
