import DeepLink
import Glibc
import JSON

/// The daemon's durable state: device navigation states, their pending links, and the bounded
/// decision history, in one SQLite database `notifyd.sqlite` inside the state directory.
///
/// Durability: the database runs in WAL mode with `synchronous=NORMAL`. When ``commit(_:)``
/// returns, the batch is in the write-ahead log in the kernel's page cache, so it survives the
/// process being killed (`kill -9`, a crash, the watchdog's SIGABRT). A power loss or kernel crash
/// may lose the last batches before the next checkpoint but never corrupts the database.
///
/// A file that is not a database, or a damaged one, is reported as a ``StoreError`` naming the path
/// and what to do; the store never deletes or recreates it. Schema changes run as migrations on open
/// (`PRAGMA user_version`).
///
/// The store owns its directory while it is open (an `flock` on the directory): a second notifyd on the same
/// directory gets ``StoreError/Code/busy``. SQLite itself runs in normal locking mode, so `sqlite3` can read the file
/// while the daemon runs (nothing but notifyd may write to it).
///
/// Checkpoints: SQLite's automatic checkpoint is off. After a commit that grew the log by ``checkpointFrames``, the
/// store checkpoints it, on the commit's thread, or, once ``startCheckpointer(onFailure:)`` ran, on a thread and a
/// connection of its own (``StoreCheckpointer``) while commits go on. Such a checkpoint never catches up with a
/// steady stream of commits, and the log starts again from its beginning only after one that copied every frame: once
/// the log holds ``restartFrames``, the next commit first waits for a checkpoint of everything before it (the
/// frames copied already are not copied again). Should that fail, the committing thread checkpoints a log that
/// reached ``maxWALFrames`` itself. The log's size stays bounded either way.
///
/// Not thread-safe: one thread at a time uses the store, the event loop or the ``StoreWorker`` committing a
/// batch the loop handed it (the loop waits for that commit before it reads, except for device states, which it
/// reads meanwhile through a ``StateReader`` of its own). Statements are prepared once.
///
/// The history's per-device lookup lives in memory (each device's decision sequence numbers, rebuilt when the store
/// opens): an SQL index on the device made every commit write one more page per decision, since its inserts land at
/// random, and what a commit writes grew with the history. The history itself rotates through tables that leave it
/// whole (``HistorySegments``).
public final class StateStore {
    /// The database file name inside the state directory.
    public static let fileName = "notifyd.sqlite"

    /// The database file of the state directory `directory`.
    public static func path(in directory: String) -> String {
        directory.hasSuffix("/") ? directory + fileName : directory + "/" + fileName
    }
    /// The default bound on the decision history.
    public static let defaultHistoryLimit = 100_000

    /// The database file.
    public let path: String
    /// The most decisions kept; older ones are pruned in the transaction that adds new ones.
    public let historyLimit: Int

    // Internal, not private, for the history's reading for replay (StateStore+Replay.swift).
    let connection: SQLiteConnection
    let statements: StoreStatements
    /// The state directory, open and locked (`flock`) for as long as the store is.
    private let directoryLock: FileDescriptor
    private var checkpointer: StoreCheckpointer?
    /// The log's length when a checkpoint was last asked for.
    private var framesAtLastCheckpoint = 0
    /// Called for a checkpoint that failed (on the checkpointer's thread, or the committing one).
    private var onCheckpointFailure: (@Sendable (StoreError) -> Void)?
    /// The tables of the history and the decisions in it.
    var history: HistorySegments
    /// Each device's decisions in the history, as sequence numbers, oldest first.
    private(set) var historyByDevice: [String: [Int64]] = [:]
    /// The decisions in the history that name a device, oldest first from `historyHead`: the order they leave it in.
    private var historyOrder: [(seq: Int64, device: String)] = []
    private var historyHead = 0
    /// The devices that may have a pending link row (every one that has one, and possibly a few that no longer do):
    /// a state without a pending page deletes the row only when there may be one.
    var pendingDevices: Set<String> = []
    /// Devices whose pending link row the open transaction deleted: back in ``pendingDevices`` if it rolls back.
    var pendingDeletedInTransaction: [String] = []
    /// The description of the page of the decision being stored, written here rather than into a string of its own.
    var pageDescription = ByteWriter(capacity: 128)
    /// The text of the state being stored, written here for each state (no buffer allocated per state).
    var stateText = ByteWriter(capacity: 512)
    /// The text of the state a decision being stored started from.
    var stateBeforeText = ByteWriter(capacity: 512)

