import JSON

/// Journal entries rendered on the thread that logged them, handed to the writer thread together.
///
/// A loop's decisions are rendered where they were made (the decision is still in that CPU's caches, and it is freed
/// there) and the writer thread reads only their text: the console's lines ready to write, or each entry's record for
/// any other sink. The writer gives the emptied buffer back (``Journal/emptyEntries()``), so a busy loop reuses a few.
///
/// `@unchecked Sendable`: one thread uses a buffer at a time, and it changes hands only through the journal queue's
/// mutex (the logging thread fills it, the writer thread reads it, and gives it back emptied the same way).
final class RenderedEntries: @unchecked Sendable {
    /// How the entries are kept.
    enum Form: Equatable, Sendable {
        /// Each entry's record: its text and where its message, lines and fields lie (``JournalRecord/save(into:)``).
        case records
        /// The lines the console sink writes for each entry, one after another (``JournalRecord/writeConsoleLine``).
        case consoleLines(identifier: String, pid: Int32)
    }

    /// Where each saved record lies: in ``bytes`` and in ``layout``, with what its record holds beside its text.
    struct Saved {
        var event: JournalEvent
        var priority: Journal.Priority
        var fileID: String
        var line: Int
        var function: String
        var checksNames: Bool
        var invalidFields: Int
        var bytes: Range<Int>
        var layout: Range<Int>
    }

    let form: Form
    /// The entries' text.
    var bytes = ByteWriter(capacity: 16 * 1024)
    /// For ``Form/records``: each record as saved, and the offsets of their messages, lines and fields.
    var saved: [Saved] = []
    var layout: [Int] = []
    /// How many entries.
    private(set) var count = 0
    /// Fields left out of them because of their name.
    private(set) var invalidFields = 0

    init(form: Form) {
        self.form = form
    }

    /// Adds the entry `record` holds (``Form/records``; console lines are written by ``ConsoleLines`` and taken
    /// whole, ``take(_:)``).
    func add(_ record: borrowing JournalRecord) {
        precondition(form == .records, "records are added to entries kept as records only")
        count += 1
        invalidFields += record.invalidFields
        record.save(into: self)
    }

    /// Takes the lines written in `lines` (``Form/consoleLines``; it is left empty, with this buffer's capacity).
    func take(_ lines: inout ConsoleLines) {
        precondition(count == 0 && saved.isEmpty, "console lines are taken into empty entries")
        swap(&bytes, &lines.bytes)
        count = lines.count
        lines.count = 0
    }

    /// Empties it for reuse, keeping its buffers.
    func removeAll() {
        bytes.truncate(to: 0)
        saved.removeAll(keepingCapacity: true)
        layout.removeAll(keepingCapacity: true)
        count = 0
        invalidFields = 0
    }
}

/// What an entry's message and fields are written into: a ``JournalRecord``, or (for a decision logged through a
/// ``JournalBatcher`` while the console is the target) its console line, written directly where the writer thread will
/// find it.
protocol JournalEntryWriter: ~Copyable {
    /// Appends to the message what `write` writes, escaped. True when nothing needed escaping: the bytes are then
    /// where `write` put them, and a field can copy part of them (``field(_:copyingMessageBytes:)``).
    @discardableResult
    mutating func writeMessage(_ write: (inout ByteWriter) -> Void) -> Bool
    /// Adds the field `key` whose value is the message's bytes at `range`: offsets in the buffer that
    /// ``writeMessage(_:)`` handed its closure, which then answered true.
    mutating func field(_ key: JournalKey, copyingMessageBytes range: Range<Int>)
    /// Adds the field `key` whose value `write` writes, escaped.
    mutating func field(_ key: JournalKey, writing write: (inout ByteWriter) -> Void)
    /// Adds the field `key` with `value`.
    mutating func field(_ key: JournalKey, _ value: String)
    /// Adds the field `key` whose value `write` writes and which is known to need no escaping and no quotes (ASCII
    /// letters, digits, `-`, `_`, `/`): the console line takes it as it is, without looking at it.
    mutating func plainField(_ key: JournalKey, _ write: (inout ByteWriter) -> Void)
}

