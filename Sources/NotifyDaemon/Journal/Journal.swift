import Glibc

/// Structured logging that never blocks the caller: entries go into a bounded queue that one
/// dedicated thread drains into the journal (or stderr).
///
/// ``log(_:priority:message:fields:fileID:line:function:)`` only takes a short lock and appends; when
/// the queue is full the entry is dropped and counted, and the writer thread journals an
/// ``JournalEvent/entriesDropped`` entry with the count once it catches up. The writer is a plain
/// pthread (not a Dispatch worker: under `SystemCallFilter=~@resources` libdispatch's `setpriority`
/// fails) that blocks every signal, so the daemon's `signalfd` sees them all.
///
/// Field values and messages are escaped before they leave the process: control characters become
/// `\n`, `\t`, `\xHH`…, so a newline in a payload cannot forge a journal field or a console line.
public final class Journal: Sendable {
    /// Where entries go.
    public enum Target: String, Sendable, Hashable {
        /// journald's native protocol (`sd_journal_sendv_with_location`).
        case journal
        /// One human-readable line per entry on stderr: `notifyd[pid]: message key=value …`.
        case console
        /// Nowhere (entries are discarded without being queued).
        case none
    }

    /// syslog priorities, as the journal's `PRIORITY=` field.
    public enum Priority: Int, Sendable, Hashable, Comparable {
        case emergency = 0, alert, critical, error, warning, notice, info, debug

        public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
    }

    /// Counters for `GetStats`.
    public struct Statistics: Sendable, Hashable {
        /// Entries accepted into the queue.
        public var logged: Int
        /// Entries handed to the target (the dropped-entries reports included).
        public var written: Int
        /// Entries dropped because the queue was full.
        public var dropped: Int
        /// Entries the target refused (journald not running, say).
        public var failed: Int
        /// Fields left out because their name is not a valid journal field name or is reserved.
        public var invalidFields: Int
    }

    /// The default queue bound.
    public static let defaultCapacity = 8_192

    /// Where entries go.
    public let target: Target
    private let queue: JournalQueue

    /// A journal writing to `target` through a queue of at most `capacity` entries.
    ///
    /// - Parameter identifier: `SYSLOG_IDENTIFIER` and the console prefix.
    public convenience init(target: Target, capacity: Int = Journal.defaultCapacity, identifier: String = "notifyd") {
        let sink: any JournalSink
        switch target {
        case .journal: sink = NativeJournalSink(identifier: identifier)
        case .console: sink = ConsoleSink(identifier: identifier, descriptor: .standardError)
        case .none: sink = DiscardingSink()
        }
        self.init(target: target, capacity: capacity, sink: sink)
    }

    /// A journal writing through `sink`; tests inject one.
    init(target: Target, capacity: Int, sink: any JournalSink) {
        self.target = target
        self.queue = JournalQueue(capacity: max(1, capacity), sink: sink)
    }

    deinit {
        queue.stop()
    }

    /// Queues one entry; returns at once. Fields whose name is not `[A-Z][A-Z0-9_]*` (at most 64
    /// characters) or is one notifyd sets itself (`MESSAGE`, `PRIORITY`, `CODE_*`…) are left out.
    ///
    /// - Parameters:
    ///   - event: Sets `MESSAGE_ID`.
    ///   - message: `MESSAGE`, escaped.
    ///   - fields: Extra `NAME=value` fields, values escaped; see ``JournalField``.
    public func log(
        _ event: JournalEvent, priority: Priority, message: String, fields: [(String, String)] = [],
        fileID: String = #fileID, line: Int = #line, function: String = #function
    ) {
        log(
            event, priority: priority, message: message, lines: [], fields: fields, fileID: fileID, line: line,
            function: function)
    }

    /// Queues one entry whose message goes on over several `lines` (the findings of a rejected config): one
    /// journal entry whose `MESSAGE` holds them on lines of their own, and on the console one line per line.
    /// Each line is escaped on its own, so none of them can add a line or a field either.
    public func log(
        _ event: JournalEvent, priority: Priority, message: String, lines: [String], fields: [(String, String)] = [],
        fileID: String = #fileID, line: Int = #line, function: String = #function
    ) {
        enqueue(event, priority, .text(message, lines, fields), fileID, line, function)
    }

    /// Queues one entry whose message and fields `details` renders on the writer thread: the caller pays for
    /// copying `details`, not for formatting it (a decision journaled on the hot path).
    public func log(
        _ event: JournalEvent, priority: Priority, details: consuming some JournalDetails,
        fileID: String = #fileID, line: Int = #line, function: String = #function
    ) {
        enqueue(event, priority, .details(consume details), fileID, line, function)
    }

    /// The form in which the sink takes entries rendered where they are logged.
    var renderedForm: RenderedEntries.Form { queue.renderedForm }

    /// An empty buffer for entries rendered where they are logged (``JournalBatcher``), in the form the sink takes:
    /// one the writer gave back, or a new one.
    func emptyEntries() -> RenderedEntries {
        queue.emptyEntries()
    }

    /// Queues entries rendered where they were logged; each counts as one entry (queued, written, dropped).
    func submit(_ entries: RenderedEntries) {
        guard target != .none, entries.count > 0 else { return }
        queue.enqueue(.rendered(entries))
    }

