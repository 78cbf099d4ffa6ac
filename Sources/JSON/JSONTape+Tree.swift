/// A `JSON` tree from a tape, and the decoding of a tape's strings: the tape is the one reader of JSON bytes, and
/// ``JSON/parse(_:maxDepth:)`` is a tape read whole (``JSONTape/read(_:maxDepth:keys:)``) then turned into a tree.
extension JSONTape {
    /// What ``read(_:maxDepth:keys:)`` does with a key that repeats an earlier one of its object.
    public enum RepeatedKeys: Sendable {
        /// An error, as ``JSON/parse(_:maxDepth:)`` reports it.
        case rejected
        /// Kept on the tape (the config reader reports them with their positions).
        case kept
    }

    /// Reads the whole of `bytes` onto the tape, replacing what it held: every valid document (escaped keys and
    /// objects of any size included, unlike ``parse(_:maxDepth:)``), else the first error and its byte offset.
    ///
    /// The C reader is tried first; what it declines, the Swift reader reads or reports. Answers whether the keys of
    /// the tape are checked as ``JSONObject`` compares keys: the C reader compares their bytes, which equal strings
    /// of non-ASCII characters may not share, so ``tree(_:checkingKeys:)`` finishes the check for it.
    @discardableResult
    public mutating func read(
        _ bytes: UnsafeRawBufferPointer, maxDepth: Int = JSON.defaultMaxDepth, keys: RepeatedKeys = .rejected
    ) throws(JSONError) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            nodeCount = 0
            throw JSONError(code: .unexpectedEnd, offset: 0, reason: "expected a value, found the end of input")
        }
        guard bytes.count < Int(Int32.max) else {
            nodeCount = 0
            throw JSONError(
                code: .trailingData, offset: Int(Int32.max), reason: "a document of 2 GiB or more is not read")
        }
        // Larger objects than the tape's own reading takes: the C reader's linear check of repeated keys stays
        // cheap up to this size, and the tree builder checks non-ASCII keys as strings.
        if readInC(bytes, maxDepth: maxDepth, maxMembers: 128) { return keys == .kept }
        guard let buffer else { preconditionFailure("readInC(_:maxDepth:maxMembers:) made the buffer") }
        let mode: TapeParser.Mode = keys == .kept ? .completeWithRepeatedKeys : .complete
        var parser = TapeParser(
            bytes: base.assumingMemoryBound(to: UInt8.self), count: bytes.count, maxDepth: maxDepth, buffer: buffer,
            mode: mode)
        nodeCount = try parser.readDocument()
        return true
    }

    /// The tree of the document last read from `bytes`; with `checkingKeys`, an object whose keys are not all
    /// ASCII is checked for two keys that compare equal as strings (the first such key is the error).
    public func tree(_ bytes: UnsafeRawBufferPointer, checkingKeys: Bool = false) throws(JSONError) -> JSON {
        guard let base = bytes.baseAddress, nodeCount > 0, let buffer else {
            preconditionFailure("the tape holds no document")
        }
        return try withExtendedLifetime(buffer) { () throws(JSONError) -> JSON in
            let builder = TreeBuilder(
                bytes: base.assumingMemoryBound(to: UInt8.self), nodes: UnsafePointer(buffer.base),
                checkingKeys: checkingKeys)
            return try builder.value(at: 0)
        }
    }

    // MARK: strings

    /// The decoded text of a string node whose document starts at `bytes`.
    static func string(of node: Node, in bytes: UnsafePointer<UInt8>) -> String {
        let start = bytes + Int(node.start)
        if node.kind == .escapedString { return decodeEscaped(start, count: Int(node.length)) }
        return String(decoding: UnsafeBufferPointer(start: start, count: Int(node.length)), as: UTF8.self)
    }

    /// The text of the `count` bytes of a string with escapes, between its quotes, that the tape checked: each
    /// escape is replaced by the UTF-8 it stands for (never longer than the escape).
    static func decodeEscaped(_ raw: UnsafePointer<UInt8>, count: Int) -> String {
        String(unsafeUninitializedCapacity: count) { out in
            var i = 0
            var n = 0
            func put(_ byte: UInt8) {
                out[n] = byte
                n &+= 1
            }
            while i < count {
                let b = raw[i]
                i &+= 1
                guard b == UInt8(ascii: "\\") else {
                    put(b)
                    continue
                }
                let e = raw[i]
                i &+= 1
                switch e {
                case UInt8(ascii: "b"): put(0x08)
                case UInt8(ascii: "f"): put(0x0C)
                case UInt8(ascii: "n"): put(0x0A)
                case UInt8(ascii: "r"): put(0x0D)
                case UInt8(ascii: "t"): put(0x09)
                case UInt8(ascii: "u"):
                    var scalar = hex4(raw + i) ?? 0xFFFD
                    i &+= 4
                    if (0xD800...0xDBFF).contains(scalar) {
                        // The tape checked that a low surrogate's escape follows.
                        let low = hex4(raw + (i &+ 2)) ?? 0xDC00
                        i &+= 6
                        scalar = 0x10000 &+ ((scalar &- 0xD800) &<< 10) &+ (low &- 0xDC00)
                    }
                    for byte in UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}")! { put(byte) }
                default: put(e)  // `"`, `\` and `/` stand for themselves
                }
            }
            return n
        }
    }

    /// The value of a hex digit.
    @inline(__always)
    static func hexDigit(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b &- UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b &- UInt8(ascii: "a") &+ 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b &- UInt8(ascii: "A") &+ 10)
        default: nil
        }
    }

    /// The four hex digits at `p` as a number, or `nil` when one is not a hex digit.
    static func hex4(_ p: UnsafePointer<UInt8>) -> UInt32? {
        var value: UInt32 = 0
        for k in 0..<4 {
            guard let digit = hexDigit(p[k]) else { return nil }
            value = value &<< 4 | digit
        }
        return value
    }
}

