import JSON

/// An entry of `links.keys`: the path from a payload's custom data to a value that may hold a link.
///
/// Written as keys joined by dots: `deeplink`, `custom.u` (OneSignal), `itbl.defaultAction.data` (Iterable). A key
/// holding a dot, or starting with a bracket, is written as a JSON string in brackets: `["gcm.link"]`,
/// `custom["a.b"]`. A step of the path whose value is a string holding a JSON object (as FCM carries nested data)
/// is read into that object.
public struct LinkKeyPath: Sendable, Hashable, CustomStringConvertible {
    /// The keys from the custom data down, in order; never empty.
    public let keys: [String]

    /// A path of one plain key.
    public init(key: String) {
        keys = [key]
    }

    /// Parses a path as written in `links.keys`.
    ///
    /// - Throws: ``LinkKeyPathError``, naming the byte where the path went wrong.
    public init(parsing text: String) throws(LinkKeyPathError) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw LinkKeyPathError(offset: 0, reason: "the path is empty") }
        var keys: [String] = []
        var i = 0
        while true {
            if bytes[i] == UInt8(ascii: "[") {
                let (key, end) = try LinkKeyPath.bracketed(bytes, from: i)
                keys.append(key)
                i = end
            } else {
                let start = i
                while i < bytes.count, bytes[i] != UInt8(ascii: "."), bytes[i] != UInt8(ascii: "[") { i += 1 }
                guard i > start else {
                    throw LinkKeyPathError(offset: start, reason: "a key is missing before '.'; write ['…'] for it")
                }
                keys.append(String(decoding: bytes[start..<i], as: UTF8.self))
            }
            guard i < bytes.count else { break }
            if bytes[i] == UInt8(ascii: "[") { continue }  // custom["a.b"]
            // bytes[i] is '.'
            i += 1
            guard i < bytes.count else {
                throw LinkKeyPathError(offset: i - 1, reason: "the path ends with '.'; a key must follow it")
            }
        }
        self.keys = keys
    }

    /// The path as written canonically: plain keys joined by dots, others in brackets.
    public var description: String {
        var out = ""
        for (index, key) in keys.enumerated() {
            if LinkKeyPath.isPlain(key) {
                if index > 0 { out += "." }
                out += key
            } else {
                out += "[" + LinkKeyPath.quoted(key) + "]"
            }
        }
        return out
    }

    /// True for a key that needs no brackets: not empty, no `.`, not starting with `[`, no control character.
    static func isPlain(_ key: String) -> Bool {
        guard let first = key.utf8.first, first != UInt8(ascii: "[") else { return false }
        return key.utf8.allSatisfy { $0 != UInt8(ascii: ".") && $0 >= 0x20 && $0 != 0x7F }
    }

    /// `key` as a JSON string: quoted, with `"`, `\` and control characters escaped.
    static func quoted(_ key: String) -> String {
        var out = ByteWriter(capacity: key.utf8.count + 8)
        JSON.writeString(key, into: &out)
        return out.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Reads `["…"]` starting at `start` (its `[`); returns the key and the index after `]`. The key is read as the
    /// JSON string it is written as.
    static func bracketed(_ bytes: [UInt8], from start: Int) throws(LinkKeyPathError) -> (String, Int) {
        let quote = start + 1
        guard quote < bytes.count, bytes[quote] == UInt8(ascii: "\"") else {
            throw LinkKeyPathError(offset: quote, reason: "expected '\"' after '[': a bracketed key is a JSON string")
        }
        var i = quote + 1
        while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
            i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
        }
        guard i < bytes.count else {
            throw LinkKeyPathError(offset: start, reason: "the bracketed key has no closing '\"]'")
        }
        guard case .string(let key)? = try? JSON.parse(Array(bytes[quote...i])) else {
            throw LinkKeyPathError(
                offset: quote, reason: "the bracketed key is not a valid JSON string; check its escapes")
        }
        guard !key.isEmpty else { throw LinkKeyPathError(offset: start, reason: "the bracketed key is empty") }
        i += 1  // the closing quote
        guard i < bytes.count, bytes[i] == UInt8(ascii: "]") else {
            throw LinkKeyPathError(offset: i, reason: "expected ']' after the bracketed key")
        }
        i += 1
        if i < bytes.count, bytes[i] != UInt8(ascii: "."), bytes[i] != UInt8(ascii: "[") {
            throw LinkKeyPathError(offset: i, reason: "expected '.' or '[' after ']'")
        }
        return (key, i)
    }
}

/// Why a `links.keys` path could not be read: the byte offset (0-based) and what was expected.
public struct LinkKeyPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the path's UTF-8 bytes the problem is.
    public let offset: Int
    /// What was wrong and what to write instead.
    public let reason: String

    /// An error from its parts.
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    /// `at byte N: reason`.
    public var description: String { "at byte \(offset): \(reason)" }
}
