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
    var bytes = ByteWriter(capacity: 1_024)
    var messageEnd = Self.messagePrefix.utf8CodeUnitCount
    /// Where each continuation line starts, after its newline.
    var lineStarts: [Int] = []
    /// Each field's name, value (after its `=`) and end, as offsets in `bytes`.
    var fields: [(name: Int, value: Int, end: Int)] = []

    static let messagePrefix: StaticString = "MESSAGE="

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
