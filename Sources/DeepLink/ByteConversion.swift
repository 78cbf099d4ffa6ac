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

/// A `Double` from link text: an optional sign, decimal digits, optionally a `.` and more digits, optionally an
/// exponent (`e` or `E`, an optional sign, digits); at most 64 characters and finite. `nan`, `inf`, hexadecimal,
/// `.5` and `5.` are not numbers here.
func parseDouble(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
    guard isDecimalNumber(b), let d = Double(String(decoding: b, as: UTF8.self)), d.isFinite else { return nil }
    return d
}

/// True for `[+-]digits[.digits][(e|E)[+-]digits]`, at most 64 bytes: the decimal numbers of query strings and JSON,
/// without the spellings `Double(_:)` also reads (`nan`, `inf`, `0x1p3`).
func isDecimalNumber(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard !b.isEmpty, b.count <= 64 else { return false }
    var i = 0
    if b[0] == UInt8(ascii: "-") || b[0] == UInt8(ascii: "+") { i = 1 }
    func digits() -> Bool {
        let start = i
        while i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") { i += 1 }
        return i > start
    }
    guard digits() else { return false }
    if i < b.count, b[i] == UInt8(ascii: ".") {
        i += 1
        guard digits() else { return false }
    }
    if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
        i += 1
        if i < b.count, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { i += 1 }
        guard digits() else { return false }
    }
    return i == b.count
}

/// `true` or `false`, exactly, or `1` or `0`, as query strings write Booleans.
@inline(__always)
func parseBool(_ b: UnsafeBufferPointer<UInt8>) -> Bool? {
    if b.count == 1 {
        return b[0] == UInt8(ascii: "1") ? true : b[0] == UInt8(ascii: "0") ? false : nil
    }
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
