/// The one UTF-8 check of the Swift code: well-formed UTF-8 as RFC 3629 defines it (no overlong forms, no
/// surrogates, nothing past U+10FFFF). The JSON tape's Swift reader names the first bad sequence in its error; the
/// link reader refuses a percent-escape that decodes to one. The tape's C reader keeps a copy of these rules in C,
/// and the fuzz target `tape` holds the two to the same answers.
public enum UTF8Validation {
    /// What is wrong at the first bad sequence.
    public enum Problem: Sendable, Equatable {
        /// A byte that cannot start a sequence (a continuation byte, 0xC0, 0xC1, or 0xF5 and above).
        case invalidByte
        /// A sequence cut short by the end of the bytes.
        case truncated
        /// A lead byte whose continuation bytes are out of range (an overlong form, a surrogate, past U+10FFFF).
        case invalidSequence
    }

    /// The offset and kind of the first bad sequence in `bytes[start..<end]`, or `nil` when they are well-formed.
    public static func firstProblem(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int
    ) -> (offset: Int, problem: Problem)? {
        var i = start
        while i < end {
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return (i, .invalidByte)
            }
            guard i + length <= end else { return (i, .truncated) }
            var valid = bytes[i + 1] >= low && bytes[i + 1] <= high
            for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { valid = false }
            if !valid { return (i, .invalidSequence) }
            i += length
        }
        return nil
    }

    /// True when all of `bytes` are well-formed UTF-8.
    public static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        firstProblem(in: bytes, from: 0, to: bytes.count) == nil
    }
}
