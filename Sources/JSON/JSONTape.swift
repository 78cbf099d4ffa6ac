import CJSONTape

/// A JSON document read into a flat list of nodes that point into its bytes: no strings, arrays or objects are
/// built, and the list is reused from one document to the next.
///
/// The tape is the fast way in for documents that are read once and let go, like a varlink call: parsing one
/// allocates nothing once the list has grown, and reading it builds only the strings asked for. It reads what
/// ``JSON/parse(_:maxDepth:)`` accepts, with the same values, except that it gives up (``parse(_:maxDepth:)``
/// answers false) on anything unusual: invalid JSON, an escaped key, an object of more than
/// ``maxObjectMembers`` keys, nesting over the bound. The caller then parses the bytes into a ``JSON`` tree,
/// which reports the error or reads the document. That tree is built from a tape too: ``read(_:maxDepth:keys:)``
/// takes every valid document and names the error of an invalid one, and ``tree(_:checkingKeys:)`` builds the tree;
/// the tape is the one reader of JSON bytes.
///
/// ```swift
/// var tape = JSONTape()
/// guard tape.parse(bytes) else { return try JSON.parse(bytes) … }
/// tape.withRoot(bytes) { root in root["method"]?.stringValue }
/// ```
public struct JSONTape: Sendable {
    /// One value: a scalar, or the head of an array or object whose elements (or key, value pairs) follow it.
    public struct Node: Sendable, Equatable {
        /// What the node is.
        public enum Kind: UInt8, Sendable {
            case null, bool, int, double, string, escapedString, array, object
        }

        /// What the node is.
        public var kind: Kind
        /// The value of a Boolean; for a string, true when it is all ASCII; for a double, true when ``bits`` hold
        /// its value (else its text is converted when it is read).
        var flag: Bool
        /// For strings, the bytes between the quotes; for other values, the value's text.
        @usableFromInline var start: Int32
        /// The number of bytes from ``start``.
        @usableFromInline var length: Int32
        /// The index of the node after this value, its elements or members included.
        @usableFromInline var next: Int32
        /// The number of elements of an array or members of an object.
        var count: Int32
        /// The bits of an integer or a double; for a key, its first eight bytes (zeros after its end), which
        /// tell most keys apart without comparing their bytes.
        @usableFromInline var bits: UInt64

    }

    /// Objects with more keys than this are left to ``JSON/parse(_:maxDepth:)``, whose reading checks duplicates
    /// with a set.
    public static let maxObjectMembers = 32

    /// The nodes, in a buffer the parser writes through a pointer and grows in place (nodes refer to each other by
    /// index, so moving them is safe); shared by copies of the tape until one of them parses.
    @usableFromInline private(set) var buffer: NodeBuffer?

    /// How many nodes the last document read has (0 when it was not read).
    public internal(set) var nodeCount = 0

    /// An empty tape; it allocates nothing until it parses.
    public init() {}

    /// How many nodes the tape holds before it grows.
    public var capacity: Int { buffer?.capacity ?? 0 }

    /// An empty tape with room for `capacity` nodes before it grows (a document has about one node per 8 bytes).
    public init(capacity: Int) {
        buffer = NodeBuffer(capacity: capacity)
    }

    /// The nodes of the last document parsed, in document order.
    public var nodes: [Node] {
        guard let buffer else { return [] }
        return Array(UnsafeBufferPointer(start: buffer.base, count: nodeCount))
    }