    @inline(__always)
    private func enqueue(
        _ event: JournalEvent, _ priority: Priority, _ content: consuming QueuedEntry.Content, _ fileID: String,
        _ line: Int, _ function: String
    ) {
        guard target != .none else { return }
        queue.enqueue(
            .one(
                QueuedEntry(
                    event: event, priority: priority, content: content, fileID: fileID, line: line,
                    function: function)))
    }

    /// Entries dropped so far because the queue was full.
    public var droppedCount: Int { queue.statistics.dropped }

    /// The counters so far.
    public var statistics: Statistics { queue.statistics }

    /// Waits until every entry queued before this call has been written (for shutdown).
    public func flush() {
        queue.flush()
    }

    /// When true, ``log(_:priority:message:fields:fileID:line:function:)`` leaves the writer asleep until
    /// ``wakeWriter()`` (or until a quarter of the queue is waiting); the event loop wakes it shortly after a
    /// batch logged something.
    public var wakesPerBatch: Bool {
        get { queue.wakesPerBatch }
        set { queue.wakesPerBatch = newValue }
    }

    /// Wakes the writer when entries are waiting.
    public func wakeWriter() {
        queue.wakeWriter()
    }

    /// True when entries wait for the writer.
    public var hasWaitingEntries: Bool { queue.hasWaitingEntries }
}

/// What an entry says, written on the journal's writer thread.
public protocol JournalDetails: Sendable {
    /// Writes the message (and any continuation lines), then the extra `NAME=value` fields (see ``JournalField``).
    func render(into entry: inout JournalRecord)
    /// True when every field name ``render(into:)`` gives is a ``JournalField`` constant (valid and not reserved), so
    /// the writer need not check them one by one; false by default.
    var fieldNamesAreKnownValid: Bool { get }
}

extension JournalDetails {
    public var fieldNamesAreKnownValid: Bool { false }
}

/// One entry as queued: its text, or details still to render.
struct QueuedEntry: Sendable {
    enum Content: Sendable {
        case text(String, [String], [(String, String)])
        case details(any JournalDetails)
    }

    var event: JournalEvent
    var priority: Journal.Priority
    var content: Content
    var fileID: String
    var line: Int
    var function: String

    /// Renders the entry's message and fields into `record`, emptied first.
    func render(into record: inout JournalRecord) {
        switch content {
        case .text(let message, let lines, let fields):
            record.reset(event: event, priority: priority, fileID: fileID, line: line, function: function)
            JournalEntry.render(message: message, lines: lines, fields: fields, into: &record)
        case .details(let details):
            record.reset(
                event: event, priority: priority, fileID: fileID, line: line, function: function,
                checksNames: !details.fieldNamesAreKnownValid)
            details.render(into: &record)
        }
    }
}

/// What the journal's queue holds: one entry, or entries rendered where they were logged.
enum Queued: Sendable {
    case one(QueuedEntry)
    case rendered(RenderedEntries)

    /// How many entries it holds.
    var count: Int {
        switch self {
        case .one: 1
        case .rendered(let entries): entries.count
        }
    }
}

/// One entry as text: what a text entry is made of, and what tests read back from a record.
struct JournalEntry: Sendable {
    var event: JournalEvent
    var priority: Journal.Priority
    var message: String
    var fields: [(String, String)]
    var fileID: String
    var line: Int
    var function: String
    /// Lines that continue the message, each escaped on its own.
    var lines: [String] = []
    /// Read back from a record whose field names were not checked: they were all ``JournalField`` constants.
    var fieldNamesKnownValid = false
}

/// Writes entries; called on the writer thread only.
protocol JournalSink: AnyObject, Sendable {
    /// Takes one entry; returns how many entries the target refused meanwhile (a sink that gathers entries may
    /// write several at once).
    func write(_ entry: borrowing JournalRecord) -> Int
    /// Writes what is gathered, at the end of a wake-up; returns how many entries the target refused.
    func flush() -> Int
    /// The form in which entries rendered where they are logged reach ``write(rendered:using:)``.
    var renderedForm: RenderedEntries.Form { get }
    /// Takes entries rendered where they were logged (`record` is scratch space); returns how many the target refused
    /// meanwhile.
    func write(rendered entries: RenderedEntries, using record: inout JournalRecord) -> Int
}

extension JournalSink {
    func flush() -> Int { 0 }

    var renderedForm: RenderedEntries.Form { .records }

    func write(rendered entries: RenderedEntries, using record: inout JournalRecord) -> Int {
        writeSaved(entries, using: &record)
    }

    /// Writes each record saved in `entries` (``RenderedEntries/Form/records``) in turn.
    func writeSaved(_ entries: RenderedEntries, using record: inout JournalRecord) -> Int {
        var failed = 0
        for index in entries.saved.indices {
            record.load(index, of: entries)
            failed += write(record)
        }
        return failed
    }

    /// Writes `entries` and flushes; returns how many the target refused.
    func write(batch entries: [JournalEntry]) -> Int {
        var record = JournalRecord()
        var failed = 0
        for entry in entries {
            entry.render(into: &record)
            failed += write(record)
        }
        return failed + flush()
    }

    /// Writes one entry and flushes; `false` when the target refused it.
    func write(_ entry: JournalEntry) -> Bool {
        write(batch: [entry]) == 0
    }
}
