import JSON

/// What the transport asks of the commit pipeline: whether the batch a durable reply waits for is settled, and a
/// chance to settle between two connections' frames. The server knows batches only by these numbers.
protocol CommitOutcomes: AnyObject {
    /// Ends a turn of the loop: the state changes gathered so far are committed, or handed on to be committed;
    /// ``outcome(ofBatch:)`` says when the replies that wait for them may go out.
    func endBatch()
    /// Whether the state commit of batch `number` succeeded; `nil` while it is not over.
    func outcome(ofBatch number: UInt64) -> Bool?
    /// True when ``endBatch()`` has work before the turn is over: a commit made off the loop's thread is over and
    /// waits to be settled, or the store's thread is idle and enough was gathered to hand it. The server then ends
    /// the batch between two connections' frames rather than at the end of the turn (see ``Server``).
    var batchIsDue: Bool { get }
}

/// What settling a batch asks of the methods that gathered it.
protocol CommitSettlement: AnyObject {
    /// The batch is committed (or had nothing to write): its stored decisions are counted and journaled, and every
    /// decision of it goes to the monitors.
    func committed(_ batch: StoreBatch)
    /// The batch's commit failed: its states were never saved, and its clients get `StateNotSaved`.
    func notSaved(_ batch: StoreBatch, failure: StoreError)
}

/// What a batch settles besides its writes, which go to the store apart.
struct StoreBatch {
    var number: UInt64
    /// The devices whose states it wrote.
    var devices: [String]
    /// Its decisions, for the monitors.
    var decisions: [JSONText]
    /// Its stored decisions, journaled and counted once it is committed.
    var journal: [DecisionJournalDetails]
}

/// Batching and group commit: the state changes of a turn's requests are gathered here and committed together
/// before any reply that depends on them is sent, on the loop's thread or, with a ``StoreWorker``, on the worker's
/// thread while the loop gathers the next batch. Each durable reply names its batch (``number``);
/// ``outcome(ofBatch:)`` says when it may go out.
///
/// It runs on the event loop's thread only, over any ``DeviceStore`` (SQLite or PostgreSQL).
final class CommitPipeline: CommitOutcomes {
    let store: (any DeviceStore)?
    /// Told of each settled batch: set by the methods that own the pipeline, and so outlive it (they settle the last
    /// batch as they go, from `deinit` too, where a counted or checked reference to them could not be taken).
    unowned(unsafe) var settlement: (any CommitSettlement)?

    /// The writes gathered for the batch being gathered.
    var writes: [StoreWrite] = []
    /// The devices whose states the batch being gathered writes.
    var devices: [String] = []
    /// The decisions of the batch being gathered, for the monitors.
    var decisions: [JSONText] = []
    /// The stored decisions of the batch being gathered, journaled and counted once it is committed.
    var journal: [DecisionJournalDetails] = []
    /// The number of the batch being gathered; durable replies carry it.
    private(set) var number: UInt64 = 1
    /// Every batch up to this number has its outcome.
    private var settledThrough: UInt64 = 0
    /// The latest batches whose commit failed (their clients get `StateNotSaved`); older ones have long been settled.
    private var failedBatches: [UInt64] = []
    /// Commits batches on a thread of its own; `nil` commits on the loop's thread.
    private(set) var worker: StoreWorker?
    /// The batches the worker was handed, oldest first.
    private var inFlight: [StoreBatch] = []
    /// Reads the states the cache lacks while the worker commits (a connection of its own); `nil` without a worker,
    /// or when it could not be opened: the loop then waits for the commit and reads on the store's connection.
    private(set) var reader: (any DeviceStateReader)?

    init(store: (any DeviceStore)?) {
        self.store = store
    }

    /// Nothing is gathered: the store may be read or written outside a batch.
    var isIdle: Bool { writes.isEmpty && inFlight.isEmpty }

    /// Commits the batch gathered so far on the loop's thread (waiting for the worker's commit first) and settles it.
    /// False when the commit failed.
    @discardableResult
    func commitNow() -> Bool {
        finishInFlight(wait: true)
        var failure: StoreError?
        if let store, !writes.isEmpty {
            do {
                try store.commit(takeWrites())
            } catch {
                failure = error
            }
        }
        settleCurrent(failure: failure)
        return failure == nil
    }

    /// Ends a turn of the loop: the worker's finished commits are settled, and what this batch gathered goes to the
    /// worker. While the worker commits, it keeps gathering until it holds ``queuedBatchWrites`` writes, then waits
    /// behind the commit. Without a worker, with nothing to write, or with a few writes only
    /// (``inlineCommitWrites``) and the worker idle, the batch is committed and settled at once.
    func endBatch() {
        finishInFlight(wait: false)
        guard !writes.isEmpty || !decisions.isEmpty || !journal.isEmpty else { return }
        guard let worker, !writes.isEmpty, store != nil else {
            if inFlight.isEmpty { commitNow() }
            return
        }
        if !inFlight.isEmpty {
            guard writes.count >= Self.queuedBatchWrites else { return }
        } else if writes.count <= Self.inlineCommitWrites {
            // A few writes (a client alone, a quiet moment) are committed here: handing them over would only add
            // the worker's wake-up to the client's wait, with nothing else for the loop to do meanwhile.
            commitNow()
            return
        }
        inFlight.append(gathered)
        worker.submit(takeWrites())
        startNextBatch()
    }

