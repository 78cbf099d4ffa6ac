internal import CYAML

/// Reads YAML text into a ``ConfigNode`` tree with libyaml's event parser.
///
/// Page declarations, page expressions and link patterns may be written without quotes
/// (see ``YAMLDeclarations``).
///
/// The only file that touches libyaml. It accepts one document of plain YAML: anchors, aliases and
/// custom tags are rejected with an error that says to repeat the value instead (a config stays readable
/// top to bottom, and every node has one place in the file). `!!str`, `!!seq` and `!!map` are accepted.
struct YAMLReader {
    /// Deeper nesting than this is rejected instead of building an unbounded tree.
    static let maximumDepth = 256

    let file: String

    /// A sequence or mapping being read; mutated in place on the stack so that appending never copies.
    private struct Frame {
        let start: SourceLocation
        let isSequence: Bool
        var items: [ConfigNode] = []
        var entries: [ConfigNode.Entry] = []
        /// A mapping's key waiting for its value.
        var key: ConfigNode?

        /// The finished node.
        var node: ConfigNode {
            ConfigNode(content: isSequence ? .sequence(items) : .mapping(entries), location: start)
        }
    }

    /// The document's root node (`nil` when the text has no usable document) and every problem met.
    func read(_ bytes: [UInt8]) -> (root: ConfigNode?, findings: [ConfigFinding]) {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        let event = UnsafeMutablePointer<yaml_event_t>.allocate(capacity: 1)
        defer {
            parser.deallocate()
            event.deallocate()
        }
        guard yaml_parser_initialize(parser) != 0 else {
            return (nil, [.error("yaml-syntax", at: location(line: 1, column: 1), "could not start the YAML parser")])
        }
        defer { yaml_parser_delete(parser) }
        let protected = YAMLDeclarations.protect(bytes)
        return (protected ?? bytes).withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
            return readEvents(parser: parser, event: event, bytes: buffer)
        }
    }

    private func readEvents(
        parser: UnsafeMutablePointer<yaml_parser_t>, event: UnsafeMutablePointer<yaml_event_t>,
        bytes: UnsafeBufferPointer<UInt8>
    ) -> (root: ConfigNode?, findings: [ConfigFinding]) {
        var findings: [ConfigFinding] = []
        var stack: [Frame] = []
        var root: ConfigNode?
        var documents = 0

        func add(_ node: ConfigNode) {
            let top = stack.count - 1
            guard top >= 0 else {
                root = node
                return
            }
            if stack[top].isSequence {
                stack[top].items.append(node)
            } else if let key = stack[top].key {
                stack[top].entries.append(ConfigNode.Entry(key: key, value: node))
                stack[top].key = nil
            } else if case .scalar = node.content {
                stack[top].key = node
            } else {
                findings.append(
                    .error(
                        "yaml-complex-key", at: node.location,
                        "expected a plain key (a name), found \(node.kindDescription) used as a key"))
                stack[top].key = ConfigNode(
                    content: .scalar("", quoted: true), location: node.location, isReported: true)
            }
        }

        while true {
            guard yaml_parser_parse(parser, event) != 0 else {
                findings.append(syntaxError(parser.pointee, bytes: bytes))
                return (nil, findings)
            }
            defer { yaml_event_delete(event) }
            let e = event.pointee
            let at = location(e.start_mark)
            switch e.type {
            case YAML_STREAM_END_EVENT:
                return (root, findings)
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 {
                    findings.append(
                        .error(
                            "yaml-multiple-documents", at: at,
                            "expected one YAML document; put everything in the first and remove this '---'"))
                    return (root, findings)
                }
            case YAML_ALIAS_EVENT:
                let name = string(e.data.alias.anchor)
                findings.append(
                    .error(
                        "yaml-alias", at: at,
                        "anchors and aliases are not supported; repeat the value instead of '*\(name)'"))
                // Reported here; the decoder skips it, so the rejected alias causes no further findings.
                add(ConfigNode(content: .scalar("", quoted: false), location: at, isReported: true))
            case YAML_SCALAR_EVENT:
                let s = e.data.scalar
                checkAnchor(s.anchor, at: at, into: &findings)
                let tag = s.tag.map { string($0) }
                if let tag, tag != "tag:yaml.org,2002:str" {
                    findings.append(unsupportedTag(tag, at: at))
                }
                let text = YAMLDeclarations.restore(
                    String(decoding: UnsafeBufferPointer(start: s.value, count: s.length), as: UTF8.self))
                let quoted = s.style != YAML_PLAIN_SCALAR_STYLE || tag != nil
                add(ConfigNode(content: .scalar(text, quoted: quoted), location: at))
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                let isSequence = e.type == YAML_SEQUENCE_START_EVENT
                let anchor = isSequence ? e.data.sequence_start.anchor : e.data.mapping_start.anchor
                let tag = (isSequence ? e.data.sequence_start.tag : e.data.mapping_start.tag).map { string($0) }
                checkAnchor(anchor, at: at, into: &findings)
                if let tag, tag != (isSequence ? "tag:yaml.org,2002:seq" : "tag:yaml.org,2002:map") {
                    findings.append(unsupportedTag(tag, at: at))
                }
                guard stack.count < YAMLReader.maximumDepth else {
                    findings.append(
                        .error(
                            "nesting-too-deep", at: at,
                            "nesting deeper than \(YAMLReader.maximumDepth) levels; a config needs only a few"))
                    return (nil, findings)
                }
                stack.append(Frame(start: at, isSequence: isSequence))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let frame = stack.popLast() else { continue }
                add(frame.node)
            default:
                break
            }
        }
    }

    private func checkAnchor(
        _ anchor: UnsafeMutablePointer<yaml_char_t>?, at: SourceLocation, into findings: inout [ConfigFinding]
    ) {
        guard let anchor else { return }
        findings.append(
            .error(
                "yaml-anchor", at: at,
                "anchors and aliases are not supported; remove '&\(string(anchor))' and repeat the value "
                    + "where it is used"))
    }

    private func unsupportedTag(_ tag: String, at: SourceLocation) -> ConfigFinding {
        .error("yaml-tag", at: at, "unsupported tag '\(tag)'; remove it (only !!str, !!seq and !!map are accepted)")
    }

    private func syntaxError(_ parser: yaml_parser_t, bytes: UnsafeBufferPointer<UInt8>) -> ConfigFinding {
        let problem = parser.problem.map { String(cString: $0) } ?? "malformed YAML"
        if parser.error == YAML_READER_ERROR {
            let at = location(ofOffset: parser.problem_offset, in: bytes)
            return .error("yaml-syntax", at: at, "invalid text: \(problem); expected UTF-8 YAML")
        }
        var message = "invalid YAML: \(problem)"
        if let context = parser.context.map({ String(cString: $0) }) {
            let mark = parser.context_mark
            message += " (\(context) at \(mark.line + 1):\(mark.column + 1))"
            if context.contains("alias") {
                message += "; a value that starts with '*', such as a wildcard host, must be quoted: \"*.example.com\""
            }
        }
        return .error("yaml-syntax", at: location(parser.problem_mark), message)
    }

    private func location(_ mark: yaml_mark_t) -> SourceLocation {
        location(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    private func location(line: Int, column: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column)
    }

    /// Line and column (in characters) of a byte offset, for reader errors that carry only an offset.
    /// An offset inside a multi-byte sequence (libyaml names the bad trailing byte) points at its first byte.
    private func location(ofOffset offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> SourceLocation {
        var start = min(offset, bytes.count)
        for back in 1...3 where offset - back >= 0 {
            let b = bytes[offset - back]
            if b & 0xC0 == 0x80 { continue }
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
            if back < length { start = offset - back }
            break
        }
        var line = 1
        var column = 1
        for byte in bytes.prefix(start) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return location(line: line, column: column)
    }

    private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>) -> String {
        String(cString: UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))
    }
}
