import CPlainBytes
import Glibc

/// Bytes appended at the end of one growing buffer: what the JSON writers write into.
///
/// An `[UInt8]` checks uniqueness and capacity and goes through a generic copy on every append, which cost more than
/// the text itself in the profile of the daemon's hot path (a decision is ≈ 60 appends). This buffer is owned by
/// one writer (`~Copyable`), so an append is a capacity check and a store or a `memcpy`, inlined into the caller.
public struct ByteWriter: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var used: Int

    /// The number of bytes written.
    public var count: Int { used }

    /// An empty writer with room for `capacity` bytes before it grows.
    public init(capacity: Int = 256) {
        self.capacity = Swift.max(capacity, 16)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
        used = 0
    }

    deinit { base.deallocate() }

    /// Appends one byte.
    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        if used == capacity { grow(toHold: 1) }
        base[used] = byte
        used &+= 1
    }

    /// Appends `length` bytes from `source`.
    ///
    /// Four to sixteen bytes (a name, a member's key, most literals) are copied as two words that may overlap,
    /// read and written within the `length` bytes: a call to `memcpy` cost more than the copy.
    @inlinable @inline(__always)
    public mutating func append(_ source: UnsafeRawPointer, count length: Int) {
        if capacity &- used < length { grow(toHold: length) }
        let target = UnsafeMutableRawPointer(base + used)
        if length >= 8 && length <= 16 {
            let first = source.loadUnaligned(as: UInt64.self)
            let last = source.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
            target.storeBytes(of: first, as: UInt64.self)
            target.storeBytes(of: last, toByteOffset: length &- 8, as: UInt64.self)
        } else if length >= 4 && length < 8 {
            let first = source.loadUnaligned(as: UInt32.self)
            let last = source.loadUnaligned(fromByteOffset: length &- 4, as: UInt32.self)
            target.storeBytes(of: first, as: UInt32.self)
            target.storeBytes(of: last, toByteOffset: length &- 4, as: UInt32.self)
        } else {
            memcpy(target, source, length)
        }
        used &+= length
    }

    /// Appends the bytes of `buffer`.
    @inlinable @inline(__always)
    public mutating func append(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let source = buffer.baseAddress else { return }
        append(source, count: buffer.count)
    }

    /// Appends literal text (punctuation, `null`, member names) without looking at it.
    @inlinable @inline(__always)
    public mutating func append(_ text: StaticString) {
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Appends the bytes of `bytes`.
    @inlinable
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends the UTF-8 of `text` as it is (no escaping): a string of up to 16 bytes, as most names and values
    /// are, with two stores of its words (``UTF8Bytes/short(_:)``); others from where the string keeps them.
    @inlinable
    public mutating func append(utf8 text: String) {
        if let (words, count) = UTF8Bytes.short(text) {
            appendWords(words, count: count)
        } else {
            UTF8Bytes.with(text) { append($0) }
        }
    }

    /// Appends `text` when it has at most 16 UTF-8 bytes and none of them is a quote, a backslash, a control
    /// character or DEL, the bytes a Swift string literal escapes; false, with nothing appended, otherwise.
    public mutating func appendIfPlain(_ text: String) -> Bool {
        guard let (words, count) = UTF8Bytes.short(text) else { return false }
        return appendIfPlain(words, count: count, orDelete: true)
    }

    /// Appends the `count` bytes of `words` (see ``UTF8Bytes/short(_:)``) when none is a quote, a backslash or a
    /// control character, or, with `orDelete`, DEL; false, with nothing appended, otherwise. Sixteen bytes are
    /// judged at once (C, SSE2) and written with two stores: the short names and values that most strings are need
    /// no byte loop.
    @inline(__always)
    mutating func appendIfPlain(_ words: (UInt64, UInt64), count: Int, orDelete: Bool) -> Bool {
        guard notifyd_special_words(words.0, words.1, count, orDelete ? 1 : 0) == 0 else { return false }
        appendWords(words, count: count)
        return true
    }

    /// Appends the first `count` (at most 16) bytes of two little-endian words with two stores.
    @usableFromInline @inline(__always)
    mutating func appendWords(_ words: (UInt64, UInt64), count: Int) {
        if capacity &- used < 16 { grow(toHold: 16) }
        let target = UnsafeMutableRawPointer(base + used)
        target.storeBytes(of: words.0.littleEndian, as: UInt64.self)
        target.storeBytes(of: words.1.littleEndian, toByteOffset: 8, as: UInt64.self)
        used &+= count
    }

    /// Appends `count` bytes that `fill` writes from the pointer it is given (it must write all of them).
    @inlinable @inline(__always)
    public mutating func append(count: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Void) {
        if capacity &- used < count { grow(toHold: count) }
        fill(base + used)
        used &+= count
    }

    /// Appends again the bytes already written at `range` (a text written twice is copied the second time).
    @inlinable @inline(__always)
    public mutating func appendCopy(of range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= used, "copying beyond the written bytes")
        let length = range.count
        if capacity &- used < length { grow(toHold: length) }
        // After growing: the bytes are read from where they are now. The copy ends before the end it writes at.
        append(UnsafeRawPointer(base + range.lowerBound), count: length)
    }

    /// Appends `byte` `repetitions` times.
    public mutating func append(repeating byte: UInt8, count repetitions: Int) {
        guard repetitions > 0 else { return }
        if capacity &- used < repetitions { grow(toHold: repetitions) }
        memset(base + used, Int32(byte), repetitions)
        used &+= repetitions
    }

    /// Drops the bytes after the first `newCount` (to undo a partial write).
    public mutating func truncate(to newCount: Int) {
        precondition(newCount >= 0 && newCount <= used, "truncating beyond the written bytes")
        used = newCount
    }

    /// The byte at `offset`, which must be below ``count``.
    public subscript(offset: Int) -> UInt8 {
        precondition(offset >= 0 && offset < used, "reading beyond the written bytes")
        return base[offset]
    }

    /// Calls `body` with the bytes written so far.
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: used))
    }

    /// The bytes written, as an array (the writer's buffer is freed).
    ///
    /// Copied through `Array.init(_:)` of a buffer, which is specialized where it is called;
    /// `init(unsafeUninitializedCapacity:initializingWith:)` allocated through a generic path that cost more than
    /// the copy.
    public consuming func finish() -> [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: used))
    }

    /// Makes room for `additional` more bytes: at least doubles, so appends stay amortized O(1).
    @usableFromInline
    mutating func grow(toHold additional: Int) {
        let newCapacity = Swift.max(capacity &* 2, used &+ additional)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: used)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}

extension Array where Element == UInt8 {
    /// Appends what `write` writes, for code that builds an array off the hot path (a client's call, an error reply).
    public mutating func appendWritten(capacity: Int = 64, _ write: (inout ByteWriter) -> Void) {
        var writer = ByteWriter(capacity: capacity)
        write(&writer)
        writer.withBytes { append(contentsOf: $0) }
    }
}
