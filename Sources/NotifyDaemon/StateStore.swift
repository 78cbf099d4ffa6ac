internal import CSQLite
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
/// Not thread-safe: one thread (the event loop) owns the store, gathers the writes of the requests
/// that arrived together, commits them as one batch, then replies. Statements are prepared once.
public final class StateStore {
    /// The database file name inside the state directory.
    public static let fileName = "notifyd.sqlite"
    /// The default bound on the decision history.
    public static let defaultHistoryLimit = 100_000

    /// The database file.
    public let path: String
    /// The most decisions kept; older ones are pruned in the transaction that adds new ones.
    public let historyLimit: Int

    private let connection: Connection
    private let statements: Statements
    private var decisionCount: Int

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
        let path = directory.hasSuffix("/") ? directory + Self.fileName : directory + "/" + Self.fileName
        try Self.preflight(directory: directory, path: path)
        let connection = try Connection(path: path)
        connection.limitValueLength(maxValueBytes)
        try connection.configureAndMigrate()
        self.statements = try Statements(connection)
        self.connection = connection
        self.path = path
        self.historyLimit = max(0, historyLimit)
        self.decisionCount = try connection.count(statements.countDecisions)
    }

    /// The stored navigation state of `device`, or `nil` if the device is unknown.
    public func deviceState(_ device: String) throws(StoreError) -> JSON? {
        let s = statements.selectState
        defer { connection.reset(s) }
        try connection.bind(s, 1, device)
        guard try connection.step(s, "read the state of device \(device)") else { return nil }
        return try connection.json(s, 0, "the state of device \(device)")
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
    public func commit(_ batch: [StoreWrite]) throws(StoreError) {
        guard !batch.isEmpty else { return }
        let countBefore = decisionCount
        try connection.run(statements.begin, "begin a transaction")
        do {
            for write in batch { try apply(write) }
            if decisionCount > historyLimit { try pruneHistory() }
            try connection.run(statements.commit, "commit a transaction")
        } catch {
            connection.rollback(statements.rollback)
            decisionCount = countBefore
            throw error
        }
    }

    /// The decision with `id`, or `nil` if it is not (or no longer) in the history.
    public func decision(id: String) throws(StoreError) -> JSON? {
        let s = statements.selectDecision
        defer { connection.reset(s) }
        try connection.bind(s, 1, id)
        guard try connection.step(s, "read decision \(id)") else { return nil }
        return try connection.json(s, 0, "decision \(id)")
    }

    /// Up to `limit` decisions, newest first, of `device` (or of all devices when `nil`).
    public func decisions(device: String?, limit: Int) throws(StoreError) -> [JSON] {
        guard limit > 0 else { return [] }
        let s = device == nil ? statements.selectRecent : statements.selectRecentForDevice
        defer { connection.reset(s) }
        if let device {
            try connection.bind(s, 1, device)
            try connection.bind(s, 2, Int64(limit))
        } else {
            try connection.bind(s, 1, Int64(limit))
        }
        var result: [JSON] = []
        while try connection.step(s, "list decisions") {
            result.append(try connection.json(s, 0, "a decision of device \(device ?? "(any)")"))
        }
        return result
    }

    /// How many devices, pending links and decisions are stored.
    public func counts() throws(StoreError) -> StoreCounts {
        StoreCounts(
            devices: try connection.count(statements.countDevices),
            pendingLinks: try connection.count(statements.countPending),
            decisions: decisionCount
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

    // MARK: - Writes

    private func apply(_ write: StoreWrite) throws(StoreError) {
        switch write {
        case .state(let device, let state?, let updatedMs):
            let s = statements.upsertState
            defer { connection.reset(s) }
            try connection.bind(s, 1, device)
            try connection.bind(s, 2, json: state)
            try connection.bind(s, 3, updatedMs)
            _ = try connection.step(s, "store the state of device \(device)")
            if let expiresMs = Self.pendingExpiry(in: state) {
                let p = statements.upsertPending
                defer { connection.reset(p) }
                try connection.bind(p, 1, device)
                try connection.bind(p, 2, expiresMs)
                _ = try connection.step(p, "index the pending link of device \(device)")
            } else {
                try deletePending(device)
            }
        case .state(let device, nil, _), .forget(let device):
            let s = statements.deleteState
            defer { connection.reset(s) }
            try connection.bind(s, 1, device)
            _ = try connection.step(s, "delete the state of device \(device)")
            try deletePending(device)
        case .decision(let id, let device, let createdMs, let outcome, let page, let decision):
            let s = statements.insertDecision
            defer { connection.reset(s) }
            try connection.bind(s, 1, id)
            try connection.bind(s, 2, device)
            try connection.bind(s, 3, createdMs)
            try connection.bind(s, 4, outcome)
            try connection.bind(s, 5, page)
            try connection.bind(s, 6, json: decision)
            _ = try connection.step(s, "record decision \(id)")
            decisionCount += connection.changes
        }
    }

    private func deletePending(_ device: String) throws(StoreError) {
        let s = statements.deletePending
        defer { connection.reset(s) }
        try connection.bind(s, 1, device)
        _ = try connection.step(s, "delete the pending link of device \(device)")
    }

    private func pruneHistory() throws(StoreError) {
        let s = statements.pruneOldest
        defer { connection.reset(s) }
        try connection.bind(s, 1, Int64(decisionCount - historyLimit))
        _ = try connection.step(s, "prune the decision history")
        decisionCount -= connection.changes
    }

    // MARK: - Opening

    /// Checks the directory and file before SQLite sees them, so permission problems read plainly.
    private static func preflight(directory: String, path: String) throws(StoreError) {
        var info = stat()
        guard stat(directory, &info) == 0 else {
            let e = errno
            let code: StoreError.Code = e == ENOENT || e == ENOTDIR ? .directoryMissing : .unreadable
            throw StoreError(code: code, message: "cannot use state directory: \(errnoText(e))", path: directory)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw StoreError(code: .directoryMissing, message: "the state directory is not a directory", path: directory)
        }
        guard faccessat(AT_FDCWD, directory, W_OK | X_OK, AT_EACCESS) == 0 else {
            throw StoreError(
                code: .readOnly, message: "the state directory is not writable: \(errnoText(errno))", path: directory)
        }
        guard lstat(path, &info) == 0 else { return }  // a new database
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw StoreError(code: .cannotOpen, message: "the database is not a regular file", path: path)
        }
        guard faccessat(AT_FDCWD, path, R_OK, AT_EACCESS) == 0 else {
            throw StoreError(code: .unreadable, message: "cannot read the database: \(errnoText(errno))", path: path)
        }
        guard faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0 else {
            throw StoreError(code: .readOnly, message: "cannot write the database: \(errnoText(errno))", path: path)
        }
    }

    private static func errnoText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

@available(*, unavailable, message: "one thread owns the state store")
extension StateStore: Sendable {}

/// The statements the store runs, prepared once when it opens.
private struct Statements {
    let begin, commit, rollback: Statement
    let selectState, selectDevices, upsertState, deleteState: Statement
    let upsertPending, deletePending, selectExpired: Statement
    let insertDecision, selectDecision, selectRecent, selectRecentForDevice, pruneOldest: Statement
    let countDecisions, countDevices, countPending: Statement

    init(_ c: Connection) throws(StoreError) {
        begin = try c.prepare("BEGIN IMMEDIATE")
        commit = try c.prepare("COMMIT")
        rollback = try c.prepare("ROLLBACK")
        selectState = try c.prepare(StoreSchema.selectState)
        selectDevices = try c.prepare(StoreSchema.selectDevices)
        upsertState = try c.prepare(StoreSchema.upsertState)
        deleteState = try c.prepare(StoreSchema.deleteState)
        upsertPending = try c.prepare(StoreSchema.upsertPending)
        deletePending = try c.prepare(StoreSchema.deletePending)
        selectExpired = try c.prepare(StoreSchema.selectExpired)
        insertDecision = try c.prepare(StoreSchema.insertDecision)
        selectDecision = try c.prepare(StoreSchema.selectDecision)
        selectRecent = try c.prepare(StoreSchema.selectRecent)
        selectRecentForDevice = try c.prepare(StoreSchema.selectRecentForDevice)
        pruneOldest = try c.prepare(StoreSchema.pruneOldest)
        countDecisions = try c.prepare(StoreSchema.countDecisions)
        countDevices = try c.prepare(StoreSchema.countDevices)
        countPending = try c.prepare(StoreSchema.countPending)
    }
}

/// A prepared statement owned (and finalized) by its ``Connection``.
private struct Statement {
    let handle: OpaquePointer
}

/// The one place that calls SQLite: each call wrapped once, failures mapped to ``StoreError``.
private final class Connection {
    let db: OpaquePointer
    let path: String
    private var prepared: [OpaquePointer] = []
    private var scratch: [UInt8] = []

    init(path: String) throws(StoreError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close_v2(handle)
            throw Self.error(rc, "cannot open the database: \(message)", path: path)
        }
        db = handle
        self.path = path
        sqlite3_extended_result_codes(db, 1)
    }

    deinit {
        for statement in prepared { sqlite3_finalize(statement) }
        sqlite3_close_v2(db)
    }

    /// Bounds the length of any one string, blob or row (SQLITE_LIMIT_LENGTH).
    func limitValueLength(_ bytes: Int) {
        sqlite3_limit(db, SQLITE_LIMIT_LENGTH, Int32(clamping: max(4_096, bytes)))
    }

    /// Reads the schema version (the first read of the file: a non-database fails here, before
    /// anything is written), switches to WAL, and runs pending migrations in one transaction.
    func configureAndMigrate() throws(StoreError) {
        try check(sqlite3_busy_timeout(db, 2_000), "set the busy timeout")
        // One owner: the daemon holds the file lock from the first read on, so a second notifyd on the
        // same directory fails with `busy`, and WAL needs no shared-memory file and no lock calls
        // per transaction.
        _ = try queryText("PRAGMA locking_mode=EXCLUSIVE", "take exclusive ownership")
        let version = try queryInt("PRAGMA user_version", "read the schema version")
        guard version <= Int64(StoreSchema.currentVersion) else {
            throw StoreError(
                code: .schemaTooNew,
                message: "schema version \(version) is newer than this notifyd's \(StoreSchema.currentVersion)",
                path: path)
        }
        let mode = try queryText("PRAGMA journal_mode=WAL", "switch to WAL mode")
        guard mode.lowercased() == "wal" else {
            throw StoreError(code: .cannotOpen, message: "the file system refused WAL mode (got \(mode))", path: path)
        }
        try exec("PRAGMA synchronous=NORMAL; PRAGMA journal_size_limit=67108864", "configure durability")
        guard version < Int64(StoreSchema.currentVersion) else { return }
        try exec("BEGIN IMMEDIATE", "begin the schema migration")
        do {
            for step in Int(version)..<StoreSchema.migrations.count {
                try exec(StoreSchema.migrations[step], "migrate the schema to version \(step + 1)")
            }
            try exec("PRAGMA user_version=\(StoreSchema.currentVersion)", "record the schema version")
            try exec("COMMIT", "commit the schema migration")
        } catch {
            if sqlite3_get_autocommit(db) == 0 { sqlite3_exec(db, "ROLLBACK", nil, nil, nil) }
            throw error
        }
    }

    // MARK: Statements

    func prepare(_ sql: String) throws(StoreError) -> Statement {
        var handle: OpaquePointer?
        let rc = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard rc == SQLITE_OK, let handle else { throw failure(rc, "prepare a statement") }
        prepared.append(handle)
        return Statement(handle: handle)
    }

    func exec(_ sql: String, _ what: @autoclosure () -> String) throws(StoreError) {
        try check(sqlite3_exec(db, sql, nil, nil, nil), what())
    }

    func queryInt(_ sql: String, _ what: @autoclosure () -> String) throws(StoreError) -> Int64 {
        let s = try prepareTransient(sql, what())
        defer { sqlite3_finalize(s) }
        let rc = sqlite3_step(s)
        guard rc == SQLITE_ROW else { throw failure(rc, what()) }
        return sqlite3_column_int64(s, 0)
    }

    func queryText(_ sql: String, _ what: @autoclosure () -> String) throws(StoreError) -> String {
        let s = try prepareTransient(sql, what())
        defer { sqlite3_finalize(s) }
        let rc = sqlite3_step(s)
        guard rc == SQLITE_ROW else { throw failure(rc, what()) }
        return sqlite3_column_text(s, 0).map { String(cString: $0) } ?? ""
    }

    private func prepareTransient(_ sql: String, _ what: @autoclosure () -> String) throws(StoreError) -> OpaquePointer {
        var handle: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &handle, nil)
        guard rc == SQLITE_OK, let handle else { throw failure(rc, what()) }
        return handle
    }

    /// Runs a statement that returns no rows (BEGIN, COMMIT).
    func run(_ s: Statement, _ what: @autoclosure () -> String) throws(StoreError) {
        defer { reset(s) }
        _ = try step(s, what())
    }

    /// Rolls back the open transaction, if any; a failed rollback leaves nothing more to do.
    func rollback(_ s: Statement) {
        guard sqlite3_get_autocommit(db) == 0 else { return }
        sqlite3_step(s.handle)
        reset(s)
    }

    /// Steps once: `true` when a row is available, `false` when done.
    func step(_ s: Statement, _ what: @autoclosure () -> String) throws(StoreError) -> Bool {
        let rc = sqlite3_step(s.handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw failure(rc, what())
    }

    func reset(_ s: Statement) {
        sqlite3_reset(s.handle)
    }

    func count(_ s: Statement) throws(StoreError) -> Int {
        defer { reset(s) }
        guard try step(s, "count rows") else { return 0 }
        return Int(sqlite3_column_int64(s.handle, 0))
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(db)) }

    // MARK: Values

    func bind(_ s: Statement, _ index: Int32, _ value: Int64) throws(StoreError) {
        try check(sqlite3_bind_int64(s.handle, index, value), "bind a value")
    }

    func bind(_ s: Statement, _ index: Int32, _ text: String?) throws(StoreError) {
        guard var text else {
            try check(sqlite3_bind_null(s.handle, index), "bind a value")
            return
        }
        let rc = text.withUTF8 { utf8 in bindText(s, index, UnsafeRawBufferPointer(utf8)) }
        try check(rc, "bind a value")
    }

    /// Binds the compact JSON text of `value`.
    func bind(_ s: Statement, _ index: Int32, json value: JSON) throws(StoreError) {
        scratch.removeAll(keepingCapacity: true)
        value.write(into: &scratch)
        let rc = scratch.withUnsafeBytes { bytes in bindText(s, index, bytes) }
        try check(rc, "bind a value")
    }

    /// Binds UTF-8 bytes that SQLite copies; an empty buffer binds "" (a null pointer would bind NULL).
    private func bindText(_ s: Statement, _ index: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            return notifyd_sqlite_bind_text(s.handle, index, "", 0)
        }
        return notifyd_sqlite_bind_text(s.handle, index, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
    }

    func text(_ s: Statement, _ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(s.handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(s.handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func int64(_ s: Statement, _ column: Int32) -> Int64 {
        sqlite3_column_int64(s.handle, column)
    }

    /// Parses a stored JSON column; text that is not JSON means the database was altered or damaged.
    func json(_ s: Statement, _ column: Int32, _ what: @autoclosure () -> String) throws(StoreError) -> JSON {
        guard let bytes = sqlite3_column_text(s.handle, column) else {
            throw StoreError(code: .corrupt, message: "\(what()) is missing", path: path)
        }
        let count = Int(sqlite3_column_bytes(s.handle, column))
        do {
            return try JSON.parse(UnsafeRawBufferPointer(start: bytes, count: count))
        } catch {
            throw StoreError(code: .corrupt, message: "\(what()) is not valid JSON: \(error)", path: path)
        }
    }

    // MARK: Errors

    func check(_ rc: Int32, _ what: @autoclosure () -> String) throws(StoreError) {
        guard rc == SQLITE_OK else { throw failure(rc, what()) }
    }

    func failure(_ rc: Int32, _ what: String) -> StoreError {
        Self.error(rc, "cannot \(what): \(String(cString: sqlite3_errmsg(db)))", path: path)
    }

    static func error(_ rc: Int32, _ message: String, path: String) -> StoreError {
        let code: StoreError.Code
        switch rc & 0xFF {
        case SQLITE_NOTADB: code = .notADatabase
        case SQLITE_CORRUPT: code = .corrupt
        case SQLITE_READONLY: code = .readOnly
        case SQLITE_PERM, SQLITE_AUTH: code = .unreadable
        case SQLITE_CANTOPEN: code = .cannotOpen
        case SQLITE_BUSY, SQLITE_LOCKED: code = .busy
        case SQLITE_FULL: code = .diskFull
        case SQLITE_IOERR: code = .ioError
        case SQLITE_TOOBIG: code = .tooLarge
        default: code = .sqlite
        }
        return StoreError(code: code, sqliteCode: rc, message: message, path: path)
    }
}
