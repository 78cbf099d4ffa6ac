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
        CREATE TABLE decisions (
            id TEXT PRIMARY KEY NOT NULL,
            device TEXT,
            created_ms INTEGER NOT NULL,
            outcome TEXT NOT NULL,
            page TEXT,
            decision TEXT NOT NULL
        );
        CREATE INDEX decisions_by_device ON decisions (device) WHERE device IS NOT NULL;
        """,
        // Version 2. The store keeps the history's per-device lookup in memory (``StateStore``): an index on the
        // device made every commit write a page of its own per decision, its inserts landing at random.
        """
        DROP INDEX IF EXISTS decisions_by_device;
        """,
    ]

    /// The version this build writes.
    static var currentVersion: Int32 { Int32(migrations.count) }

    // Statements prepared once per connection. Decision history order is insertion order
    // (rowid), which is creation order for decisions committed by one daemon.
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
    static let insertDecision = """
        INSERT INTO decisions (id, device, created_ms, outcome, page, decision) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
        ON CONFLICT (id) DO NOTHING
        """
    static let selectDecision = "SELECT decision FROM decisions WHERE id = ?1"
    static let selectRecent = "SELECT decision FROM decisions ORDER BY rowid DESC LIMIT ?1"
    static let selectDecisionAt = "SELECT decision FROM decisions WHERE rowid = ?1"
    static let selectPendingDevices = "SELECT device FROM pending_links"
    static let selectDeviceHistory = "SELECT rowid, device FROM decisions WHERE device IS NOT NULL ORDER BY rowid"
    static let selectOldestDecision = "SELECT min(rowid) FROM decisions"
    static let pruneOldest = """
        DELETE FROM decisions WHERE rowid IN (SELECT rowid FROM decisions ORDER BY rowid LIMIT ?1)
        """
    static let countDecisions = "SELECT count(*) FROM decisions"
    static let countDevices = "SELECT count(*) FROM device_states"
    static let countPending = "SELECT count(*) FROM pending_links"
}
