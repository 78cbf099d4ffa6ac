import JSON

/// Hears the other replicas' commits (`LISTEN` on ``PostgresSchema/channel``) on a connection of its own, whose
/// socket the event loop watches: each commit names its replica, the devices whose states it changed and the
/// decisions it stored (``PostgresStore`` notifies them once the batch is committed, in a transaction of its own, so
/// never for a batch rolled back).
///
/// LISTEN/NOTIFY rather than polling the history: a replica hears of a change as soon as it is committed, with no
/// query while nothing happens, and the notification carries the devices to drop from the cache, which the history
/// alone (without the state changes of `FlowFinished` and `SetState`) would not. What it does not promise, delivery
/// while the connection is down, the version check on every state write makes up for: a state cached from before
/// is never written over a newer one (``DeviceStore``).
final class ReplicaListener {
    /// One commit of another replica.
    struct Commit {
        var devices: [Substring]
        var ids: [Substring]
    }

    private let connection: PGConnection
    /// `replica TAB`, how this replica's own notifications begin (they come back to it too).
    private let ownPrefix: [UInt8]

    init(conninfo: String, replica: String) throws(StoreError) {
        connection = try PGConnection(conninfo: conninfo)
        ownPrefix = Array((replica + "\t").utf8)
        try connection.exec("LISTEN \(PostgresSchema.channel)", "listen to the other replicas")
    }

    /// The connection's socket, readable when a notification (or the connection's end) arrives.
    var descriptor: FileDescriptor? { connection.socket }

    /// The other replicas' commits received so far; throws when the connection broke (``reconnect()``).
    ///
    /// Payloads are split on their UTF-8 bytes (a tab and commas, which never occur inside a character), and this
    /// replica's own are skipped by their prefix: one arrives for every commit of every replica, this one's included
    /// (what splitting them by `Character` cost: docs/benchmarks.md, "Off the committing connection").
    func receive() throws(StoreError) -> [Commit] {
        var commits: [Commit] = []
        for (_, payload) in try connection.notifications() {
            let bytes = payload.utf8
            guard !bytes.starts(with: ownPrefix) else { continue }
            let parts = bytes.split(separator: UInt8(ascii: "\t"), maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            func items(_ part: Substring.UTF8View) -> [Substring] {
                part.split(separator: UInt8(ascii: ",")).map { payload[$0.startIndex..<$0.endIndex] }
            }
            commits.append(Commit(devices: items(parts[1]), ids: items(parts[2])))
        }
        return commits
    }

    /// Connects again and listens anew; returns the new socket.
    func reconnect() throws(StoreError) -> FileDescriptor? {
        try connection.reconnect()
        try connection.exec("LISTEN \(PostgresSchema.channel)", "listen to the other replicas")
        return connection.socket
    }

    /// The decisions with `ids`, in the order they were stored, as stored.
    func decisions(ids: [Substring]) throws(StoreError) -> [JSONText] {
        guard !ids.isEmpty else { return [] }
        let rows = try connection.query(
            "SELECT decision FROM decisions WHERE id = ANY(string_to_array($1, ',')) ORDER BY seq",
            [Array(ids.joined(separator: ",").utf8)], "read the decisions of another replica")
        return rows.rows.map { JSONText(bytes: Array(($0[0] ?? "null").utf8)) }
    }
}

@available(*, unavailable, message: "the event loop's thread uses it")
extension ReplicaListener: Sendable {}
