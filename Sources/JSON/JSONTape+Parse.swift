/// Reads a document onto a tape's nodes, checking everything JSON requires (UTF-8, escapes, numbers, depth, no
/// duplicate keys) but building nothing, each node written through a pointer. It is the one reader of JSON bytes in
/// Swift: the tape's fallback after its C reader, and, in ``Mode/complete``, the first half of ``JSON/parse`` and of
/// the config reader.
///
/// Two modes. The tape's own (``Mode/tape``) stops at anything unusual, as ``JSONTape`` documents, so that its
/// readers may assume plain keys. ``Mode/complete`` reads every valid document (escaped keys, objects of any size)
/// and names the first error and its byte offset.
struct TapeParser {
    /// What the reader accepts.
    enum Mode {
        /// What ``JSONTape/parse(_:maxDepth:)`` takes: an escaped key or an object of more than
        /// ``JSONTape/maxObjectMembers`` keys stops the reading, and any error is only a stop.
        case tape
        /// Every valid document, keys unique (as ``JSON/parse(_:maxDepth:)`` reads).
        case complete
        /// Every valid document, repeated keys kept (the config reader reports them with their positions).
        case completeWithRepeatedKeys
    }

    let bytes: UnsafePointer<UInt8>
    let count: Int
    let maxDepth: Int
    let mode: Mode
    /// Where the nodes go; grown when full.
    let buffer: NodeBuffer
    /// ``buffer``'s nodes and capacity, as of its last growth.
    var nodes: UnsafeMutablePointer<JSONTape.Node>
    var capacity: Int
    var index = 0
    var depth = 0
    var nodeCount = 0

    init(bytes: UnsafePointer<UInt8>, count: Int, maxDepth: Int, buffer: NodeBuffer, mode: Mode = .tape) {
        self.bytes = bytes
        self.count = count
        self.maxDepth = maxDepth
        self.mode = mode
        self.buffer = buffer
        nodes = buffer.base
        capacity = buffer.capacity
    }

    /// Reads one value surrounded by whitespace, and nothing else: the number of nodes, or `nil` when the document
    /// is not read (invalid, or unusual in ``Mode/tape``).
    mutating func parseDocument() -> Int? {
        try? readDocument()
    }

    /// Reads one value surrounded by whitespace, and nothing else: the number of nodes.
    mutating func readDocument() throws(JSONError) -> Int {
        skipWhitespace()
        try value()
        skipWhitespace()
        guard index == count else { throw fail(.trailingData, "expected the end of the document") }
        return nodeCount
    }

    // MARK: errors

    /// The error `code` at `index`.
    func fail(_ code: JSONError.Code, _ reason: String) -> JSONError {
        JSONError(code: code, offset: index, reason: reason)
    }

    /// What ``Mode/tape`` throws for a valid document it does not take; never shown (``parseDocument()`` answers
    /// `nil`).
    func unusual() -> JSONError {
        JSONError(code: .unexpectedCharacter, offset: index, reason: "a document the tape leaves to the tree")
    }

    // MARK: bytes

    @inline(__always)
    mutating func skipWhitespace() {
        // Most documents have no space between their tokens: one look at the next byte.
        guard index < count, bytes[index] <= 0x20 else { return }
        skipSpaces()
    }

    /// Steps over the whitespace at `index`.
    @inline(never)
    mutating func skipSpaces() {
        while index < count {
            let b = bytes[index]
            guard b <= 0x20, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
            index &+= 1
        }
    }