    /// Reads `bytes` into the tape, replacing what it held; false when the document is left to
    /// ``JSON/parse(_:maxDepth:)`` (see ``JSONTape``).
    public mutating func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = JSON.defaultMaxDepth) -> Bool {
        parse(bytes, maxDepth: maxDepth, readers: .both)
    }

    /// Which of the tape's two readers ``parse(_:maxDepth:readers:)`` uses.
    public enum Readers: Sendable {
        /// The C reader (`CJSONTape`), then the Swift reader (``TapeParser``) for what it declines: what
        /// ``parse(_:maxDepth:)`` does.
        case both
        /// The C reader alone: a document it declines is not read.
        case c
        /// The Swift reader alone.
        case swift
    }

    /// ``parse(_:maxDepth:)`` with the readers chosen (the tests and the fuzz target compare them).
    public mutating func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int, readers: Readers) -> Bool {
        nodeCount = 0
        guard let base = bytes.baseAddress, bytes.count < Int(Int32.max) else { return false }
        // A buffer shared with a copy of this tape is left to the copy.
        if buffer == nil || !isKnownUniquelyReferenced(&buffer) { buffer = NodeBuffer(capacity: 64) }
        guard let buffer else { return false }
        let start = base.assumingMemoryBound(to: UInt8.self)
        if readers != .swift {
            if let count = Self.readInC(start, count: bytes.count, maxDepth: maxDepth, into: buffer) {
                nodeCount = count
                return true
            }
            if readers == .c { return false }
        }
        var parser = TapeParser(bytes: start, count: bytes.count, maxDepth: maxDepth, buffer: buffer)
        guard let count = parser.parseDocument() else { return false }
        nodeCount = count
        return true
    }

    /// The C reader's nodes for the `count` bytes at `bytes`, written in `buffer` (grown when they do not fit), or
    /// `nil` when it declines the document.
    private static func readInC(
        _ bytes: UnsafePointer<UInt8>, count: Int, maxDepth: Int, maxMembers: Int = maxObjectMembers,
        into buffer: NodeBuffer
    ) -> Int? {
        while true {
            let capacity = buffer.capacity
            let read = buffer.base.withMemoryRebound(to: notifyd_tape_node.self, capacity: capacity) { nodes in
                notifyd_tape_parse(bytes, count, maxDepth, maxMembers, nodes, capacity)
            }
            if read >= 0 { return read }
            // Each node takes at least one byte of the document, so `count` nodes always fit.
            guard read == NOTIFYD_TAPE_FULL, capacity < count else { return nil }
            buffer.grow(keeping: 0)
        }
    }
    /// Reads `bytes` (not empty, under 2 GiB) with the C reader alone, taking objects of up to `maxMembers` keys,
    /// for ``read(_:maxDepth:keys:)``: true when it read the document; else the buffer is ready for the Swift
    /// reader.
    mutating func readInC(_ bytes: UnsafeRawBufferPointer, maxDepth: Int, maxMembers: Int) -> Bool {
        nodeCount = 0
        guard let base = bytes.baseAddress else { return false }
        if buffer == nil || !isKnownUniquelyReferenced(&buffer) { buffer = NodeBuffer(capacity: 64) }
        guard let buffer else { return false }
        let start = base.assumingMemoryBound(to: UInt8.self)
        guard
            let count = Self.readInC(
                start, count: bytes.count, maxDepth: maxDepth, maxMembers: maxMembers, into: buffer)
        else { return false }
        nodeCount = count
        return true
    }

    /// Calls `body` with the root of the document last parsed from `bytes`; the value and every value read
    /// from it are valid only inside `body`. The tape must hold a document (``parse(_:maxDepth:)`` answered true).
    @inlinable
    public func withRoot<R, E: Error>(
        _ bytes: UnsafeRawBufferPointer, _ body: (Value) throws(E) -> R
    ) throws(E) -> R {
        guard let base = bytes.baseAddress else { preconditionFailure("the tape's document has no bytes") }
        guard nodeCount > 0, let buffer else { preconditionFailure("the tape holds no document") }
        return try withExtendedLifetime(buffer) { () throws(E) -> R in
            let first = UnsafePointer(buffer.base)
            return try body(
                Value(bytes: base.assumingMemoryBound(to: UInt8.self), byteCount: bytes.count, nodes: first, index: 0))
        }
    }
}

/// Room for a tape's nodes: memory the parser writes through a pointer, grown in place when a document needs more.
@usableFromInline
final class NodeBuffer: @unchecked Sendable {
    /// The first node. Written only by a parser of the tape that holds the only reference (see
    /// ``JSONTape/parse(_:maxDepth:)``); read by any copy of the tape afterwards. Every read of a node goes through
    /// it, so it is left out of the run-time exclusivity check: a write never overlaps a read, by the rule above.
    @exclusivity(unchecked) @usableFromInline private(set) var base: UnsafeMutablePointer<JSONTape.Node>
    /// How many nodes fit.
    @exclusivity(unchecked) private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 16)
        base = UnsafeMutablePointer<JSONTape.Node>.allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Doubles the room, keeping the first `count` nodes.
    func grow(keeping count: Int) {
        let larger = UnsafeMutablePointer<JSONTape.Node>.allocate(capacity: capacity * 2)
        larger.initialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }
}

// MARK: - Reading values

