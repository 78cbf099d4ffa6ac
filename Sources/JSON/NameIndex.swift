/// Names (or pairs of names) to integers, found by their UTF-8 bytes read as words (``UTF8Bytes/short(_:)``): a
/// multiply-and-shift of the words and a probe of an open-addressed array, instead of SipHash over the bytes and a
/// string comparison.
///
/// Built only when every name is ASCII and at most 16 bytes long (the initializers answer `nil` otherwise), as names
/// in a config usually are. Two ASCII strings are equal as `String`s exactly when their bytes are, so an ASCII query
/// finds by its bytes the entry a dictionary would find; a query that is not ASCII may still equal a name under
/// canonical equivalence (`"\u{212A}"`, the Kelvin sign, is `"K"`), and ``find(_:)`` leaves it to the caller
/// (``Match/notASCII``).
public struct NameIndex: Sendable {
    /// A key: the words of a name, then the words of the second name of a pair (zeros for a single name), and the
    /// names' lengths, which tell apart names that differ only by trailing NUL bytes.
    @usableFromInline
    struct Key: Equatable, Sendable {
        /// The words of the first name, then of the second.
        @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64)
        /// The first name's length, and the second's shifted left by eight bits.
        @usableFromInline var counts: UInt64

        @inlinable
        init(words: (UInt64, UInt64, UInt64, UInt64), counts: UInt64) {
            self.words = words
            self.counts = counts
        }

