import JSON

/// Reads device states on a connection of its own, so that the event loop reads a state it has not cached while the
/// store worker commits a batch on the store's connection: in WAL mode a reader never waits for a writer, and sees
/// every transaction committed when its read began.
///
/// What it does not see, a batch whose commit is not over, the loop has cached: every state of a batch not committed
/// yet is in the loop's cache until the batch is settled (``RouterService``). Used by one thread at a time.
public final class StateReader {
    private let connection: SQLiteConnection
    private let selectState: SQLiteStatement

    init(path: String) throws(StoreError) {
        connection = try SQLiteConnection.companion(of: path)
        try connection.exec("PRAGMA query_only=1", "make the reader's connection read-only")
        selectState = try connection.prepare(StoreSchema.selectState)
    }

    /// The committed navigation state of `device`, or `nil` if the device is unknown.
    public func deviceState(_ device: String) throws(StoreError) -> JSON? {
        try connection.deviceState(device, selectState)
    }
}
