import CSyscalls
import Glibc

/// Commits the state store's batches on a thread of its own, so that the event loop handles the next requests while
/// SQLite writes the previous ones: a pipelined group commit.
///
/// The loop hands over batches in order (``submit(_:)``), a few of them waiting while the worker commits the first,
/// and takes their outcomes back in the same order (``collect()``). The store is used by one thread at a time: the
/// worker while a batch is submitted and not collected, the loop otherwise (it calls ``waitUntilDone()`` before
/// reading the store while commits run). ``descriptor`` (an eventfd) becomes readable when a commit is over, to
/// wake the loop.
///
/// A batch is made on the states of the batches before it. So after a commit failed, every batch submitted before
/// the loop collected that failure fails too, with the same error, and is not committed: its states were made on
/// states that were not saved. Batches submitted after it are committed as usual.
///
/// `@unchecked Sendable`: its own mutable state is guarded by `changed`, and the store by the one-thread-at-a-time
/// rule above.
final class StoreWorker: @unchecked Sendable {
    private let store: any DeviceStore
    private let changed = ThreadCondition()
    /// Guarded by `changed`: the batches to commit, oldest first, numbered from 1 in the order submitted.
    private var jobs: [(number: Int, writes: [StoreWrite])] = []
    /// Guarded by `changed`: the outcomes of the commits over, oldest first, until collected.
    private var outcomes: [Result<Void, StoreError>] = []
    /// Guarded by `changed`: the failure that fails, uncommitted, the batches numbered up to ``failingThrough``.
    private var failure: StoreError?
    /// Guarded by `changed`: `Int.max` from a failed commit until the loop collects it, then the number of the last
    /// batch submitted before it did.
    private var failingThrough = 0
    /// Guarded by `changed`: the number of the batch whose commit failed, until the loop collects it.
    private var failedBatch: Int?
    private var stopping = false
    private var thread: pthread_t?
    /// The loop's view: batches submitted, and outcomes collected.
    private var submitted = 0
    private var collected = 0
    /// Readable when a commit is over.
    let descriptor: FileDescriptor

    /// Starts the worker thread; `nil` when the thread or its eventfd cannot be created (the loop then commits
    /// itself, as it does without a worker).
    init?(store: any DeviceStore) {
        let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard fd >= 0 else { return nil }
        self.store = store
        descriptor = FileDescriptor(rawValue: fd)
        guard let id = Threads.start({ [self] in run() }) else { return nil }
        thread = id
    }

    deinit {
        Sys.close(descriptor)
    }

    /// True while a batch is submitted whose outcome is not collected yet.
    private var isBusy: Bool { submitted > collected }

    /// Hands `writes` to the worker, behind the batches submitted before.
    func submit(_ writes: consuming [StoreWrite]) {
        submitted += 1
        changed.lock()
        jobs.append((submitted, consume writes))  // the worker's is then the only reference (see StateStore.commit)
        changed.broadcast()
        changed.unlock()
    }

    /// True when the oldest batch not collected is over (its outcome waits for ``collect()``).
    var isDone: Bool {
        changed.withLock { !outcomes.isEmpty }
    }

    /// Blocks until every submitted batch is over, so the loop may use the store; the outcomes stay to be collected.
    func waitUntilDone() {
        let pending = submitted - collected
        guard pending > 0 else { return }
        changed.withLock {
            while outcomes.count < pending { changed.wait() }
        }
    }

    /// The outcome of the oldest batch not collected, waiting for it if need be.
    func collect() -> Result<Void, StoreError> {
        precondition(isBusy, "collecting a store outcome without a submitted batch")
        collected += 1
        let number = collected
        let submittedSoFar = submitted
        let result = changed.withLock {
            while outcomes.isEmpty { changed.wait() }
            if failedBatch == number {
                // The loop sees the failure now: the batches it submitted until now were made on the states that
                // were not saved; those it submits from now on are not.
                failedBatch = nil
                failingThrough = submittedSoFar
            }
            return outcomes.removeFirst()
        }
        var count: UInt64 = 0
        _ = read(descriptor.rawValue, &count, 8)  // resets the eventfd; EAGAIN when the loop drained it already
        return result
    }

    /// Waits for the submitted commits (they are not collected) and ends the thread.
    func stop() {
        waitUntilDone()
        changed.end(&thread) { stopping = true }
    }

    private func run() {
        changed.lock()
        while true {
            while jobs.isEmpty, !stopping { changed.wait() }
            guard !jobs.isEmpty else { break }
            let (number, writes) = jobs.removeFirst()
            let inherited = number <= failingThrough ? failure : nil
            changed.unlock()
            let result: Result<Void, StoreError>
            if let inherited {
                result = .failure(inherited)
            } else {
                do {
                    try store.commit(writes)
                    result = .success(())
                } catch {
                    result = .failure(error)
                }
            }
            changed.lock()
            if inherited == nil, case .failure(let error) = result {
                failure = error
                failingThrough = .max
                failedBatch = number
            }
            outcomes.append(result)
            changed.broadcast()
            var one: UInt64 = 1
            _ = write(descriptor.rawValue, &one, 8)
        }
        changed.unlock()
    }
}