    /// The writes gathered, for the store to commit: it then holds the only reference to them, and moves each out
    /// rather than copying it (see ``StateStore/commit(_:)``). The next batch starts with a buffer of the same size.
    private func takeWrites() -> [StoreWrite] {
        var taken: [StoreWrite] = []
        taken.reserveCapacity(writes.capacity)
        swap(&taken, &writes)
        return taken
    }

    /// Batches of at most this many writes (a stored decision is two: the history row and the state) are committed on
    /// the loop's thread even with a worker.
    static let inlineCommitWrites = 8

    /// A batch gathered while the worker commits goes behind the commit once it holds this many writes (a stored
    /// decision is two: the history row and the state), not when the commit is over. The commits are then smaller
    /// than all that was gathered meanwhile, and their replies go out sooner: a client that waits for them sends its
    /// next calls while the worker commits the batches behind. Side by side with one batch in flight at a time
    /// (4 connections × 64 calls in flight, durable decisions): more decisions a second, and fewer idle CPUs.
    static let queuedBatchWrites = 128

    /// True when the worker's oldest commit is over and waits to be settled, when the worker commits and
    /// ``queuedBatchWrites`` writes are gathered, or when the worker is idle and more than ``inlineCommitWrites``
    /// are (``endBatch()`` hands them over).
    var batchIsDue: Bool {
        guard let worker else { return false }
        if inFlight.isEmpty { return writes.count > Self.inlineCommitWrites }
        return worker.isDone || writes.count >= Self.queuedBatchWrites
    }

    /// Whether batch `number` was committed; `nil` while its commit is not over.
    func outcome(ofBatch number: UInt64) -> Bool? {
        guard number <= settledThrough else { return nil }
        return !failedBatches.contains(number)
    }

    /// Commits on a worker thread from now on, and opens a reader of its own for the states the cache lacks;
    /// stays on the loop's thread when the worker cannot be started. Returns the worker and the reader's failure to
    /// open, if any (the loop then reads after the commit that runs).
    func startWorker() -> (worker: StoreWorker, readerFailure: StoreError?)? {
        guard worker == nil, let store, let started = StoreWorker(store: store) else { return nil }
        worker = started
        do {
            reader = try store.makeReader()
            return (started, nil)
        } catch {
            return (started, error)
        }
    }

    /// Settles everything: waits for the worker's commit, commits what is gathered, and ends the worker's thread.
    func finish() {
        commitNow()
        worker?.stop()
        worker = nil
        reader = nil  // closed before the store's connection, which, closing last, removes the log
    }

    /// The devices of the batches the worker was handed and that are not settled yet.
    var inFlightDevices: [String] { inFlight.flatMap(\.devices) }

    /// True while the worker commits batches (the store is its own until then).
    var hasCommitInFlight: Bool { !inFlight.isEmpty }

    /// How many batches the worker was handed whose outcome is not settled yet.
    var batchesInFlight: Int { inFlight.count }

    /// Blocks until the worker's commits are over, so that the store can be read on the loop's thread (their
    /// outcomes are settled later, as usual).
    func waitForStore() {
        if !inFlight.isEmpty { worker?.waitUntilDone() }
    }

    /// Settles the worker's batches whose commits are over, oldest first (or, with `wait`, all of them once they
    /// are). A batch behind a failed one fails with it (see ``StoreWorker``).
    private func finishInFlight(wait: Bool) {
        guard let worker else { return }
        var wait = wait
        var failed: StoreError?
        while let batch = inFlight.first, wait || worker.isDone {
            inFlight.removeFirst()
            let failure: StoreError?
            switch worker.collect() {
            case .success: failure = nil
            case .failure(let error): failure = error
            }
            settle(batch, failure: failure)
            if let failure {
                // The batches behind it fail with it, uncommitted: settled now, in order, before the one gathered.
                failed = failure
                wait = true
            }
        }
        guard let failed, !writes.isEmpty else { return }
        // The batch gathered meanwhile was made on the states that were not saved: it is not saved either.
        settleCurrent(failure: failed)
    }

    /// Settles the batch gathered so far (committed, or failed with `failure`) and starts the next.
    private func settleCurrent(failure: StoreError?) {
        settle(gathered, failure: failure)
        startNextBatch()
    }

    /// What the batch gathered so far settles (its writes go to the store apart).
    private var gathered: StoreBatch {
        StoreBatch(number: number, devices: devices, decisions: decisions, journal: journal)
    }

    private func startNextBatch() {
        writes.removeAll(keepingCapacity: true)
        devices.removeAll(keepingCapacity: true)
        decisions.removeAll(keepingCapacity: true)
        journal.removeAll(keepingCapacity: true)
        number += 1
    }

    private func settle(_ batch: StoreBatch, failure: StoreError?) {
        settledThrough = batch.number
        guard let failure else {
            settlement?.committed(batch)
            return
        }
        failedBatches.append(batch.number)
        if failedBatches.count > 64 { failedBatches.removeFirst(failedBatches.count - 64) }
        settlement?.notSaved(batch, failure: failure)
    }
}
