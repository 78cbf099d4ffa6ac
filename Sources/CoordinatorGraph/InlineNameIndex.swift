import JSON

/// Names to integers for names that are inline ASCII strings, found by their two words: a multiply-and-shift of
/// the words and a probe of an open-addressed array, instead of SipHash over the bytes and a string comparison.
///
/// Built only when every name is an inline ASCII string (``init(_:)`` answers `nil` otherwise); a query that is not
/// one is for the caller to look up another way.
struct InlineNameIndex: Sendable {
    /// The keys' words, by slot; a slot whose value is -1 is empty.
    private let keys: [(UInt64, UInt64)]
    /// The values, by slot; -1 for an empty slot.
    private let values: [Int32]
    /// How far to shift the mixed words to get a slot: 64 minus the log2 of the slot count.
    private let shift: UInt64

    /// A table of `entries`, or `nil` when a name is not an inline ASCII string or a value does not fit 31 bits.
    init?(_ entries: [String: Int]) {
        var bits: UInt64 = 2
        while (1 << bits) < 2 * entries.count { bits += 1 }
        let size = 1 << Int(bits)
        var keys = [(UInt64, UInt64)](repeating: (0, 0), count: size)
        var values = [Int32](repeating: -1, count: size)
        shift = 64 - bits
        for (name, value) in entries {
            guard let words = InlineASCII.words(of: name), value >= 0, value <= Int(Int32.max) else { return nil }
            var slot = Self.slot(words, shift: shift)
            while values[slot] >= 0 { slot = (slot + 1) & (size - 1) }
            keys[slot] = words
            values[slot] = Int32(value)
        }
        self.keys = keys
        self.values = values
    }

    /// The value of the name whose words are `words`, or `nil` when the table does not have it.
    func value(of words: (UInt64, UInt64)) -> Int? {
        let mask = values.count - 1
        var slot = Self.slot(words, shift: shift)
        while true {
            let value = values[slot]
            if value < 0 { return nil }
            if keys[slot] == words { return Int(value) }
            slot = (slot + 1) & mask
        }
    }

    /// The first slot of `words`: both words mixed, the top bits of a multiplication by a large odd constant.
    private static func slot(_ words: (UInt64, UInt64), shift: UInt64) -> Int {
        let mixed = (words.0 ^ (words.1 &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> shift)
    }
}
