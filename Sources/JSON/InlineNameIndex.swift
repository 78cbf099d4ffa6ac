/// Names (or pairs of names) to integers for names that are inline ASCII strings, found by their words: a
/// multiply-and-shift of the words and a probe of an open-addressed array, instead of SipHash over the bytes and a
/// string comparison.
///
/// Built only when every name is an inline ASCII string (the initializers answer `nil` otherwise); a query that is
/// not one is for the caller to look up another way.
public struct InlineNameIndex: Sendable {
    /// A key: the two words of a name, then the two words of the second name of a pair (zeros for a single name;
    /// an inline string's second word is never zero, its top byte holds its count).
    public struct Key: Equatable, Sendable {
        public var words: (UInt64, UInt64, UInt64, UInt64)

        @inlinable
        public init(words: (UInt64, UInt64, UInt64, UInt64)) {
            self.words = words
        }

        @inlinable
        public static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
                && lhs.words.3 == rhs.words.3
        }
    }

    /// The keys, by slot; a slot whose value is -1 is empty.
    @usableFromInline let keys: [Key]
    /// The values, by slot; -1 for an empty slot.
    @usableFromInline let values: [Int32]
    /// How far to shift the mixed words to get a slot: 64 minus the log2 of the slot count.
    @usableFromInline let shift: UInt64

    /// A table of `entries`, or `nil` when a name is not an inline ASCII string or a value does not fit 31 bits.
    public init?(_ entries: [String: Int]) {
        var keyed: [(Key, Int)] = []
        keyed.reserveCapacity(entries.count)
        for (name, value) in entries {
            guard let words = InlineASCII.words(of: name) else { return nil }
            keyed.append((Key(words: (words.0, words.1, 0, 0)), value))
        }
        self.init(keyed)
    }

    /// A table of pairs of names, or `nil` when a name is not an inline ASCII string or a value does not fit 31
    /// bits.
    public init?(pairs entries: [(first: String, second: String, value: Int)]) {
        var keyed: [(Key, Int)] = []
        keyed.reserveCapacity(entries.count)
        for (first, second, value) in entries {
            guard let a = InlineASCII.words(of: first), let b = InlineASCII.words(of: second) else { return nil }
            keyed.append((Key(words: (a.0, a.1, b.0, b.1)), value))
        }
        self.init(keyed)
    }

    private init?(_ entries: [(Key, Int)]) {
        var bits: UInt64 = 2
        while (1 << bits) < 2 * entries.count { bits += 1 }
        let size = 1 << Int(bits)
        var keys = [Key](repeating: Key(words: (0, 0, 0, 0)), count: size)
        var values = [Int32](repeating: -1, count: size)
        shift = 64 - bits
        for (key, value) in entries {
            guard value >= 0, value <= Int(Int32.max) else { return nil }
            var slot = Self.slot(key, shift: shift)
            while values[slot] >= 0 { slot = (slot + 1) & (size - 1) }
            keys[slot] = key
            values[slot] = Int32(value)
        }
        self.keys = keys
        self.values = values
    }

    /// The value of the name whose words are `words`, or `nil` when the table does not have it.
    @inlinable
    public func value(of words: (UInt64, UInt64)) -> Int? {
        value(of: Key(words: (words.0, words.1, 0, 0)))
    }

    /// The value of the pair of names whose words are `first` and `second`, or `nil` when the table does not
    /// have it.
    @inlinable
    public func value(of first: (UInt64, UInt64), _ second: (UInt64, UInt64)) -> Int? {
        value(of: Key(words: (first.0, first.1, second.0, second.1)))
    }

    @inlinable
    func value(of key: Key) -> Int? {
        let mask = values.count - 1
        var slot = Self.slot(key, shift: shift)
        while true {
            let value = values[slot]
            if value < 0 { return nil }
            if keys[slot] == key { return Int(value) }
            slot = (slot + 1) & mask
        }
    }

    /// The first slot of `key`: its words mixed, the top bits of a multiplication by a large odd constant.
    @inlinable
    static func slot(_ key: Key, shift: UInt64) -> Int {
        let first = key.words.0 ^ (key.words.1 &* 0x9E37_79B9_7F4A_7C15)
        let second = key.words.2 ^ (key.words.3 &* 0xD6E8_FEB8_6659_FD93)
        let mixed = (first ^ (second &* 0x94D0_49BB_1331_11EB)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> shift)
    }
}

/// Names to values, for tables looked up on every request: through an ``InlineNameIndex`` when every name is an
/// inline ASCII string (a name in a config usually is), else, and for a query that is not one, a dictionary.
public struct NameTable<Value: Sendable>: Sendable {
    /// Every entry, by name.
    public let dictionary: [String: Value]
    /// The values by their number in ``index``.
    @usableFromInline let values: [Value]
    @usableFromInline let index: InlineNameIndex?

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
        index = entries.isEmpty ? nil : InlineNameIndex(numbers)
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
        // With the index built every name is an inline string, so an inline query it lacks is not in the table.
        if let index, let words = InlineASCII.words(of: name) { return index.value(of: words).map { values[$0] } }
        return dictionary[name]
    }
}
