import CPlainBytes
import Glibc
import JSON

/// One entry's text as the sinks write it, built on the journal's writer thread in one buffer that it reuses from
/// entry to entry: `MESSAGE=` and the message, each continuation line after a newline, then each field as
/// `NAME=value`, one after another.
///
/// Everything added is escaped as it is added (``Journal/escape(_:)``): printable ASCII without a backslash (nearly
/// every message and value) is checked and kept where it was written, anything else is escaped in its place. So no
/// value can add a line or a field, and the newlines before continuation lines are the only ones in the buffer.
/// A field whose name is not accepted (``JournalEntry/isAccepted(_:)``) is left out and counted.
///
/// The message and its lines come first: fields follow them.
public struct JournalRecord: ~Copyable {
    /// What the entry is about: `MESSAGE_ID`.
    public internal(set) var event: JournalEvent = .started
    /// `PRIORITY`.
    public internal(set) var priority: Journal.Priority = .info
    /// Where it was logged: `CODE_FILE`, `CODE_LINE`, `CODE_FUNC`.
    var fileID = ""
    var line = 0
    var function = ""
    /// False when every field name added is a ``JournalField`` constant, so names need no check.
    var checksNames = true
    /// Fields left out so far because of their name.
    private(set) var invalidFields = 0

    /// `MESSAGE=…` up to `messageEnd`, then the fields.
    private var bytes = ByteWriter(capacity: 1_024)
    private var messageEnd = Self.messagePrefix.utf8CodeUnitCount
    /// Where each continuation line starts, after its newline.
    private var lineStarts: [Int] = []
    /// Each field's name, value (after its `=`) and end, as offsets in `bytes`.
    private var fields: [(name: Int, value: Int, end: Int)] = []

    private static let messagePrefix: StaticString = "MESSAGE="

    init() {
        bytes.append(Self.messagePrefix)
        fields.reserveCapacity(16)
    }

    /// Empties the record for the next entry, keeping its buffers.
    mutating func reset(
        event: JournalEvent, priority: Journal.Priority, fileID: String, line: Int, function: String,
        checksNames: Bool = true
    ) {
        self.event = event
        self.priority = priority
        self.fileID = fileID
        self.line = line
        self.function = function
        self.checksNames = checksNames
        invalidFields = 0
        bytes.truncate(to: Self.messagePrefix.utf8CodeUnitCount)
        messageEnd = bytes.count
        lineStarts.removeAll(keepingCapacity: true)
        fields.removeAll(keepingCapacity: true)
    }

    // MARK: adding

    /// Appends `text` to the message.
    public mutating func message(_ text: String) {
        writeMessage { $0.append(utf8: text) }
    }

    /// Appends to the message what `write` writes, escaped. True when nothing needed escaping: the bytes are then
    /// where `write` put them, and a field can copy part of them (``field(_:copyingMessageBytes:)``).
    @discardableResult
    public mutating func writeMessage(_ write: (inout ByteWriter) -> Void) -> Bool {
        precondition(fields.isEmpty, "the message of a journal entry comes before its fields")
        let start = bytes.count
        write(&bytes)
        let plain = escapeTail(from: start)
        messageEnd = bytes.count
        return plain
    }

    /// Adds the field `name` whose value is the message's bytes at `range`: offsets in the buffer that
    /// ``writeMessage(_:)`` handed its closure, which then answered true (they needed no escaping).
    mutating func field(_ name: String, copyingMessageBytes range: Range<Int>) {
        precondition(
            range.lowerBound >= Self.messagePrefix.utf8CodeUnitCount && range.upperBound <= messageEnd,
            "a field copies bytes of the message only")
        field(name) { out in
            withUnsafeTemporaryAllocation(byteCount: range.count, alignment: 1) { copy in
                guard let target = copy.baseAddress else { return }
                out.withBytes { all in
                    if let source = all.baseAddress {
                        target.copyMemory(from: source + range.lowerBound, byteCount: range.count)
                    }
                }
                out.append(UnsafeRawPointer(target), count: range.count)
            }
        }
    }

    /// Adds a continuation line to the message: the journal keeps it in `MESSAGE` after a newline, the console
    /// writes it on a line of its own.
    public mutating func addLine(_ text: String) {
        precondition(fields.isEmpty, "the lines of a journal entry come before its fields")
        bytes.append(UInt8(ascii: "\n"))
        lineStarts.append(bytes.count)
        bytes.append(utf8: text)
        escapeTail(from: lineStarts[lineStarts.count - 1])
        messageEnd = bytes.count
    }

    /// Adds the field `name=value`.
    public mutating func field(_ name: String, _ value: String) {
        field(name) { $0.append(utf8: value) }
    }

    /// Adds the field `name` whose value `write` writes, escaped.
    public mutating func field(_ name: String, writing write: (inout ByteWriter) -> Void) {
        guard !checksNames || JournalEntry.isAccepted(name) else {
            invalidFields += 1
            return
        }
        let start = bytes.count
        bytes.append(utf8: name)
        bytes.append(UInt8(ascii: "="))
        let value = bytes.count
        write(&bytes)
        escapeTail(from: value)
        fields.append((start, value, bytes.count))
    }

