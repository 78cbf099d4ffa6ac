import JSON
import Varlink

/// The service and its store: settling the pipeline's batches, and the threads that commit and checkpoint.
extension RouterService {
    // MARK: CommitSettlement

    func committed(_ batch: StoreBatch) {
        for details in batch.journal { countAndJournal(details) }
        for decision in batch.decisions { broadcast(decision) }
    }

    func notSaved(_ batch: StoreBatch, failure: StoreError) {
        stats.storeFailures += 1
        // The cached states of this batch were never saved: forget them so the next request reads the store.
        for device in batch.devices { cache[device] = nil }
        loopJournal.log(
            .stateStoreError, priority: .error, message: "state not saved: \(failure)",
            fields: [(JournalField.reason, failure.description)])
        journalNotSaved(batch.journal, failure: failure)
    }

    /// Commits on a worker thread from now on (the daemon's setting), and checkpoints the store's log on another;
    /// stays on the loop's thread when the worker cannot be started. Returns the descriptor that becomes readable when
    /// a commit is over.
    func startStoreWorker() -> FileDescriptor? {
        guard pipeline.worker == nil, let store else { return nil }
        startStoreBackgroundWork(store)
        guard let (worker, readerFailure) = pipeline.startWorker() else { return nil }
        if let readerFailure {
            loopJournal.log(
                .stateStoreError, priority: .warning,
                message: "states the cache lacks are read after the commit that runs: \(readerFailure)",
                fields: [(JournalField.reason, readerFailure.description)])
        }
        return worker.descriptor
    }

    /// Starts the store's background work (SQLite's checkpoints, PostgreSQL's notifications and pruning) on a
    /// thread of its own; without that thread the committing thread does it.
    private func startStoreBackgroundWork(_ store: any DeviceStore) {
        let journal = journal
        do {
            try store.startBackgroundWork { error in
                journal.log(
                    .stateStoreError, priority: .warning,
                    message: error.description,
                    fields: [(JournalField.reason, error.description)])
            }
        } catch {
            loopJournal.log(
                .stateStoreError, priority: .warning,
                message: "the store's background work (checkpoints, pruning) runs on the committing thread: \(error)",
                fields: [(JournalField.reason, error.description)])
        }
    }

    /// Settles everything: waits for the worker's commit, commits what is gathered, and ends the worker's thread.
    func finishStore() {
        pipeline.finish()
        loopJournal.submit()
    }
}