    /// The default bound on one stored value (a state or a decision, as JSON text).
    public static let defaultMaxValueBytes = 4 << 20

    /// Opens (creating if needed) `directory/notifyd.sqlite` and migrates it to the current schema.
    ///
    /// - Parameters:
    ///   - historyLimit: The most decisions kept (default 100,000).
    ///   - maxValueBytes: The largest state or decision accepted; a bigger one fails its batch.
    /// - Throws: ``StoreError`` when the directory is missing or read-only, the file is unreadable,
    ///   not a database, damaged, locked by another process, or from a newer notifyd.
    public init(
        directory: String, historyLimit: Int = StateStore.defaultHistoryLimit,
        maxValueBytes: Int = StateStore.defaultMaxValueBytes
    ) throws(StoreError) {
        let path = Self.path(in: directory)
        try Self.preflight(directory: directory, path: path)
        let lock = try Self.lock(directory: directory)
        let connection: SQLiteConnection
        let statements: StoreStatements
        let history: HistorySegments
        do {
            connection = try SQLiteConnection(path: path)
            connection.limitValueLength(maxValueBytes)
            try connection.configureAndMigrate()
            connection.watchWAL()
            statements = try StoreStatements(connection)
            history = try Self.openHistory(connection, statements, limit: historyLimit)
        } catch {
            // Not initialized yet, so no deinit: the lock is released here.
            Sys.close(lock)
            throw error
        }
        self.directoryLock = lock
        self.connection = connection
        self.statements = statements
        self.path = path
        self.historyLimit = max(0, historyLimit)
        self.history = history
        for k in history.newestFirst.reversed() {
            try connection.forEachRow(
                StoreSchema.selectDeviceHistory(k), binding: history.first, "read the decision history"
            ) { row in
                remember(seq: connection.int64(row, 0), device: connection.text(row, 1) ?? "")
            }
        }
        try connection.forEachRow(StoreSchema.selectPendingDevices, "read the pending links") { row in
            pendingDevices.insert(connection.text(row, 0) ?? "")
        }
    }

    deinit {
        // The checkpointer's connection closes first: the last connection to close checkpoints the log and
        // removes it.
        checkpointer?.stop()
        checkpointer = nil
        Sys.close(directoryLock)
    }

    /// Frames the log grows by between two checkpoints (SQLite's own default for its automatic checkpoint).
    static let checkpointFrames = 1_000
    /// The log's length (4 KiB pages: 64 MiB) from which the next commit waits for the checkpointer to copy
    /// everything, so that it starts the log again.
    static let restartFrames = 16_384
    /// The log's bound, in frames (128 MiB): a commit that leaves it this long checkpoints it itself.
    static let maxWALFrames = 32_768
    /// The next commit waits for a checkpoint of the whole log first.
    private var restartDue = false
    /// Commits that waited for a checkpoint of the whole log; checkpoints run by the committing thread, and those of
    /// them that failed.
    private var commitsThatWaited = 0
    private var checkpointsOnCommit = 0
    private var failedOnCommit = 0

    /// Checkpoints on a thread of its own from now on; `onFailure` hears of every checkpoint that failed (the
    /// frames stay in the log and the next checkpoint copies them).
    public func startCheckpointer(onFailure: @escaping @Sendable (StoreError) -> Void) throws(StoreError) {
        onCheckpointFailure = onFailure
        guard checkpointer == nil else { return }
        checkpointer = try StoreCheckpointer(path: path, onFailure: onFailure)
    }