extension JSONTape {
    /// A value of a tape; valid inside ``JSONTape/withRoot(_:_:)`` only.
    public struct Value {
        /// The document's first byte.
        @usableFromInline let bytes: UnsafePointer<UInt8>
        /// The number of bytes of the document.
        @usableFromInline let byteCount: Int
        /// The tape's first node.
        @usableFromInline let nodes: UnsafePointer<Node>
        /// The node's position on the tape.
        public let index: Int

        @usableFromInline
        init(bytes: UnsafePointer<UInt8>, byteCount: Int, nodes: UnsafePointer<Node>, index: Int) {
            self.bytes = bytes
            self.byteCount = byteCount
            self.nodes = nodes
            self.index = index
        }

        /// The value's node.
        @inlinable
        var node: Node { nodes[index] }

        /// The value of the node at `position` of the same tape.
        @inlinable @inline(__always)
        func at(_ position: Int) -> Value { Value(bytes: bytes, byteCount: byteCount, nodes: nodes, index: position) }

        /// What the value is.
        public var kind: Node.Kind { node.kind }

        /// The value under `key` when this is an object, else `nil`.
        ///
        /// Inlinable: where the key is a literal, its bytes are known where it is looked up.
        @inlinable
        public subscript(key: String) -> Value? {
            guard node.kind == .object else { return nil }
            if let (words, count) = UTF8Bytes.short(key) { return member(words: words, count: count) }
            return UTF8Bytes.with(key) { member(utf8: $0) }
        }

        /// The member whose key is the `count` (at most 16) bytes of `words` (see ``UTF8Bytes/short(_:)``): the first
        /// word and the length are compared with each key's prefix and length on the tape, then the second word.
        @inlinable @inline(__always)
        func member(words: (UInt64, UInt64), count: Int) -> Value? {
            var i = index + 1
            let end = Int(node.next)
            while i < end {
                let keyNode = nodes[i]
                if keyNode.bits == words.0, Int(keyNode.length) == count {
                    if count <= 8 || UTF8Bytes.prefix(bytes + Int(keyNode.start) + 8, count: count &- 8) == words.1 {
                        return at(i + 1)
                    }
                }
                i = Int(nodes[i + 1].next)
            }
            return nil
        }

        /// The member whose key's UTF-8 is `key`: its first eight bytes and its length are compared with each key's
        /// prefix and length on the tape, then, for a longer key, its other bytes.
        @usableFromInline
        func member(utf8 key: UnsafeBufferPointer<UInt8>) -> Value? {
            let count = key.count
            let keyBase = key.baseAddress
            let prefix = keyBase.map { UTF8Bytes.prefix($0, count: count) } ?? 0
            var i = index + 1
            let end = Int(node.next)
            while i < end {
                let keyNode = nodes[i]
                if keyNode.bits == prefix, Int(keyNode.length) == count {
                    if count <= 8 { return at(i + 1) }
                    if let keyBase, UTF8Bytes.equal(bytes + Int(keyNode.start) + 8, keyBase + 8, count: count &- 8) {
                        return at(i + 1)
                    }
                }
                i = Int(nodes[i + 1].next)
            }
            return nil
        }

        /// The members of an object with their keys left on the tape, for readers that compare keys with
        /// ``isString(_:)`` rather than build them.
        public var rawMembers: RawMembers { RawMembers(value: self) }

        /// The members of an object in document order; none for other kinds.
        public var members: Members { Members(raw: RawMembers(value: self)) }

        /// The elements of an array; `nil` for other kinds.
        public var elements: Elements? { node.kind == .array ? Elements(value: self) : nil }

        /// The string's bytes between its quotes, escapes undecoded; `nil` for other kinds.
        public var rawStringBytes: UnsafeBufferPointer<UInt8>? {
            let node = node
            guard node.kind == .string || node.kind == .escapedString else { return nil }
            return UnsafeBufferPointer(start: bytes + Int(node.start), count: Int(node.length))
        }

        /// True when this is a string with exactly the UTF-8 text `text` (which has no escapes).
        public func isString(_ text: StaticString) -> Bool {
            let node = node
            guard node.kind == .string, Int(node.length) == text.utf8CodeUnitCount else { return false }
            return UTF8Bytes.equal(bytes + Int(node.start), text.utf8Start, count: text.utf8CodeUnitCount)
        }

        /// True for the empty string `""` (a string written with an escape is never empty).
        public var isEmptyString: Bool { node.kind == .string && node.length == 0 }

