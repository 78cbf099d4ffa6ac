/// Percent-decodes UTF-8 bytes; `nil` when an escape is not `%` and two hex digits or the result is not UTF-8.
func percentDecode(_ bytes: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool) -> String? {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(bytes.count, 1)) { out -> String? in
        var n = 0
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, let hi = hexValue(bytes[i + 1]), let lo = hexValue(bytes[i + 2]) else {
                    return nil
                }
                out[n] = hi << 4 | lo
                i += 3
            } else {
                out[n] = plusIsSpace && b == UInt8(ascii: "+") ? UInt8(ascii: " ") : b
                i += 1
            }
            n += 1
        }
        return String(validating: UnsafeBufferPointer(rebasing: out[0..<n]), as: UTF8.self)
    }
}

/// Percent-decodes the UTF-8 bytes of an array slice; see ``percentDecode(_:plusIsSpace:)``.
func percentDecode(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) -> String? {
    bytes.withUnsafeBufferPointer { percentDecode($0, plusIsSpace: plusIsSpace) }
}

@inline(__always)
func hexValue(_ b: UInt8) -> UInt8? {
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return b &- UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return b &- UInt8(ascii: "a") &+ 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return b &- UInt8(ascii: "A") &+ 10
    default: return nil
    }
}

/// Where a value goes in a link, which decides what must be escaped.
enum LinkComponent {
    /// One path segment: `/` and `?` and `#` are escaped.
    case segment
    /// A query key or value: also `&`, `=` and `+` are escaped.
    case query
}

/// Percent-encodes text for a link: unreserved characters and a few safe delimiters stay, everything else
/// (including spaces, `/` in a segment, and non-ASCII bytes) becomes `%XX`.
func percentEncode(_ text: String, for component: LinkComponent) -> String {
    let keep: (UInt8) -> Bool = { b in
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
            UInt8(ascii: "$"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"),
            UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "@"):
            return true
        case UInt8(ascii: "="), UInt8(ascii: "&"), UInt8(ascii: "+"):
            return component == .segment
        default:
            return false
        }
    }
    if text.utf8.allSatisfy(keep) { return text }
    let digits = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count * 3)
    for b in text.utf8 {
        if keep(b) {
            out.append(b)
        } else {
            out.append(UInt8(ascii: "%"))
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
    }
    return String(decoding: out, as: UTF8.self)
}
