import JSON

/// A decision's id.
///
/// The daemon's ids are UUIDs written in their canonical form (36 lowercase characters, such as
/// `019ad6f2-3c41-7a05-9f3e-0a1b2c3d4e5f`): such an id is kept as its 128 bits and its characters are written
/// where they go (a reply, a journal entry, the history), with no string made and nothing reference-counted on the
/// way. Any other text (ids given to tests and tools, or read back in another form) is kept as it is.
///
/// Two ids are equal when their texts are: a text in the canonical UUID form is always kept as bits, so each text
/// has one form.
public struct DecisionID: Sendable, Hashable, CustomStringConvertible {
    private enum Form: Sendable, Hashable {
        case uuid(high: UInt64, low: UInt64)
        case text(String)
    }

    private let form: Form

    /// The number of characters of a UUID's canonical form.
    public static let uuidLength = 36

    /// The UUID whose 128 bits are `high` then `low`.
    public init(uuidHigh high: UInt64, low: UInt64) {
        form = .uuid(high: high, low: low)
    }

    /// The id `text`: kept as bits when it is a UUID in canonical form (lowercase), as text otherwise.
    public init(_ text: String) {
        if let (high, low) = Self.uuidBits(text) {
            form = .uuid(high: high, low: low)
        } else {
            form = .text(text)
        }
    }

    /// True when the id is a UUID (its text: lowercase hexadecimal digits and `-`).
    public var isUUID: Bool {
        if case .uuid = form { return true }
        return false
    }

    /// The id's text.
    public var description: String {
        switch form {
        case .text(let text):
            return text
        case .uuid(let high, let low):
            return String(unsafeUninitializedCapacity: Self.uuidLength) { bytes in
                guard let base = bytes.baseAddress else { return 0 }
                Self.writeUUID(high, low, into: base)
                return Self.uuidLength
            }
        }
    }

    /// Appends the id's text, as it is (a UUID needs no JSON escaping; a text id is escaped by
    /// ``writeJSONString(into:)``).
    public func write(into out: inout ByteWriter) {
        switch form {
        case .text(let text):
            out.append(utf8: text)
        case .uuid(let high, let low):
            out.append(count: Self.uuidLength) { Self.writeUUID(high, low, into: $0) }
        }
    }

    /// Appends the id as a JSON string.
    public func writeJSONString(into out: inout ByteWriter) {
        switch form {
        case .text(let text):
            JSON.writeString(text, into: &out)
        case .uuid(let high, let low):
            out.append(count: Self.uuidLength + 2) { start in
                start.pointee = UInt8(ascii: "\"")
                Self.writeUUID(high, low, into: start + 1)
                start[Self.uuidLength + 1] = UInt8(ascii: "\"")
            }
        }
    }

    // MARK: the canonical form

    /// "00" to "ff": the two lowercase hex digits of each byte value, as the byte pair in memory order.
    private static let hexPairs: [UInt16] = (0..<256).map { value in
        let digits = Array("0123456789abcdef".utf8)
        return UInt16(digits[value >> 4]) | UInt16(digits[value & 0xF]) << 8
    }

    /// Writes the 36 characters of the UUID `high`, `low` (8-4-4-4-12 hex digits) from `start`.
    private static func writeUUID(_ high: UInt64, _ low: UInt64, into start: UnsafeMutablePointer<UInt8>) {
        writeHex(high, into: start, dashesAt: (8, 13))
        start[18] = UInt8(ascii: "-")
        writeHex(low, into: start + 19, dashesAt: (4, 4))
    }

    /// Writes the 16 hex digits of `word`, most significant first, from `start`, with a `-` where the output reaches
    /// the offsets `dashesAt` (counted from `start`, dashes included; equal offsets mean one dash).
    @inline(__always)
    private static func writeHex(
        _ word: UInt64, into start: UnsafeMutablePointer<UInt8>, dashesAt: (Int, Int)
    ) {
        hexPairs.withUnsafeBufferPointer { pairs in
            var out = start
            for i in 0..<8 {
                let offset = out - start
                if offset == dashesAt.0 || offset == dashesAt.1 {
                    out.pointee = UInt8(ascii: "-")
                    out += 1
                }
                let pair = pairs[Int(truncatingIfNeeded: word >> UInt64(56 - 8 * i)) & 0xFF]
                UnsafeMutableRawPointer(out).storeBytes(of: pair.littleEndian, as: UInt16.self)
                out += 2
            }
        }
    }

    /// The bits of `text` when it is a UUID in canonical form: 32 lowercase hex digits with dashes after the 8th,
    /// 12th, 16th and 20th.
    private static func uuidBits(_ text: String) -> (UInt64, UInt64)? {
        var text = text
        return text.withUTF8 { bytes -> (UInt64, UInt64)? in
            guard bytes.count == uuidLength else { return nil }
            var words: (UInt64, UInt64) = (0, 0)
            var digits = 0
            for (i, byte) in bytes.enumerated() {
                if i == 8 || i == 13 || i == 18 || i == 23 {
                    guard byte == UInt8(ascii: "-") else { return nil }
                    continue
                }
                let value: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
                default: return nil
                }
                if digits < 16 {
                    words.0 = words.0 << 4 | UInt64(value)
                } else {
                    words.1 = words.1 << 4 | UInt64(value)
                }
                digits += 1
            }
            return words
        }
    }
}
