internal import CSQLite
import JSON

// The only file that imports CSQLite: the connection, its statements, and the mapping of SQLite
// result codes to StoreError.

/// The one place that calls SQLite: each call wrapped once, failures mapped to ``StoreError``.
final class SQLiteConnection {
    let db: OpaquePointer
    let path: String
    private var prepared: [OpaquePointer] = []

    /// Configures SQLite for the process once, before the first connection initializes it: no memory statistics
    /// (nothing reads them, and they lock a process-wide mutex around each of the ≈ 28 allocations and frees of a
    /// stored decision).
    private static let configured: Bool = notifyd_sqlite_disable_memory_statistics() == SQLITE_OK

    init(path: String) throws(StoreError) {
        _ = Self.configured
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
        walFrames?.deallocate()
        scratch.deallocate()
    }

    /// Where ``bindInScratch(_:_:_:)`` copies texts, end to end, to bind them where they lie: SQLite neither copies
    /// them again nor allocates for them. ``scratchUsed`` bytes are taken since the last ``reserveScratch(_:)``.
    private var scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 1)
    private var scratchUsed = 0

    /// Where the WAL hook leaves the log's length after each commit (see ``watchWAL()``).
    private var walFrames: UnsafeMutablePointer<Int32>?

    /// Frames in the write-ahead log after the last commit of this connection (0 before ``watchWAL()``).
    var framesInWAL: Int { Int(walFrames?.pointee ?? 0) }

    /// Records the log's length after every commit instead of checkpointing: SQLite's automatic checkpoint (run by
    /// the committing connection, inside its COMMIT) is off from now on, and the store checkpoints itself.
    func watchWAL() {
        guard walFrames == nil else { return }
        let frames = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        frames.initialize(to: 0)
        walFrames = frames
        sqlite3_wal_hook(
            db,
            { context, _, _, count in
                context?.assumingMemoryBound(to: Int32.self).pointee = count
                return SQLITE_OK
            }, frames)
    }

    /// How a checkpoint treats the connections that use the log meanwhile.
    enum CheckpointMode {
        /// Copies what it can without waiting for anyone (writers go on appending meanwhile).
        case passive
        /// Waits (up to the busy timeout) for the writer and for readers of older snapshots, copies every frame, and
        /// makes the next commit start the log again from its beginning.
        case restart
    }

    /// Copies the log's committed frames into the database file (SQLite syncs the file once a checkpoint reached the
    /// end of the log). `busy` (another checkpoint is running, or a reader holds an old snapshot) is not an error: the
    /// frames wait for the next one.
    func checkpoint(_ mode: CheckpointMode) throws(StoreError) {
        let rc = sqlite3_wal_checkpoint_v2(
            db, nil, mode == .passive ? SQLITE_CHECKPOINT_PASSIVE : SQLITE_CHECKPOINT_RESTART, nil, nil)
        if rc & 0xFF == SQLITE_BUSY { return }
        try check(rc, "checkpoint the write-ahead log")
    }

    /// The state of `device` read with `s` (``StoreSchema/selectState`` prepared on this connection).
    func deviceState(_ device: String, _ s: SQLiteStatement) throws(StoreError) -> JSON? {
        defer { reset(s) }
        try bind(s, 1, device)
        guard try step(s, "read the state of device \(device)") else { return nil }
        return try json(s, 0, "the state of device \(device)")
    }

    /// Opens a second connection to a database another connection of this process configured: no migration, no
    /// check, only what a checkpoint needs.
    static func companion(of path: String) throws(StoreError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path)
        try connection.check(sqlite3_busy_timeout(connection.db, 1_000), "set the busy timeout")
        // A connection that has read nothing yet has not opened the log: a checkpoint would find no log to copy.
        let mode = try connection.queryText("PRAGMA journal_mode", "read the journal mode")
        guard mode.lowercased() == "wal" else {
            throw StoreError(code: .cannotOpen, message: "the database is not in WAL mode (got \(mode))", path: path)
        }
        return connection
    }

    /// Bounds the length of any one string, blob or row (SQLITE_LIMIT_LENGTH).
    func limitValueLength(_ bytes: Int) {
        sqlite3_limit(db, SQLITE_LIMIT_LENGTH, Int32(clamping: max(4_096, bytes)))
    }

    /// Reads the schema version (the first read of the file: a non-database fails here, before
    /// anything is written), switches to WAL, and runs pending migrations in one transaction.
    func configureAndMigrate() throws(StoreError) {
        try check(sqlite3_busy_timeout(db, 1_000), "set the busy timeout")
        // Normal locking (the store owns the directory through a lock of its own, see StateStore): the log's index
        // lives in the `-shm` file, so that a second connection can checkpoint while this one commits.
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
        // Deleted content is zeroed where that writes no page more (a row deleted from a page that is written
        // anyway); a page the history frees whole goes to the free list as it is, and the next decisions stored
        // overwrite it. Debian's default (zeroing every freed page) wrote each page of an emptied history table
        // once more, in the commit that emptied it.
        try exec("PRAGMA secure_delete=FAST", "configure deletion")
        if version > 0 { try quickCheck() }
        guard version < Int64(StoreSchema.currentVersion) else { return }
        try exec("BEGIN IMMEDIATE", "begin the schema migration")
        do {
            for step in Int(version)..<StoreSchema.migrations.count {
                try exec(StoreSchema.migrations[step], "migrate the schema to version \(step + 1)")
            }
            if version < 3, try queryInt(StoreSchema.historyHasGaps, "read the decision history") != 0 {
                try exec(StoreSchema.renumberHistory, "number the decision history")
            }
            try exec("PRAGMA user_version=\(StoreSchema.currentVersion)", "record the schema version")
            try exec("COMMIT", "commit the schema migration")
        } catch {
            if sqlite3_get_autocommit(db) == 0 { sqlite3_exec(db, "ROLLBACK", nil, nil, nil) }
            throw error
        }
    }

    /// Reads every page once (`PRAGMA quick_check`), so damage anywhere (a device's state, a pending link, the
    /// history) is reported at open rather than when that row is first read.
    func quickCheck() throws(StoreError) {
        let what = "check the database (PRAGMA quick_check)"
        let s = try prepareTransient("PRAGMA quick_check(5)", what)
        defer { sqlite3_finalize(s) }
        var problems: [String] = []
        while true {
            let rc = sqlite3_step(s)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw failure(rc, what) }
            let row = sqlite3_column_text(s, 0).map { String(cString: $0) } ?? ""
            if row != "ok" { problems.append(row) }
        }
        guard problems.isEmpty else {
            throw StoreError(
                code: .corrupt,
                message: "the database is damaged (PRAGMA quick_check: " + problems.joined(separator: "; ") + ")",
                path: path)
        }
    }

    // MARK: Statements

    func prepare(_ sql: String) throws(StoreError) -> SQLiteStatement {
        var handle: OpaquePointer?
        let rc = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard rc == SQLITE_OK, let handle else { throw failure(rc, "prepare a statement") }
        prepared.append(handle)
        return SQLiteStatement(handle: handle)
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

    private func prepareTransient(_ sql: String, _ what: @autoclosure () -> String) throws(StoreError) -> OpaquePointer
    {
        var handle: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &handle, nil)
        guard rc == SQLITE_OK, let handle else { throw failure(rc, what()) }
        return handle
    }

    /// Runs a statement that returns no rows (BEGIN, COMMIT).
    func run(_ s: SQLiteStatement, _ what: @autoclosure () -> String) throws(StoreError) {
        defer { reset(s) }
        _ = try step(s, what())
    }

    /// Rolls back the open transaction, if any; a failed rollback leaves nothing more to do.
    func rollback(_ s: SQLiteStatement) {
        guard sqlite3_get_autocommit(db) == 0 else { return }
        sqlite3_step(s.handle)
        reset(s)
    }

    /// Steps once: `true` when a row is available, `false` when done.
    func step(_ s: SQLiteStatement, _ what: @autoclosure () -> String) throws(StoreError) -> Bool {
        let rc = sqlite3_step(s.handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw failure(rc, what())
    }

    /// Binds `text` as parameter `index` where it lies (SQLite does not copy it), runs the statement to its first row
    /// or its end, resets it and binds NULL in its place: the text is only borrowed while this runs. The other
    /// parameters are bound already. Returns whether a row came.
    func step(
        _ s: SQLiteStatement, binding text: JSONText, at index: Int32, _ what: @autoclosure () -> String
    ) throws(StoreError) -> Bool {
        let codes = text.bytes.withUnsafeBytes { stepBinding(s, $0, at: index) }
        return try outcome(of: codes, what())
    }

    /// Runs `s` as ``step(_:binding:at:_:)`` does, with the UTF-8 text `text` has written as parameter `index`.
    func step(
        _ s: SQLiteStatement, binding text: borrowing ByteWriter, at index: Int32, _ what: @autoclosure () -> String
    ) throws(StoreError) -> Bool {
        let codes = text.withBytes { stepBinding(s, UnsafeRawBufferPointer($0), at: index) }
        return try outcome(of: codes, what())
    }

    /// Binds `bytes` in place, steps, resets and unbinds: SQLite's result codes of the bind and of the step.
    private func stepBinding(
        _ s: SQLiteStatement, _ bytes: UnsafeRawBufferPointer, at index: Int32
    ) -> (bound: Int32, stepped: Int32) {
        let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
        let bound = notifyd_sqlite_bind_text_in_place(s.handle, index, base, Int32(clamping: bytes.count))
        guard bound == SQLITE_OK else { return (bound, SQLITE_MISUSE) }
        let stepped = sqlite3_step(s.handle)
        sqlite3_reset(s.handle)
        sqlite3_bind_null(s.handle, index)
        return (bound, stepped)
    }

    private func outcome(
        of codes: (bound: Int32, stepped: Int32), _ what: @autoclosure () -> String
    ) throws(StoreError) -> Bool {
        try check(codes.bound, "bind a value")
        if codes.stepped == SQLITE_ROW { return true }
        if codes.stepped == SQLITE_DONE { return false }
        throw failure(codes.stepped, what())
    }

    func reset(_ s: SQLiteStatement) {
        sqlite3_reset(s.handle)
    }

    func count(_ s: SQLiteStatement) throws(StoreError) -> Int {
        defer { reset(s) }
        guard try step(s, "count rows") else { return 0 }
        return Int(sqlite3_column_int64(s.handle, 0))
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(db)) }

    /// Calls `row` with each row of `sql` (a one-off statement, finalized at the end), its parameter `?1` bound to
    /// `binding` when given.
    func forEachRow(
        _ sql: String, binding: Int64? = nil, _ what: @autoclosure () -> String, _ row: (SQLiteStatement) -> Void
    ) throws(StoreError) {
        let s = SQLiteStatement(handle: try prepareTransient(sql, what()))
        defer { sqlite3_finalize(s.handle) }
        if let binding { try bind(s, 1, binding) }
        while try step(s, what()) { row(s) }
    }

    // MARK: Values

    func bind(_ s: SQLiteStatement, _ index: Int32, _ value: Int64) throws(StoreError) {
        try check(sqlite3_bind_int64(s.handle, index, value), "bind a value")
    }

    func bind(_ s: SQLiteStatement, _ index: Int32, _ text: String?) throws(StoreError) {
        guard var text else {
            try check(sqlite3_bind_null(s.handle, index), "bind a value")
            return
        }
        let rc = text.withUTF8 { utf8 in bindText(s, index, UnsafeRawBufferPointer(utf8)) }
        try check(rc, "bind a value")
    }

    /// Starts the texts of the next statement run: room for `byteCount` bytes of them in the scratch buffer, which
    /// grows (before any text is bound there) when it is smaller. Texts bound there earlier must be bound again
    /// before their statements run again, as every statement of the store's does.
    func reserveScratch(_ byteCount: Int) {
        scratchUsed = 0
        guard byteCount > scratch.count else { return }
        scratch.deallocate()
        scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: max(byteCount, 2 * scratch.count), alignment: 1)
    }

    /// Binds `text` (`nil`: NULL) copied into the scratch buffer, where SQLite reads it without copying it again.
    /// The bytes stay until the next ``reserveScratch(_:)``, so the statement runs before that. A text that does
    /// not fit in what was reserved is bound the copying way.
    func bindInScratch(_ s: SQLiteStatement, _ index: Int32, _ text: String?) throws(StoreError) {
        let placed = text?.utf8.withContiguousStorageIfAvailable {
            placeInScratch(s, index, UnsafeRawBufferPointer($0))
        }
        guard let placed, let placed else {
            try bind(s, index, text)  // NULL, or a text that does not fit: bound the copying way
            return
        }
        try check(placed, "bind a value")
    }

    /// Binds the UTF-8 text `text` has written, as ``bindInScratch(_:_:_:)`` does a string.
    func bindInScratch(_ s: SQLiteStatement, _ index: Int32, _ text: borrowing ByteWriter) throws(StoreError) {
        let rc = text.withBytes { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            return placeInScratch(s, index, bytes) ?? bindText(s, index, bytes)
        }
        try check(rc, "bind a value")
    }

    /// Copies `bytes` into the scratch buffer and binds them there (SQLite's result code); `nil` when they do not fit
    /// what was reserved.
    private func placeInScratch(_ s: SQLiteStatement, _ index: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        let start = scratchUsed
        guard bytes.count <= scratch.count - start, let base = scratch.baseAddress else { return nil }
        if let source = bytes.baseAddress { (base + start).copyMemory(from: source, byteCount: bytes.count) }
        scratchUsed = start + bytes.count
        return notifyd_sqlite_bind_text_in_place(
            s.handle, index, (base + start).assumingMemoryBound(to: CChar.self), Int32(bytes.count))
    }

    /// Binds UTF-8 bytes that SQLite copies; an empty buffer binds "" (a null pointer would bind NULL).
    private func bindText(_ s: SQLiteStatement, _ index: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            return notifyd_sqlite_bind_text(s.handle, index, "", 0)
        }
        return notifyd_sqlite_bind_text(s.handle, index, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
    }

    func text(_ s: SQLiteStatement, _ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(s.handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(s.handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func int64(_ s: SQLiteStatement, _ column: Int32) -> Int64 {
        sqlite3_column_int64(s.handle, column)
    }

    func isNull(_ s: SQLiteStatement, _ column: Int32) -> Bool {
        sqlite3_column_type(s.handle, column) == SQLITE_NULL
    }

    /// Parses a stored JSON column; text that is not JSON means the database was altered or damaged.
    func json(_ s: SQLiteStatement, _ column: Int32, _ what: @autoclosure () -> String) throws(StoreError) -> JSON {
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
