/// The database layout, versioned with `PRAGMA user_version`.
///
/// `migrations[i]` takes a database from version `i` to version `i + 1`; a new database starts at
/// version 0 and runs them all. Never edit a shipped migration: append a new one.
enum StoreSchema {
    /// Migration scripts, oldest first.
    static let migrations: [String] = [
        // Version 1.
        """
        CREATE TABLE device_states (
            device TEXT PRIMARY KEY NOT NULL,
            state TEXT NOT NULL,
            updated_ms INTEGER NOT NULL
        );
        CREATE TABLE pending_links (
            device TEXT PRIMARY KEY NOT NULL,
            expires_ms INTEGER NOT NULL
        );
        CREATE INDEX pending_links_by_expiry ON pending_links (expires_ms);
        CREATE TABLE decisions \(historyTableColumns);
        CREATE INDEX decisions_by_device ON decisions (device) WHERE device IS NOT NULL;
        """,
        // Version 2. The store keeps the history's per-device lookup in memory (``StateStore``): an index on the
        // device made every commit write a page of its own per decision, its inserts landing at random.
        """
        DROP INDEX IF EXISTS decisions_by_device;
        """,
        // Version 3. The history rotates through tables of its own (see ``HistorySegments``): the oldest decisions
        // leave it by whole tables, emptied at once, not row by row.
        historySegmentsMigration,
        // Version 4. Each decision keeps the state its device started from, so that `notifyctl replay` can route it
        // again as the device stood then (``StoreWrite/StateBefore``); the rows stored before keep NULL there.
        stateBeforeMigration,
    ]

    /// The tables the decision history rotates through (part of migration 3: never changed).
    static let historySegmentCount = 5

    /// The name of history table `k`.
    static func segment(_ k: Int) -> String { "decisions_\(k)" }

    /// Version 3: the history tables, the first decision still in the history (`history_bounds`), the version 2
    /// history as the first table (renamed: its rows stay where they are, their rowids their sequence numbers), and a
    /// view `decisions` of the decisions in the history, for `sqlite3`.
    private static var historySegmentsMigration: String {
        var sql = """
            ALTER TABLE decisions RENAME TO \(segment(0));
            CREATE TABLE history_bounds (
                singleton INTEGER PRIMARY KEY CHECK (singleton = 0),
                first_seq INTEGER NOT NULL
            );
            INSERT INTO history_bounds (singleton, first_seq)
                VALUES (0, coalesce((SELECT min(rowid) FROM \(segment(0))), 1));

            """
        for k in 1..<historySegmentCount { sql += "CREATE TABLE \(segment(k)) \(historyTableColumns);\n" }
        return sql + decisionsView(historyColumns)
    }

    private static let historyColumns = "id, device, created_ms, outcome, page, decision"

    /// Version 4: `state_before` in every history table (adding a column rewrites no row), and the view with it.
    private static var stateBeforeMigration: String {
        var sql = ""
        for k in 0..<historySegmentCount { sql += "ALTER TABLE \(segment(k)) ADD COLUMN state_before TEXT;\n" }
        return sql + "DROP VIEW decisions;\n" + decisionsView(historyColumns + ", state_before")
    }

    /// `CREATE VIEW decisions`: `columns` of the decisions in the history, with their sequence numbers, for `sqlite3`.
    private static func decisionsView(_ columns: String) -> String {
        let selects = (0..<historySegmentCount).map { k in
            "    SELECT rowid AS seq, \(columns) FROM \(segment(k)) WHERE rowid >= (SELECT first_seq FROM history_bounds)"
        }
        return "CREATE VIEW decisions AS\n" + selects.joined(separator: "\n    UNION ALL\n") + ";\n"
    }

    /// The columns of a history table, as version 1 declared them (its text unchanged).
    private static let historyTableColumns = """
        (
            id TEXT PRIMARY KEY NOT NULL,
            device TEXT,
            created_ms INTEGER NOT NULL,
            outcome TEXT NOT NULL,
            page TEXT,
            decision TEXT NOT NULL
        )
        """