/// A field of a decision's journal entry: its journald name, and its console key (the name without `NOTIFYD_`,
/// lowercased) spelled out once, so that a console line does not make the key again for every entry. A test checks
/// each key against the name.
struct JournalKey: Sendable {
    let name: String
    let consoleKey: StaticString

    static let decisionID = JournalKey(name: JournalField.decisionID, consoleKey: "decision_id")
    static let outcome = JournalKey(name: JournalField.outcome, consoleKey: "outcome")
    static let page = JournalKey(name: JournalField.page, consoleKey: "page")
    static let path = JournalKey(name: JournalField.path, consoleKey: "path")
    static let peerUID = JournalKey(name: JournalField.peerUID, consoleKey: "peer_uid")
    static let device = JournalKey(name: JournalField.device, consoleKey: "device")
    static let source = JournalKey(name: JournalField.source, consoleKey: "source")
    static let link = JournalKey(name: JournalField.link, consoleKey: "link")
    static let reason = JournalKey(name: JournalField.reason, consoleKey: "reason")
    static let topic = JournalKey(name: JournalField.topic, consoleKey: "topic")
    /// Every key above.
    static let all = [decisionID, outcome, page, path, peerUID, device, source, link, reason, topic]
}

extension JournalRecord: JournalEntryWriter {
    mutating func field(_ key: JournalKey, copyingMessageBytes range: Range<Int>) {
        field(key.name, copyingMessageBytes: range)
    }

    mutating func field(_ key: JournalKey, writing write: (inout ByteWriter) -> Void) {
        field(key.name, writing: write)
    }

    mutating func field(_ key: JournalKey, _ value: String) {
        field(key.name, value)
    }

    /// A record checks every value it is given, as its sinks other than the console need.
    mutating func plainField(_ key: JournalKey, _ write: (inout ByteWriter) -> Void) {
        field(key.name, writing: write)
    }
}

/// The console lines of entries, written directly: the same line ``JournalRecord/writeConsoleLine(identifier:pid:into:)``
/// writes for an entry's record, without the record. Only for entries whose field names are ``JournalField`` constants
/// and whose message has no continuation lines (a decision's).
struct ConsoleLines: ~Copyable, JournalEntryWriter {
    let identifier: String
    let pid: Int32
    /// The lines written so far.
    var bytes = ByteWriter(capacity: 16 * 1024)
    /// How many.
    var count = 0

    init(identifier: String, pid: Int32) {
        self.identifier = identifier
        self.pid = pid
    }

    /// Writes the line of a decision's entry: `notifyd[pid]: `, its message and its fields, a newline. (The details
    /// are borrowed, not captured by a closure: a closure would copy them.)
    mutating func line(_ details: borrowing DecisionJournalDetails) {
        JournalRecord.writeConsolePrefix(identifier: identifier, pid: pid, into: &bytes)
        details.write(into: &self)
        bytes.append(UInt8(ascii: "\n"))
        count += 1
    }

    mutating func writeMessage(_ write: (inout ByteWriter) -> Void) -> Bool {
        let start = bytes.count
        write(&bytes)
        return JournalRecord.escapeTail(of: &bytes, from: start)
    }

    mutating func field(_ key: JournalKey, copyingMessageBytes range: Range<Int>) {
        field(key) { $0.appendCopy(of: range) }
    }

    /// Writes ` key=` and returns where the value starts.
    @inline(__always)
    private mutating func beginField(_ consoleKey: StaticString) -> Int {
        bytes.append(UInt8(ascii: " "))
        bytes.append(consoleKey)
        bytes.append(UInt8(ascii: "="))
        return bytes.count
    }

    mutating func field(_ key: JournalKey, writing write: (inout ByteWriter) -> Void) {
        let start = beginField(key.consoleKey)
        write(&bytes)
        // One look at the value answers both questions: does it need escaping, does it need quotes. Escaping adds no
        // space, quote or `=`, so the answer to the second stands for the escaped value.
        let (plain, quoted) = bytes.withBytes {
            JournalRecord.consoleValueNeeds(UnsafeBufferPointer(rebasing: $0[start...]))
        }
        if !plain { JournalRecord.escapeTail(of: &bytes, from: start) }
        guard quoted || bytes.count == start else { return }
        // Quoted: the value is written again, from a copy, as the console writes a value that needs quotes.
        let length = bytes.count - start
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { copy in
            bytes.withBytes { all in
                _ = copy.initialize(from: UnsafeBufferPointer(rebasing: all[start...]))
            }
            bytes.truncate(to: start)
            JournalRecord.writeConsoleValue(escaped: UnsafeBufferPointer(copy), into: &bytes)
        }
    }