    @inline(__always)
    static func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }

    // MARK: nodes

    @inline(__always)
    mutating func append(_ node: JSONTape.Node) {
        if nodeCount == capacity { grow() }
        nodes[nodeCount] = node
        nodeCount &+= 1
    }

    /// Doubles the buffer (rare: the tape keeps its buffer from one document to the next).
    @inline(never)
    mutating func grow() {
        buffer.grow(keeping: nodeCount)
        nodes = buffer.base
        capacity = buffer.capacity
    }

    @inline(__always)
    func node(
        _ kind: JSONTape.Node.Kind, start: Int, length: Int, next: Int, flag: Bool = false, bits: UInt64 = 0
    ) -> JSONTape.Node {
        JSONTape.Node(
            kind: kind, flag: flag, start: Int32(truncatingIfNeeded: start), length: Int32(truncatingIfNeeded: length),
            next: Int32(truncatingIfNeeded: next), count: 0, bits: bits)
    }

    // MARK: values

    /// Reads one value at `index` onto the nodes.
    mutating func value() throws(JSONError) {
        guard index < count else { throw fail(.unexpectedEnd, "expected a value, found the end of input") }
        let start = index
        let next = nodeCount &+ 1
        switch bytes[index] {
        case UInt8(ascii: "\""):
            var string = try string()
            string.next = Int32(truncatingIfNeeded: next)
            append(string)
        case UInt8(ascii: "{"): try object()
        case UInt8(ascii: "["): try array()
        case UInt8(ascii: "t"):
            try literal("true")
            append(node(.bool, start: start, length: 4, next: next, flag: true))
        case UInt8(ascii: "f"):
            try literal("false")
            append(node(.bool, start: start, length: 5, next: next, flag: false))
        case UInt8(ascii: "n"):
            try literal("null")
            append(node(.null, start: start, length: 4, next: next))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try number()
        default:
            throw fail(.unexpectedCharacter, "expected a value (object, array, string, number, true, false, null)")
        }
    }

    /// Reads a member's or an element's value: a string, as most are, here (no call of ``value()`` for it),
    /// anything else through ``value()``.
    @inline(__always)
    mutating func memberValue() throws(JSONError) {
        guard index < count, bytes[index] == UInt8(ascii: "\"") else { return try value() }
        var string = try string()
        string.next = Int32(truncatingIfNeeded: nodeCount &+ 1)
        append(string)
    }

    /// Reads `word` at `index`.
    @inline(__always)
    mutating func literal(_ word: StaticString) throws(JSONError) {
        let length = word.utf8CodeUnitCount
        if index &+ length <= count, UTF8Bytes.equal(bytes + index, word.utf8Start, count: length) {
            index &+= length
            return
        }
        throw misspelled(word)
    }

    /// The error for `word` not being at `index`: a wrong byte, or the end of the input first.
    func misspelled(_ word: StaticString) -> JSONError {
        let available = min(word.utf8CodeUnitCount, count &- index)
        for i in 0..<available where bytes[index &+ i] != word.utf8Start[i] {
            return fail(.invalidLiteral, "expected '\(word)'")
        }
        return fail(.unexpectedEnd, "expected '\(word)', found the end of input")
    }

    // MARK: strings

    /// Reads a string at `index` (its opening quote) as a node whose `next` is still to be set.
    ///
    /// Plain runs are skipped sixteen bytes at a time (``PlainBytes/skipWords(in:from:to:high:)``); the byte loop
    /// looks only at the first quote, backslash or control character of a run, or at the last few bytes of the
    /// document.
    @inline(__always)
    mutating func string() throws(JSONError) -> JSONTape.Node {
        let start = index &+ 1
        var high: UInt64 = 0
        var i = PlainBytes.skipWords(in: bytes, from: start, to: count, high: &high)
        while true {
            guard i < count else {
                index = i
                throw fail(.unexpectedEnd, "unterminated string")
            }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { break }
            if b == UInt8(ascii: "\\") { return try escapedString(from: start, backslash: i, high: high) }
            if b < 0x20 {
                index = i
                throw controlCharacter()
            }
            high |= UInt64(b)
            i &+= 1
        }
        let ascii = high & PlainBytes.highs == 0
        if !ascii, let error = invalidUTF8(from: start, to: i) { throw error }
        index = i &+ 1
        return node(.string, start: start, length: i &- start, next: 0, flag: ascii)
    }

    func controlCharacter() -> JSONError {
        fail(.controlCharacterInString, "control character in a string must be escaped")
    }

    /// The rest of a string from its first backslash (rare): the escapes are checked here and decoded when the
    /// string is read (``JSONTape/decodeEscaped(_:count:)``). Escapes are ASCII and stand for whole UTF-8
    /// sequences, so the raw bytes are valid UTF-8 exactly when the decoded ones are; they are checked at the
    /// closing quote, after the escapes.
    mutating func escapedString(from start: Int, backslash: Int, high: UInt64) throws(JSONError) -> JSONTape.Node {
        var high = high
        index = backslash
        while index < count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                if high & PlainBytes.highs != 0, let error = invalidUTF8(from: start, to: index) { throw error }
                index &+= 1
                return node(.escapedString, start: start, length: index &- 1 &- start, next: 0)
            }
            if b < 0x20 { throw controlCharacter() }
            if b != UInt8(ascii: "\\") {
                high |= UInt64(b)
                index &+= 1
                continue
            }
            index &+= 1
            guard index < count else { throw fail(.unexpectedEnd, "unterminated escape") }
            let e = bytes[index]
            index &+= 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                continue
            case UInt8(ascii: "u"):
                let scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index &+ 1 < count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index &+ 1] == UInt8(ascii: "u")
                    else { throw fail(.invalidEscape, "a high surrogate must be followed by a low surrogate") }
                    index &+= 2
                    guard (0xDC00...0xDFFF).contains(try hex4()) else {
                        throw fail(.invalidEscape, "a high surrogate must be followed by a low surrogate")
                    }
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw fail(.invalidEscape, "a lone low surrogate")
                }
            default:
                index &-= 1
                let shown = e < 0x20 || e >= 0x7F ? "byte \(e)" : "'\\\(Character(Unicode.Scalar(e)))'"
                throw fail(.invalidEscape, "unknown escape \(shown)")
            }
        }
        throw fail(.unexpectedEnd, "unterminated string")
    }

    /// The four hex digits at `index`, stepped over.
    mutating func hex4() throws(JSONError) -> UInt32 {
        guard index &+ 4 <= count else { throw fail(.unexpectedEnd, "expected four hex digits after \\u") }
        guard let value = JSONTape.hex4(bytes + index) else {
            while JSONTape.hexDigit(bytes[index]) != nil { index &+= 1 }
            throw fail(.invalidEscape, "expected four hex digits after \\u")
        }
        index &+= 4
        return value
    }

    /// The error for the string from `start` to its closing quote at `end` when its bytes are not valid UTF-8,
    /// pointing at the first byte of the first bad sequence; `nil` when they are valid.
    func invalidUTF8(from start: Int, to end: Int) -> JSONError? {
        let all = UnsafeBufferPointer(start: bytes, count: count)
        guard let (offset, problem) = UTF8Validation.firstProblem(in: all, from: start, to: end) else { return nil }
        let reason =
            switch problem {
            case .invalidByte: "invalid UTF-8 byte in a string"
            case .truncated: "truncated UTF-8 sequence in a string"
            case .invalidSequence: "invalid UTF-8 sequence in a string"
            }
        return JSONError(code: .invalidUTF8, offset: offset, reason: reason)
    }

    // MARK: numbers

    /// Reads a number. Integers of at most 18 digits (which cannot overflow) and fractions without an exponent are
    /// read here without converting; others by ``convertedNumber(from:)``.
    mutating func number() throws(JSONError) {
        let start = index
        let next = nodeCount &+ 1
        var i = index
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i &+= 1 }
        let digits = i
        var magnitude: UInt64 = 0
        while i < count, Self.isDigit(bytes[i]), i &- digits < 18 {
            magnitude = magnitude &* 10 &+ UInt64(bytes[i] &- UInt8(ascii: "0"))
            i &+= 1
        }
        let ends = i == count || !(Self.isDigit(bytes[i]) || bytes[i] == UInt8(ascii: ".") || bytes[i] | 0x20 == 0x65)
        let leadingZero = i &- digits > 1 && bytes[digits] == UInt8(ascii: "0")
        if i > digits, ends, !leadingZero {
            index = i
            let value = negative ? -Int(magnitude) : Int(magnitude)
            append(node(.int, start: start, length: i &- start, next: next, bits: UInt64(UInt(bitPattern: value))))
            return
        }
        if let end = finiteFraction(from: digits) {
            // A fraction without an exponent and with at most 308 digits before the point is finite: it is
            // converted only if it is read.
            index = end
            append(node(.double, start: start, length: end &- start, next: next, flag: false))
            return
        }
        switch try convertedNumber(from: start) {
        case .int(let int):
            append(
                node(.int, start: start, length: index &- start, next: next, bits: UInt64(UInt(bitPattern: int))))
        case .double(let double):
            append(
                node(.double, start: start, length: index &- start, next: next, flag: true, bits: double.bitPattern))
        }
    }

    /// A number's value.
    enum Number {
        case int(Int)
        case double(Double)
    }

    /// Reads the number at `start` (index is there), checking its form: an integer when it has neither fraction nor
    /// exponent and fits, else a finite double.
    mutating func convertedNumber(from start: Int) throws(JSONError) -> Number {
        index = start
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index &+= 1 }
        guard index < count, Self.isDigit(bytes[index]) else { throw fail(.invalidNumber, "expected a digit") }
        if bytes[index] == UInt8(ascii: "0"), index &+ 1 < count, Self.isDigit(bytes[index &+ 1]) {
            throw fail(.invalidNumber, "leading zeros are not allowed")
        }
        var magnitude: UInt64 = 0
        var overflow = false
        while index < count, Self.isDigit(bytes[index]) {
            let (m, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(UInt64(bytes[index] &- UInt8(ascii: "0")))
            overflow = overflow || o1 || o2
            magnitude = a
            index &+= 1
        }
        var isInteger = true
        if index < count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index &+= 1
            guard index < count, Self.isDigit(bytes[index]) else {
                throw fail(.invalidNumber, "expected a digit after '.'")
            }
            while index < count, Self.isDigit(bytes[index]) { index &+= 1 }
        }
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index &+= 1
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index &+= 1
            }
            guard index < count, Self.isDigit(bytes[index]) else {
                throw fail(.invalidNumber, "expected a digit in the exponent")
            }
            while index < count, Self.isDigit(bytes[index]) { index &+= 1 }
        }
        if isInteger, !overflow {
            if negative, magnitude <= UInt64(Int64.max) + 1 {
                return .int(magnitude == UInt64(Int64.max) + 1 ? Int.min : -Int(magnitude))
            }
            if !negative, magnitude <= UInt64(Int64.max) { return .int(Int(magnitude)) }
        }
        let text = String(decoding: UnsafeBufferPointer(start: bytes + start, count: index &- start), as: UTF8.self)
        guard let d = Double(text), d.isFinite else { throw fail(.invalidNumber, "number out of range") }
        return .double(d)
    }

    /// The end of a number whose digits start at `digits` when it has a fraction, no exponent and at most 308
    /// digits before its point (so that its value is finite), and is well formed; else `nil`.
    func finiteFraction(from digits: Int) -> Int? {
        var i = digits
        while i < count, Self.isDigit(bytes[i]) { i &+= 1 }
        let integer = i &- digits
        guard integer > 0, integer <= 308, !(integer > 1 && bytes[digits] == UInt8(ascii: "0")) else { return nil }
        guard i < count, bytes[i] == UInt8(ascii: ".") else { return nil }
        i &+= 1
        let fraction = i
        while i < count, Self.isDigit(bytes[i]) { i &+= 1 }
        guard i > fraction else { return nil }
        guard i == count || bytes[i] | 0x20 != 0x65 else { return nil }
        return i
    }

    // MARK: containers

    /// Writes the head of a container at `index` (its opening byte) and steps over the byte.
    @inline(__always)
    mutating func open(_ kind: JSONTape.Node.Kind) throws(JSONError) -> Int {
        depth &+= 1
        guard depth <= maxDepth else { throw fail(.tooDeep, "nesting deeper than \(maxDepth) levels") }
        let head = nodeCount
        append(node(kind, start: index, length: 0, next: 0))
        index &+= 1
        skipWhitespace()
        return head
    }

    /// Completes the head of a container whose closing byte ends at `index`.
    @inline(__always)
    mutating func close(_ head: Int, count members: Int) {
        depth &-= 1
        nodes[head].count = Int32(truncatingIfNeeded: members)
        nodes[head].length = Int32(truncatingIfNeeded: index) &- nodes[head].start
        nodes[head].next = Int32(truncatingIfNeeded: nodeCount)
    }

    /// Reads what follows a member or an element: a `,` (false: another one follows) or `closing` (true).
    @inline(__always)
    mutating func separator(closing: UInt8) throws(JSONError) -> Bool {
        skipWhitespace()
        guard index < count else { throw misplaced(closing: closing, .unexpectedEnd) }
        let b = bytes[index]
        index &+= 1
        if b == closing { return true }
        guard b == UInt8(ascii: ",") else {
            index &-= 1
            throw misplaced(closing: closing, .unexpectedCharacter)
        }
        skipWhitespace()
        return false
    }

    /// The error for neither a `,` nor `closing` after a member or an element.
    func misplaced(closing: UInt8, _ code: JSONError.Code) -> JSONError {
        closing == UInt8(ascii: "}")
            ? fail(code, "expected ',' or '}' in an object") : fail(code, "expected ',' or ']' in an array")
    }

    mutating func object() throws(JSONError) {
        let head = try open(.object)
        var members = 0
        var keys = KeyCheck()
        if index < count, bytes[index] == UInt8(ascii: "}") {
            index &+= 1
        } else {
            while true {
                guard index < count else { throw fail(.unexpectedEnd, "expected a key in an object") }
                guard bytes[index] == UInt8(ascii: "\"") else {
                    throw fail(.unexpectedCharacter, "expected a string key")
                }
                let keyOffset = index
                var key = try key()
                members &+= 1
                if mode == .tape {
                    guard members <= JSONTape.maxObjectMembers else { throw unusual() }
                    if isDuplicate(key, amongKeysFrom: head &+ 1) { throw unusual() }
                } else if mode == .complete,
                    let repeated = keys.repeated(key, members: members, parser: self, head: head)
                {
                    throw JSONError(code: .duplicateKey, offset: keyOffset, reason: "duplicate key \"\(repeated)\"")
                }
                key.next = Int32(truncatingIfNeeded: nodeCount &+ 1)
                append(key)
                if index < count, bytes[index] == UInt8(ascii: ":") {
                    index &+= 1  // the common case: no space before the colon
                } else {
                    skipWhitespace()
                    guard index < count, bytes[index] == UInt8(ascii: ":") else {
                        throw fail(index < count ? .unexpectedCharacter : .unexpectedEnd, "expected ':' after a key")
                    }
                    index &+= 1
                }
                skipWhitespace()
                try memberValue()
                if try separator(closing: UInt8(ascii: "}")) { break }
            }
        }
        close(head, count: members)
    }

    mutating func array() throws(JSONError) {
        let head = try open(.array)
        var elements = 0
        if index < count, bytes[index] == UInt8(ascii: "]") {
            index &+= 1
        } else {
            while true {
                try memberValue()
                elements &+= 1
                if try separator(closing: UInt8(ascii: "]")) { break }
            }
        }
        close(head, count: elements)
    }

    // MARK: keys

    /// Reads a key at `index` (its opening quote) as a string's node whose `bits` are its first eight bytes
    /// (``keyPrefix(start:length:)``; zero for an escaped key, which only ``Mode/complete`` takes) and whose
    /// `next` is still to be set.
    ///
    /// Most keys are ASCII and shorter than sixteen bytes: the sixteen bytes looked at first hold the whole key and
    /// its closing quote, checked in one go, and the key's prefix is one load.
    @inline(__always)
    mutating func key() throws(JSONError) -> JSONTape.Node {
        let start = index &+ 1
        if start &+ 16 <= count {
            let (length, ascii) = PlainBytes.plainRun16(bytes + start)
            if length < 16, ascii, bytes[start &+ length] == UInt8(ascii: "\"") {
                index = start &+ length &+ 1
                return node(
                    .string, start: start, length: length, next: 0, flag: true,
                    bits: keyPrefix(start: start, length: length))
            }
        }
        var key = try string()
        guard key.kind == .string else {
            if mode == .tape { throw unusual() }
            return key
        }
        key.bits = keyPrefix(start: Int(key.start), length: Int(key.length))
        return key
    }

    /// The first eight bytes of a key, zeros after its end; one load when eight bytes can be read from its start.
    @inline(__always)
    func keyPrefix(start: Int, length: Int) -> UInt64 {
        guard start &+ 8 <= count else {
            return UTF8Bytes.prefix(bytes + start, count: length)
        }
        let word = UInt64(littleEndian: UnsafeRawPointer(bytes + start).loadUnaligned(as: UInt64.self))
        return length >= 8 ? word : word & ((1 &<< UInt64(8 &* length)) &- 1)
    }

    /// True when a key of the object, from its first key's node `first` up to the nodes written so far, has
    /// `key`'s bytes.
    @inline(__always)
    func isDuplicate(_ key: JSONTape.Node, amongKeysFrom first: Int) -> Bool {
        var i = first
        while i < nodeCount {
            let other = nodes[i]
            if other.bits == key.bits, other.length == key.length,
                key.length <= 8
                    || UTF8Bytes.equal(
                        bytes + (Int(other.start) &+ 8), bytes + (Int(key.start) &+ 8), count: Int(key.length) &- 8)
            {
                return true
            }
            i = Int(nodes[i &+ 1].next)
        }
        return false
    }

    /// The decoded text of a string node.
    func text(of node: JSONTape.Node) -> String {
        JSONTape.string(of: node, in: bytes)
    }

    /// The duplicate-key check of ``Mode/complete`` for one object. While its keys are few and plain ASCII, their
    /// bytes are compared (equal bytes are equal keys); from the first escaped or non-ASCII key, or past
    /// ``JSONTape/maxObjectMembers`` keys, the keys are decoded and compared as strings, as ``JSONObject`` compares
    /// them (``JSONKeySet``), so that `"\u0061"` repeats `"a"` and a large object costs O(n), not O(n²).
    struct KeyCheck {
        var decoded: JSONKeySet?

        /// The decoded key when `key`, the object's key number `members` (from 1), repeats an earlier key of the
        /// object whose head is `head`; else `nil`.
        mutating func repeated(_ key: JSONTape.Node, members: Int, parser: TapeParser, head: Int) -> String? {
            if decoded == nil {
                let plain = key.kind == .string && key.flag
                // Every earlier key was plain: the first that was not switched the check to decoded keys.
                if plain, members <= JSONTape.maxObjectMembers {
                    guard parser.isDuplicate(key, amongKeysFrom: head &+ 1) else { return nil }
                    return parser.text(of: key)
                }
                var keys = JSONKeySet()
                var i = head &+ 1
                while i < parser.nodeCount {
                    _ = keys.insert(parser.text(of: parser.nodes[i]))
                    i = Int(parser.nodes[i &+ 1].next)
                }
                decoded = keys
            }
            let text = parser.text(of: key)
            return decoded!.insert(text) ? nil : text
        }
    }
}

/// The keys of an object being read, compared as ``JSONObject`` compares them: a linear scan by UTF-8 length and
/// string equality while they are fewer than 16, then a set, so that a message with thousands of keys costs O(n).
struct JSONKeySet {
    var keys: [String] = []
    var set: Set<String>?

    /// Adds `key`; false when an equal key is already there.
    mutating func insert(_ key: String) -> Bool {
        if set != nil { return set!.insert(key).inserted }
        if keys.count < 16 {
            let length = key.utf8.count
            for other in keys where other.utf8.count == length && other == key { return false }
            keys.append(key)
            return true
        }
        var all = Set(keys)
        let inserted = all.insert(key).inserted
        set = all
        return inserted
    }
}
