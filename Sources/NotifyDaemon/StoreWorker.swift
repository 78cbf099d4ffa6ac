import CSyscalls
import Glibc

/// Commits the state store's batches on a thread of its own, so that the event loop handles the next requests while
/// SQLite writes the previous ones: a pipelined group commit.
///
/// The loop hands over one batch at a time (``submit(_:)``) and takes its outcome back (``collect()``) before the
/// next; the store is used by one thread at a time: the worker between `submit` and the end of the commit, the loop
/// otherwise (it calls ``waitUntilDone()`` before reading the store while a commit runs). ``descriptor`` (an eventfd)
/// becomes readable when a commit is over, to wake the loop.
final class StoreWorker: @unchecked Sendable {
    private let store: StateStore
    private let changed = ThreadCondition()
    /// Guarded by `changed`: the batch to commit, handed to the worker.
    private var job: [StoreWrite]?
    /// Guarded by `changed`: the outcome of the last commit, until collected.
    private var outcome: Result<Void, StoreError>?
    private var stopping = false
    private var thread: pthread_t?
    /// The loop's view: a batch was submitted and its outcome not collected yet.
    private(set) var isBusy = false
    /// Readable when a commit is over.
    let descriptor: Int32

    /// Starts the worker thread; `nil` when the thread or its eventfd cannot be created (the loop then commits
    /// itself, as it does without a worker).
    init?(store: StateStore) {
        let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard fd >= 0 else { return nil }
        self.store = store
        descriptor = fd
        guard let id = Threads.start({ [self] in run() }) else { return nil }
        thread = id
    }

    deinit {
        Sys.close(descriptor)
    }

    /// Hands `writes` to the worker; the previous outcome must have been collected.
    func submit(_ writes: consuming [StoreWrite]) {
        precondition(!isBusy, "a store batch was submitted before the previous one was collected")
        isBusy = true
        changed.lock()
        job = consume writes  // the worker's is then the only reference (see StateStore.commit)
        changed.broadcast()
        changed.unlock()
    }

    /// True when the submitted batch's commit is over (its outcome waits for ``collect()``).
    var isDone: Bool {
        changed.withLock { outcome != nil }
    }

    /// Blocks until the submitted commit is over, so the loop may use the store; the outcome stays to be collected.
    func waitUntilDone() {
        guard isBusy else { return }
        changed.withLock {
            while outcome == nil { changed.wait() }
        }
    }

    /// The outcome of the submitted commit, waiting for it if need be; the worker is then free for the next batch.
    func collect() -> Result<Void, StoreError> {
        precondition(isBusy, "collecting a store outcome without a submitted batch")
        let result = changed.withLock {
            while outcome == nil { changed.wait() }
            defer { outcome = nil }
            return outcome!
        }
        var count: UInt64 = 0
        _ = read(descriptor, &count, 8)  // resets the eventfd; EAGAIN when the loop drained it already
        isBusy = false
        return result
    }

    /// Waits for a submitted commit (it is not collected) and ends the thread.
    func stop() {
        waitUntilDone()
        changed.end(&thread) { stopping = true }
    }

    private func run() {
        changed.lock()
        while true {
            while job == nil, !stopping { changed.wait() }
            guard let writes = job else { break }
            job = nil
            changed.unlock()
            let result: Result<Void, StoreError>
            do {
                try store.commit(writes)
                result = .success(())
            } catch {
                result = .failure(error)
            }
            changed.lock()
            outcome = result
            changed.broadcast()
            var one: UInt64 = 1
            _ = write(descriptor, &one, 8)
        }
        changed.unlock()
    }
}
