import CPlainBytes
import Glibc
import JSON

extension JournalRecord {
    // MARK: writing out

    /// True when the message goes on over continuation lines.
    var hasLines: Bool { !lineStarts.isEmpty }

    /// The message as one text, continuation lines after newlines (escaped).
    var messageText: String {
        bytes.withBytes { String(decoding: $0[Self.messagePrefix.utf8CodeUnitCount..<messageEnd], as: UTF8.self) }
    }

    /// The fields kept, escaped.
    var fieldTexts: [(String, String)] {
        bytes.withBytes { all in
            fields.map {
                (
                    String(decoding: all[$0.name..<($0.value - 1)], as: UTF8.self),
                    String(decoding: all[$0.value..<$0.end], as: UTF8.self)
                )
            }
        }
    }

    /// Appends the console line, newline-terminated: `notifyd[pid]: message key=value …`, then one line per
    /// continuation line of the message (`notifyd[pid]:   line`).
    ///
    /// A key is the field's name without `NOTIFYD_`, lowercased; a value is quoted when it is empty or holds a
    /// space, a quote or `=` (see ``writeConsoleValue(escaped:into:)``). An entry with continuation lines leaves
    /// out its reason field, which they say in full, and so does an entry whose message already holds the reason
    /// (a failure's line says it once).
    func writeConsoleLine(identifier: String, pid: Int32, into out: inout ByteWriter) {
        bytes.withBytes { all in
            Self.writeConsolePrefix(identifier: identifier, pid: pid, into: &out)
            let messageStart = Self.messagePrefix.utf8CodeUnitCount
            let message = UnsafeBufferPointer(
                rebasing: all[messageStart..<(lineStarts.first.map { $0 - 1 } ?? messageEnd)])
            out.append(message)
            for field in fields {
                let name = UnsafeBufferPointer(rebasing: all[field.name..<(field.value - 1)])
                if Self.equals(name, JournalField.reason),
                    hasLines || Self.contains(message, UnsafeBufferPointer(rebasing: all[field.value..<field.end]))
                {
                    continue
                }
                out.append(UInt8(ascii: " "))
                Self.appendConsoleKey(name, into: &out)
                out.append(UInt8(ascii: "="))
                Self.writeConsoleValue(escaped: UnsafeBufferPointer(rebasing: all[field.value..<field.end]), into: &out)
            }
            out.append(UInt8(ascii: "\n"))
            for (i, start) in lineStarts.enumerated() {
                let end = i + 1 < lineStarts.count ? lineStarts[i + 1] - 1 : messageEnd
                Self.writeConsolePrefix(identifier: identifier, pid: pid, into: &out)
                out.append("  ")
                out.append(UnsafeBufferPointer(rebasing: all[start..<end]))
                out.append(UInt8(ascii: "\n"))
            }
        }
    }

