import JSON

/// Reads JSON text into a ``ConfigNode`` tree, recording the line and column where every value starts.
///
/// The JSON tape reads the bytes (the one JSON reader: the same syntax, UTF-8 and escape rules as every other JSON
/// the project reads), keeping repeated keys, which the decoder reports with their places. Each node's byte offset
/// becomes a line and column by one walk forward through the text, the nodes being in document order. Strings
/// become quoted scalars, numbers and literals plain ones with their text as written, so the decoder treats JSON
/// and YAML alike. It stops at the first syntax error.
struct JSONConfigReader {
    /// Deeper nesting than this is rejected instead of recursing without bound.
    static let maximumDepth = 256

    let file: String

    /// The document's root node, or the syntax error that stopped reading.
    func read(_ bytes: [UInt8]) -> (root: ConfigNode?, findings: [ConfigFinding]) {
        // A byte order mark is not part of the JSON; lines and columns start after it.
        let skipped = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        return bytes.withUnsafeBufferPointer { all in
            let text = UnsafeBufferPointer(rebasing: all[skipped...])
            var tape = JSONTape()
            do throws(JSONError) {
                try tape.read(UnsafeRawBufferPointer(text), maxDepth: Self.maximumDepth, keys: .kept)
            } catch {
                return (nil, [finding(for: error, in: text)])
            }
            var position = TextPosition()
            let root = tape.withRoot(UnsafeRawBufferPointer(text)) { root in
                node(root, in: text, position: &position)
            }
            return (root, [])
        }
    }

    /// The node of `value` and its elements or members.
    private func node(
        _ value: JSONTape.Value, in text: UnsafeBufferPointer<UInt8>, position: inout TextPosition
    ) -> ConfigNode {
        position.advance(to: value.offset, in: text)
        let location = SourceLocation(file: file, line: position.line, column: position.column)
        switch value.kind {
        case .object:
            var entries: [ConfigNode.Entry] = []
            for (key, member) in value.rawMembers {
                let keyNode = node(key, in: text, position: &position)
                entries.append(ConfigNode.Entry(key: keyNode, value: node(member, in: text, position: &position)))
            }
            return ConfigNode(content: .mapping(entries), location: location)
        case .array:
            var items: [ConfigNode] = []
            if let elements = value.elements {
                for element in elements { items.append(node(element, in: text, position: &position)) }
            }
            return ConfigNode(content: .sequence(items), location: location)
        case .string, .escapedString:
            return ConfigNode(content: .scalar(value.stringValue ?? "", quoted: true), location: location)
        case .null, .bool, .int, .double:
            let written = String(decoding: value.writtenBytes, as: UTF8.self)
            return ConfigNode(content: .scalar(written, quoted: false), location: location)
        }
    }

    /// The finding for the syntax error `error`, at its line and column, naming the byte found there.
    private func finding(for error: JSONError, in text: UnsafeBufferPointer<UInt8>) -> ConfigFinding {
        let position = TextPosition(of: error.offset, in: text)
        let location = SourceLocation(file: file, line: position.line, column: position.column)
        if error.code == .tooDeep {
            return .error(
                "nesting-too-deep", at: location,
                "nesting deeper than \(Self.maximumDepth) levels; a config needs only a few")
        }
        var found = ""
        if error.offset >= text.count {
            if !error.reason.hasSuffix("the end of input") { found = ", found the end of the text" }
        } else if error.code == .unexpectedCharacter || error.code == .trailingData {
            let c = text[error.offset]
            if c >= 0x21 && c < 0x7F { found = ", found '\(Character(UnicodeScalar(c)))'" }
        }
        return .error("json-syntax", at: location, "invalid JSON: \(error.reason)\(found)")
    }
}
