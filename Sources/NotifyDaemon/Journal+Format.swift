extension Journal {
    /// Fields the writer sets itself; a caller's field by one of these names is left out.
    static let reservedFieldNames: Set<String> = [
        "MESSAGE", "MESSAGE_ID", "PRIORITY", "CODE_FILE", "CODE_LINE", "CODE_FUNC", "SYSLOG_IDENTIFIER",
    ]

    /// True for a name journald accepts from a client: 1 to 64 characters of `A-Z`, `0-9` and `_`,
    /// starting with a letter (a leading `_` marks fields only journald may set).
    public static func isValidFieldName(_ name: String) -> Bool {
        let bytes = name.utf8
        guard (1...64).contains(bytes.count), let first = bytes.first, isUpper(first) else { return false }
        return bytes.allSatisfy { isUpper($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    /// `text` with every control character escaped so it stays on one line and forges nothing:
    /// `\n`, `\r`, `\t`, `\xHH` for other C0 controls and DEL, `\uHHHH` for C1 controls and the
    /// Unicode line and paragraph separators, and `\\` for a backslash (so the escaping reads back
    /// unambiguously).
    public static func escape(_ text: String) -> String {
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

    /// A console value: escaped, and quoted (`"…"`, inner quotes as `\"`) when empty or holding a
    /// space, a quote or `=`, so `key=value` pairs cannot be forged.
    static func consoleValue(_ value: String) -> String {
        let escaped = escape(value)
        guard escaped.isEmpty || escaped.utf8.contains(where: { $0 == 0x20 || $0 == 0x22 || $0 == 0x3D }) else {
            return escaped
        }
        var out = "\""
        for character in escaped.unicodeScalars {
            if character == "\"" { out += "\\\"" } else { out.unicodeScalars.append(character) }
        }
        return out + "\""
    }

    /// The console key for a journal field: lowercase, without the `NOTIFYD_` prefix.
    static func consoleKey(_ name: String) -> String {
        let bare = name.hasPrefix("NOTIFYD_") ? String(name.dropFirst("NOTIFYD_".count)) : name
        return bare.lowercased()
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
    /// The caller's fields that may be sent: valid names, not reserved.
    var acceptedFields: [(String, String)] {
        fields.filter { Journal.isValidFieldName($0.0) && !Journal.reservedFieldNames.contains($0.0) }
    }

    /// How many of the caller's fields are left out.
    var invalidFieldCount: Int { fields.count - acceptedFields.count }

    /// The `NAME=value` fields for journald's native protocol, values escaped.
    func journalFields(identifier: String) -> [String] {
        var out = [
            "MESSAGE=" + Journal.escape(message),
            "MESSAGE_ID=" + event.messageID,
            "PRIORITY=\(priority.rawValue)",
            "SYSLOG_IDENTIFIER=" + identifier,
        ]
        for (name, value) in acceptedFields { out.append(name + "=" + Journal.escape(value)) }
        return out
    }

    /// One console line, newline-terminated: `notifyd[pid]: message key=value …`.
    func consoleLine(identifier: String, pid: Int32) -> String {
        var line = "\(identifier)[\(pid)]: " + Journal.escape(message)
        for (name, value) in acceptedFields {
            line += " " + Journal.consoleKey(name) + "=" + Journal.consoleValue(value)
        }
        return line + "\n"
    }
}
