extension JSONTape {
    /// A member's key on a tape: bytes of the document between its quotes, with the length and first eight bytes
    /// its node already holds. Valid inside ``JSONTape/withRoot(_:_:)`` only, like the value it came from.
    ///
    /// Keys on a tape that ``JSONTape/parse(_:maxDepth:)`` read have no escapes (it leaves objects with escaped keys
    /// to ``JSON/parse(_:maxDepth:)``), so the bytes are the key's UTF-8 as they are.
    public struct MemberKey: JSONKeyView {
        /// The key's node, a string.
        @usableFromInline let value: Value

        /// The key whose node is `value`.
        @inlinable
        init(_ value: Value) {
            self.value = value
        }

        /// The number of UTF-8 bytes of the key.
        @inlinable
        public var utf8Count: Int { Int(value.node.length) }

        /// The first eight UTF-8 bytes as a little-endian word, zeros after the end: the word the tape keeps.
        @inlinable
        public var utf8Prefix: UInt64 { value.node.bits }

        /// The key's bytes in the document.
        @inlinable
        public var utf8: UnsafeBufferPointer<UInt8> {
            let node = value.node
            return UnsafeBufferPointer(start: value.bytes + Int(node.start), count: Int(node.length))
        }

        /// True when the key's UTF-8 bytes are exactly `bytes`.
        @inlinable
        public func hasUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let node = value.node
            guard Int(node.length) == bytes.count else { return false }
            guard let other = bytes.baseAddress else { return true }
            return UTF8Bytes.equal(value.bytes + Int(node.start), other, count: bytes.count)
        }

        /// The key as a string, built from its bytes.
        public var string: String { value.stringValue ?? "" }
    }
}

extension JSONTape.Value {
    /// The members of an object with each key as a ``JSONTape/MemberKey`` (its bytes, no string built), in document order;
    /// none for other kinds.
    @inlinable
    public var keyedMembers: KeyedMembers { KeyedMembers(value: self) }

    /// The members of an object, each key as a ``JSONTape/MemberKey``.
    public struct KeyedMembers: Sequence, IteratorProtocol {
        /// The object.
        @usableFromInline let value: JSONTape.Value
        /// The node of the next member's key.
        @usableFromInline var position: Int
        /// The node after the object's last member.
        @usableFromInline let end: Int

        /// The members of `value` when it is an object; none otherwise.
        @inlinable
        init(value: JSONTape.Value) {
            self.value = value
            let node = value.node
            position = value.index + 1
            end = node.kind == .object ? Int(node.next) : position
        }

        /// The next member, or `nil` after the last.
        @inlinable
        public mutating func next() -> (key: JSONTape.MemberKey, value: JSONTape.Value)? {
            guard position < end else { return nil }
            let key = position
            position = Int(value.nodes[key + 1].next)
            return (JSONTape.MemberKey(value.at(key)), value.at(key + 1))
        }
    }
}
