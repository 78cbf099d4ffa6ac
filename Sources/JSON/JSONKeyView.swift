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
    /// A key of a tree's object: the string it holds, measured and read through its UTF-8 where the standard library
    /// keeps it (``UTF8Bytes/with(_:_:)``).
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
        public var utf8Count: Int { string.utf8.count }

        /// The first eight UTF-8 bytes as a little-endian word, zeros after the end.
        @inlinable
        public var utf8Prefix: UInt64 {
            if let (words, _) = UTF8Bytes.short(string) { return words.0 }
            return UTF8Bytes.with(string) { utf8 in
                utf8.baseAddress.map { UTF8Bytes.prefix($0, count: utf8.count) } ?? 0
            }
        }

        /// True when the key's UTF-8 bytes are exactly `bytes`.
        @inlinable
        public func hasUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            UTF8Bytes.with(string) { utf8 in
                guard utf8.count == bytes.count else { return false }
                guard let a = utf8.baseAddress, let b = bytes.baseAddress else { return true }
                return UTF8Bytes.equal(a, b, count: bytes.count)
            }
        }
    }
}
