import CSyscalls
import Glibc

/// Commits the state store's batches on a thread of its own, so that the event loop handles the next requests while
/// SQLite writes the previous ones: a pipelined group commit.
///
/// The loop hands over batches in order (``submit(_:)``), a few of them waiting while the worker commits the first,
/// and takes their outcomes back in the same order (``collect()``). The store is used by the worker's threads while
/// a batch is submitted and not collected, by the loop otherwise (it calls ``waitUntilDone()`` before reading the
/// store while commits run). ``descriptor`` (an eventfd) becomes readable when a commit is over, to wake the loop.
///
/// A store with more than one connection to commit on (``DeviceStore/commitSlots``: PostgreSQL's) gets a thread per
/// connection. The oldest batch not begun then begins as soon as no batch being committed writes any of its devices:
/// it was not made on their states, so it cannot depend on them, and its commit overlaps theirs (one waits for the
/// disk while the other runs). A batch that shares a device with one being committed waits for it, so each device's
/// writes are committed in the order they were made. Outcomes still come back in the order submitted.
///
/// A batch is made on the states of the batches before it that write its devices. So after a commit failed, every
/// batch begun after it and submitted before the loop collected that failure fails too, with the same error, and is
/// not committed: its states may have been made on states that were not saved. Batches submitted after it are
/// committed as usual, and one begun alongside it keeps its own outcome.
///
/// `@unchecked Sendable`: its own mutable state is guarded by `changed`, and the store by the rule above (each thread
/// commits on a connection slot of its own).
final class StoreWorker: @unchecked Sendable {
    private struct Job {
        var number: Int
        var writes: [StoreWrite]
        /// The devices it writes, when more than one thread commits (empty otherwise).
        var devices: Set<String>
    }

    private let store: any DeviceStore
    private let changed = ThreadCondition()
    /// Guarded by `changed`: the batches not begun, oldest first, numbered from 1 in the order submitted.
    private var jobs: [Job] = []
    /// Guarded by `changed`: the devices of the batch each thread is committing (`nil` while it has none).
    private var running: [Set<String>?]
    /// Guarded by `changed`: outcomes of commits over before an older one's, by batch number.
    private var finished: [Int: Result<Void, StoreError>] = [:]
    /// Guarded by `changed`: the number of the batch whose outcome is due next in ``outcomes``.
    private var nextInOrder = 1
    /// Guarded by `changed`: the outcomes of the commits over, oldest first, until collected.
    private var outcomes: [Result<Void, StoreError>] = []
    /// Guarded by `changed`: the failure that fails, uncommitted, the batches numbered up to ``failingThrough``.
    private var failure: StoreError?
    /// Guarded by `changed`: `Int.max` from a failed commit until the loop collects it, then the number of the last
    /// batch submitted before it did.
    private var failingThrough = 0
    /// Guarded by `changed`: the number of the oldest batch whose commit failed, until the loop collects it.
    private var failedBatch: Int?
    private var stopping = false
    private var threads: [pthread_t?] = []
    /// The loop's view: batches submitted, and outcomes collected.
    private var submitted = 0
    private var collected = 0
    /// Readable when a commit is over.
    let descriptor: FileDescriptor

    /// Starts a thread per connection slot of `store`; `nil` when no thread or its eventfd can be created (the loop
    /// then commits itself, as it does without a worker).
    init?(store: any DeviceStore) {
        let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard fd >= 0 else { return nil }
        self.store = store
        descriptor = FileDescriptor(rawValue: fd)
        running = Array(repeating: nil, count: max(1, store.commitSlots))
        for slot in running.indices {
            guard let id = Threads.start({ [self] in run(slot: slot) }) else { break }
            threads.append(id)
        }
        guard !threads.isEmpty else {
            Sys.close(descriptor)
            return nil
        }
        if threads.count < running.count { running.removeLast(running.count - threads.count) }
    }

    deinit {
        Sys.close(descriptor)
    }

    /// True while a batch is submitted whose outcome is not collected yet.
    private var isBusy: Bool { submitted > collected }

    /// Hands `writes` to the worker, behind the batches submitted before.
    func submit(_ writes: consuming [StoreWrite]) {
        submitted += 1
        let devices = running.count > 1 ? Self.devices(of: writes) : []
        changed.lock()
        // The worker's is then the only reference (see StateStore.commit).
        jobs.append(Job(number: submitted, writes: consume writes, devices: devices))
        changed.broadcast()
        changed.unlock()
    }

    /// The devices whose states or history `writes` change.
    private static func devices(of writes: [StoreWrite]) -> Set<String> {
        var devices = Set<String>(minimumCapacity: writes.count)
        for write in writes {
            switch write {
            case .stateText(let device, _, _, _), .stateValue(let device, _, _, _), .forget(let device):
                devices.insert(device)
            case .decision(_, let device?, _, _, _, _, _):
                devices.insert(device)
            case .decision(_, nil, _, _, _, _, _):
                break
            }
        }
        return devices
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

    /// Waits for the submitted commits (they are not collected) and ends the threads.
    func stop() {
        waitUntilDone()
        for i in threads.indices { changed.end(&threads[i]) { stopping = true } }
    }

    /// Guarded by `changed`: whether the oldest batch not begun may begin, no batch being committed writing any of
    /// its devices.
    private var headMayBegin: Bool {
        guard let head = jobs.first else { return false }
        for case let devices? in running where !devices.isDisjoint(with: head.devices) { return false }
        return true
    }

    private func run(slot: Int) {
        changed.lock()
        while true {
            while !headMayBegin, !(stopping && jobs.isEmpty) { changed.wait() }
            guard headMayBegin else { break }
            let job = jobs.removeFirst()
            let inherited = job.number <= failingThrough ? failure : nil
            running[slot] = job.devices
            changed.unlock()
            let result: Result<Void, StoreError>
            if let inherited {
                result = .failure(inherited)
            } else {
                do {
                    try store.commit(job.writes, slot: slot)
                    result = .success(())
                } catch {
                    result = .failure(error)
                }
            }
            changed.lock()
            running[slot] = nil
            if inherited == nil, case .failure(let error) = result {
                failure = error
                failingThrough = .max
                if failedBatch.map({ job.number < $0 }) ?? true { failedBatch = job.number }
            }
            finished[job.number] = result
            while let next = finished.removeValue(forKey: nextInOrder) {
                outcomes.append(next)
                nextInOrder += 1
            }
            changed.broadcast()
            if !outcomes.isEmpty {
                var one: UInt64 = 1
                _ = write(descriptor.rawValue, &one, 8)
            }
        }
        changed.unlock()
    }
}
