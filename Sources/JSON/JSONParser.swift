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

    /// Parses one JSON document from UTF-8 bytes.
    ///
    /// Whitespace may surround the value; anything else after it is an error. Strings must be
    /// valid UTF-8, keys unique within an object, and nesting at most `maxDepth` deep.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer, maxDepth: Int = defaultMaxDepth
    ) throws(JSONError)
        -> JSON
    {
        guard let base = bytes.baseAddress else {
            throw JSONError(code: .unexpectedEnd, offset: 0, reason: "expected a value, found the end of input")
        }
        // Reading bytes through a `UInt8` view is valid for any initialized memory.
        let view = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        var parser = JSONParser(bytes: view, maxDepth: maxDepth)
        return try parser.parseDocument()
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

/// A recursive-descent reader over UTF-8 bytes; no Foundation, one pass, no copies for plain strings.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0
    var depth = 0
    var scratch: [UInt8] = []

    /// Objects with fewer keys than this check for duplicates without hashing.
    static let linearKeyLimit = 16

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONError) -> JSON {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index != bytes.count {
            throw JSONError(code: .trailingData, offset: index, reason: "expected the end of the document")
        }
        return value
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    func fail(_ code: JSONError.Code, _ reason: String) -> JSONError {
        JSONError(code: code, offset: index, reason: reason)
    }

    mutating func parseValue() throws(JSONError) -> JSON {
        guard index < bytes.count else { throw fail(.unexpectedEnd, "expected a value, found the end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail(.unexpectedCharacter, "expected a value (object, array, string, number, true, false, null)")
        }
    }

    mutating func expectLiteral(_ word: StaticString) throws(JSONError) {
        let count = word.utf8CodeUnitCount
        let available = min(count, bytes.count - index)
        let p = word.utf8Start
        for i in 0..<available where bytes[index + i] != p[i] {
            throw fail(.invalidLiteral, "expected '\(word)'")
        }
        guard available == count else { throw fail(.unexpectedEnd, "expected '\(word)', found the end of input") }
        index += count
    }

    mutating func enter() throws(JSONError) {
        depth += 1
        if depth > maxDepth { throw fail(.tooDeep, "nesting deeper than \(maxDepth) levels") }
    }

    mutating func parseObject() throws(JSONError) -> JSON {
        try enter()
        index += 1
        var object = JSONObject()
        // Small objects check duplicates by a linear scan; large ones switch to a set so that a message with
        // thousands of keys costs O(n), not O(n²).
        var seen: Set<String>? = nil
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(object)
        }
        object.reserveCapacity(8)
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw fail(.unexpectedEnd, "expected a key in an object") }
            guard bytes[index] == UInt8(ascii: "\"") else { throw fail(.unexpectedCharacter, "expected a string key") }
            let keyOffset = index
            let key = try parseString()
            let duplicate: Bool
            if seen != nil {
                duplicate = !seen!.insert(key).inserted
            } else if object.count < JSONParser.linearKeyLimit {
                duplicate = object.containsKey(key)
            } else {
                var set = Set(object.keys)
                duplicate = !set.insert(key).inserted
                seen = set
            }
            if duplicate {
                throw JSONError(code: .duplicateKey, offset: keyOffset, reason: "duplicate key \"\(key)\"")
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw fail(index < bytes.count ? .unexpectedCharacter : .unexpectedEnd, "expected ':' after a key")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            object.appendUnchecked(key, value)
            skipWhitespace()
            guard index < bytes.count else { throw fail(.unexpectedEnd, "expected ',' or '}' in an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return .object(object)
            }
            throw fail(.unexpectedCharacter, "expected ',' or '}' in an object")
        }
    }

    mutating func parseArray() throws(JSONError) -> JSON {
        try enter()
        index += 1
        var array: [JSON] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(array)
        }
        while true {
            skipWhitespace()
            array.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw fail(.unexpectedEnd, "expected ',' or ']' in an array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return .array(array)
            }
            throw fail(.unexpectedCharacter, "expected ',' or ']' in an array")
        }
    }

    mutating func parseString() throws(JSONError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes. `seen` collects the bits of every byte so that all-ASCII strings (the usual case)
        // skip UTF-8 validation; `String(decoding:)` is specialized for byte buffers, unlike the generic
        // `String(validating:)`, which costs more in metadata lookups than the whole parse.
        var seen: UInt8 = 0
        if try scanPlainString(seen: &seen) {
            let s = try plainString(from: start, ascii: seen < 0x80)
            index += 1
            return s
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                // Escapes are ASCII and produce whole UTF-8 sequences, so the raw bytes are valid exactly when
                // the decoded ones are.
                if seen >= 0x80, let error = invalidUTF8(from: start) { throw error }
                let s = String(decoding: scratch, as: UTF8.self)
                index += 1
                return s
            }
            if b < 0x20 { throw fail(.controlCharacterInString, "control character in a string must be escaped") }
            if b != UInt8(ascii: "\\") {
                seen |= b
                scratch.append(b)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { throw fail(.unexpectedEnd, "unterminated escape") }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): scratch.append(0x22)
            case UInt8(ascii: "\\"): scratch.append(0x5C)
            case UInt8(ascii: "/"): scratch.append(0x2F)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw fail(.invalidEscape, "a high surrogate must be followed by a low surrogate") }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw fail(.invalidEscape, "a high surrogate must be followed by a low surrogate")
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw fail(.invalidEscape, "a lone low surrogate")
                }
                appendUTF8(scalar)
            default:
                index -= 1
                let shown = e < 0x20 || e >= 0x7F ? "byte \(e)" : "'\\\(Character(Unicode.Scalar(e)))'"
                throw fail(.invalidEscape, "unknown escape \(shown)")
            }
        }
        throw fail(.unexpectedEnd, "unterminated string")
    }

    /// Advances `index` from inside a string to its closing quote (true) or its first backslash (false), OR-ing
    /// the bytes passed into `seen` (its high bit tells whether any was non-ASCII); an unescaped control character
    /// is an error, and so is the end of input (`index` then stays at the end).
    @inline(__always)
    mutating func scanPlainString(seen: inout UInt8) throws(JSONError) -> Bool {
        skipPlainStringBytes(seen: &seen)
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") { return true }
            if b == UInt8(ascii: "\\") { return false }
            if b < 0x20 { throw fail(.controlCharacterInString, "control character in a string must be escaped") }
            seen |= b
            index += 1
        }
        return false
    }

    /// The string of the unescaped bytes from `start` to the closing quote at `index`. Bytes that are not all ASCII
    /// are checked here first (for the error's offset); the standard library keeps a string of up to 15 bytes
    /// inside the string itself, without allocating.
    @inline(__always)
    func plainString(from start: Int, ascii: Bool) throws(JSONError) -> String {
        if !ascii, let error = invalidUTF8(from: start) { throw error }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    /// Advances `index` over whole 8-byte words that hold no quote, backslash or control character, OR-ing
    /// their bytes' high bits into `seen`; the byte loop takes over at the first word with such a byte.
    @inline(__always)
    mutating func skipPlainStringBytes(seen: inout UInt8) {
        guard let base = bytes.baseAddress else { return }
        var high: UInt64 = 0
        index = PlainBytes.skipWords(in: base, from: index, to: bytes.count, high: &high)
        if high & PlainBytes.highs != 0 { seen |= 0x80 }
    }

    /// Appends the UTF-8 encoding of a Unicode scalar value (surrogates already excluded) to `scratch`.
    @inline(__always)
    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// The error for the string from `start` to the closing quote at `index` when its bytes are not valid UTF-8,
    /// pointing at the first byte of the first bad sequence; `nil` when they are valid.
    func invalidUTF8(from start: Int) -> JSONError? {
        guard let (offset, problem) = UTF8Validation.firstProblem(in: bytes, from: start, to: index) else { return nil }
        let reason =
            switch problem {
            case .invalidByte: "invalid UTF-8 byte in a string"
            case .truncated: "truncated UTF-8 sequence in a string"
            case .invalidSequence: "invalid UTF-8 sequence in a string"
            }
        return JSONError(code: .invalidUTF8, offset: offset, reason: reason)
    }

    mutating func parseHex4() throws(JSONError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail(.unexpectedEnd, "expected four hex digits after \\u") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw fail(.invalidEscape, "expected four hex digits after \\u")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func parseNumber() throws(JSONError) -> JSON {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail(.invalidNumber, "expected a digit") }
        if bytes[index] == UInt8(ascii: "0"), index + 1 < bytes.count, isDigit(bytes[index + 1]) {
            throw fail(.invalidNumber, "leading zeros are not allowed")
        }
        var magnitude: UInt64 = 0
        var overflow = false
        while index < bytes.count, isDigit(bytes[index]) {
            let (m, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
            overflow = overflow || o1 || o2
            magnitude = a
            index += 1
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw fail(.invalidNumber, "expected a digit after '.'")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw fail(.invalidNumber, "expected a digit in the exponent")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if isInteger, !overflow {
            if negative, magnitude <= UInt64(Int64.max) + 1 {
                return .int(magnitude == UInt64(Int64.max) + 1 ? Int.min : -Int(magnitude))
            }
            if !negative, magnitude <= UInt64(Int64.max) { return .int(Int(magnitude)) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let d = Double(text), d.isFinite else { throw fail(.invalidNumber, "number out of range") }
        return .double(d)
    }

    @inline(__always)
    func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }
}
