import CPlainBytes

/// Finding, sixteen or eight bytes at a time, the run of a JSON string that needs no escape: no quote, backslash or
/// control character. The reader and the writer both skip such runs before looking at single bytes.
enum PlainBytes {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each byte of `word` that is a quote, a backslash or a control character, and possibly of
    /// bytes after such a byte (never before one).
    ///
    /// A byte is zero in x exactly when (x - 0x01…) & ~x has its high bit set (the standard SWAR test); likewise
    /// a byte below 0x20 for (x - 0x20…) & ~x. A borrow can only mark bytes above a marked one, so the lowest
    /// marked byte (the first in memory, the word being read little-endian) is a real one.
    @inline(__always)
    static func needsEscape(_ word: UInt64) -> UInt64 {
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let special =
            ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
        return special & highs
    }

    /// How many of the 16 bytes at `bytes` come before the first quote, backslash or control character (16 when none
    /// is), and whether those bytes are all ASCII: three vector compares (``notifyd_special16``).
    @inline(__always)
    static func plainRun16(_ bytes: UnsafePointer<UInt8>) -> (plain: Int, ascii: Bool) {
        var nonASCII: UInt32 = 0
        let marks = notifyd_special16(bytes, &nonASCII)
        let plain = (marks | 0x1_0000).trailingZeroBitCount
        return (plain, nonASCII & ((1 &<< UInt32(plain)) &- 1) == 0)
    }

    /// The offset of the first quote, backslash or control character from `start`, found sixteen bytes at a time,
    /// then eight; when fewer than eight bytes are left before `end` without one, the offset where they begin (the
    /// caller's byte loop finishes). The high bits of `high` are set when a byte skipped was not ASCII.
    @inline(__always)
    static func skipWords(in base: UnsafePointer<UInt8>, from start: Int, to end: Int, high: inout UInt64) -> Int {
        var index = start
        // Sixteen bytes at a time while sixteen are left.
        while index &+ 16 <= end {
            let (plain, ascii) = plainRun16(base + index)
            if !ascii { high |= highs }
            if plain < 16 { return index &+ plain }
            index &+= 16
        }
        while index &+ 8 <= end {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let marked = needsEscape(word)
            if marked != 0 {
                let plain = marked.trailingZeroBitCount / 8
                if plain > 0 { high |= word & (~UInt64(0) >> (64 - 8 * plain)) }
                return index &+ plain
            }
            high |= word
            index &+= 8
        }
        return index
    }
}
