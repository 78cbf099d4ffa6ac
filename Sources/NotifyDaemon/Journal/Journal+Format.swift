import Glibc
import JSON

extension Journal {
    /// Fields the writer sets itself; a caller's field by one of these names is left out.
    static let reservedFieldNames: Set<String> = [
        "MESSAGE", "MESSAGE_ID", "PRIORITY", "CODE_FILE", "CODE_LINE", "CODE_FUNC", "SYSLOG_IDENTIFIER",
    ]

    /// True for a name journald accepts from a client: 1 to 64 characters of `A-Z`, `0-9` and `_`,
    /// starting with a letter (a leading `_` marks fields only journald may set).
    public static func isValidFieldName(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            guard (1...64).contains(bytes.count), isUpper(bytes[0]) else { return false }
            for b in bytes where !(isUpper(b) || isDigit(b) || b == UInt8(ascii: "_")) { return false }
            return true
        }
    }

    /// `text` with every control character escaped so it stays on one line and forges nothing:
    /// `\n`, `\r`, `\t`, `\xHH` for other C0 controls and DEL, `\uHHHH` for C1 controls and the
    /// Unicode line and paragraph separators, and `\\` for a backslash (so the escaping reads back
    /// unambiguously).
    public static func escape(_ text: String) -> String {
        // Printable ASCII without a backslash (nearly every value) needs no look at the scalars.
        if isPlain(text) { return text }
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x00..<0x20, 0x7F: out += "\\x" + hex(scalar.value, digits: 2)
            case 0x80...0x9F, 0x2028, 0x2029: out += "\\u" + hex(scalar.value, digits: 4)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// True when `text` is printable ASCII without a backslash, checked on its contiguous UTF-8.
    static func isPlain(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isPlain($0) }
    }

    /// True when `bytes` are printable ASCII without a backslash; checked eight bytes at a time.
    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i &+ 8 <= bytes.count {
            if !isPlain(word: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { return false }
            i &+= 8
        }
        while i < bytes.count {
            let b = base[i]
            if b &- 0x20 >= 0x5F || b == 0x5C { return false }
            i &+= 1
        }
        return true
    }

    /// True when each of the eight bytes of `word` is printable ASCII other than a backslash: none has its high bit
    /// set, none is below 0x20, none is DEL (0x7F) or 0x5C. With every byte below 0x80, subtracting or adding one
    /// per byte flags exactly the bytes asked about (the usual "has a byte less than" and "has a zero byte" tests).
    @inline(__always)
    static func isPlain(word w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        guard w & high == 0 else { return false }
        let control = (w &- 0x20 &* ones) & ~w & high
        let delete = (w &+ ones) & high
        let backslash = w ^ (0x5C &* ones)
        let hasBackslash = (backslash &- ones) & ~backslash & high
        return control | delete | hasBackslash == 0
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x5C, 0x7F, 0x80...0x9F, 0x2028, 0x2029: return true
        default: return false
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: false)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    private static func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

extension JournalEntry {
    /// True for a field the caller may send: a valid name that notifyd does not set itself.
    static func isAccepted(_ name: String) -> Bool {
        guard Journal.isValidFieldName(name) else { return false }
        // Every reserved name starts with C, M, P or S: the set is consulted only for those.
        switch name.utf8.first {
        case UInt8(ascii: "C"), UInt8(ascii: "M"), UInt8(ascii: "P"), UInt8(ascii: "S"):
            return !Journal.reservedFieldNames.contains(name)
        default:
            return true
        }
    }

    /// Renders an entry's text into `record` (already reset): the message, its lines, then the fields.
    static func render(message: String, lines: [String], fields: [(String, String)], into record: inout JournalRecord) {
        record.message(message)
        for line in lines { record.addLine(line) }
        for (name, value) in fields { record.field(name, value) }
    }

    /// Renders this entry into `record`, emptied first.
    func render(into record: inout JournalRecord) {
        record.reset(event: event, priority: priority, fileID: fileID, line: line, function: function)
        Self.render(message: message, lines: lines, fields: fields, into: &record)
    }

    /// The entry a record holds, its message, lines and values as escaped text.
    init(_ record: borrowing JournalRecord) {
        let text = record.messageText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        self.init(
            event: record.event, priority: record.priority, message: text[0], fields: record.fieldTexts,
            fileID: record.fileID, line: record.line, function: record.function, lines: Array(text.dropFirst()),
            fieldNamesKnownValid: !record.checksNames)
    }

    /// The `NAME=value` fields for journald's native protocol, values escaped (the fields the native sink sends).
    func journalFields(identifier: String) -> [String] {
        var record = JournalRecord()
        render(into: &record)
        return record.journalFields(identifier: identifier)
    }

    /// One console line, newline-terminated: `notifyd[pid]: message key=value …`.
    func consoleLine(identifier: String, pid: Int32) -> String {
        var record = JournalRecord()
        render(into: &record)
        return record.consoleLine(identifier: identifier, pid: pid)
    }

    /// Appends a field's value as the console writes it: ``Journal/escape(_:)``, then
    /// ``JournalRecord/writeConsoleValue(escaped:into:)``.
    static func writeConsoleValue(_ value: String, into out: inout ByteWriter) {
        var escaped = Journal.escape(value)
        escaped.withUTF8 { JournalRecord.writeConsoleValue(escaped: $0, into: &out) }
    }
}

extension JournalRecord {
    /// The fields the native sink sends, as text.
    func journalFields(identifier: String) -> [String] {
        var scratch = ByteWriter()
        return withNativeFields(identifier: identifier, scratch: &scratch) { fields, _, _ in
            fields.map {
                String(decoding: UnsafeRawBufferPointer(start: $0.iov_base, count: $0.iov_len), as: UTF8.self)
            }
        }
    }

    /// The line (or lines) the console sink writes, as text.
    func consoleLine(identifier: String, pid: Int32) -> String {
        var bytes = ByteWriter(capacity: 256)
        writeConsoleLine(identifier: identifier, pid: pid, into: &bytes)
        return bytes.withBytes { String(decoding: $0, as: UTF8.self) }
    }
}
