import Glibc

/// The store's work that no reply waits for, on a thread and a connection of its own: telling the other replicas what
/// each commit changed (``announce(_:)``), and pruning the history to its limit (``requestPruning()``).
///
/// A replica's batches are committed one after another on one connection (each is made on the states the one before
/// left), so whatever else that connection does holds every commit up. Done there, the notification after each commit
/// was a second round trip per batch, and a pruning round stopped the commits for as long as it took. Here the
/// committing thread only queues them.
///
/// Announcements go out in the order they were queued, a transaction each that commits without waiting for the disk
/// (as ``PostgresStore`` describes). One lost with the connection costs the other replicas a cached state, never a
/// state change: the version check refuses a write over a stale state.
///
/// `@unchecked Sendable`: its queue and flags are guarded by `changed`; the connection is used by its thread only.
final class PostgresHousekeeper: @unchecked Sendable {
    private let connection: PGConnection
    private let historyLimit: Int
    private let onFailure: @Sendable (StoreError) -> Void
    private let changed = ThreadCondition()
    /// Guarded by `changed`: notification payloads not sent yet, oldest first.
    private var announcements: [String] = []
    /// Guarded by `changed`.
    private var pruningRequested = false
    private var stopping = false
    private var thread: pthread_t?
    /// The thread's: the connection failed as a broken one does, and is opened again before its next use.
    private var broken = false

    /// Opens a connection of its own to `conninfo` and starts the thread. `onFailure` runs on that thread for each
    /// pruning that failed (the next one deletes what it left).
    init(
        conninfo: String, historyLimit: Int, onFailure: @escaping @Sendable (StoreError) -> Void
    ) throws(StoreError) {
        connection = try PGConnection(conninfo: conninfo)
        try PostgresStore.prepareNotify(connection)
        self.historyLimit = historyLimit
        self.onFailure = onFailure
        guard let id = Threads.start({ [self] in run() }) else {
            throw StoreError(
                code: .unavailable, message: "cannot start the thread that prunes the history", path: connection.server)
        }
        thread = id
    }

    deinit {
        stop()
    }

    /// Queues `payloads` for the channel; returns at once.
    func announce(_ payloads: [String]) {
        guard !payloads.isEmpty else { return }
        changed.withLock {
            announcements.append(contentsOf: payloads)
            changed.broadcast()
        }
    }

    /// Asks for the history to be pruned; returns at once. Requests made while a pruning runs are served by one more.
    func requestPruning() {
        changed.withLock {
            pruningRequested = true
            changed.broadcast()
        }
    }

    /// Sends what is queued, skips a pruning not begun, and ends the thread.
    func stop() {
        changed.end(&thread) { stopping = true }
    }

    private func run() {
        changed.lock()
        while true {
            while announcements.isEmpty, !pruningRequested, !stopping { changed.wait() }
            if announcements.isEmpty, stopping { break }
            let payloads = announcements
            announcements.removeAll()
            let prune = pruningRequested && !stopping
            pruningRequested = false
            changed.unlock()
            if !payloads.isEmpty { send(payloads) }
            if prune {
                do {
                    try reconnectIfBroken()
                    try PostgresStore.pruneHistory(on: connection, keeping: historyLimit)
                } catch {
                    if error.code == .unavailable { broken = true }
                    onFailure(
                        StoreError(
                            code: error.code,
                            message:
                                "pruning the history failed (the next pruning deletes what it left): \(error.message)",
                            path: error.path))
                }
            }
            changed.lock()
        }
        changed.unlock()
    }

    /// Sends `payloads` in one transaction; what a broken connection loses is lost (see the type's comment).
    private func send(_ payloads: [String]) {
        do {
            try reconnectIfBroken()
            try PostgresStore.notify(payloads, on: connection)
        } catch {
            if error.code == .unavailable { broken = true }
        }
    }

    private func reconnectIfBroken() throws(StoreError) {
        guard broken || !connection.isUp else { return }
        try connection.reconnect()  // prepares `notify` again
        broken = false
    }
}
