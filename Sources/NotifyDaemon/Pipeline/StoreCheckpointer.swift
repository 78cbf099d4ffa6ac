import Glibc

/// Checkpoints the state store's write-ahead log on a thread and a connection of its own, so that a commit never
/// waits for the database file to be written and synced.
///
/// SQLite's automatic checkpoint runs inside the COMMIT that makes the log long enough: that commit, and every reply
/// waiting for it, then also waits for two `fdatasync`s (the log and the database file, 20–30 ms on a virtual disk).
/// Here the store asks for a checkpoint (``request()``) after a commit that left the log at its threshold, and goes
/// on; this thread copies the committed frames into the database file meanwhile (a passive checkpoint: it never
/// blocks the committing connection, and stops at frames committed after it began). The log starts again from its
/// beginning at the first commit after a checkpoint that copied everything.
///
/// `@unchecked Sendable`: its mutable state is guarded by `changed`; the SQLite connection is used by its thread only.
final class StoreCheckpointer: @unchecked Sendable {
    private let connection: SQLiteConnection
    private let changed = ThreadCondition()
    /// Guarded by `changed`.
    private var requested = false
    private var stopping = false
    private var running = false
    private var completed = 0
    private var failed = 0
    private var thread: pthread_t?
    private let onFailure: @Sendable (StoreError) -> Void
    /// The database file, to write out what a checkpoint copied into it (`nil` when it cannot be opened).
    private let databaseFile: FileDescriptor?

    /// Opens a connection of its own to `path` and starts the thread; `onFailure` runs on that thread for each
    /// failed checkpoint (the frames stay in the log, and the next checkpoint tries again).
    init(path: String, onFailure: @escaping @Sendable (StoreError) -> Void) throws(StoreError) {
        connection = try SQLiteConnection.companion(of: path)
        let file = open(path, O_RDONLY | O_CLOEXEC)
        databaseFile = file >= 0 ? FileDescriptor(rawValue: file) : nil
        self.onFailure = onFailure
        guard let id = Threads.start({ [self] in run() }) else {
            throw StoreError(code: .sqlite, message: "cannot start the checkpoint thread", path: path)
        }
        thread = id
    }

    deinit {
        stop()
        if let databaseFile { Sys.close(databaseFile) }
    }

    /// Asks for a checkpoint; returns at once. Requests made while one runs are served by one more checkpoint.
    func request() {
        changed.withLock {
            requested = true
            changed.broadcast()
        }
    }

    /// Checkpoints finished so far (those that found nothing to copy included) and those of them that failed.
    var counts: (completed: Int, failed: Int) {
        changed.withLock { (completed, failed) }
    }

    /// Waits until no checkpoint is requested or running (for tests and for a store about to close).
    func waitUntilIdle() {
        changed.withLock {
            while requested || running { changed.wait() }
        }
    }

    /// Lets a running checkpoint finish and ends the thread (the connection closes when this object goes away).
    func stop() {
        changed.end(&thread) { stopping = true }
    }

    private func run() {
        changed.lock()
        while true {
            while !requested, !stopping { changed.wait() }
            if stopping { break }
            requested = false
            running = true
            changed.unlock()
            var failure = false
            do {
                try connection.checkpoint(.passive)
                // SQLite syncs the database file only after a checkpoint that reached the end of the log (rare while
                // commits go on), which then writes out everything the earlier ones copied: syncing it after each
                // keeps that last one short (a commit may be waiting for it, see StateStore.restartFrames).
                if let databaseFile { _ = fdatasync(databaseFile.rawValue) }
            } catch {
                failure = true
                onFailure(
                    StoreError(
                        code: error.code, sqliteCode: error.sqliteCode,
                        message: "checkpoint failed (the decisions stay in the write-ahead log): \(error.message)",
                        path: error.path))
            }
            changed.lock()
            running = false
            completed += 1
            if failure { failed += 1 }
            changed.broadcast()
        }
        changed.unlock()
    }
}
