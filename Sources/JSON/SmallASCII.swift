/// Short ASCII strings built and compared through the standard library's small-string form, which keeps up to 15
/// UTF-8 bytes inline in the two words of a `String`: no allocation, no validation pass, one comparison of two
/// words instead of a call into the string comparison machinery.
///
/// The form (bytes in memory order, the count and the flags "small" and "ASCII" in the top byte) is checked once
/// against strings the standard library builds itself; where it does not hold (another word size or byte order,
/// another standard library), ``isAvailable`` is false and callers take their ordinary path.
@usableFromInline
enum SmallASCII {
    /// The longest string kept inline.
    static let capacity = 15

    /// The top-byte flags of an inline ASCII string: immortal, ASCII, small.
    @inlinable
    static var flags: UInt64 { 0xE0 << 56 }
    /// The mask of the top nibble, where ``flags`` lives.
    @inlinable
    static var flagMask: UInt64 { 0xF0 << 56 }

    /// True when strings are laid out as this file assumes. Checked on two literals, which the compiler lays out
    /// as the standard library does, so that in an optimized build the check folds to a constant; the tests also
    /// hold built strings of every inline length to the standard library's own.
    @inline(__always)
    @inlinable
    static var isAvailable: Bool {
        #if arch(x86_64) || arch(arm64)
        return MemoryLayout<String>.size == 16 && words(of: "") == (0, flags)
            && words(of: "abcdefghijklmno") == (0x6867_6665_6463_6261, 0xEF6F_6E6D_6C6B_6A69)
        #else
        return false
        #endif
    }

    /// The two words of a string, as stored.
    @inline(__always)
    @inlinable
    static func words(of string: String) -> (UInt64, UInt64) {
        unsafeBitCast(string, to: (UInt64, UInt64).self)
    }

    /// True when `words` are those of an inline ASCII string.
    @inline(__always)
    @inlinable
    static func isSmallASCII(_ words: (UInt64, UInt64)) -> Bool {
        words.1 & flagMask == flags
    }

    /// The inline string of the `count` (at most 15) ASCII bytes at `start`, copied byte by byte.
    /// Only valid when ``isAvailable``.
    @inline(__always)
    static func make(copying start: UnsafePointer<UInt8>, count: Int) -> String {
        var low: UInt64 = 0
        var high: UInt64 = 0
        for i in 0..<min(count, 8) { low |= UInt64(start[i]) << (8 * i) }
        for i in 8..<max(count, 8) { high |= UInt64(start[i]) << (8 * (i - 8)) }
        return unsafeBitCast((low, high | flags | UInt64(count) << 56), to: String.self)
    }

    /// The inline string of the `count` (at most 15) ASCII bytes at `start`, read as two whole words: the caller
    /// guarantees that 16 bytes from `start` are readable. Only valid when ``isAvailable``.
    @inline(__always)
    static func make(loading start: UnsafePointer<UInt8>, count: Int) -> String {
        let raw = UnsafeRawPointer(start)
        var low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        var high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        if count < 8 {
            low &= (1 &<< UInt64(8 * count)) &- 1
            high = 0
        } else {
            high &= (1 &<< UInt64(8 * (count - 8))) &- 1
        }
        return unsafeBitCast((low, high | flags | UInt64(count) << 56), to: String.self)
    }

    /// Whether `a` equals `b` when both are inline ASCII strings (their words are then equal exactly when the
    /// strings are); `nil` when either is not, for the caller to compare them as strings.
    @inline(__always)
    @inlinable
    static func equal(_ a: (UInt64, UInt64), _ b: (UInt64, UInt64)) -> Bool? {
        if a == b { return true }
        return isSmallASCII(a) && isSmallASCII(b) ? false : nil
    }
}

/// Short ASCII strings as two words, for tables keyed by names: a string of at most 15 ASCII bytes is kept inline
/// in the two words of a `String`, and two such strings are equal exactly when their words are.
public enum InlineASCII {
    /// The two words of `string` when it is an inline ASCII string and the layout is the one ``SmallASCII``
    /// checks; else `nil` (longer or non-ASCII strings, or another standard library).
    @inlinable
    public static func words(of string: String) -> (UInt64, UInt64)? {
        guard SmallASCII.isAvailable else { return nil }
        let words = SmallASCII.words(of: string)
        return SmallASCII.isSmallASCII(words) ? words : nil
    }
}
