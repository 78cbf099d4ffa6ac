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

    /// True when `bytes` are printable ASCII without a backslash.
    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in bytes where b &- 0x20 >= 0x5F || b == 0x5C { return false }
        return true
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

    /// The caller's fields that may be sent: valid names, not reserved.
    var acceptedFields: [(String, String)] {
        fieldNamesKnownValid || fields.allSatisfy({ Self.isAccepted($0.0) })
            ? fields : fields.filter { Self.isAccepted($0.0) }
    }

    /// How many of the caller's fields are left out.
    var invalidFieldCount: Int {
        fieldNamesKnownValid ? 0 : fields.reduce(0) { $0 + (Self.isAccepted($1.0) ? 0 : 1) }
    }

    /// The `NAME=value` fields for journald's native protocol, values escaped.
    func journalFields(identifier: String) -> [String] {
        var out = [
            "MESSAGE=" + Journal.escape(message) + lines.map { "\n" + Journal.escape($0) }.joined(),
            "MESSAGE_ID=" + event.messageID,
            "PRIORITY=\(priority.rawValue)",
            "SYSLOG_IDENTIFIER=" + identifier,
        ]
        for (name, value) in acceptedFields { out.append(name + "=" + Journal.escape(value)) }
        return out
    }

    /// One console line, newline-terminated: `notifyd[pid]: message key=value …`.
    func consoleLine(identifier: String, pid: Int32) -> String {
        var bytes = ByteWriter(capacity: 256)
        writeConsoleLine(identifier: identifier, pid: pid, into: &bytes)
        return bytes.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends ``consoleLine(identifier:pid:)`` as UTF-8, built on bytes: printable ASCII values (nearly all)
    /// are copied as they are.
    func writeConsoleLine(identifier: String, pid: Int32, into out: inout ByteWriter) {
        out.append(utf8: identifier)
        out.append(UInt8(ascii: "["))
        JSON.writeInt(Int(pid), into: &out)
        out.append("]: ")
        Self.writeEscaped(message, into: &out)
        // A multi-line entry's lines say what its reason field would repeat on one line.
        for (name, value) in fields
        where (fieldNamesKnownValid || Self.isAccepted(name)) && (lines.isEmpty || name != JournalField.reason) {
            out.append(UInt8(ascii: " "))
            var name = name
            name.withUTF8 { key in
                // `NOTIFYD_` is left out and the rest lowercased: `decision_id=…`.
                let prefix: StaticString = "NOTIFYD_"
                var skip = 0
                if let base = key.baseAddress, key.count > prefix.utf8CodeUnitCount,
                    memcmp(base, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
                {
                    skip = prefix.utf8CodeUnitCount
                }
                for byte in key[skip...] { out.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) }
            }
            out.append(UInt8(ascii: "="))
            Self.writeConsoleValue(value, into: &out)
        }
        out.append(UInt8(ascii: "\n"))
        for line in lines {
            out.append(utf8: identifier)
            out.append(UInt8(ascii: "["))
            JSON.writeInt(Int(pid), into: &out)
            out.append("]:   ")
            Self.writeEscaped(line, into: &out)
            out.append(UInt8(ascii: "\n"))
        }
    }

    /// Appends ``Journal/escape(_:)`` of `text`; printable ASCII (nearly every message) is copied as it is.
    private static func writeEscaped(_ text: String, into out: inout ByteWriter) {
        var text = text
        let plain = text.withUTF8 { bytes in
            guard Journal.isPlain(bytes) else { return false }
            out.append(bytes)
            return true
        }
        if !plain { out.append(utf8: Journal.escape(text)) }
    }

    /// Appends a field's value escaped, in double quotes (a quote inside preceded by a backslash) when it is empty or
    /// holds a space, a quote or `=`. Escaping adds none of those, so the escaped value has them exactly where the
    /// raw one does; a printable ASCII value is checked and copied in one pass.
    static func writeConsoleValue(_ value: String, into out: inout ByteWriter) {
        var value = value
        let plainUnquoted = value.withUTF8 { bytes in
            guard !bytes.isEmpty else { return false }
            for b in bytes where b &- 0x21 >= 0x5E || b == 0x5C || b == 0x22 || b == 0x3D { return false }
            out.append(bytes)
            return true
        }
        guard !plainUnquoted else { return }
        var escaped = Journal.escape(value)
        escaped.withUTF8 { bytes in
            let quoted = bytes.isEmpty || bytes.contains { $0 == 0x20 || $0 == 0x22 || $0 == 0x3D }
            guard quoted else {
                out.append(bytes)
                return
            }
            out.append(UInt8(ascii: "\""))
            for byte in bytes {
                if byte == UInt8(ascii: "\"") { out.append(UInt8(ascii: "\\")) }
                out.append(byte)
            }
            out.append(UInt8(ascii: "\""))
        }
    }
}
