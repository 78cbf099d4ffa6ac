import JSON

/// A lookup table from a small set of keys to what they mean, read by a key's bytes, so that a tape's keys are looked
/// up where they lie: no string is built, hashed or compared.
///
/// An open-addressing table: a key's length and first eight bytes (which a tape keeps for every key) pick a slot,
/// and a slot's entry matches when its length and first word are the key's and, for keys over eight bytes, the rest
/// of its bytes are too. The table has at least four slots per key, so a lookup nearly always looks at one slot,
/// and an unknown key usually ends on an empty one.
///
/// Keys compare by their bytes, where `String` compares by Unicode canonical equivalence; for the tables' keys,
/// lowercase ASCII words, the two agree.
struct PayloadKeyTable<Member: Sendable>: Sendable {
    /// One key of the table.
    struct Entry: Sendable {
        /// The key's first eight UTF-8 bytes as a little-endian word, zeros after its end.
        let prefix: UInt64
        /// The number of UTF-8 bytes of the key.
        let count: Int
        /// Where the key's bytes start in ``PayloadKeyTable/utf8``.
        let start: Int
        /// What the key means.
        let member: Member
    }

    /// The entries, in the order given.
    let entries: [Entry]
    /// The keys' UTF-8 bytes, one after another.
    let utf8: [UInt8]
    /// For each slot, 0 when it is empty, else one more than the index of its entry. A power of two long.
    let slots: [UInt8]
    /// The bits of a key's hash that pick its slot: `64 - log2(slots.count)` to shift it by.
    let shift: UInt64
    /// Every key in the table, in the order given.
    let names: [String]

    /// A table of `entries`, written as a dictionary literal; each key appears once (at most 254 of them).
    init(_ entries: KeyValuePairs<String, Member>) {
        self.init(entries.map { ($0.key, $0.value) })
    }

    /// A table of `entries`; each key appears once (at most 254 of them).
    init(_ entries: [(name: String, member: Member)]) {
        precondition(entries.count < Int(UInt8.max), "a payload key table holds at most 254 keys")
        var bits = 2
        while 1 << bits < 4 * entries.count { bits += 1 }
        var slots = [UInt8](repeating: 0, count: 1 << bits)
        var utf8: [UInt8] = []
        var table: [Entry] = []
        for (index, (name, member)) in entries.enumerated() {
            let key = JSONObject.MemberKey(name)
            let entry = Entry(prefix: key.utf8Prefix, count: key.utf8Count, start: utf8.count, member: member)
            utf8 += name.utf8
            var slot = PayloadKeyTable.hash(prefix: entry.prefix, count: entry.count) >> UInt64(64 - bits)
            while slots[Int(slot)] != 0 {
                precondition(!table[Int(slots[Int(slot)]) - 1].matches(key, in: utf8), "'\(name)' appears twice")
                slot = (slot + 1) & UInt64(slots.count - 1)
            }
            slots[Int(slot)] = UInt8(index + 1)
            table.append(entry)
        }
        self.entries = table
        self.utf8 = utf8
        self.slots = slots
        self.shift = UInt64(64 - bits)
        self.names = entries.map(\.name)
    }

    /// The member for `key`, or `nil` when the key is not in the table.
    @inline(__always)
    subscript(key: some JSONKeyView) -> Member? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: PayloadKeyTable.hash(prefix: key.utf8Prefix, count: key.utf8Count) >> shift)
        while true {
            let index = Int(slots[slot])
            if index == 0 { return nil }
            let entry = entries[index - 1]
            if entry.matches(key, in: utf8) { return entry.member }
            slot = (slot + 1) & mask
        }
    }

    /// The member for the key `name`, or `nil` when it is not in the table.
    subscript(name: String) -> Member? { self[JSONObject.MemberKey(name)] }

    /// Mixes a key's first word and length into 64 bits whose top bits pick its slot (Fibonacci hashing).
    @inline(__always)
    static func hash(prefix: UInt64, count: Int) -> UInt64 {
        (prefix &+ UInt64(truncatingIfNeeded: count)) &* 0x9E37_79B9_7F4A_7C15
    }
}

extension PayloadKeyTable.Entry {
    /// True when `key` is this entry's key, whose bytes are in `utf8`.
    @inline(__always)
    func matches(_ key: some JSONKeyView, in utf8: [UInt8]) -> Bool {
        guard prefix == key.utf8Prefix, count == key.utf8Count else { return false }
        guard count > 8 else { return true }
        return utf8.withUnsafeBufferPointer { key.hasUTF8(UnsafeBufferPointer(rebasing: $0[start..<start + count])) }
    }
}
