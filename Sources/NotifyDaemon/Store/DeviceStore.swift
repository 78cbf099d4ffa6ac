import JSON

/// Where device states, pending links and the decision history live: the seam between the router and a database.
///
/// ``StateStore`` (SQLite, one host) and ``PostgresStore`` (PostgreSQL, shared by replicas) implement it. The
/// contract both keep (docs/design.md, "The store"):
///
/// - ``commit(_:)`` stores a batch in ONE transaction, all of it or none of it; when it returns, the batch is
///   durable (it survives the process being killed), and the reply that says a decision was stored may go out.
/// - A state is written only over the state it was made from: a store shared by several processes refuses a batch
///   whose state another process changed since this one read it (``StoreError/Code/conflict``), and the router
///   drops the batch's devices from its cache, so that the client's retry reads the state anew.
/// - One thread at a time uses the store (the event loop, or the ``StoreWorker``), except that with several
///   ``commitSlots`` the worker's thread of each slot commits on that slot's connection; ``makeReader()`` gives
///   another thread a connection of its own for states.
protocol DeviceStore: AnyObject {
    /// The stored navigation state of `device`, or `nil` if the device is unknown.
    func deviceState(_ device: String) throws(StoreError) -> JSON?
    /// A reader of device states on a connection of its own, for another thread to use while this store commits.
    func makeReader() throws(StoreError) -> any DeviceStateReader
    /// Applies `batch` in one transaction: all of it is stored, or none of it (the error says why).
    func commit(_ batch: consuming [StoreWrite]) throws(StoreError)
    /// How many connections batches can be committed on at once (``StoreWorker`` starts a thread for each): 1 for
    /// SQLite, 2 for PostgreSQL once its background work started.
    var commitSlots: Int { get }
    /// ``commit(_:)`` on the connection of `slot` (below ``commitSlots``), for the worker's thread of that slot.
    func commit(_ batch: consuming [StoreWrite], slot: Int) throws(StoreError)
    /// The decision with `id`, or `nil` if it is not (or no longer) in the history.
    func decision(id: String) throws(StoreError) -> JSON?
    /// Up to `limit` decisions, newest first, of `device` (or of all devices when `nil`).
    func decisions(device: String?, limit: Int) throws(StoreError) -> [JSON]
    /// A page of the history for replay, newest first, and the sequence number to go on from.
    func replayPage(
        device: String?, before: Int64?, sinceMs: Int64?, limit: Int
    ) throws(StoreError) -> (entries: [StoredHistoryEntry], next: Int64?)
    /// How many devices, pending links and decisions are stored.
    func counts() throws(StoreError) -> StoreCounts
    /// Clears the pending links that expired at or before `nowMs`; returns the devices whose state changed.
    func pruneExpiredPending(nowMs: Int64) throws(StoreError) -> [String]
    /// Hears the commits of the other processes sharing the store; `nil` for a store no other process shares.
    func makeListener() throws(StoreError) -> ReplicaListener?
    /// Starts the store's own background work (SQLite's checkpoints); `onFailure` hears of what failed there.
    func startBackgroundWork(onFailure: @escaping @Sendable (StoreError) -> Void) throws(StoreError)
    /// What `GetStats` says of the store besides its counts: `kind`, `path` or `server`, `schema`, `status`,
    /// `health`, and the kind's own counters.
    func statsFields() -> JSONObject
}

/// Reads device states on a connection of its own (see ``DeviceStore/makeReader()``).
protocol DeviceStateReader: AnyObject {
    /// The committed navigation state of `device`, or `nil` if the device is unknown.
    func deviceState(_ device: String) throws(StoreError) -> JSON?
}

extension StateStore: DeviceStore {
    func makeListener() throws(StoreError) -> ReplicaListener? { nil }

    /// One: SQLite has one writer.
    var commitSlots: Int { 1 }

    func commit(_ batch: consuming [StoreWrite], slot: Int) throws(StoreError) {
        try commit(batch)
    }

    func startBackgroundWork(onFailure: @escaping @Sendable (StoreError) -> Void) throws(StoreError) {
        try startCheckpointer(onFailure: onFailure)
    }

    func statsFields() -> JSONObject {
        let checkpoints = checkpointCounts
        return [
            "kind": "sqlite", "path": .string(path), "schema": .int((try? schemaVersion()) ?? 0), "status": "up",
            "health": "ok",
            "checkpoints": [
                "logFrames": .int(checkpoints.logFrames), "onThread": .int(checkpoints.onThread),
                "commitsThatWaited": .int(checkpoints.commitsThatWaited),
                "onCommittingThread": .int(checkpoints.onCommittingThread), "failed": .int(checkpoints.failed),
            ],
        ]
    }
}

extension StateReader: DeviceStateReader {}