        @inlinable
        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
                && lhs.words.3 == rhs.words.3 && lhs.counts == rhs.counts
        }

        /// True when a byte of the key is not ASCII.
        @inlinable
        var hasNonASCII: Bool {
            (words.0 | words.1 | words.2 | words.3) & 0x8080_8080_8080_8080 != 0
        }
    }

    /// What ``find(_:)`` answers.
    public enum Match: Equatable, Sendable {
        /// The name's value.
        case value(Int)
        /// The name is ASCII and not in the table: no name of the table is equal to it.
        case absent
        /// The name is not ASCII: the table cannot tell, the caller compares it as `String` does.
        case notASCII
    }

    /// The keys, by slot; a slot whose value is -1 is empty.
    @usableFromInline let keys: [Key]
    /// The values, by slot; -1 for an empty slot.
    @usableFromInline let values: [Int32]
    /// How far to shift the mixed words to get a slot: 64 minus the log2 of the slot count.
    @usableFromInline let shift: UInt64

    /// A table of `entries`, or `nil` when a name is not ASCII or longer than 16 bytes, or a value does not fit 31
    /// bits.
    public init?(_ entries: [String: Int]) {
        var keyed: [(Key, Int)] = []
        keyed.reserveCapacity(entries.count)
        for (name, value) in entries {
            guard let key = Self.key(name) else { return nil }
            keyed.append((key, value))
        }
        self.init(keyed)
    }

    /// A table of pairs of names, or `nil` when a name is not ASCII or longer than 16 bytes, or a value does not fit
    /// 31 bits.
    public init?(pairs entries: [(first: String, second: String, value: Int)]) {
        var keyed: [(Key, Int)] = []
        keyed.reserveCapacity(entries.count)
        for (first, second, value) in entries {
            guard let key = Self.key(first, second) else { return nil }
            keyed.append((key, value))
        }
        self.init(keyed)
    }

    private init?(_ entries: [(Key, Int)]) {
        var bits: UInt64 = 2
        while (1 << bits) < 2 * entries.count { bits += 1 }
        let size = 1 << Int(bits)
        var keys = [Key](repeating: Key(words: (0, 0, 0, 0), counts: 0), count: size)
        var values = [Int32](repeating: -1, count: size)
        shift = 64 - bits
        for (key, value) in entries {
            guard value >= 0, value <= Int(Int32.max), !key.hasNonASCII else { return nil }
            var slot = Self.slot(key, shift: shift)
            while values[slot] >= 0 { slot = (slot + 1) & (size - 1) }
            keys[slot] = key
            values[slot] = Int32(value)
        }
        self.keys = keys
        self.values = values
    }

    /// The key of `name`, or `nil` when it is longer than 16 bytes.
    @inlinable @inline(__always)
    static func key(_ name: String) -> Key? {
        guard let (words, count) = UTF8Bytes.short(name) else { return nil }
        return Key(words: (words.0, words.1, 0, 0), counts: UInt64(truncatingIfNeeded: count))
    }

    /// The key of the pair `first`, `second`, or `nil` when either is longer than 16 bytes.
    @inlinable @inline(__always)
    static func key(_ first: String, _ second: String) -> Key? {
        guard let (a, countA) = UTF8Bytes.short(first), let (b, countB) = UTF8Bytes.short(second) else { return nil }
        return Key(
            words: (a.0, a.1, b.0, b.1),
            counts: UInt64(truncatingIfNeeded: countA) | UInt64(truncatingIfNeeded: countB) &<< 8)
    }

    /// Whether `name` is in the table and its value (see ``Match``).
    @inlinable
    public func find(_ name: String) -> Match {
        guard let key = Self.key(name) else {
            // Longer than any name of the table: equal to none of them when it is ASCII.
            return name.utf8.allSatisfy { $0 < 0x80 } ? .absent : .notASCII
        }
        return find(key)
    }

    /// Whether the pair of `first` and `second` is in the table and its value (see ``Match``; ``Match/notASCII``
    /// when either name is not ASCII).
    @inlinable
    public func find(_ first: String, _ second: String) -> Match {
        guard let key = Self.key(first, second) else {
            return first.utf8.allSatisfy { $0 < 0x80 } && second.utf8.allSatisfy { $0 < 0x80 } ? .absent : .notASCII
        }
        return find(key)
    }

    @inlinable
    func find(_ key: Key) -> Match {
        let mask = values.count - 1
        var slot = Self.slot(key, shift: shift)
        while true {
            let value = values[slot]
            if value < 0 { return key.hasNonASCII ? .notASCII : .absent }
            if keys[slot] == key { return .value(Int(value)) }
            slot = (slot + 1) & mask
        }
    }

    /// The first slot of `key`: its words and lengths mixed, the top bits of a multiplication by a large odd
    /// constant.
    @inlinable
    static func slot(_ key: Key, shift: UInt64) -> Int {
        let first = key.words.0 ^ (key.words.1 &* 0x9E37_79B9_7F4A_7C15)
        let second = key.words.2 ^ (key.words.3 &* 0xD6E8_FEB8_6659_FD93)
        let mixed = (first ^ (second &* 0x94D0_49BB_1331_11EB) ^ key.counts) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> shift)
    }
}
/// Names to values, for tables looked up on every request: through a ``NameIndex`` when every name is ASCII and
/// short (a name in a config usually is), else, and for a query that is not ASCII, a dictionary.
public struct NameTable<Value: Sendable>: Sendable {
    /// Every entry, by name.
    public let dictionary: [String: Value]
    /// The values by their number in ``index``.
    @usableFromInline let values: [Value]
    @usableFromInline let index: NameIndex?

    /// A table of `entries`.
    public init(_ entries: [String: Value]) {
        dictionary = entries
        var values: [Value] = []
        var numbers: [String: Int] = [:]
        values.reserveCapacity(entries.count)
        for (name, value) in entries {
            numbers[name] = values.count
            values.append(value)
        }
        self.values = values
        index = entries.isEmpty ? nil : NameIndex(numbers)
    }

    /// True when the table has no entries.
    public var isEmpty: Bool { dictionary.isEmpty }

    /// The value of `name`, or `nil` when the table does not have it.
    @inlinable
    public subscript(name: String) -> Value? {
        if isEmpty { return nil }
        return value(of: name)
    }

    @inlinable
    func value(of name: String) -> Value? {
        guard let index else { return dictionary[name] }
        switch index.find(name) {
        case .value(let number): return values[number]
        case .absent: return nil
        case .notASCII: return dictionary[name]
        }
    }
}