    /// Waits until the checkpointer has no checkpoint requested or running (tests).
    func waitForCheckpoints() {
        checkpointer?.waitUntilIdle()
    }

    /// What the log and its checkpoints look like now, for `GetStats`.
    public var checkpointCounts: CheckpointCounts {
        let thread = checkpointer?.counts ?? (completed: 0, failed: 0)
        return CheckpointCounts(
            logFrames: connection.framesInWAL, onThread: thread.completed, commitsThatWaited: commitsThatWaited,
            onCommittingThread: checkpointsOnCommit, failed: thread.failed + failedOnCommit)
    }

    /// After a commit: asks for a checkpoint once the log grew by ``checkpointFrames`` since the last one, and
    /// checkpoints here when there is no checkpointer or the log reached ``maxWALFrames``.
    private func checkpointIfDue() {
        let frames = connection.framesInWAL
        if frames < framesAtLastCheckpoint { framesAtLastCheckpoint = 0 }  // the log started again
        guard frames >= framesAtLastCheckpoint + Self.checkpointFrames else { return }
        framesAtLastCheckpoint = frames
        if let checkpointer, frames < Self.maxWALFrames {
            checkpointer.request()
            if frames >= Self.restartFrames { restartDue = true }
            return
        }
        checkpointsOnCommit += 1
        do {
            // A restart waits for the checkpointer and makes the next commit start the log again.
            try connection.checkpoint(frames >= Self.maxWALFrames ? .restart : .passive)
        } catch {
            failedOnCommit += 1
            onCheckpointFailure?(error)
        }
    }

    /// How many decisions the per-device lookup holds (those of the history that name a device).
    var deviceHistoryCount: Int { historyByDevice.values.reduce(0) { $0 + $1.count } }

    /// Adds a committed decision to the per-device lookup.
    private func remember(seq: Int64, device: String) {
        historyByDevice[device, default: []].append(seq)
        historyOrder.append((seq, device))
    }

    /// Drops the decisions that left the history (every sequence number below `oldest`) from the per-device lookup:
    /// such a decision is its device's oldest, first in its list, which is changed in place (one lookup each).
    private func dropPruned(before oldest: Int64) {
        while historyHead < historyOrder.count, historyOrder[historyHead].seq < oldest {
            let device = historyOrder[historyHead].device
            historyHead += 1
            guard let index = historyByDevice.index(forKey: device) else { continue }
            if !historyByDevice.values[index].isEmpty { historyByDevice.values[index].removeFirst() }
            if historyByDevice.values[index].isEmpty { historyByDevice.remove(at: index) }
        }
        if historyHead > 4_096, historyHead * 2 > historyOrder.count {
            historyOrder.removeFirst(historyHead)
            historyHead = 0
        }
    }

    /// The stored navigation state of `device`, or `nil` if the device is unknown.
    public func deviceState(_ device: String) throws(StoreError) -> JSON? {
        try connection.deviceState(device, statements.selectState)
    }

    /// A reader of device states on a connection of its own, for another thread to use while this store commits.
    func makeReader() throws(StoreError) -> any DeviceStateReader {
        try StateReader(path: path)
    }

    /// Every device with a stored state, sorted.
    public func allDevices() throws(StoreError) -> [String] {
        let s = statements.selectDevices
        defer { connection.reset(s) }
        var devices: [String] = []
        while try connection.step(s, "list devices") { devices.append(connection.text(s, 0) ?? "") }
        return devices
    }