    /// Escapes in place what was written from `start` on, unless it is printable ASCII without a backslash.
    /// True when it was plain (left as it was).
    @discardableResult
    private mutating func escapeTail(from start: Int) -> Bool {
        Self.escapeTail(of: &bytes, from: start)
    }

    /// Escapes in place what `bytes` hold from `start` on, unless it is printable ASCII without a backslash.
    /// True when it was plain (left as it was).
    @discardableResult
    static func escapeTail(of bytes: inout ByteWriter, from start: Int) -> Bool {
        let plain = bytes.withBytes { Journal.isPlain(UnsafeBufferPointer(rebasing: $0[start...])) }
        guard !plain else { return true }
        let raw = bytes.withBytes { String(decoding: $0[start...], as: UTF8.self) }
        bytes.truncate(to: start)
        bytes.append(utf8: Journal.escape(raw))
        return false
    }

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

    // MARK: saving

    /// Appends this record to `entries` (``RenderedEntries/Form/records``): its text and where its parts lie.
    func save(into entries: RenderedEntries) {
        let start = entries.bytes.count
        bytes.withBytes { entries.bytes.append($0) }
        let layoutStart = entries.layout.count
        entries.layout.append(messageEnd)
        entries.layout.append(lineStarts.count)
        entries.layout.append(contentsOf: lineStarts)
        for field in fields {
            entries.layout.append(field.name)
            entries.layout.append(field.value)
            entries.layout.append(field.end)
        }
        entries.saved.append(
            RenderedEntries.Saved(
                event: event, priority: priority, fileID: fileID, line: line, function: function,
                checksNames: checksNames, invalidFields: invalidFields, bytes: start..<entries.bytes.count,
                layout: layoutStart..<entries.layout.count))
    }

    /// Makes this record the one saved at `index` in `entries` (``save(into:)``).
    mutating func load(_ index: Int, of entries: RenderedEntries) {
        let saved = entries.saved[index]
        reset(
            event: saved.event, priority: saved.priority, fileID: saved.fileID, line: saved.line,
            function: saved.function, checksNames: saved.checksNames)
        invalidFields = saved.invalidFields
        bytes.truncate(to: 0)
        entries.bytes.withBytes { bytes.append(UnsafeBufferPointer(rebasing: $0[saved.bytes])) }
        var at = saved.layout.lowerBound
        messageEnd = entries.layout[at]
        let lineCount = entries.layout[at + 1]
        at += 2
        lineStarts.append(contentsOf: entries.layout[at..<(at + lineCount)])
        at += lineCount
        while at < saved.layout.upperBound {
            fields.append((entries.layout[at], entries.layout[at + 1], entries.layout[at + 2]))
            at += 3
        }
    }

    /// Calls `body` with the entry's fields for journald's native protocol, each `NAME=value`: `MESSAGE` (with its
    /// continuation lines), `MESSAGE_ID`, `PRIORITY` and `SYSLOG_IDENTIFIER` (written in `scratch`), then the
    /// fields kept; and with `CODE_FILE=…` and `CODE_LINE=…` as C strings (in `scratch` too).
    func withNativeFields<Result>(
        identifier: String, scratch: inout ByteWriter,
        _ body: (
            _ fields: UnsafeBufferPointer<iovec>, _ codeFile: UnsafePointer<CChar>, _ codeLine: UnsafePointer<CChar>
        ) -> Result
    ) -> Result {
        scratch.truncate(to: 0)
        scratch.append("MESSAGE_ID=")
        scratch.append(utf8: event.messageID)
        let priorityStart = scratch.count
        scratch.append("PRIORITY=")
        JSON.writeInt(priority.rawValue, into: &scratch)
        let identifierStart = scratch.count
        scratch.append("SYSLOG_IDENTIFIER=")
        scratch.append(utf8: identifier)
        let codeFileStart = scratch.count
        scratch.append("CODE_FILE=")
        scratch.append(utf8: fileID)
        scratch.append(UInt8(0))
        let codeLineStart = scratch.count
        scratch.append("CODE_LINE=")
        JSON.writeInt(line, into: &scratch)
        scratch.append(UInt8(0))
        return scratch.withBytes { header in
            bytes.withBytes { all in
                withUnsafeTemporaryAllocation(of: iovec.self, capacity: 4 + fields.count) { iov in
                    func vector(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> iovec {
                        iovec(
                            iov_base: UnsafeMutableRawPointer(mutating: buffer.baseAddress! + range.lowerBound),
                            iov_len: range.count)
                    }
                    iov[0] = vector(all, 0..<messageEnd)
                    iov[1] = vector(header, 0..<priorityStart)
                    iov[2] = vector(header, priorityStart..<identifierStart)
                    iov[3] = vector(header, identifierStart..<codeFileStart)
                    for (i, field) in fields.enumerated() { iov[4 + i] = vector(all, field.name..<field.end) }
                    let base = UnsafeRawPointer(header.baseAddress!)
                    return body(
                        UnsafeBufferPointer(iov), (base + codeFileStart).assumingMemoryBound(to: CChar.self),
                        (base + codeLineStart).assumingMemoryBound(to: CChar.self))
                }
            }
        }
    }
}