/// Builds the `JSON` tree of a tape's nodes, depth first (the tape's depth bound bounds the recursion).
struct TreeBuilder {
    let bytes: UnsafePointer<UInt8>
    let nodes: UnsafePointer<JSONTape.Node>
    /// Whether objects with a non-ASCII key are checked for keys equal as strings (see ``JSONTape/read``).
    let checkingKeys: Bool

    func value(at index: Int) throws(JSONError) -> JSON {
        let node = nodes[index]
        switch node.kind {
        case .null: return .null
        case .bool: return .bool(node.flag)
        case .int: return .int(Int(bitPattern: UInt(node.bits)))
        case .double:
            if node.flag { return .double(Double(bitPattern: node.bits)) }
            let text = UnsafeBufferPointer(start: bytes + Int(node.start), count: Int(node.length))
            return .double(Double(String(decoding: text, as: UTF8.self)) ?? .nan)
        case .string, .escapedString: return .string(JSONTape.string(of: node, in: bytes))
        case .array:
            var array: [JSON] = []
            array.reserveCapacity(Int(node.count))
            var i = index &+ 1
            let end = Int(node.next)
            while i < end {
                array.append(try value(at: i))
                i = Int(nodes[i].next)
            }
            return .array(array)
        case .object:
            var object = JSONObject()
            object.reserveCapacity(Int(node.count))
            var plain = true
            var i = index &+ 1
            let end = Int(node.next)
            while i < end {
                let key = nodes[i]
                plain = plain && key.flag
                object.appendUnchecked(JSONTape.string(of: key, in: bytes), try value(at: i &+ 1))
                i = Int(nodes[i &+ 1].next)
            }
            if checkingKeys, !plain { try checkKeys(of: object, head: index) }
            return .object(object)
        }
    }

    /// Throws at the first key of `object` (whose node is `head`) equal as a string to an earlier one.
    func checkKeys(of object: JSONObject, head: Int) throws(JSONError) {
        var seen = JSONKeySet()
        var i = head &+ 1
        for key in object.keys {
            if !seen.insert(key) {
                let offset = Int(nodes[i].start) &- 1
                throw JSONError(code: .duplicateKey, offset: offset, reason: "duplicate key \"\(key)\"")
            }
            i = Int(nodes[i &+ 1].next)
        }
    }
}
