import DeepLink
import Glibc
import JSON
import Synchronization

/// Device states, pending links and the decision history in PostgreSQL, shared by every notifyd replica that names
/// the same database (`--store postgresql://…`, docs/scaling.md).
///
/// Durability: ``commit(_:)`` sends the batch in libpq's pipeline mode, `BEGIN`, its states and its decisions in a
/// multi-row statement each (``PostgresBatch``), `COMMIT`, in one round trip, and returns once the server answered the `COMMIT`: the batch is then committed (with the
/// server's `synchronous_commit`, on its disk). A failed command aborts the batch: none of it is stored.
///
/// Replicas: each state row carries a version. This store remembers the version of every state it read or wrote
/// (``VersionBook``), and writes a state only over that version (`notifyd_put_states`); a state another replica
/// changed meanwhile fails the whole batch with ``StoreError/Code/conflict``. The router then drops the batch's
/// devices from its cache and its clients get `StateNotSaved`: their retry reads the state anew. Two replicas
/// deciding for one device at once therefore never lose either decision's state change.
///
/// Faults: a connection that broke fails what was under way with ``StoreError/Code/unavailable``; the next call
/// connects again (counted in ``reconnects``). After every commit the store notifies the channel
/// ``PostgresSchema/channel`` with its replica, devices and decisions, for the other replicas' caches and monitors.
/// Those notifications, and the history's pruning, go to a ``PostgresHousekeeper`` once ``startBackgroundWork(onFailure:)``
/// started one; until then the committing thread does them itself.
///
/// Two commit connections: once ``startBackgroundWork(onFailure:)`` ran, the ``StoreWorker`` commits on two threads,
/// each on a connection of its own (``commitSlots``), batches that share no device (see there). One backend commits
/// one batch at a time, and waits for the disk at each `COMMIT`; a second lets the next batch run meanwhile.
///
/// Threads: the loop's thread, or the worker's threads each on its slot, as ``DeviceStore`` says; what they share
/// (the counters, the version book, the housekeeper's queue) is behind locks.
final class PostgresStore: DeviceStore {
    /// The connection string without a password.
    let server: String
    /// The most decisions kept; older ones are deleted in batches after the commits that add more.
    let historyLimit: Int
    /// This process, as the history's `replica` column and the notifications name it: host and pid.
    let replica: String
    /// The schema version in force.
    let schema: Int

    /// The connection of slot 0: the loop's reads, and the commits of the worker's first thread.
    private let connection: PGConnection
    /// The connection of each commit slot, and whether it failed as a broken one does (the next call on it opens it
    /// again). Slot 1 exists once ``startBackgroundWork(onFailure:)`` opened it.
    private var committers: [Committer]
    private let conninfo: String
    let versions = VersionBook()
    /// Commits, conflicts and reconnections so far, the last failure until a call succeeds (`GetStats`' `health`),
    /// and the decisions stored since the history was last pruned: touched by every thread that commits.
    private let tally = Mutex(Tally())
    /// Notifies and prunes on a thread and connection of its own, once started.
    private var housekeeper: PostgresHousekeeper?

