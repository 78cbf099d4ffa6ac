/// Reads JSON text into a ``ConfigNode`` tree, recording the line and column where every value starts.
///
/// The `JSON` module parses values without positions; config errors need them, so this small reader
/// walks the bytes itself. Strings become quoted scalars, numbers and literals plain ones, so the
/// decoder treats JSON and YAML alike. It stops at the first syntax error.
struct JSONConfigReader {
    /// Deeper nesting than this is rejected instead of recursing without bound.
    static let maximumDepth = 256

    let file: String

    /// The document's root node, or the syntax error that stopped reading.
    func read(_ bytes: [UInt8]) -> (root: ConfigNode?, findings: [ConfigFinding]) {
        var cursor = Cursor(bytes: bytes, file: file)
        do throws(SyntaxError) {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { cursor.index = 3 }
            cursor.skipSpace()
            let root = try cursor.value(depth: 0)
            cursor.skipSpace()
            if cursor.index < bytes.count {
                throw cursor.error("expected the end of the document after the top-level value")
            }
            return (root, [])
        } catch {
            return (nil, [error.finding])
        }
    }

    /// The syntax error that stops reading.
    private struct SyntaxError: Error {
        let finding: ConfigFinding
    }

    private struct Cursor {
        let bytes: [UInt8]
        let file: String
        var index = 0
        var line = 1
        var column = 1

        init(bytes: [UInt8], file: String) {
            self.bytes = bytes
            self.file = file
        }

        var location: SourceLocation { SourceLocation(file: file, line: line, column: column) }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        func error(_ message: String) -> SyntaxError {
            SyntaxError(finding: .error("json-syntax", at: location, "invalid JSON: \(message)\(foundDescription)"))
        }

        var foundDescription: String {
            guard let c = current else { return ", found the end of the text" }
            if c >= 0x21 && c < 0x7F { return ", found '\(Character(UnicodeScalar(c)))'" }
            return ""
        }

        /// Moves one byte; columns count characters, so UTF-8 continuation bytes do not advance them.
        mutating func advance() {
            let c = bytes[index]
            index += 1
            if c == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if c & 0xC0 != 0x80 {
                column += 1
            }
        }

        mutating func skipSpace() {
            while let c = current, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { advance() }
        }

        mutating func expect(_ byte: UInt8, _ what: String) throws(SyntaxError) {
            guard current == byte else { throw error("expected \(what)") }
            advance()
        }

        mutating func value(depth: Int) throws(SyntaxError) -> ConfigNode {
            let start = location
            guard depth < JSONConfigReader.maximumDepth else {
                throw SyntaxError(
                    finding: .error(
                        "nesting-too-deep", at: start,
                        "nesting deeper than \(JSONConfigReader.maximumDepth) levels; a config needs only a few"))
            }
            guard let c = current else { throw error("expected a value") }
            switch c {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return ConfigNode(content: .scalar(try string(), quoted: true), location: start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return ConfigNode(content: .scalar(try number(), quoted: false), location: start)
            case UInt8(ascii: "t"): return try literal("true", at: start)
            case UInt8(ascii: "f"): return try literal("false", at: start)
            case UInt8(ascii: "n"): return try literal("null", at: start)
            default: throw error("expected a value (an object, array, string, number, true, false or null)")
            }
        }

        mutating func literal(_ word: String, at start: SourceLocation) throws(SyntaxError) -> ConfigNode {
            for byte in word.utf8 {
                guard current == byte else {
                    throw SyntaxError(finding: .error("json-syntax", at: start, "invalid JSON: expected '\(word)'"))
                }
                advance()
            }
            return ConfigNode(content: .scalar(word, quoted: false), location: start)
        }

        mutating func object(depth: Int) throws(SyntaxError) -> ConfigNode {
            let start = location
            advance()
            var entries: [ConfigNode.Entry] = []
            skipSpace()
            if current == UInt8(ascii: "}") {
                advance()
                return ConfigNode(content: .mapping(entries), location: start)
            }
            while true {
                skipSpace()
                let keyStart = location
                guard current == UInt8(ascii: "\"") else { throw error("expected a key in double quotes") }
                let key = ConfigNode(content: .scalar(try string(), quoted: true), location: keyStart)
                skipSpace()
                try expect(UInt8(ascii: ":"), "':' after the key")
                skipSpace()
                entries.append(ConfigNode.Entry(key: key, value: try value(depth: depth + 1)))
                skipSpace()
                if current == UInt8(ascii: ",") {
                    advance()
                    continue
                }
                try expect(UInt8(ascii: "}"), "',' or '}' after a member")
                return ConfigNode(content: .mapping(entries), location: start)
            }
        }

        mutating func array(depth: Int) throws(SyntaxError) -> ConfigNode {
            let start = location
            advance()
            var items: [ConfigNode] = []
            skipSpace()
            if current == UInt8(ascii: "]") {
                advance()
                return ConfigNode(content: .sequence(items), location: start)
            }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                if current == UInt8(ascii: ",") {
                    advance()
                    continue
                }
                try expect(UInt8(ascii: "]"), "',' or ']' after an element")
                return ConfigNode(content: .sequence(items), location: start)
            }
        }

        mutating func number() throws(SyntaxError) -> String {
            let start = index
            if current == UInt8(ascii: "-") { advance() }
            guard let first = current, isDigit(first) else { throw error("expected a digit") }
            advance()
            if first != UInt8(ascii: "0") {
                while let c = current, isDigit(c) { advance() }
            }
            if current == UInt8(ascii: ".") {
                advance()
                guard let c = current, isDigit(c) else { throw error("expected a digit after '.'") }
                while let c = current, isDigit(c) { advance() }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                advance()
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
                guard let c = current, isDigit(c) else { throw error("expected a digit in the exponent") }
                while let c = current, isDigit(c) { advance() }
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

        mutating func string() throws(SyntaxError) -> String {
            advance()
            var out: [UInt8] = []
            while true {
                guard let c = current else { throw error("unterminated string; expected '\"'") }
                switch c {
                case UInt8(ascii: "\""):
                    advance()
                    guard let s = String(validating: out, as: UTF8.self) else {
                        throw error("the string is not valid UTF-8")
                    }
                    return s
                case UInt8(ascii: "\\"):
                    advance()
                    try escape(into: &out)
                case 0..<0x20:
                    throw error("control character in a string; write it as an escape such as \\n")
                default:
                    out.append(c)
                    advance()
                }
            }
        }

        mutating func escape(into out: inout [UInt8]) throws(SyntaxError) {
            guard let c = current else { throw error("unterminated escape") }
            let simple: [UInt8: UInt8] = [
                UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
                UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
            ]
            if let byte = simple[c] {
                out.append(byte)
                advance()
                return
            }
            guard c == UInt8(ascii: "u") else {
                throw error("unknown escape; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u")
            }
            advance()
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard current == UInt8(ascii: "\\") else { throw error("expected a low surrogate '\\u' escape") }
                advance()
                guard current == UInt8(ascii: "u") else { throw error("expected a low surrogate '\\u' escape") }
                advance()
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("expected a low surrogate '\\u' escape") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("escape is not a Unicode scalar") }
            out.append(contentsOf: Array(String(Character(unicode)).utf8))
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let c = current, let digit = Character(UnicodeScalar(c)).hexDigitValue else {
                    throw error("expected four hexadecimal digits after \\u")
                }
                value = value * 16 + UInt32(digit)
                advance()
            }
            return value
        }
    }
}