    /// After migration 3, when the rowids of the version 2 history have gaps (sequence numbers have none): its rows
    /// numbered again from 1, in their order.
    static let renumberHistory = """
        CREATE TEMP TABLE renumbered AS
            SELECT row_number() OVER (ORDER BY rowid) AS seq, \(historyColumns) FROM \(segment(0));
        DELETE FROM \(segment(0));
        INSERT INTO \(segment(0)) (rowid, \(historyColumns)) SELECT seq, \(historyColumns) FROM renumbered ORDER BY seq;
        DROP TABLE renumbered;
        UPDATE history_bounds SET first_seq = 1;
        """

    /// Whether the version 2 history's rowids have gaps: `1` or `0`.
    static let historyHasGaps = "SELECT count(*) > 0 AND count(*) < max(rowid) - min(rowid) + 1 FROM \(segment(0))"

    /// The version this build writes.
    static var currentVersion: Int32 { Int32(migrations.count) }

    // Statements prepared once per connection. Decision history order is the order decisions were stored in (their
    // sequence numbers), which is creation order for decisions committed by one daemon.
    static let selectState = "SELECT state FROM device_states WHERE device = ?1"
    static let selectDevices = "SELECT device FROM device_states ORDER BY device"
    static let upsertState = """
        INSERT INTO device_states (device, state, updated_ms) VALUES (?1, ?2, ?3)
        ON CONFLICT (device) DO UPDATE SET state = excluded.state, updated_ms = excluded.updated_ms
        """
    static let updateState = "UPDATE device_states SET state = ?2, updated_ms = ?3 WHERE device = ?1"
    static let deleteState = "DELETE FROM device_states WHERE device = ?1"
    static let upsertPending = """
        INSERT INTO pending_links (device, expires_ms) VALUES (?1, ?2)
        ON CONFLICT (device) DO UPDATE SET expires_ms = excluded.expires_ms
        """
    static let deletePending = "DELETE FROM pending_links WHERE device = ?1"
    static let selectExpired = """
        SELECT device, expires_ms FROM pending_links WHERE expires_ms <= ?1 ORDER BY expires_ms, device LIMIT ?2
        """
    static let selectPendingDevices = "SELECT device FROM pending_links"
    static let setFirstDecision = "UPDATE history_bounds SET first_seq = ?1"
    static let selectFirstDecision = "SELECT first_seq FROM history_bounds"

    // Statements on history table `k`; a decision's sequence number is its rowid there.
    static func insertDecision(_ k: Int) -> String {
        """
        INSERT INTO \(segment(k)) (id, device, created_ms, outcome, page, decision, rowid, state_before)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (id) DO NOTHING
        """
    }
    /// The history for replay, newest first: rows from sequence number `?1` up to below `?2`, at most `?3`.
    static func selectReplayPage(_ k: Int) -> String {
        """
        SELECT rowid, decision, state_before, created_ms FROM \(segment(k))
        WHERE rowid >= ?1 AND rowid < ?2 ORDER BY rowid DESC LIMIT ?3
        """
    }
    /// One decision for replay, by sequence number.
    static func selectReplayAt(_ k: Int) -> String {
        "SELECT rowid, decision, state_before, created_ms FROM \(segment(k)) WHERE rowid = ?1"
    }
    static func selectDecision(_ k: Int) -> String { "SELECT rowid, decision FROM \(segment(k)) WHERE id = ?1" }
    static func selectRecent(_ k: Int) -> String {
        "SELECT decision FROM \(segment(k)) WHERE rowid >= ?1 ORDER BY rowid DESC LIMIT ?2"
    }
    static func selectDecisionAt(_ k: Int) -> String { "SELECT decision FROM \(segment(k)) WHERE rowid = ?1" }
    static func clearSegment(_ k: Int) -> String { "DELETE FROM \(segment(k))" }
    static func greatestID(_ k: Int) -> String { "SELECT max(id) FROM \(segment(k))" }
    static func segmentBounds(_ k: Int) -> String { "SELECT min(rowid), max(rowid) FROM \(segment(k))" }
    static func selectDeviceHistory(_ k: Int) -> String {
        "SELECT rowid, device FROM \(segment(k)) WHERE device IS NOT NULL AND rowid >= ?1 ORDER BY rowid"
    }
    static let countDevices = "SELECT count(*) FROM device_states"
    static let countPending = "SELECT count(*) FROM pending_links"
}