    /// Connects to `conninfo` and migrates its schema.
    ///
    /// - Throws: ``StoreError`` when the server cannot be reached, or its schema is newer than this notifyd's.
    init(conninfo: String, historyLimit: Int = StateStore.defaultHistoryLimit) throws(StoreError) {
        self.conninfo = conninfo
        connection = try PGConnection(conninfo: conninfo)
        server = connection.server
        self.historyLimit = max(1, historyLimit)
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, host.count - 1)
        let name = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        replica = "\(name)/\(getpid())"
        schema = try PostgresSchema.migrate(connection)
        try Self.prepare(connection)
        committers = [Committer(connection)]
    }

    deinit {
        // The housekeeper's thread holds it: ended here, after it sent the notifications queued.
        housekeeper?.stop()
    }

    /// A connection that commits, and whether it broke; used by one thread at a time.
    private final class Committer {
        let connection: PGConnection
        var broken = false

        init(_ connection: PGConnection) { self.connection = connection }
    }

    private struct Tally {
        var commits = 0
        var conflicts = 0
        var reconnects = 0
        var lastFailure: StoreError?
        var decisionsSincePrune = 0
    }

    var commitSlots: Int { committers.count }

    private static func prepare(_ connection: PGConnection) throws(StoreError) {
        try connection.prepare("select_state", "SELECT state, version FROM device_states WHERE device = $1")
        try connection.prepare("put_state", "SELECT notifyd_put_state($1, $2, $3, $4, $5)")
        try connection.prepare(
            "forget_state",
            "UPDATE device_states SET state = NULL, version = version + 1, pending_expires_ms = NULL, updated_ms = $2 "
                + "WHERE device = $1 RETURNING version")
        try connection.prepare(
            "put_states", "SELECT device, version FROM notifyd_put_states($1, $2, $3, $4, $5)")
        try connection.prepare(
            "insert_decisions",
            "INSERT INTO decisions (id, device, created_ms, outcome, page, decision, state_before, replica) "
                + "SELECT id, device, created_ms, outcome, page, decision, state_before, $8 "
                + "FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[]) "
                + "WITH ORDINALITY AS t(id, device, created_ms, outcome, page, decision, state_before, n) "
                + "ORDER BY n ON CONFLICT (id) DO NOTHING")
        try prepareNotify(connection)
    }

    /// Prepares `notify`, the statement ``notify(_:on:)`` runs, on `connection`.
    static func prepareNotify(_ connection: PGConnection) throws(StoreError) {
        try connection.prepare("notify", "SELECT pg_notify('\(PostgresSchema.channel)', $1)")
    }

    /// Runs `body` on the connection of `slot`, connecting again first if it broke, and, with `retry`, once more on
    /// a new connection after a failure that broke it.
    private func withConnection<T>(
        slot: Int = 0, retry: Bool, _ body: (PGConnection) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        let committer = committers[slot]
        do {
            return try attempt(committer, body)
        } catch {
            // libpq may still call a connection the server closed (a restart's "terminating connection") up.
            guard error.code == .unavailable else { throw error }
            committer.broken = true
            guard retry else { throw error }
            return try attempt(committer, body)
        }
    }

    /// Runs `body` on the committer's connection, reconnecting first when it is known to be broken; records the
    /// outcome.
    private func attempt<T>(
        _ committer: Committer, _ body: (PGConnection) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        do {
            if committer.broken || !committer.connection.isUp {
                tally.withLock { $0.reconnects += 1 }
                try committer.connection.reconnect()
                committer.broken = false
            }
            let value = try body(committer.connection)
            tally.withLock { $0.lastFailure = nil }
            return value
        } catch {
            tally.withLock { $0.lastFailure = error }
            throw error
        }
    }

    // MARK: States

    func deviceState(_ device: String) throws(StoreError) -> JSON? {
        try withConnection(retry: true) { (c) throws(StoreError) in
            try Self.readState(device, on: c, versions: versions)
        }
    }

    /// Reads `device`'s state and records its version (0 for a device without a row).
    static func readState(_ device: String, on c: PGConnection, versions: VersionBook) throws(StoreError) -> JSON? {
        let rows = try c.run(prepared: "select_state", [Array(device.utf8)], "read the state of device \(device)")
        guard let row = rows.rows.first else {
            versions.set(device, 0)
            return nil
        }
        versions.set(device, Int64(row[1] ?? "") ?? -1)
        guard let text = row[0] else { return nil }
        do {
            return try JSON.parse(text)
        } catch {
            throw StoreError(
                code: .corrupt, message: "the state of device \(device) is not JSON: \(error)", path: c.server)
        }
    }

    func makeReader() throws(StoreError) -> any DeviceStateReader {
        try PostgresStateReader(conninfo: conninfo, versions: versions)
    }

    func makeListener() throws(StoreError) -> ReplicaListener? {
        try ReplicaListener(conninfo: conninfo, replica: replica)
    }

    // MARK: Commit

    func commit(_ batch: consuming [StoreWrite]) throws(StoreError) {
        try commit(batch, slot: 0)
    }

    func commit(_ batch: consuming [StoreWrite], slot: Int) throws(StoreError) {
        guard !batch.isEmpty else { return }
        let writeCount = batch.count
        var built = PostgresBatch(batch, versions: versions, replica: replica)
        built.commands.append(PGConnection.Command(name: nil, sql: "COMMIT"))
        let results: [PGRows]
        do {
            // Sent again once on a new connection when the old one broke (the server restarted): had the first
            // commit gone through, the second finds the states' versions changed and fails, so that a batch is never
            // reported stored without being stored, nor stored twice (decision ids are unique).
            results = try withConnection(slot: slot, retry: true) { (c) throws(StoreError) in
                try c.pipeline(built.commands, "commit a batch of \(writeCount) writes")
            }
        } catch {
            if error.code == .conflict { tally.withLock { $0.conflicts += 1 } }
            // What this store knew of these devices' versions may be wrong now: the next read says.
            for device in built.devices { versions.remove(device) }
            throw error
        }
        built.recordVersions(results, in: versions)
        let payloads = notificationPayloads(devices: built.devices, ids: built.ids)
        let pruneEvery = max(1, min(historyLimit / 4, 10_000))
        let prune = tally.withLock { tally in
            tally.commits += 1
            tally.decisionsSincePrune += built.decisionCount
            guard tally.decisionsSincePrune >= pruneEvery else { return false }
            tally.decisionsSincePrune = 0
            return true
        }
        if let housekeeper {
            housekeeper.announce(payloads)
            if prune { housekeeper.requestPruning() }
            return
        }
        _ = try? withConnection(slot: slot, retry: false) { (c) throws(StoreError) in try Self.notify(payloads, on: c) }
        if prune {
            _ = try? withConnection(slot: slot, retry: false) { (c) throws(StoreError) in
                try Self.pruneHistory(on: c, keeping: historyLimit)
            }
        }
    }

    /// Tells the other replicas what a committed batch changed, in a transaction of its own that commits without
    /// waiting for the disk. Not in the batch's transaction: PostgreSQL serializes the commits of the transactions that
    /// notify, flush included, under one lock, which kept two replicas' commits from being flushed together. A
    /// notification lost with a connection costs a cached state, never a state change (the version check refuses a
    /// write over a stale state), and a monitor elsewhere misses that batch's decisions.
    static func notify(_ payloads: [String], on c: PGConnection) throws(StoreError) {
        guard !payloads.isEmpty else { return }
        var commands = [
            PGConnection.Command(name: nil, sql: "BEGIN"),
            PGConnection.Command(name: nil, sql: "SET LOCAL synchronous_commit TO off"),
        ]
        for payload in payloads {
            commands.append(PGConnection.Command(name: "notify", parameters: [Array(payload.utf8)]))
        }
        commands.append(PGConnection.Command(name: nil, sql: "COMMIT"))
        _ = try c.pipeline(commands, "notify a commit")
    }

    /// `replica TAB devices TAB ids`, devices and ids separated by commas, each payload under PostgreSQL's bound
    /// (8000 bytes).
    private func notificationPayloads(devices: [String], ids: [String]) -> [String] {
        var payloads: [String] = []
        var devicePart: [String] = []
        var idPart: [String] = []
        var size = replica.utf8.count + 2
        func flush() {
            guard !devicePart.isEmpty || !idPart.isEmpty else { return }
            payloads.append(
                replica + "\t" + devicePart.joined(separator: ",") + "\t" + idPart.joined(separator: ","))
            devicePart.removeAll()
            idPart.removeAll()
            size = replica.utf8.count + 2
        }
        for device in devices
        where !device.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\t") }) {
            if size + device.utf8.count + 1 > 7_000 { flush() }
            devicePart.append(device)
            size += device.utf8.count + 1
        }
        for id in ids {
            if size + id.utf8.count + 1 > 7_000 { flush() }
            idPart.append(id)
            size += id.utf8.count + 1
        }
        flush()
        return payloads
    }

    static func number(_ value: Int64) -> [UInt8] { Array(String(value).utf8) }

    /// Deletes the decisions numbered `limit` or more below the newest one, oldest first, in ranges of 10,000
    /// numbers (one short transaction each, so that no lock is held long). That keeps `limit` decisions at most:
    /// fewer by the numbers that batches rolled back took (a failed batch's decisions still drew theirs), which
    /// counting the rows, an index scan of `limit` entries at each pruning, would not.
    static func pruneHistory(on c: PGConnection, keeping limit: Int) throws(StoreError) {
        let bounds = try c.query(
            "SELECT min(seq), max(seq) FROM decisions", [], "find the oldest and the newest decision")
        let row = bounds.rows.first ?? []
        guard row.count == 2, var low = (row[0]).flatMap({ Int64($0) }), let newest = (row[1]).flatMap({ Int64($0) })
        else { return }
        let last = newest - Int64(limit)
        // Ranges of the primary key, each an index range scan in a transaction of its own: no long lock, and no plan
        // that reads the whole table to find the rows to delete.
        while low <= last {
            let high = min(low + 10_000, last + 1)
            _ = try c.query(
                "DELETE FROM decisions WHERE seq >= $1 AND seq < $2", [number(low), number(high)],
                "prune the decision history")
            low = high
        }
    }

    // MARK: History

    func decision(id: String) throws(StoreError) -> JSON? {
        let rows = try withConnection(retry: true) { (c) throws(StoreError) in
            try c.query("SELECT decision FROM decisions WHERE id = $1", [Array(id.utf8)], "read decision \(id)")
        }
        guard let text = rows.rows.first?.first ?? nil else { return nil }
        return try parse(text, "decision \(id)")
    }

    func decisions(device: String?, limit: Int) throws(StoreError) -> [JSON] {
        guard limit > 0 else { return [] }
        let rows = try withConnection(retry: true) { (c) throws(StoreError) in
            if let device {
                return try c.query(
                    "SELECT decision FROM decisions WHERE device = $1 ORDER BY seq DESC LIMIT $2",
                    [Array(device.utf8), Self.number(Int64(limit))], "list the decisions of device \(device)")
            }
            return try c.query(
                "SELECT decision FROM decisions ORDER BY seq DESC LIMIT $1", [Self.number(Int64(limit))],
                "list decisions")
        }
        var result: [JSON] = []
        for row in rows.rows { result.append(try parse(row[0] ?? "", "a decision")) }
        return result
    }

    func replayPage(
        device: String?, before: Int64?, sinceMs: Int64?, limit: Int
    ) throws(StoreError) -> (entries: [StoredHistoryEntry], next: Int64?) {
        guard limit > 0 else { return ([], nil) }
        let rows = try withConnection(retry: true) { (c) throws(StoreError) in
            try c.query(
                "SELECT seq, decision, state_before FROM decisions WHERE ($1::text IS NULL OR device = $1) "
                    + "AND seq < $2 AND created_ms >= $3 ORDER BY seq DESC LIMIT $4",
                [
                    device.map { Array($0.utf8) }, Self.number(before ?? Int64.max), Self.number(sinceMs ?? Int64.min),
                    Self.number(Int64(limit)),
                ], "read the decision history")
        }
        var entries: [StoredHistoryEntry] = []
        for row in rows.rows {
            let seq = Int64(row[0] ?? "") ?? 0
            let decision = try parse(row[1] ?? "", "decision \(seq)")
            let before = try row[2].map { (text) throws(StoreError) in try parse(text, "the state before \(seq)") }
            entries.append(StoredHistoryEntry(seq: seq, decision: decision, stateBefore: before))
        }
        guard entries.count == limit, let last = entries.last else { return (entries, nil) }
        return (entries, last.seq)
    }

    private func parse(_ text: String, _ what: String) throws(StoreError) -> JSON {
        do {
            return try JSON.parse(text)
        } catch {
            throw StoreError(code: .corrupt, message: "\(what) is not JSON: \(error)", path: server)
        }
    }

    // MARK: Counts and pending links

    func counts() throws(StoreError) -> StoreCounts {
        let rows = try withConnection(retry: true) { (c) throws(StoreError) in
            try c.query(
                "SELECT (SELECT count(*) FROM device_states WHERE state IS NOT NULL), "
                    + "(SELECT count(*) FROM device_states WHERE pending_expires_ms IS NOT NULL), "
                    + "(SELECT count(*) FROM decisions)", [], "count the stored rows")
        }
        let row = rows.rows.first ?? []
        func value(_ i: Int) -> Int { row.count > i ? Int(row[i] ?? "") ?? 0 : 0 }
        return StoreCounts(devices: value(0), pendingLinks: value(1), decisions: value(2))
    }

    func pruneExpiredPending(nowMs: Int64) throws(StoreError) -> [String] {
        let rows = try withConnection(retry: true) { (c) throws(StoreError) in
            try c.query(
                "SELECT device FROM device_states WHERE pending_expires_ms <= $1 ORDER BY pending_expires_ms "
                    + "LIMIT 1000", [Self.number(nowMs)], "list expired pending links")
        }
        var writes: [StoreWrite] = []
        var devices: [String] = []
        for row in rows.rows {
            let device = row[0] ?? ""
            devices.append(device)
            guard case .object(var object)? = try deviceState(device) else { continue }
            object["pending"] = .null
            writes.append(.state(device: device, state: .object(object), updatedMs: nowMs))
        }
        do {
            try commit(writes)
        } catch  where error.code == .conflict {
            return []  // another replica changed one of them meanwhile: the next round prunes what is left
        }
        return devices
    }

    /// Opens the second commit connection and starts the ``PostgresHousekeeper`` that notifies the other replicas
    /// and prunes the history from now on. When either cannot be opened, neither is used: the worker commits on one
    /// thread, which notifies and prunes itself.
    func startBackgroundWork(onFailure: @escaping @Sendable (StoreError) -> Void) throws(StoreError) {
        guard housekeeper == nil else { return }
        let second = try PGConnection(conninfo: conninfo)
        try Self.prepare(second)
        housekeeper = try PostgresHousekeeper(conninfo: conninfo, historyLimit: historyLimit, onFailure: onFailure)
        committers.append(Committer(second))
    }

    func statsFields() -> JSONObject {
        let tally = tally.withLock { $0 }
        return [
            "kind": "postgresql", "server": .string(server), "schema": .int(schema),
            "status": connection.isUp ? "up" : "down",
            "health": .string(tally.lastFailure.map { "\($0.code.rawValue): \($0.message)" } ?? "ok"),
            "replica": .string(replica), "commits": .int(tally.commits), "conflicts": .int(tally.conflicts),
            "reconnects": .int(tally.reconnects),
        ]
    }
}

