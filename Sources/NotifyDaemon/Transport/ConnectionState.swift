/// Where a client connection is in its life on a server, from accepted (or adopted from a lane) to closed: one value
/// per connection, as sd-varlink and SwiftNIO keep, rather than flags set here and there. It changes only through the
/// transitions below, each of which says the states it leaves from.
///
/// ```
/// reading ⇄ readPaused         reading → migrated → reading   (a lane's server to the main loop's)
///    │           │
///    ▼           ▼
/// closing(readPaused: false) → closing(readPaused: true)
///
/// every state but migrated → closed
/// ```
///
/// What is not the connection's life stays beside it in ``ClientConnection``, set only by the type that owns it: the
/// lists it is on (the outbox's, the server's backlog and its connections awaiting a commit), whether epoll watches
/// it for output, and whether a `Monitor` call streams on it.
enum ConnectionState: Equatable {
    /// Its frames are read and handled as the socket delivers them.
    case reading
    /// Not read: its queued replies reached the output bound. Reading resumes once the client has read them down to
    /// half the bound; frames already buffered are handled then.
    case readPaused
    /// Closed once its queued output is written, after a protocol violation or the end of its input; no further frame
    /// is handled. `readPaused` is false from a violation found while handling frames (not while reading) until the
    /// next readable event, which pauses reading: the socket is watched for input until then.
    ///
    /// The end of the input needs no state of its own: reading is paused right after it is seen, and a closing
    /// connection never reads again.
    case closing(readPaused: Bool)
    /// Handed by a lane's server to the main loop's (see ``Lane``): the lane no longer reads, writes or closes it.
    case migrated
    /// Its descriptor is closed: nothing is read, handled or written any more.
    case closed

    // MARK: what the server asks

    /// Its socket is not watched for input (a closed connection's is not watched at all).
    var isReadPaused: Bool {
        switch self {
        case .readPaused, .closing(readPaused: true), .closed: return true
        case .reading, .closing(readPaused: false), .migrated: return false
        }
    }

    /// Its buffered frames are handled: neither closing, migrated nor closed.
    var handlesFrames: Bool {
        switch self {
        case .reading, .readPaused: return true
        case .closing, .migrated, .closed: return false
        }
    }

    /// Closed once its queued output is written.
    var isClosing: Bool {
        if case .closing = self { return true }
        return false
    }

    var isClosed: Bool {
        if case .closed = self { return true }
        return false
    }

    /// No longer this server's: closed, or migrated to the main loop's.
    var hasLeft: Bool {
        switch self {
        case .migrated, .closed: return true
        case .reading, .readPaused, .closing: return false
        }
    }

    // MARK: transitions

    /// Stops reading: from `reading` (the output bound is reached) to `readPaused`, or from `closing` to `closing`
    /// with reading paused. Returns false, changing nothing, when reading was paused already or the connection is
    /// closed.
    mutating func pauseReading() -> Bool {
        switch self {
        case .reading: self = .readPaused
        case .closing(readPaused: false): self = .closing(readPaused: true)
        case .readPaused, .closing(readPaused: true), .closed: return false
        case .migrated:
            assertionFailure("a migrated connection is no longer this server's to pause")
            return false
        }
        return true
    }

    /// Reads again: from `readPaused` only, once the client has read its replies down to half the bound (a closing
    /// connection is never resumed).
    mutating func resumeReading() {
        assert(self == .readPaused, "only a paused reader resumes")
        self = .reading
    }

    /// Closes once the queued output is written, handling no further frame: from `reading` or `readPaused`, keeping
    /// whether reading is paused, for a protocol violation or the end of the input. A closing or closed connection
    /// stays as it is.
    mutating func closeAfterOutput() {
        switch self {
        case .reading: self = .closing(readPaused: false)
        case .readPaused: self = .closing(readPaused: true)
        case .closing, .closed: break
        case .migrated: assertionFailure("a migrated connection is no longer this server's to close")
        }
    }

    /// Leaves a lane's server for the main loop's: from `reading` only (a lane migrates a connection while handling
    /// its frames, which it does only while reading).
    mutating func migrate() {
        assert(self == .reading, "a lane migrates only a connection it reads")
        self = .migrated
    }

    /// Taken over by the main loop's server: from `migrated`, reading again.
    mutating func adopt() {
        assert(self == .migrated, "only a migrated connection is adopted")
        self = .reading
    }

    /// Closed now: from every state but `migrated` (the main loop's server adopts a migrated connection before it
    /// can close it). Returns false, changing nothing, when it was closed already.
    mutating func close() -> Bool {
        assert(self != .migrated, "a migrated connection is closed by the server that adopts it")
        if case .closed = self { return false }
        self = .closed
        return true
    }
}
