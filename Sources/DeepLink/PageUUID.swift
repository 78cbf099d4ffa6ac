/// A UUID argument of a page: 128 bits, read from `8-4-4-4-12` hexadecimal digits (either case) and written in
/// uppercase, as Foundation's `UUID` reads and writes it.
///
/// DeepLink's own, so that the daemon, which links DeepLink, links no Foundation (≈ 45 MB of its static binary, with
/// its ICU data). Its reader and writer of UUID text serve the daemon's decision ids too, in lowercase.
public struct PageUUID: Hashable, Sendable, CustomStringConvertible {
    /// The first eight bytes, the first byte highest.
    public let high: UInt64
    /// The last eight bytes.
    public let low: UInt64

    /// The number of characters of a UUID's text.
    public static let textLength = 36

    /// The UUID of these bits.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The UUID `text` spells (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, either case); `nil` for any other text.
    public init?(uuidString text: String) {
        var text = text
        guard let parsed = text.withUTF8({ PageUUID(utf8: $0) }) else { return nil }
        self = parsed
    }

    /// The UUID the UTF-8 `bytes` spell: 32 hex digits with a `-` after the 8th, 12th, 16th and 20th, of either case
    /// or, with `lowercaseOnly`, lowercase (the canonical text); `nil` for any other bytes.
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>, lowercaseOnly: Bool = false) {
        guard bytes.count == Self.textLength, bytes[8] == UInt8(ascii: "-"), bytes[13] == UInt8(ascii: "-"),
            bytes[18] == UInt8(ascii: "-"), bytes[23] == UInt8(ascii: "-")
        else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        var digits = 0
        for i in 0..<Self.textLength where i != 8 && i != 13 && i != 18 && i != 23 {
            guard let value = hexValue(bytes[i]) else { return nil }
            if lowercaseOnly, (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(bytes[i]) { return nil }
            if digits < 16 {
                words.0 = words.0 << 4 | UInt64(value)
            } else {
                words.1 = words.1 << 4 | UInt64(value)
            }
            digits += 1
        }
        self.init(high: words.0, low: words.1)
    }

    /// The text: 36 characters, uppercase hexadecimal digits and `-` after the 8th, 12th, 16th and 20th digit.
    public var uuidString: String {
        String(unsafeUninitializedCapacity: Self.textLength) { out in
            write(into: out.baseAddress!, uppercase: true)
            return Self.textLength
        }
    }

    public var description: String { uuidString }

    /// Writes the 36 characters of the text from `start`, its digits in uppercase or lowercase.
    @inline(__always)
    public func write(into start: UnsafeMutablePointer<UInt8>, uppercase: Bool) {
        // The table borrowed where it is (bound to a variable, the array would be retained and released).
        if uppercase {
            Self.upperPairs.withUnsafeBufferPointer { write(into: start, pairs: $0) }
        } else {
            Self.lowerPairs.withUnsafeBufferPointer { write(into: start, pairs: $0) }
        }
    }

    @inline(__always)
    private func write(into start: UnsafeMutablePointer<UInt8>, pairs: UnsafeBufferPointer<UInt16>) {
        Self.writeHex(high, pairs: pairs, into: start, dashesAt: (8, 13))
        start[18] = UInt8(ascii: "-")
        Self.writeHex(low, pairs: pairs, into: start + 19, dashesAt: (4, 4))
    }

    /// Each byte's two hex digits, as they lie in memory (the high digit first).
    private static let lowerPairs = hexPairs("0123456789abcdef")
    private static let upperPairs = hexPairs("0123456789ABCDEF")

    private static func hexPairs(_ alphabet: StaticString) -> [UInt16] {
        let digits = alphabet.withUTF8Buffer { Array($0) }
        return (0..<256).map { UInt16(digits[$0 >> 4]) | UInt16(digits[$0 & 0xF]) << 8 }
    }

    /// Writes the 16 hex digits of `word`, most significant first, from `start`, with a `-` where the output reaches
    /// the offsets `dashesAt` (counted from `start`, dashes included; equal offsets mean one dash).
    @inline(__always)
    private static func writeHex(
        _ word: UInt64, pairs: UnsafeBufferPointer<UInt16>, into start: UnsafeMutablePointer<UInt8>,
        dashesAt: (Int, Int)
    ) {
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
