/// Why a byte sequence is not the JSON it was expected to be, and where.
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, machine-readable.
    public enum Code: String, Sendable {
        case unexpectedEnd, unexpectedCharacter, invalidLiteral, invalidNumber, invalidEscape
        case controlCharacterInString, invalidUTF8, tooDeep, duplicateKey, trailingData
    }

    /// The kind of problem.
    public let code: Code
    /// Byte offset into the input where the problem was found.
    public let offset: Int
    /// A sentence saying what was expected.
    public let reason: String

    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

extension JSON {
    /// The default bound on nesting of arrays and objects.
    public static let defaultMaxDepth = 64

    /// Parses one JSON document from UTF-8 bytes: the tape reads it (``JSONTape/read(_:maxDepth:keys:)``), then
    /// its tree is built.
    ///
    /// Whitespace may surround the value; anything else after it is an error. Strings must be
    /// valid UTF-8, keys unique within an object, and nesting at most `maxDepth` deep.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer, maxDepth: Int = defaultMaxDepth
    ) throws(JSONError)
        -> JSON
    {
        // About one node per eight bytes: most documents fit without the buffer growing.
        var tape = JSONTape(capacity: bytes.count / 8 + 16)
        let checked = try tape.read(bytes, maxDepth: maxDepth)
        return try tape.tree(bytes, checkingKeys: !checked)
    }

    /// Parses one JSON document from UTF-8 bytes.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONError) -> JSON {
        do {
            return try bytes.withUnsafeBytes { raw in try JSON.parse(raw, maxDepth: maxDepth) }
        } catch let error as JSONError {
            throw error
        } catch {
            fatalError("unreachable: \(error)")
        }
    }

    /// Parses one JSON document from a string.
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONError) -> JSON {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }
}
