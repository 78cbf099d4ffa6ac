/// A member's key as a reader meets it: its UTF-8 bytes, measured and compared where they lie, and a `String` only
/// when one is asked for.
///
/// A tape's keys (``JSONTape/MemberKey``) are bytes of the document, and their length and first eight bytes are already on
/// the tape; a tree's keys (``JSONObject/MemberKey``) are the strings it holds. A lookup written against this protocol
/// (length, then first word, then the remaining bytes) reads either without building or hashing a string.
public protocol JSONKeyView {
    /// The number of UTF-8 bytes of the key.
    var utf8Count: Int { get }
    /// The first eight UTF-8 bytes of the key as a little-endian word, zeros after its end: with ``utf8Count``, enough
    /// to tell keys of up to eight bytes apart and most longer ones.
    var utf8Prefix: UInt64 { get }
    /// True when the key's UTF-8 bytes are exactly `bytes`.
    func hasUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool
    /// The key as a string (built for a tape's key).
    var string: String { get }
}

extension JSONObject {
    /// A key of a tree's object: the string it holds, measured through its UTF-8 view. Short ASCII keys (nearly
    /// all) answer their length and first word from the string's inline form (see ``SmallASCII``).
    public struct MemberKey: JSONKeyView, Sendable {
        /// The key.
        public let string: String

        /// The key `string`.
        @inlinable
        public init(_ string: String) {
            self.string = string
        }

        /// The number of UTF-8 bytes of the key.
        @inlinable
        public var utf8Count: Int {
            let words = SmallASCII.words(of: string)
            if SmallASCII.isAvailable, SmallASCII.isSmallASCII(words) {
                return Int(truncatingIfNeeded: (words.1 >> 56) & 0x0F)
            }
            return string.utf8.count
        }

        /// The first eight UTF-8 bytes as a little-endian word, zeros after the end.
        @inlinable
        public var utf8Prefix: UInt64 {
            let words = SmallASCII.words(of: string)
            // An inline string keeps its bytes in memory order with zeros after its end: the first word is the prefix.
            if SmallASCII.isAvailable, SmallASCII.isSmallASCII(words) { return words.0 }
            if let word = string.utf8.withContiguousStorageIfAvailable({ utf8 in
                utf8.baseAddress.map { MemberKey.word($0, count: Swift.min(utf8.count, 8)) } ?? 0
            }) {
                return word
            }
            var word: UInt64 = 0
            var shift: UInt64 = 0
            for b in string.utf8 {
                guard shift < 64 else { break }
                word |= UInt64(b) &<< shift
                shift &+= 8
            }
            return word
        }

        /// True when the key's UTF-8 bytes are exactly `bytes`.
        @inlinable
        public func hasUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let words = SmallASCII.words(of: string)
            if SmallASCII.isAvailable, SmallASCII.isSmallASCII(words) {
                // The inline form's two words beside the same bytes read from `bytes`.
                let count = Int(truncatingIfNeeded: (words.1 >> 56) & 0x0F)
                guard bytes.count == count, let base = bytes.baseAddress else { return bytes.count == count }
                guard MemberKey.word(base, count: Swift.min(count, 8)) == words.0 else { return false }
                return count <= 8 || MemberKey.word(base + 8, count: count - 8) == words.1 & 0x00FF_FFFF_FFFF_FFFF
            }
            let same = string.utf8.withContiguousStorageIfAvailable { utf8 in
                guard utf8.count == bytes.count else { return false }
                guard let a = utf8.baseAddress, let b = bytes.baseAddress else { return true }
                return JSONTape.equal(a, b, count: bytes.count)
            }
            return same ?? string.utf8.elementsEqual(bytes)
        }

        /// The `count` (at most eight) bytes at `start` as a little-endian word, zeros after them.
        @inlinable @inline(__always)
        static func word(_ start: UnsafePointer<UInt8>, count: Int) -> UInt64 {
            var word: UInt64 = 0
            for i in 0..<count { word |= UInt64(start[i]) &<< UInt64(8 &* i) }
            return word
        }
    }
}