    /// Applies `batch` in ONE transaction: all of it is stored, or none of it (the error says why).
    ///
    /// When the history grows past ``historyLimit`` the oldest decisions are pruned in the same
    /// transaction. An empty batch does nothing.
    public func commit(_ batch: consuming [StoreWrite]) throws(StoreError) {
        guard !batch.isEmpty else { return }
        if restartDue, let checkpointer {
            // No commit while it runs: it copies every frame, and this transaction starts the log again.
            restartDue = false
            commitsThatWaited += 1
            checkpointer.request()
            checkpointer.waitUntilIdle()
        }
        let historyBefore = history
        var added: [(seq: Int64, device: String)] = []
        var pruned = false
        try connection.run(statements.begin, "begin a transaction")
        do {
            // Each write is moved out of the batch, not copied: its strings and texts are not retained again.
            batch.reverse()
            while let write = batch.popLast() {
                if let inserted = try apply(write) { added.append(inserted) }
            }
            if history.trim() {
                try Self.recordFirst(history.first, connection, statements)
                pruned = true
            }
            try connection.run(statements.commit, "commit a transaction")
        } catch {
            connection.rollback(statements.rollback)
            history = historyBefore
            for device in pendingDeletedInTransaction { pendingDevices.insert(device) }
            pendingDeletedInTransaction.removeAll()
            throw error
        }
        pendingDeletedInTransaction.removeAll(keepingCapacity: true)
        // Committed: the lookup follows (a rolled-back batch never reaches it).
        for decision in added { remember(seq: decision.seq, device: decision.device) }
        if pruned { dropPruned(before: history.first) }
        checkpointIfDue()
    }

    /// The history's tables as the database holds them, and the oldest decision still in it; `first_seq` moves on
    /// when `limit` is lower than it was.
    private static func openHistory(
        _ connection: SQLiteConnection, _ statements: StoreStatements, limit: Int
    ) throws(StoreError) -> HistorySegments {
        var segments: [HistorySegments.Segment] = []
        for k in 0..<StoreSchema.historySegmentCount {
            var segment = HistorySegments.Segment.empty
            try connection.forEachRow(StoreSchema.segmentBounds(k), "read the decision history") { row in
                guard !connection.isNull(row, 0) else { return }
                segment = HistorySegments.Segment(first: connection.int64(row, 0), last: connection.int64(row, 1))
            }
            segments.append(segment)
        }
        let storedFirst = try connection.queryInt(StoreSchema.selectFirstDecision, "read the decision history")
        var greatestID: String?
        for k in 0..<StoreSchema.historySegmentCount where !segments[k].isEmpty {
            try connection.forEachRow(StoreSchema.greatestID(k), "read the decision history") { row in
                guard let id = connection.text(row, 0) else { return }
                if greatestID.map({ HistorySegments.precedes($0, id) }) ?? true { greatestID = id }
            }
        }
        let history = HistorySegments(
            segments: segments, storedFirst: storedFirst, limit: limit, greatestID: greatestID)
        if history.first != storedFirst { try recordFirst(history.first, connection, statements) }
        return history
    }

    /// Stores `first` as the oldest sequence number in the history (`history_bounds`).
    private static func recordFirst(
        _ first: Int64, _ connection: SQLiteConnection, _ statements: StoreStatements
    ) throws(StoreError) {
        let s = statements.setFirstDecision
        defer { connection.reset(s) }
        try connection.bind(s, 1, first)
        _ = try connection.step(s, "record where the decision history starts")
    }

    /// `read` of the row of decision `id` in the history table that holds it (`rowid`, `decision`); `nil` when
    /// none does.
    func withRow<T>(
        ofDecision id: String, _ read: (SQLiteStatement) throws(StoreError) -> T
    ) throws(StoreError) -> T? {
        for k in history.newestFirst {
            let s = statements.selectDecision[k]
            defer { connection.reset(s) }
            try connection.bind(s, 1, id)
            if try connection.step(s, "read decision \(id)") { return try read(s) }
        }
        return nil
    }

