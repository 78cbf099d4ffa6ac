// Conversions of link text (UTF-8 bytes) to typed values, agreeing with `ParameterType.convert(_:)`.

/// An `Int` written as an optional sign and decimal digits (at most 19 characters, 20 with `-`), `nil` on overflow.
@inline(__always)
func parseInt(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
    let n = b.count
    guard n > 0, n <= 19 || (n <= 20 && b[0] == UInt8(ascii: "-")) else { return nil }
    var i = 0
    var negative = false
    if b[0] == UInt8(ascii: "-") {
        negative = true
        i = 1
    } else if b[0] == UInt8(ascii: "+") {
        i = 1
    }
    guard i < n else { return nil }
    // Accumulate negatively so Int.min fits.
    var value = 0
    while i < n {
        let d = Int(b[i]) &- 48
        guard d >= 0, d <= 9 else { return nil }
        let (m, o1) = value.multipliedReportingOverflow(by: 10)
        let (s, o2) = m.subtractingReportingOverflow(d)
        guard !o1, !o2 else { return nil }
        value = s
        i += 1
    }
    if negative { return value }
    guard value != .min else { return nil }
    return -value
}

/// `true` or `false`, exactly.
@inline(__always)
func parseBool(_ b: UnsafeBufferPointer<UInt8>) -> Bool? {
    if b.count == 4, b[0] == UInt8(ascii: "t"), b[1] == UInt8(ascii: "r"), b[2] == UInt8(ascii: "u"),
        b[3] == UInt8(ascii: "e")
    {
        return true
    }
    if b.count == 5, b[0] == UInt8(ascii: "f"), b[1] == UInt8(ascii: "a"), b[2] == UInt8(ascii: "l"),
        b[3] == UInt8(ascii: "s"), b[4] == UInt8(ascii: "e")
    {
        return false
    }
    return nil
}

/// A UUID written `8-4-4-4-12` hex digits (either case).
func parseUUID(_ b: UnsafeBufferPointer<UInt8>) -> PageUUID? {
    PageUUID(utf8: b)
}
