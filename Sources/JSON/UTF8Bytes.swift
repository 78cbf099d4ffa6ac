/// A string's UTF-8 read where the standard library keeps it, and short runs of bytes read as words: how the
/// writers copy strings and the name tables and key lookups compare them, without building or hashing a `String`.
///
/// Only public interfaces of `String` are used: a native string lends its own buffer, a short one (up to 15 bytes,
/// kept inside the string's two words) is copied to the stack by the standard library and lent from there.
public enum UTF8Bytes {
    /// Calls `body` with the UTF-8 of `text` as one contiguous buffer: the string's own bytes when the standard
    /// library lends them (native and short strings), else a contiguous copy.
    @inlinable @inline(__always)
    public static func with<Result>(
        _ text: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        if let result = try text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = text
        return try copy.withUTF8(body)
    }

    /// The UTF-8 of `text` as two little-endian words (zeros after its end) and its length, when it has at most 16
    /// bytes; else `nil`. What the writers copy with two stores and the name tables compare as words: the function
    /// that reads the bytes is small enough to be inlined where the standard library lends them.
    @inlinable @inline(__always)
    public static func short(_ text: String) -> (words: (UInt64, UInt64), count: Int)? {
        if let short = text.utf8.withContiguousStorageIfAvailable(shortWords) { return short }
        return with(text, shortWords)
    }

    /// The words and length of `utf8` when it has at most 16 bytes (see ``short(_:)``); else `nil`.
    @inlinable @inline(__always)
    static func shortWords(_ utf8: UnsafeBufferPointer<UInt8>) -> (words: (UInt64, UInt64), count: Int)? {
        guard utf8.count <= 16 else { return nil }
        guard let base = utf8.baseAddress else { return ((0, 0), 0) }
        return (words(base, count: utf8.count), utf8.count)
    }

    /// The first eight of the `count` bytes at `start` (all of them when fewer) as a little-endian word, zeros
    /// after them. No byte past the `count` is read: four to seven bytes are two loads that overlap.
    @inlinable @inline(__always)
    public static func prefix(_ start: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        let raw = UnsafeRawPointer(start)
        if count >= 8 { return UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) }
        if count >= 4 {
            let first = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            let last = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
            return first | last &<< UInt64(8 &* (count &- 4))
        }
        var word: UInt64 = 0
        var i = 0
        while i < count {
            word |= UInt64(start[i]) &<< UInt64(8 &* i)
            i &+= 1
        }
        return word
    }

    /// The `count` (at most 16) bytes at `start` as two little-endian words, zeros after them; no byte past them
    /// is read (nine to sixteen bytes are two loads that overlap, the second shifted down).
    @inlinable @inline(__always)
    public static func words(_ start: UnsafePointer<UInt8>, count: Int) -> (UInt64, UInt64) {
        guard count > 8 else { return (prefix(start, count: count), 0) }
        let raw = UnsafeRawPointer(start)
        let last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
        return (UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)), last &>> UInt64(8 &* (16 &- count)))
    }

    /// True when the `count` bytes at `a` and at `b` are the same: eight bytes at a time, the last eight (or four)
    /// read where they end, overlapping bytes already compared; under four, byte by byte.
    @inlinable @inline(__always)
    public static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        let x = UnsafeRawPointer(a)
        let y = UnsafeRawPointer(b)
        if count >= 8 {
            var i = 0
            while i &+ 8 < count {
                if x.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    != y.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                {
                    return false
                }
                i &+= 8
            }
            return x.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
                == y.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        }
        if count >= 4 {
            return x.loadUnaligned(as: UInt32.self) == y.loadUnaligned(as: UInt32.self)
                && x.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
                    == y.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
        }
        var i = 0
        while i < count {
            if a[i] != b[i] { return false }
            i &+= 1
        }
        return true
    }
}