    /// The decision with `id`, or `nil` if it is not (or no longer) in the history.
    public func decision(id: String) throws(StoreError) -> JSON? {
        // Ids are unique: a decision that left the history is not in a newer table.
        let json = try withRow(ofDecision: id) { (s) throws(StoreError) -> JSON? in
            guard connection.int64(s, 0) >= history.first else { return nil }
            return try connection.json(s, 1, "decision \(id)")
        }
        return json ?? nil
    }

    /// Up to `limit` decisions, newest first, of `device` (or of all devices when `nil`).
    public func decisions(device: String?, limit: Int) throws(StoreError) -> [JSON] {
        guard limit > 0 else { return [] }
        var result: [JSON] = []
        guard let device else {
            // The tables hold runs of sequence numbers that do not overlap: the newest table's come first.
            for k in history.newestFirst where result.count < limit {
                let s = statements.selectRecent[k]
                defer { connection.reset(s) }
                try connection.bind(s, 1, history.first)
                try connection.bind(s, 2, Int64(limit - result.count))
                while try connection.step(s, "list decisions") {
                    result.append(try connection.json(s, 0, "a decision"))
                }
            }
            return result
        }
        for seq in (historyByDevice[device] ?? []).reversed() {
            guard result.count < limit else { break }
            guard let k = history.table(holding: seq) else { continue }
            let s = statements.selectDecisionAt[k]
            defer { connection.reset(s) }
            try connection.bind(s, 1, seq)
            guard try connection.step(s, "list decisions of device \(device)") else { continue }
            result.append(try connection.json(s, 0, "a decision of device \(device)"))
        }
        return result
    }

    /// How many devices, pending links and decisions are stored.
    public func counts() throws(StoreError) -> StoreCounts {
        StoreCounts(
            devices: try connection.count(statements.countDevices),
            pendingLinks: try connection.count(statements.countPending),
            decisions: history.count
        )
    }

    /// Pending links that expire at or before `nowMs`, soonest first, at most `limit`.
    public func expiredPendingLinks(nowMs: Int64, limit: Int = 1_000) throws(StoreError) -> [PendingLink] {
        guard limit > 0 else { return [] }
        let s = statements.selectExpired
        defer { connection.reset(s) }
        try connection.bind(s, 1, nowMs)
        try connection.bind(s, 2, Int64(limit))
        var links: [PendingLink] = []
        while try connection.step(s, "list expired pending links") {
            links.append(PendingLink(device: connection.text(s, 0) ?? "", expiresMs: connection.int64(s, 1)))
        }
        return links
    }

    /// Sets `pending` to null in every state whose pending link expired at or before `nowMs`, in one
    /// transaction, and returns those devices.
    public func pruneExpiredPending(nowMs: Int64) throws(StoreError) -> [String] {
        var writes: [StoreWrite] = []
        var devices: [String] = []
        for link in try expiredPendingLinks(nowMs: nowMs, limit: Int.max) {
            devices.append(link.device)
            guard case .object(var object)? = try deviceState(link.device) else {
                writes.append(.state(device: link.device, state: nil, updatedMs: nowMs))
                continue
            }
            object["pending"] = .null
            writes.append(.state(device: link.device, state: .object(object), updatedMs: nowMs))
        }
        try commit(writes)
        return devices
    }

    /// The schema version recorded in the file (`PRAGMA user_version`).
    func schemaVersion() throws(StoreError) -> Int {
        Int(try connection.queryInt("PRAGMA user_version", "read the schema version"))
    }

    /// The journal mode in force (`wal`).
    func journalMode() throws(StoreError) -> String {
        try connection.queryText("PRAGMA journal_mode", "read the journal mode")
    }

    /// How deleted content is overwritten: 2, `FAST` (zeros where no page more is written).
    func secureDeleteMode() throws(StoreError) -> Int64 {
        try connection.queryInt("PRAGMA secure_delete", "read the deletion mode")
    }
}

@available(*, unavailable, message: "one thread owns the state store")
extension StateStore: Sendable {}
