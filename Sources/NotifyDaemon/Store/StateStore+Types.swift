import DeepLink
import JSON

/// One change to the state store; a batch of them commits as one transaction.
public enum StoreWrite: Sendable {
    /// Replaces a device's navigation state with its JSON text (a DeviceState object); `nil` deletes it.
    ///
    /// A state with a pending page gives its expiry (`pendingExpiresMs`), indexed so that expired pending
    /// links can be listed and pruned without reading every state.
    case stateText(device: String, text: JSONText?, pendingExpiresMs: Int64?, updatedMs: Int64)
    /// Replaces a device's navigation state with the text `value` writes, written by the thread that commits (the
    /// daemon's event loop hands the state over and goes on); otherwise as ``stateText(device:text:pendingExpiresMs:updatedMs:)``.
    case stateValue(device: String, value: any JSONWritable, pendingExpiresMs: Int64?, updatedMs: Int64)
    /// Records a routing decision in the history (docs/design.md §3), its page's description in the `page` column
    /// and the state its device started from in `state_before` (both written by the thread that commits). A decision
    /// whose id is already stored is ignored: a recorded decision is never rewritten.
    case decision(
        id: String, device: String?, createdMs: Int64, outcome: String, page: Page?, decision: JSONText,
        stateBefore: StateBefore = .notRecorded)
    /// Deletes a device's navigation state and pending link; its past decisions stay in the
    /// bounded history.
    case forget(device: String)

    /// The state a decision's device started from, kept with the decision so that `notifyctl replay` can route it
    /// again as the device stood then (`ListHistory`).
    public enum StateBefore: Sendable {
        /// The device's state, written as JSON by the thread that commits (`state_before`).
        case state(any JSONWritable)
        /// No state: a device never seen, or no device named; the decision was a cold start (`null`).
        case coldStart
        /// Not recorded (SQL NULL): the decisions `FlowFinished` makes, which replay leaves out, and decisions stored
        /// before version 4 of the schema.
        case notRecorded
    }

    /// Replaces a device's navigation state with `state` (a DeviceState JSON object); `nil` deletes it.
    /// The pending expiry is read from `state.pending.expiresAt` (RFC 3339; unreadable means never).
    public static func state(device: String, state: JSON?, updatedMs: Int64) -> StoreWrite {
        .stateText(
            device: device, text: state.map(JSONText.init), pendingExpiresMs: state.flatMap(StateStore.pendingExpiry),
            updatedMs: updatedMs)
    }
}

/// How many rows the store holds, for `GetStats`.
public struct StoreCounts: Sendable, Hashable {
    /// Devices with a stored navigation state.
    public var devices: Int
    /// Devices whose state holds a pending link.
    public var pendingLinks: Int
    /// Decisions in the history.
    public var decisions: Int

    /// Counts as given.
    public init(devices: Int, pendingLinks: Int, decisions: Int) {
        self.devices = devices
        self.pendingLinks = pendingLinks
        self.decisions = decisions
    }
}

/// The write-ahead log and its checkpoints, for `GetStats`.
public struct CheckpointCounts: Sendable, Hashable {
    /// Frames in the log after the last commit.
    public var logFrames: Int
    /// Checkpoints the checkpoint thread ran.
    public var onThread: Int
    /// Commits that first waited for a checkpoint of the whole log (so that the log starts again).
    public var commitsThatWaited: Int
    /// Checkpoints the committing thread ran itself (no checkpoint thread, or a log at its bound).
    public var onCommittingThread: Int
    /// Checkpoints that failed (their frames stay in the log for the next one).
    public var failed: Int
}

/// A device whose state holds a pending link, and when that link expires.
public struct PendingLink: Sendable, Hashable {
    /// The device id.
    public var device: String
    /// Expiry in milliseconds since the Unix epoch (`Int64.max` when the state's
    /// `expiresAt` could not be read).
    public var expiresMs: Int64

    /// A pending link as given.
    public init(device: String, expiresMs: Int64) {
        self.device = device
        self.expiresMs = expiresMs
    }
}

/// Why the state store could not open, read or write its database, where, and how to fix it.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, machine-readable.
    public enum Code: String, Sendable, Hashable {
        /// The state directory does not exist or is not a directory.
        case directoryMissing
        /// The directory or the database file cannot be written (permissions, read-only file system).
        case readOnly
        /// The database file cannot be read (permissions).
        case unreadable
        /// SQLite could not open the file for another reason.
        case cannotOpen
        /// The file is not an SQLite database (or its header is destroyed).
        case notADatabase
        /// The database is damaged, or holds a value that is not the JSON notifyd wrote.
        case corrupt
        /// The schema was written by a newer notifyd.
        case schemaTooNew
        /// Another process holds the database locked.
        case busy
        /// The disk or quota is full.
        case diskFull
        /// The operating system reported an I/O error.
        case ioError
        /// A state or decision is larger than the store accepts.
        case tooLarge
        /// Any other SQLite failure.
        case sqlite
        /// The PostgreSQL server cannot be reached, or the connection broke (the store reconnects by itself).
        case unavailable
        /// Another replica changed a device's state since this one read it (the batch is not stored; retry).
        case conflict
        /// Any other PostgreSQL failure.
        case postgres
    }

    /// The kind of problem.
    public let code: Code
    /// SQLite's extended result code, or 0 when the problem was found before SQLite was asked.
    public let sqliteCode: Int32
    /// What failed, with SQLite's own message where there is one.
    public let message: String
    /// The database file (or the directory) concerned.
    public let path: String

    /// An error as given.
    public init(code: Code, sqliteCode: Int32 = 0, message: String, path: String) {
        self.code = code
        self.sqliteCode = sqliteCode
        self.message = message
        self.path = path
    }

    /// What the operator should do about it.
    public var remedy: String {
        switch code {
        case .directoryMissing:
            return "pass a directory as --state-dir (notifyd makes a missing one; systemd makes its own with "
                + "StateDirectory=)"
        case .readOnly:
            return "notifyd needs write access to the state directory and the database in it; "
                + "fix ownership and mode, or pass a writable --state-dir"
        case .unreadable:
            return "notifyd needs read and write access to the database; fix its ownership and mode"
        case .cannotOpen:
            return "check that the path is a regular file on a local file system and that its directory is writable"
        case .notADatabase, .corrupt:
            return "stop notifyd and move the file (with its -wal and -shm companions) aside; try "
                + "`sqlite3 FILE .recover` on the copy; notifyd then starts with empty state. "
                + "notifyd never deletes or recreates the file by itself"
        case .schemaTooNew:
            return "this database was written by a newer notifyd: run that version, or pass another --state-dir or "
                + "--store"
        case .busy:
            return "another process holds the database; is a second notifyd using the same --state-dir?"
        case .diskFull:
            return "free space on the file system that holds the state directory"
        case .ioError:
            return "check the file system and the kernel log for errors on the device"
        case .tooLarge:
            return "the batch was not stored; a state or decision exceeded the store's bound on one value"
        case .sqlite:
            return "see SQLite's message; if it persists, move the database aside"
        case .unavailable:
            return "check that PostgreSQL runs and that --store names it; notifyd reconnects by itself, and the "
                + "clients of the batches that could not be stored get StateNotSaved and retry"
        case .conflict:
            return "another replica routed the same device at the same time; retry: the retry reads the state anew"
        case .postgres:
            return "see PostgreSQL's message and the server's log"
        }
    }

    public var description: String {
        let code = sqliteCode == 0 ? "" : " (SQLite code \(sqliteCode))"
        return "\(path): \(message)\(code); \(remedy)"
    }
}
