/// Finding, eight bytes at a time, the run of a JSON string that needs no escape: no quote, backslash or control
/// character. The reader and the writer both skip such runs before looking at single bytes.
enum PlainBytes {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The offset of the first whole 8-byte word from `start` that holds a quote, backslash or control character,
    /// or of the first word that does not fit before `end`; the skipped words are OR-ed into `high` (its high bits
    /// tell whether any byte was non-ASCII).
    @inline(__always)
    static func skipWords(in base: UnsafePointer<UInt8>, from start: Int, to end: Int, high: inout UInt64) -> Int {
        var index = start
        while index &+ 8 <= end {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            // A byte is zero in x exactly when (x - 0x01…) & ~x has its high bit set (the standard SWAR test);
            // likewise a byte below 0x20 for (x - 0x20…) & ~x.
            let special =
                ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
            if special & highs != 0 { break }
            high |= word
            index &+= 8
        }
        return index
    }
}
