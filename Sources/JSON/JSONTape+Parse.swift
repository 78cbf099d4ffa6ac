/// Reads a document onto a tape's nodes: the checks of ``JSONParser`` (the same UTF-8, escape, number and depth
/// rules, no duplicate keys), but nothing built, and each node written through a pointer.
///
/// Whatever the tape does not take (see ``JSONTape``) stops the reading: the caller parses the bytes into a tree,
/// which reports the error or reads the document. Rare cases are handed to ``JSONParser`` itself: strings with
/// escapes, numbers that are not short integers, and the UTF-8 check of strings with non-ASCII bytes.
struct TapeParser {
    /// Why reading stopped before the end: the document is left to the tree parser.
    enum Stop: Error {
        case leftToTree
    }

    let bytes: UnsafePointer<UInt8>
    let count: Int
    let maxDepth: Int
    /// Where the nodes go; grown when full.
    let buffer: NodeBuffer
    /// ``buffer``'s nodes and capacity, as of its last growth.
    var nodes: UnsafeMutablePointer<JSONTape.Node>
    var capacity: Int
    var index = 0
    var depth = 0
    var nodeCount = 0

    init(bytes: UnsafePointer<UInt8>, count: Int, maxDepth: Int, buffer: NodeBuffer) {
        self.bytes = bytes
        self.count = count
        self.maxDepth = maxDepth
        self.buffer = buffer
        nodes = buffer.base
        capacity = buffer.capacity
    }

    /// Reads one value surrounded by whitespace, and nothing else: the number of nodes, or `nil` when the document
    /// is left to the tree parser.
    mutating func parseDocument() -> Int? {
        do {
            skipWhitespace()
            try value()
            skipWhitespace()
            return index == count ? nodeCount : nil
        } catch {
            return nil
        }
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

    /// A ``JSONParser`` over the same bytes, at `index`, for the rare cases it reads.
    func treeParser(at index: Int) -> JSONParser {
        var parser = JSONParser(bytes: UnsafeBufferPointer(start: bytes, count: count), maxDepth: maxDepth)
        parser.index = index
        return parser
    }

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
    mutating func value() throws(Stop) {
        guard index < count else { throw .leftToTree }
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
            throw .leftToTree
        }
    }

    /// Reads a member's or an element's value: a string, as most are, here (no call of ``value()`` for it),
    /// anything else through ``value()``.
    @inline(__always)
    mutating func memberValue() throws(Stop) {
        guard index < count, bytes[index] == UInt8(ascii: "\"") else { return try value() }
        var string = try string()
        string.next = Int32(truncatingIfNeeded: nodeCount &+ 1)
        append(string)
    }

    /// Reads `word` at `index`.
    @inline(__always)
    mutating func literal(_ word: StaticString) throws(Stop) {
        let length = word.utf8CodeUnitCount
        guard index &+ length <= count else { throw .leftToTree }
        guard UTF8Bytes.equal(bytes + index, word.utf8Start, count: length) else { throw .leftToTree }
        index &+= length
    }

    /// Reads a string at `index` (its opening quote) as a node whose `next` is still to be set.
    ///
    /// Plain runs are skipped sixteen bytes at a time (``PlainBytes/skipWords(in:from:to:high:)``); the byte loop
    /// looks only at the first quote, backslash or control character of a run, or at the last few bytes of the
    /// document.
    @inline(__always)
    mutating func string() throws(Stop) -> JSONTape.Node {
        let start = index &+ 1
        var high: UInt64 = 0
        var i = PlainBytes.skipWords(in: bytes, from: start, to: count, high: &high)
        while true {
            guard i < count else { throw .leftToTree }  // unterminated
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { break }
            if b == UInt8(ascii: "\\") { return try escapedString(from: start) }
            if b < 0x20 { throw .leftToTree }
            high |= UInt64(b)
            i &+= 1
        }
        let ascii = high & PlainBytes.highs == 0
        if !ascii, treeParser(at: i).invalidUTF8(from: start) != nil { throw .leftToTree }
        index = i &+ 1
        return node(.string, start: start, length: i &- start, next: 0, flag: ascii)
    }

    /// A string with an escape (rare): the tree parser reads it, checking the escapes; its text is decoded when
    /// it is read.
    mutating func escapedString(from start: Int) throws(Stop) -> JSONTape.Node {
        var parser = treeParser(at: start &- 1)
        do {
            _ = try parser.parseString()
        } catch {
            throw .leftToTree
        }
        index = parser.index
        return node(.escapedString, start: start, length: index &- 1 &- start, next: 0)
    }

    /// Reads a number. Integers of at most 18 digits (which cannot overflow) are read here; others, and numbers
    /// with a fraction or an exponent, the way ``JSONParser/parseNumber()`` reads them.
    mutating func number() throws(Stop) {
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
        var parser = treeParser(at: start)
        let number: JSON
        do {
            number = try parser.parseNumber()
        } catch {
            throw .leftToTree
        }
        index = parser.index
        switch number {
        case .int(let int):
            append(
                node(.int, start: start, length: index &- start, next: next, bits: UInt64(UInt(bitPattern: int))))
        case .double(let double):
            append(
                node(.double, start: start, length: index &- start, next: next, flag: true, bits: double.bitPattern))
        default:
            preconditionFailure("a number parses to a number")
        }
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
    mutating func open(_ kind: JSONTape.Node.Kind) throws(Stop) -> Int {
        depth &+= 1
        guard depth <= maxDepth else { throw .leftToTree }
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
    mutating func separator(closing: UInt8) throws(Stop) -> Bool {
        skipWhitespace()
        guard index < count else { throw .leftToTree }
        let b = bytes[index]
        index &+= 1
        if b == closing { return true }
        guard b == UInt8(ascii: ",") else { throw .leftToTree }
        skipWhitespace()
        return false
    }

    mutating func object() throws(Stop) {
        let head = try open(.object)
        var members = 0
        if index < count, bytes[index] == UInt8(ascii: "}") {
            index &+= 1
        } else {
            while true {
                guard index < count, bytes[index] == UInt8(ascii: "\"") else { throw .leftToTree }
                var key = try key()
                members &+= 1
                guard members <= JSONTape.maxObjectMembers else { throw .leftToTree }
                if isDuplicate(key, amongKeysFrom: head &+ 1) { throw .leftToTree }
                key.next = Int32(truncatingIfNeeded: nodeCount &+ 1)
                append(key)
                if index < count, bytes[index] == UInt8(ascii: ":") {
                    index &+= 1  // the common case: no space before the colon
                } else {
                    skipWhitespace()
                    guard index < count, bytes[index] == UInt8(ascii: ":") else { throw .leftToTree }
                    index &+= 1
                }
                skipWhitespace()
                try memberValue()
                if try separator(closing: UInt8(ascii: "}")) { break }
            }
        }
        close(head, count: members)
    }

    mutating func array() throws(Stop) {
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

    /// Reads a key at `index` (its opening quote) as a plain string's node whose `bits` are its first eight bytes
    /// (``keyPrefix(start:length:)``) and whose `next` is still to be set; an escaped key stops the reading.
    ///
    /// Most keys are ASCII and shorter than sixteen bytes: the sixteen bytes looked at first hold the whole key and
    /// its closing quote, checked in one go, and the key's prefix is one load.
    @inline(__always)
    mutating func key() throws(Stop) -> JSONTape.Node {
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
        guard key.kind == .string else { throw .leftToTree }  // an escaped key
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
}