@available(*, unavailable, message: "one thread owns the state store")
extension PostgresStore: Sendable {}

/// Reads device states on a PostgreSQL connection of its own, recording their versions in the store's
/// ``VersionBook`` (the versions the next writes of those states are made over).
final class PostgresStateReader: DeviceStateReader {
    private let connection: PGConnection
    private let versions: VersionBook

    init(conninfo: String, versions: VersionBook) throws(StoreError) {
        connection = try PGConnection(conninfo: conninfo)
        try connection.prepare("select_state", "SELECT state, version FROM device_states WHERE device = $1")
        self.versions = versions
    }

    func deviceState(_ device: String) throws(StoreError) -> JSON? {
        do {
            if !connection.isUp { try connection.reconnect() }
            return try PostgresStore.readState(device, on: connection, versions: versions)
        } catch  where error.code == .unavailable {
            try connection.reconnect()
            return try PostgresStore.readState(device, on: connection, versions: versions)
        }
    }
}

/// The version of each device's state as this process last read or wrote it, shared by the store's threads.
///
/// `@unchecked Sendable`: its one mutable property is touched only under `lock`.
final class VersionBook: @unchecked Sendable {
    private let lock = ThreadCondition()
    /// Guarded by `lock`.
    private var versions: [String: Int64] = [:]

    func get(_ device: String) -> Int64? { lock.withLock { versions[device] } }
    func set(_ device: String, _ version: Int64) { lock.withLock { versions[device] = version } }
    func remove(_ device: String) { lock.withLock { _ = versions.removeValue(forKey: device) } }
}
