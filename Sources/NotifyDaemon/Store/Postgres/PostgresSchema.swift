/// The PostgreSQL layout, versioned in the table `notifyd_schema` (one row per migration applied).
///
/// `migrations[i]` takes a database from version `i` to version `i + 1`. Replicas starting together migrate one at a
/// time (a transaction-scoped advisory lock); a database whose version is newer than the binary's is refused. Never
/// edit a shipped migration: append a new one.
enum PostgresSchema {
    /// The advisory lock that migrations hold (any number no other program of the database uses).
    static let migrationLock = 4_604_612_046

    /// The channel of `NOTIFY`: each commit names its replica, its devices and its decisions there.
    static let channel = "notifyd_decisions"

    static let migrations: [String] = [
        // Version 1. States carry a version that every write increases: a replica writes a state only over the
        // version it read (`notifyd_put_states` for a batch's states, `notifyd_put_state` for one), so that two replicas routing one device never lose a change. A
        // forgotten device keeps its row, state NULL, so that its version goes on increasing (no ABA). The history
        // is ordered by `seq`, listed by device through an index, and pruned in batches.
        """
        CREATE TABLE device_states (
            device text PRIMARY KEY,
            state text,
            version bigint NOT NULL,
            pending_expires_ms bigint,
            updated_ms bigint NOT NULL
        );
        CREATE INDEX device_states_by_pending_expiry ON device_states (pending_expires_ms)
            WHERE pending_expires_ms IS NOT NULL;
        CREATE TABLE decisions (
            seq bigserial PRIMARY KEY,
            id text NOT NULL UNIQUE,
            device text,
            created_ms bigint NOT NULL,
            outcome text NOT NULL,
            page text,
            decision text NOT NULL,
            state_before text,
            replica text NOT NULL
        );
        CREATE INDEX decisions_by_device ON decisions (device, seq) WHERE device IS NOT NULL;
        CREATE FUNCTION notifyd_put_state(
            p_device text, p_state text, p_expected bigint, p_pending bigint, p_updated bigint
        ) RETURNS bigint LANGUAGE plpgsql AS $$
        DECLARE
            v bigint;
        BEGIN
            IF p_expected < 0 THEN
                INSERT INTO device_states AS d (device, state, version, pending_expires_ms, updated_ms)
                    VALUES (p_device, p_state, 1, p_pending, p_updated)
                    ON CONFLICT (device) DO UPDATE SET state = excluded.state, version = d.version + 1,
                        pending_expires_ms = excluded.pending_expires_ms, updated_ms = excluded.updated_ms
                    RETURNING version INTO v;
            ELSIF p_expected = 0 THEN
                INSERT INTO device_states (device, state, version, pending_expires_ms, updated_ms)
                    VALUES (p_device, p_state, 1, p_pending, p_updated)
                    ON CONFLICT (device) DO NOTHING
                    RETURNING version INTO v;
            ELSE
                UPDATE device_states SET state = p_state, version = version + 1, pending_expires_ms = p_pending,
                        updated_ms = p_updated
                    WHERE device = p_device AND version = p_expected
                    RETURNING version INTO v;
            END IF;
            IF v IS NULL THEN
                RAISE EXCEPTION 'the state of device % changed on another replica', p_device
                    USING ERRCODE = 'serialization_failure';
            END IF;
            RETURN v;
        END
        $$;
        CREATE FUNCTION notifyd_put_states(
            p_devices text[], p_states text[], p_expected bigint[], p_pending bigint[], p_updated bigint[]
        ) RETURNS TABLE (device text, version bigint) LANGUAGE plpgsql AS $$
        BEGIN
            -- A statement per row, not one join of the arrays with the table: each keeps its cached plan, an index
            -- lookup, whatever the table's statistics say.
            FOR i IN 1 .. coalesce(cardinality(p_devices), 0) LOOP
                device := p_devices[i];
                version := notifyd_put_state(p_devices[i], p_states[i], p_expected[i], p_pending[i], p_updated[i]);
                RETURN NEXT;
            END LOOP;
        END
        $$;
        """,
        // Version 2. A batch's states in one statement instead of a statement per row: an update joined with the
        // batch's rows where the version is the one the replica read, and an insert for the devices it found without
        // a row (or whose version it does not know). A row left out, because its version moved on or it appeared
        // meanwhile, fails the batch as before. The lock order stays the batch's order (devices sorted).
        """
        CREATE OR REPLACE FUNCTION notifyd_put_states(
            p_devices text[], p_states text[], p_expected bigint[], p_pending bigint[], p_updated bigint[]
        ) RETURNS TABLE (device text, version bigint) LANGUAGE plpgsql AS $$
        DECLARE
            written bigint;
        BEGIN
            RETURN QUERY
                WITH input AS (
                    SELECT * FROM unnest(p_devices, p_states, p_expected, p_pending, p_updated)
                        AS t(device, state, expected, pending, updated)
                ), updated AS (
                    UPDATE device_states AS d SET state = i.state, version = d.version + 1,
                            pending_expires_ms = i.pending, updated_ms = i.updated
                        FROM input AS i
                        WHERE i.expected > 0 AND d.device = i.device AND d.version = i.expected
                        RETURNING d.device, d.version
                ), inserted AS (
                    INSERT INTO device_states AS d (device, state, version, pending_expires_ms, updated_ms)
                        SELECT i.device, i.state, 1, i.pending, i.updated FROM input AS i WHERE i.expected <= 0
                        ON CONFLICT ON CONSTRAINT device_states_pkey DO UPDATE SET state = excluded.state,
                            version = d.version + 1, pending_expires_ms = excluded.pending_expires_ms,
                            updated_ms = excluded.updated_ms
                        WHERE (SELECT i.expected FROM input AS i WHERE i.device = excluded.device) < 0
                        RETURNING d.device, d.version
                )
                SELECT * FROM updated UNION ALL SELECT * FROM inserted;
            GET DIAGNOSTICS written = ROW_COUNT;
            IF written < coalesce(cardinality(p_devices), 0) THEN
                RAISE EXCEPTION 'the state of a device of the batch changed on another replica'
                    USING ERRCODE = 'serialization_failure';
            END IF;
        END
        $$;
        """,
    ]

    /// Creates the version table if need be and applies the migrations the database lacks, in one transaction;
    /// returns the version now in force.
    static func migrate(_ connection: PGConnection) throws(StoreError) -> Int {
        try connection.exec("BEGIN", "begin the schema's migration")
        do throws(StoreError) {
            try connection.exec(
                """
                SET LOCAL client_min_messages = warning;
                SELECT pg_advisory_xact_lock(\(migrationLock));
                CREATE TABLE IF NOT EXISTS notifyd_schema (
                    version integer PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now()
                );
                """, "create the schema's version table")
            let rows = try connection.query(
                "SELECT coalesce(max(version), 0) FROM notifyd_schema", [], "read the schema's version")
            let version = Int(rows.rows.first?.first??.description ?? "0") ?? 0
            guard version <= migrations.count else {
                throw StoreError(
                    code: .schemaTooNew,
                    message: "the database's schema is version \(version), newer than this notifyd knows "
                        + "(\(migrations.count))",
                    path: connection.server)
            }
            for v in version..<migrations.count {
                try connection.exec(migrations[v], "migrate the schema to version \(v + 1)")
                try connection.exec(
                    "INSERT INTO notifyd_schema (version) VALUES (\(v + 1))", "record the schema's version")
            }
            try connection.exec("COMMIT", "commit the schema's migration")
            return migrations.count
        } catch {
            try? connection.exec("ROLLBACK", "roll the migration back")
            throw error
        }
    }
}