    mutating func field(_ key: JournalKey, _ value: String) {
        field(key) { $0.append(utf8: value) }
    }

    mutating func plainField(_ key: JournalKey, _ write: (inout ByteWriter) -> Void) {
        let mark = bytes.count
        let start = beginField(key.consoleKey)
        write(&bytes)
        guard bytes.count > start else {
            // Empty: written as the console writes an empty value (quoted).
            bytes.truncate(to: mark)
            return field(key, writing: write)
        }
        assert(
            bytes.withBytes { JournalRecord.consoleValueNeeds(UnsafeBufferPointer(rebasing: $0[start...])) }
                == (plain: true, quoted: false), "a value written as plain needs escaping or quotes")
    }
}

/// A loop's side of the journal: the entries of its decisions are rendered as they are made, into entries that go to
/// the writer thread together at the end of the loop's turn (``submit()``) or once ``maxPending`` are waiting.
///
/// An entry logged as text through the batcher first sends on the rendered ones, so the entries one loop logs reach
/// the journal in the order it logged them. Used on its loop's thread only.
final class JournalBatcher {
    let journal: Journal
    /// The most entries kept before they are sent on without waiting for the end of the turn: the queue's bound is
    /// exceeded by at most this many per loop.
    static let maxPending = 256
    /// Where entries are rendered: their console lines when the sink takes them (``RenderedEntries/Form``), else
    /// their records, saved in ``pending``.
    private var lines: ConsoleLines?
    private var record = JournalRecord()
    private var pending: RenderedEntries?

    init(journal: Journal) {
        self.journal = journal
        if case .consoleLines(let identifier, let pid) = journal.renderedForm {
            lines = ConsoleLines(identifier: identifier, pid: pid)
        }
    }

    /// Renders the entry of a decision now, to send with the others of this turn.
    func log(
        _ event: JournalEvent, priority: Journal.Priority, details: borrowing DecisionJournalDetails,
        fileID: String = #fileID, line: Int = #line, function: String = #function
    ) {
        guard journal.target != .none else { return }
        if lines != nil {
            lines!.line(details)
            if lines!.count >= Self.maxPending { submit() }
            return
        }
        let entries: RenderedEntries
        if let pending {
            entries = pending
        } else {
            entries = journal.emptyEntries()
            pending = entries
        }
        record.reset(
            event: event, priority: priority, fileID: fileID, line: line, function: function,
            checksNames: !details.fieldNamesAreKnownValid)
        details.render(into: &record)
        entries.add(record)
        if entries.count >= Self.maxPending { submit() }
    }

    /// Queues a text entry (``Journal/log(_:priority:message:fields:fileID:line:function:)``) after the entries
    /// rendered so far.
    func log(
        _ event: JournalEvent, priority: Journal.Priority, message: String, fields: [(String, String)] = [],
        fileID: String = #fileID, line: Int = #line, function: String = #function
    ) {
        submit()
        journal.log(
            event, priority: priority, message: message, fields: fields, fileID: fileID, line: line, function: function)
    }

    /// Queues a text entry with continuation lines after the entries rendered so far.
    func log(
        _ event: JournalEvent, priority: Journal.Priority, message: String, lines: [String],
        fields: [(String, String)] = [], fileID: String = #fileID, line: Int = #line, function: String = #function
    ) {
        submit()
        journal.log(
            event, priority: priority, message: message, lines: lines, fields: fields, fileID: fileID, line: line,
            function: function)
    }

    /// Sends the entries rendered so far to the writer thread.
    func submit() {
        if lines != nil, lines!.count > 0 {
            let entries = journal.emptyEntries()
            entries.take(&lines!)
            journal.submit(entries)
        }
        guard let entries = pending else { return }
        pending = nil
        journal.submit(entries)
    }
}
