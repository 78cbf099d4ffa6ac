/// The lexical rules of varlink names, checked byte by byte.
enum VarlinkNames {
    /// `reverse.domain.Interface.Method`: an interface name, a dot and a member name.
    static func isQualifiedMethod(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { isQualifiedMethod($0) }
    }

    /// True when the UTF-8 `bytes` are a qualified method name; see ``isQualifiedMethod(_:)-(String)``.
    static func isQualifiedMethod(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let dot = lastDot(bytes) else { return false }
        // Rebased: the checks read through a pointer, without a slice's index checks (a tenth fewer instructions).
        return isInterfaceName(UnsafeBufferPointer(rebasing: bytes[..<dot]))
            && isMemberName(UnsafeBufferPointer(rebasing: bytes[(dot + 1)...]))
    }

    /// The offset of the last `.` in `bytes`, which separates a qualified name's interface from its member.
    static func lastDot(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = bytes.count
        while i > 0 {
            i -= 1
            if bytes[i] == UInt8(ascii: ".") { return i }
        }
        return nil
    }

    /// True when `a` and `b` hold the same bytes; compared eight at a time.
    static func bytesEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let pa = a.baseAddress, let pb = b.baseAddress else { return true }
        var i = 0
        while i + 8 <= a.count {
            let wa = UnsafeRawPointer(pa + i).loadUnaligned(as: UInt64.self)
            guard wa == UnsafeRawPointer(pb + i).loadUnaligned(as: UInt64.self) else { return false }
            i += 8
        }
        while i < a.count {
            guard pa[i] == pb[i] else { return false }
            i += 1
        }
        return true
    }

    /// A member (type, method, error) name: `[A-Z][A-Za-z0-9]*`.
    static func isMemberName(_ bytes: some Collection<UInt8>) -> Bool {
        guard let first = bytes.first, isUpper(first) else { return false }
        return bytes.allSatisfy { isAlpha($0) || isDigit($0) }
    }

    /// An interface name: dot-separated segments of letters, digits and inner hyphens, at least
    /// two segments, the first starting with a letter.
    ///
    /// One test per letter or digit, the usual byte; the byte before tells where a dot or a hyphen may go (0 at
    /// the start, which no byte of a name can be).
    static func isInterfaceName(_ bytes: some Collection<UInt8>) -> Bool {
        var previous: UInt8 = 0
        var dots = 0
        for b in bytes {
            if isAlpha(b) {
                previous = b
                continue
            }
            if isDigit(b) {
                guard previous != 0 else { return false }  // the name starts with a letter
                previous = b
                continue
            }
            if b == UInt8(ascii: ".") {
                // A segment is not empty and does not end with a hyphen.
                guard previous != 0, previous != UInt8(ascii: "."), previous != UInt8(ascii: "-") else { return false }
                dots &+= 1
            } else if b == UInt8(ascii: "-") {
                guard previous != 0, previous != UInt8(ascii: ".") else { return false }  // nor starts with one
            } else {
                return false
            }
            previous = b
        }
        return dots > 0 && previous != UInt8(ascii: ".") && previous != UInt8(ascii: "-")
    }

    /// A field, parameter or enum case name: `[A-Za-z](_?[A-Za-z0-9])*`.
    static func isFieldName(_ bytes: some Collection<UInt8>) -> Bool {
        guard let first = bytes.first, isAlpha(first) else { return false }
        var previous = first
        for b in bytes.dropFirst() {
            if b == UInt8(ascii: "_") {
                guard previous != UInt8(ascii: "_") else { return false }
            } else if !(isAlpha(b) || isDigit(b)) {
                return false
            }
            previous = b
        }
        return previous != UInt8(ascii: "_")
    }

    @inline(__always) static func isUpper(_ b: UInt8) -> Bool { b &- UInt8(ascii: "A") < 26 }
    @inline(__always) static func isAlpha(_ b: UInt8) -> Bool { (b | 0x20) &- UInt8(ascii: "a") < 26 }
    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }
}