    /// A field's console key: its name without `NOTIFYD_`, lowercased.
    static func appendConsoleKey(_ name: UnsafeBufferPointer<UInt8>, into out: inout ByteWriter) {
        let prefix: StaticString = "NOTIFYD_"
        var skip = 0
        if name.count > prefix.utf8CodeUnitCount,
            memcmp(name.baseAddress!, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
        {
            skip = prefix.utf8CodeUnitCount
        }
        appendLowercased(UnsafeBufferPointer(rebasing: name[skip...]), into: &out)
    }

    /// `notifyd[pid]: `
    static func writeConsolePrefix(identifier: String, pid: Int32, into out: inout ByteWriter) {
        out.append(utf8: identifier)
        out.append(UInt8(ascii: "["))
        JSON.writeInt(Int(pid), into: &out)
        out.append("]: ")
    }

    /// True when `needle` (not empty) occurs in `haystack`.
    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count)
        where haystack[start] == needle[0]
            && memcmp(haystack.baseAddress! + start, needle.baseAddress!, needle.count) == 0
        {
            return true
        }
        return false
    }

    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ text: String) -> Bool {
        var text = text
        return text.withUTF8 {
            $0.count == bytes.count && memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        }
    }

    /// Appends an escaped value for the console: in double quotes (a quote inside preceded by a backslash) when it
    /// is empty or holds a space, a quote or `=`, as it is otherwise. Escaping adds none of those, so the escaped
    /// value has them exactly where the raw one does.
    static func writeConsoleValue(escaped bytes: UnsafeBufferPointer<UInt8>, into out: inout ByteWriter) {
        guard bytes.isEmpty || needsConsoleQuotes(bytes) else {
            out.append(bytes)
            return
        }
        out.append(UInt8(ascii: "\""))
        var from = 0
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "\"") {
            out.append(UnsafeBufferPointer(rebasing: bytes[from..<i]))
            out.append(UInt8(ascii: "\\"))
            from = i
        }
        out.append(UnsafeBufferPointer(rebasing: bytes[from...]))
        out.append(UInt8(ascii: "\""))
    }

    /// True when `bytes` hold a space, a quote or `=`: looked for eight bytes at a time.
    static func needsConsoleQuotes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var i = 0
        while i &+ 8 <= bytes.count {
            if quoteBytes(UnsafeRawPointer(base).loadUnaligned(fromByteOffset: i, as: UInt64.self)) != 0 { return true }
            i &+= 8
        }
        while i < bytes.count {
            let b = base[i]
            if b == 0x20 || b == 0x22 || b == 0x3D { return true }
            i &+= 1
        }
        return false
    }

    /// Whether `bytes` are plain (printable ASCII without a backslash: ``Journal/isPlain(_:)``) and whether they hold
    /// a space, a quote or `=` (``needsConsoleQuotes(_:)``): both found in one pass, sixteen bytes at a time (a
    /// shorter value padded to sixteen).
    static func consoleValueNeeds(_ bytes: UnsafeBufferPointer<UInt8>) -> (plain: Bool, quoted: Bool) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return (true, false) }
        let raw = UnsafeRawPointer(base)
        if bytes.count < 16 {
            // The bytes in sixteen padded with "a", which is plain and needs no quotes: one look.
            var padded: (UInt64, UInt64) = (0x6161_6161_6161_6161, 0x6161_6161_6161_6161)
            return withUnsafeMutableBytes(of: &padded) { padded in
                padded.baseAddress!.copyMemory(from: raw, byteCount: bytes.count)
                var found: UInt32 = 0
                let marks = notifyd_console16(padded.baseAddress!.assumingMemoryBound(to: UInt8.self), &found)
                return (marks == 0, found != 0)
            }
        }
        // Sixteen bytes at a time (``notifyd_console16``), the last sixteen read again in part.
        var marks: UInt32 = 0
        var quoteMarks: UInt32 = 0
        var i = 0
        while true {
            var found: UInt32 = 0
            marks |= notifyd_console16(base + i, &found)
            quoteMarks |= found
            if i &+ 16 == bytes.count { break }
            i = i &+ 32 <= bytes.count ? i &+ 16 : bytes.count &- 16
        }
        return (marks == 0, quoteMarks != 0)
    }

    /// Nonzero when `word` holds a space, a quote or `=`: a word holds a zero byte exactly when (x - 1) & ~x has a
    /// high bit set, whatever its other bytes.
    @inline(__always)
    private static func quoteBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & high }
        return zeroBytes(word ^ (0x20 &* ones)) | zeroBytes(word ^ (0x22 &* ones)) | zeroBytes(word ^ (0x3D &* ones))
    }

    /// Appends `name` (ASCII: a field name) with its capital letters lowercased, eight bytes at a time.
    static func appendLowercased(_ name: UnsafeBufferPointer<UInt8>, into out: inout ByteWriter) {
        guard let base = name.baseAddress else { return }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        var i = 0
        while i &+ 8 <= name.count {
            let w = UnsafeRawPointer(base).loadUnaligned(fromByteOffset: i, as: UInt64.self)
            guard w & high == 0 else { break }  // not ASCII: the byte loop takes the rest
            // With every byte below 0x80 no sum carries into the next byte: a byte from 0x41 ("A") to 0x5A ("Z")
            // reaches 0x80 when 0x3F is added, and stays below it when 0x25 is.
            let capital = (w &+ 0x3F &* ones) & ~(w &+ 0x25 &* ones) & high
            let lowered = w | (capital >> 2)  // 0x80 >> 2 is 0x20, a capital's lowercase bit
            out.append(count: 8) { UnsafeMutableRawPointer($0).storeBytes(of: lowered, as: UInt64.self) }
            i &+= 8
        }
        while i < name.count {
            let byte = base[i]
            out.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
            i &+= 1
        }
    }
}
