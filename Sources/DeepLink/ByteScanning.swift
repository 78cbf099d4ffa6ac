// Byte-level helpers of the link scanner: eight bytes at a time where it pays, UTF-8 validation.

/// The index of the first `/` in `base[start..<end]` (or `end`), and whether a `%` comes before it; eight bytes
/// at a time.
@inline(__always)
func segmentEnd(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> (Int, Bool) {
    var i = start
    var escaped = false
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    while i + 8 <= end {
        let x = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
        let s = x ^ (ones &* 0x2F)
        let slashes = (s &- ones) & ~s & highs
        let p = x ^ (ones &* 0x25)
        let percents = (p &- ones) & ~p & highs
        if slashes != 0 {
            let at = slashes.trailingZeroBitCount
            // Only the lowest flagged byte is exact; a percent below it is reliable too.
            if percents != 0, percents.trailingZeroBitCount < at { escaped = true }
            return (i + (at >> 3), escaped)
        }
        if percents != 0 { escaped = true }
        i += 8
    }
    while i < end {
        let b = base[i]
        if b == UInt8(ascii: "/") { break }
        if b == UInt8(ascii: "%") { escaped = true }
        i += 1
    }
    return (i, escaped)
}

/// True when one of the eight bytes may be a control character, DEL, `?`, `#`, `\` or the lead byte 0xE2 of a
/// bidirectional control (never false when one is).
@inline(__always)
func mayHaveSpecialByte(_ x: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    @inline(__always) func hasByte(_ c: UInt64) -> UInt64 {
        let y = x ^ (ones &* c)
        return (y &- ones) & ~y & highs
    }
    let below20 = (x &- ones &* 0x20) & ~x & highs
    return (below20 | hasByte(0x7F) | hasByte(0x3F) | hasByte(0x23) | hasByte(0x5C) | hasByte(0xE2)) != 0
}

/// True when `b` equals `lowered` (which holds no ASCII capital) but for the case of ASCII letters.
func bytesEqualIgnoringCase(_ lowered: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard lowered.count == b.count else { return false }
    for i in 0..<b.count where lowered[i] != asciiLowercased(b[i]) { return false }
    return true
}

/// `byte` with an ASCII capital letter made small.
@inline(__always)
func asciiLowercased(_ byte: UInt8) -> UInt8 {
    byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
}

/// `text` with its ASCII capital letters made small (other characters as they are).
func asciiLowercased(_ text: String) -> String {
    String(decoding: text.utf8.map(asciiLowercased), as: UTF8.self)
}

/// True when both buffers hold the same bytes.
@inline(__always)
func bytesEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    guard let pa = a.baseAddress, let pb = b.baseAddress else { return true }
    var i = 0
    while i + 8 <= a.count {
        let x = UnsafeRawPointer(pa + i).loadUnaligned(as: UInt64.self)
        let y = UnsafeRawPointer(pb + i).loadUnaligned(as: UInt64.self)
        if x != y { return false }
        i += 8
    }
    while i < a.count {
        if pa[i] != pb[i] { return false }
        i += 1
    }
    return true
}

/// The bidirectional control (U+202A–U+202E, U+2066–U+2069) whose UTF-8 starts at `i`, if one does: invisible
/// characters that reorder the text around them, so a page argument could display as something it is not.
@inline(__always)
func bidiControl(_ base: UnsafePointer<UInt8>, _ i: Int, _ count: Int) -> UInt32? {
    guard base[i] == 0xE2, i + 2 < count else { return nil }
    switch (base[i + 1], base[i + 2]) {
    case (0x80, 0xAA...0xAE): return 0x2000 | UInt32(base[i + 2] - 0x80)
    case (0x81, 0xA6...0xA9): return 0x2040 | UInt32(base[i + 2] - 0x80)
    default: return nil
    }
}