        /// The string, decoded; `nil` for other kinds.
        public var stringValue: String? {
            let node = node
            switch node.kind {
            case .string:
                let start = Int(node.start)
                let count = Int(node.length)
                return String(decoding: UnsafeBufferPointer(start: bytes + start, count: count), as: UTF8.self)
            case .escapedString:
                return JSONTape.decodeEscaped(bytes + Int(node.start), count: Int(node.length))
            default:
                return nil
            }
        }

        /// The Boolean; `nil` for other kinds.
        public var boolValue: Bool? { node.kind == .bool ? node.flag : nil }

        /// The integer (a double with no fraction counts, as for ``JSON/intValue``); `nil` for other kinds.
        public var intValue: Int? {
            let node = node
            switch node.kind {
            case .int: return Int(bitPattern: UInt(node.bits))
            case .double: return JSON.double(double(node)).intValue
            default: return nil
            }
        }

        /// The number as a double; `nil` for other kinds.
        public var numberValue: Double? {
            let node = node
            switch node.kind {
            case .int: return Double(Int(bitPattern: UInt(node.bits)))
            case .double: return double(node)
            default: return nil
            }
        }

        /// The value of a `double` node: its bits when the parser converted it, else its text converted now, as
        /// the parser would have (see ``TapeParser/number()``).
        func double(_ node: Node) -> Double {
            if node.flag { return Double(bitPattern: node.bits) }
            let text = String(
                decoding: UnsafeBufferPointer(start: bytes + Int(node.start), count: Int(node.length)), as: UTF8.self)
            return Double(text) ?? .nan
        }

        /// Where the value starts in the document: its first byte (a string's opening quote).
        public var offset: Int {
            let node = node
            return node.kind == .string || node.kind == .escapedString ? Int(node.start) &- 1 : Int(node.start)
        }

        /// The value's bytes as written: a number's digits, a literal's word, a string with its quotes.
        public var writtenBytes: UnsafeBufferPointer<UInt8> {
            let node = node
            let quotes = node.kind == .string || node.kind == .escapedString ? 2 : 0
            return UnsafeBufferPointer(start: bytes + offset, count: Int(node.length) &+ quotes)
        }

        /// True for `null`.
        public var isNull: Bool { node.kind == .null }

        /// True for an object.
        public var isObject: Bool { node.kind == .object }

        /// True for a string.
        public var isString: Bool { node.kind == .string || node.kind == .escapedString }

        /// True for a number (a fraction is not converted to tell).
        public var isNumber: Bool { node.kind == .int || node.kind == .double }

        /// The JSON kind as a word, as ``JSON/kindName`` says it.
        public var kindName: String {
            switch node.kind {
            case .null: return "null"
            case .bool: return "boolean"
            case .int, .double: return "number"
            case .string, .escapedString: return "string"
            case .array: return "array"
            case .object: return "object"
            }
        }

        /// The value as a ``JSON`` tree, equal to what ``JSON/parse(_:maxDepth:)`` reads from the same text.
        public var json: JSON {
            // Unchecked keys never throw.
            (try? TreeBuilder(bytes: bytes, nodes: nodes, checkingKeys: false).value(at: index)) ?? .null
        }

        /// The members of an object, each key decoded.
        public struct Members: Sequence, IteratorProtocol {
            var raw: RawMembers

            public mutating func next() -> (key: String, value: Value)? {
                guard let (key, value) = raw.next() else { return nil }
                return (key.stringValue ?? "", value)
            }
        }

        /// The members of an object, each key as a string value of the tape.
        public struct RawMembers: Sequence, IteratorProtocol {
            let value: Value
            var position: Int
            let end: Int

            init(value: Value) {
                self.value = value
                let node = value.node
                position = value.index + 1
                end = node.kind == .object ? Int(node.next) : position
            }

            public mutating func next() -> (key: Value, value: Value)? {
                guard position < end else { return nil }
                let key = value.at(position)
                position = Int(value.nodes[position + 1].next)
                return (key, value.at(key.index + 1))
            }
        }

        /// The elements of an array.
        public struct Elements: Sequence, IteratorProtocol {
            let value: Value
            var position: Int
            let end: Int

            init(value: Value) {
                self.value = value
                position = value.index + 1
                end = Int(value.node.next)
            }

            public mutating func next() -> Value? {
                guard position < end else { return nil }
                let element = value.at(position)
                position = Int(value.nodes[position].next)
                return element
            }
        }
    }
}
