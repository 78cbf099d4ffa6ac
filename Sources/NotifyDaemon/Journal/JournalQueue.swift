import Glibc

/// The queue and its writer thread. All mutable state is guarded by `mutex`.
/// `@unchecked Sendable` on that account: the pthread mutex and conditions are what the compiler cannot see.
final class JournalQueue: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let progress = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let capacity: Int
    private let sink: any JournalSink
    private var pending: [Queued] = []
    /// The entries `pending` holds (rendered ones count one by one).
    private var pendingEntries = 0
    /// Emptied buffers of rendered entries, for the loops to reuse (at most ``keptEntryBuffers``).
    private var emptied: [RenderedEntries] = []
    private static let keptEntryBuffers = 8
    private var droppedSinceReport = 0
    private var stopping = false
    private var counters = Journal.Statistics(logged: 0, written: 0, dropped: 0, failed: 0, invalidFields: 0)
    /// Dropped-entries reports among `counters.written` (they were never `logged`).
    private var reportsWritten = 0
    private var writerGone = false
    private var thread: pthread_t?
    private var wakeDeferred = false

    init(capacity: Int, sink: any JournalSink) {
        self.capacity = capacity
        self.sink = sink
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(wake, nil)
        pthread_cond_init(progress, nil)
        pending.reserveCapacity(min(capacity, 1_024))
        if let id = Threads.start({ [self] in run() }) {
            thread = id
        } else {
            // No writer: entries are counted as dropped rather than blocking anyone.
            stopping = true
        }
    }

    deinit {
        pthread_cond_destroy(progress)
        pthread_cond_destroy(wake)
        pthread_mutex_destroy(mutex)
        progress.deallocate()
        wake.deallocate()
        mutex.deallocate()
    }

    /// Queues `entry` unless the queue is full (rendered entries go in whole while it is not: they may exceed the
    /// bound by one loop's ``JournalBatcher/maxPending``).
    func enqueue(_ entry: consuming Queued) {
        let count = entry.count
        pthread_mutex_lock(mutex)
        if stopping || pendingEntries >= capacity {
            counters.dropped += count
            droppedSinceReport += count
            if case .rendered(let entries) = entry { keep(entries) }
        } else {
            let before = pendingEntries
            pending.append(consume entry)
            pendingEntries += count
            counters.logged += count
            let wakes = !wakeDeferred ? before == 0 : before <= capacity / 4 && pendingEntries > capacity / 4
            if wakes { pthread_cond_signal(wake) }
        }
        pthread_mutex_unlock(mutex)
    }

    /// The form in which the sink takes rendered entries.
    var renderedForm: RenderedEntries.Form { sink.renderedForm }

    /// An emptied buffer of rendered entries, or a new one in the sink's form.
    func emptyEntries() -> RenderedEntries {
        pthread_mutex_lock(mutex)
        let reused = emptied.popLast()
        pthread_mutex_unlock(mutex)
        return reused ?? RenderedEntries(form: sink.renderedForm)
    }

    /// Keeps `entries`, emptied, for reuse (the mutex held).
    private func keep(_ entries: RenderedEntries) {
        guard emptied.count < Self.keptEntryBuffers else { return }
        entries.removeAll()
        emptied.append(entries)
    }

    var wakesPerBatch: Bool {
        get {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return wakeDeferred
        }
        set {
            pthread_mutex_lock(mutex)
            wakeDeferred = newValue
            if !newValue, !pending.isEmpty { pthread_cond_signal(wake) }
            pthread_mutex_unlock(mutex)
        }
    }

    var hasWaitingEntries: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return !pending.isEmpty
    }

    func wakeWriter() {
        pthread_mutex_lock(mutex)
        if !pending.isEmpty { pthread_cond_signal(wake) }
        pthread_mutex_unlock(mutex)
    }

    var statistics: Journal.Statistics {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return counters
    }

    /// Waits until the writer has written everything logged before the call.
    func flush() {
        pthread_mutex_lock(mutex)
        if !pending.isEmpty { pthread_cond_signal(wake) }
        let target = counters.logged
        while counters.written - reportsWritten < target, thread != nil, !writerGone {
            pthread_cond_wait(progress, mutex)
        }
        pthread_mutex_unlock(mutex)
    }

    /// Drains what is queued, then ends the writer thread and waits for it.
    func stop() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_signal(wake)
        let writer = thread
        pthread_mutex_unlock(mutex)
        if let writer { pthread_join(writer, nil) }
    }

    /// The writer thread: swap out the queued entries, write them without holding the lock.
    private func run() {
        var batch: [Queued] = []
        var written: [RenderedEntries] = []
        var record = JournalRecord()
        while true {
            pthread_mutex_lock(mutex)
            while pending.isEmpty, droppedSinceReport == 0, !stopping {
                pthread_cond_wait(wake, mutex)
            }
            if pending.isEmpty, droppedSinceReport == 0, stopping {
                writerGone = true
                pthread_cond_broadcast(progress)
                pthread_mutex_unlock(mutex)
                return
            }
            swap(&batch, &pending)  // the two buffers alternate, keeping their capacity
            pendingEntries = 0
            let dropped = droppedSinceReport
            droppedSinceReport = 0
            pthread_mutex_unlock(mutex)

            var invalidFields = 0
            var failed = 0
            var entries = 0
            for queued in batch {
                switch queued {
                case .one(let entry):
                    entry.render(into: &record)
                    invalidFields += record.invalidFields
                    failed += sink.write(record)
                    entries += 1
                case .rendered(let rendered):
                    failed += sink.write(rendered: rendered, using: &record)
                    invalidFields += rendered.invalidFields
                    entries += rendered.count
                    written.append(rendered)
                }
            }
            if dropped > 0 {
                Self.droppedReport(dropped).render(into: &record)
                failed += sink.write(record)
            }
            failed += sink.flush()

            pthread_mutex_lock(mutex)
            counters.written += entries + (dropped > 0 ? 1 : 0)
            reportsWritten += dropped > 0 ? 1 : 0
            counters.failed += failed
            counters.invalidFields += invalidFields
            batch.removeAll(keepingCapacity: true)
            for rendered in written { keep(rendered) }
            written.removeAll(keepingCapacity: true)
            pthread_cond_broadcast(progress)
            pthread_mutex_unlock(mutex)
        }
    }

    private static func droppedReport(_ count: Int) -> JournalEntry {
        JournalEntry(
            event: .entriesDropped, priority: .warning,
            message: "\(count) journal \(count == 1 ? "entry" : "entries") dropped: the journal queue was full",
            fields: [(JournalField.dropped, String(count))],
            fileID: #fileID, line: #line, function: #function)
    }
}
