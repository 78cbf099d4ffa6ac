/// A UUID argument of a page: 128 bits, read from `8-4-4-4-12` hexadecimal digits (either case) and written in
/// uppercase, as Foundation's `UUID` reads and writes it.
///
/// DeepLink's own, so that the daemon, which links DeepLink, links no Foundation (≈ 45 MB of its static binary, with
/// its ICU data).
public struct PageUUID: Hashable, Sendable, CustomStringConvertible {
    /// The first eight bytes, the first byte highest.
    public let high: UInt64
    /// The last eight bytes.
    public let low: UInt64

    /// The UUID of these bits.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The UUID `text` spells (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, either case); `nil` for any other text.
    public init?(uuidString text: String) {
        var text = text
        guard let parsed = text.withUTF8({ parseUUID($0) }) else { return nil }
        self = parsed
    }

    /// The text: 36 characters, uppercase hexadecimal digits and `-` after the 8th, 12th, 16th and 20th digit.
    public var uuidString: String {
        String(unsafeUninitializedCapacity: 36) { out in
            var digit = 0
            var i = 0
            while i < 36 {
                if i == 8 || i == 13 || i == 18 || i == 23 {
                    out[i] = UInt8(ascii: "-")
                } else {
                    let word = digit < 16 ? high : low
                    let nibble = UInt8(truncatingIfNeeded: word >> UInt64(60 - 4 * (digit % 16))) & 0xF
                    out[i] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
                    digit += 1
                }
                i += 1
            }
            return 36
        }
    }

    public var description: String { uuidString }
}
