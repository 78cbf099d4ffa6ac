import Glibc
import JSON
import Varlink

/// Accepts clients on the listening socket and moves varlink frames between sockets and the
/// ``CallHandler``, enforcing the limits of docs/design.md §7: message size, JSON depth, connections in
/// total and per uid, idle time, and a per-connection output bound (a client that does not read
/// its replies is not read from until it does).
///
/// Durable replies wait for their batch's commit, which runs on the store's thread while the loop goes on. Between
/// two connections' frames (not only at the end of the turn), a commit that is over is settled, its replies go out,
/// and what was gathered meanwhile goes to the store when it is idle: clients send their next requests while the loop
/// is still busy with others, and the loop and the store work at the same time.
final class Server {
    let loop: EventLoop
    let settings: Settings
    /// Not counted in release builds (see ``Uncounted``, which the closures the server hands its loop hold it by): the
    /// server's owner keeps the handler for as long as it runs the loop. Debug builds check it.
    #if DEBUG
    unowned let handler: CallHandler
    #else
    unowned(unsafe) let handler: CallHandler
    #endif
    /// Says when the replies that wait for a commit may go out; `nil` where every reply is ready (a lane's server).
    /// Held as the handler is.
    #if DEBUG
    unowned let commits: (any CommitOutcomes)?
    #else
    unowned(unsafe) let commits: (any CommitOutcomes)?
    #endif
    var listenFD: FileDescriptor?
    var connections: [FileDescriptor: ClientConnection] = [:]
    var connectionsPerUID: [UInt32: Int] = [:]
    var nextConnectionID: UInt64 = 0
    let outbox = Outbox()
    var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// Reused for every frame (see ``read(_:_:)``).
    var tape = JSONTape()
    /// Connections whose replies wait for a commit that is not over.
    var awaitingCommit: [ClientConnection] = []
    /// Connections that used their frame budget with frames still buffered, in the order they ran out.
    var backlog: [ClientConnection] = []
    var backlogTurnScheduled = false
    /// The listening socket reported a waiting client during this batch.
    var acceptReady = false
    /// Set by ``beginStop(drained:)``: called when the last connection is closed.
    var onDrained: (() -> Void)?
    /// ``onDrained`` ran, and no connection came (from a lane) since.
    var drainedReported = false
    /// On the main loop's server when lanes run (see ``Lane``): offered each connection accepted (its descriptor, id
    /// and peer), true when a lane took it. The caps still count it here.
    var handOff: ((FileDescriptor, UInt64, PeerCredentials) -> Bool)?
    /// On a lane's server: takes a connection with a call the lane does not answer, to the main loop's server, at
    /// the end of the turn (see ``Lane``).
    var migrate: ((MigratedConnection) -> Void)?
    /// Connections handed to lanes and still open there.
    var laneConnections = 0
    /// Connections to migrate at the end of this turn.
    var migrating: [MigratedConnection] = []

    /// Frames one connection may have handled per turn of the loop before the others get theirs: a client
    /// pipelining thousands of requests shares the loop with a client sending one.
    static let framesPerTurn = 64

    /// The most nodes (32 bytes each) the reused tape keeps between frames: a call of ≈ 32 KB.
    static let tapeCapacityKept = 4_096

    /// Connections accepted since start.
    var acceptedTotal = 0
    /// Connections refused at a cap.
    var refusedTotal = 0
    /// Connections closed for breaking the protocol or a limit.
    var droppedTotal = 0

    /// Open connections now (on the lanes too, for the main loop's server).
    var connectionCount: Int { connections.count + laneConnections }

    init(
        loop: EventLoop, listenFD: FileDescriptor?, settings: Settings, handler: CallHandler,
        commits: (any CommitOutcomes)? = nil
    ) {
        self.loop = loop
        self.listenFD = listenFD
        self.settings = settings
        self.handler = handler
        self.commits = commits
    }

    /// Starts accepting, the idle sweep, and the end-of-batch commit and flush. `commitDescriptor` becomes readable
    /// when a commit made off the loop's thread is over: the replies that waited for it are written then.
    func start(commitDescriptor: FileDescriptor? = nil) throws(Errno) {
        if let commitDescriptor {
            try loop.register(commitDescriptor, events: Poll.input) { [me] _ in
                let server = me.value
                server.commits?.endBatch()
                server.settleAwaiting()
            }
        }
        if let listenFD {
            try loop.register(listenFD, events: Poll.input) { [me] _ in me.value.acceptReady = true }
        }
        loop.afterEachBatch { [me] in
            let server = me.value
            server.endBatch()
            server.handOverMigrating()
            if server.isStopping { server.closeFinishedConnections() }
            // Accepting after the batch's closes: a client that hung up and reconnects at once is not refused
            // at a connection cap for the connection it just closed.
            if server.acceptReady {
                server.acceptReady = false
                server.acceptAll()
            }
        }
        loop.schedule(after: 1_000_000_000, repeating: true) { [me] in me.value.closeIdleConnections() }
    }

    /// Queues a reply outside a call (monitor streams use this).
    var sharedOutbox: Outbox { outbox }

    /// The server as the closures it hands its loop hold it: not counted (see ``Uncounted``). Its owner keeps it for
    /// as long as it runs the loop, which calls those closures only from ``EventLoop/run()``.
    var me: Uncounted<Server> { Uncounted(self) }

    // MARK: accepting

    func acceptAll() {
        guard let listenFD else { return }
        for _ in 0..<64 {
            let fd: FileDescriptor?
            do {
                fd = try Sys.acceptNonBlocking(listenFD)
            } catch {
                // EMFILE and friends: try again on the next event rather than spin.
                return
            }
            guard let fd else { return }
            // After a refusal the rest wait for the next turn, whose hang-ups are handled before accepting: a
            // client that closed a connection and opened another is not refused for the one it closed.
            guard admit(fd) else { return }
        }
    }

    /// Takes `fd` as a client connection; false when a connection cap refused it.
    func admit(_ fd: FileDescriptor) -> Bool {
        let peer: PeerCredentials
        do {
            peer = try Sys.peerCredentials(fd)
        } catch {
            Sys.close(fd)
            return true
        }
        let perUID = connectionsPerUID[peer.uid, default: 0]
        guard connectionCount < settings.maxConnections, perUID < settings.maxConnectionsPerUID else {
            refusedTotal += 1
            Sys.close(fd)
            return false
        }
        nextConnectionID += 1
        if let handOff, handOff(fd, nextConnectionID, peer) {
            laneConnections += 1
        } else if !open(fd, id: nextConnectionID, peer: peer) {
            return true
        }
        connectionsPerUID[peer.uid] = perUID + 1
        acceptedTotal += 1
        return true
    }

    /// Serves `fd` as a client connection with `id`; false (`fd` closed) when the loop cannot watch it. A lane's
    /// server opens the connections the main loop's hands it this way.
    @discardableResult
    func open(_ fd: FileDescriptor, id: UInt64, peer: PeerCredentials) -> Bool {
        let connection = ClientConnection(
            fd: fd, id: id, peer: peer, maxMessageBytes: settings.maxMessageBytes, now: Sys.monotonicNanoseconds())
        do {
            try loop.register(fd, events: (Poll.input | Poll.peerClosed)) { [me] events in
                me.value.ready(connection, events: events)
            }
        } catch {
            Sys.close(fd)
            return false
        }
        connections[fd] = connection
        return true
    }

    /// A connection handed to a lane was closed there.
    func laneConnectionClosed(uid: UInt32) {
        laneConnections -= 1
        if let n = connectionsPerUID[uid] { connectionsPerUID[uid] = n > 1 ? n - 1 : nil }
    }

    /// A lane's server closed a connection for breaking the protocol.
    func countLaneDrop() {
        droppedTotal += 1
    }

    // MARK: writing

    func endBatch() {
        // Writing may resume a paused reader whose buffered frames add replies: settle those too.
        var rounds = 0
        while !outbox.isEmpty || !awaitingCommit.isEmpty, rounds < 8 {
            rounds += 1
            commits?.endBatch()
            if !awaitingCommit.isEmpty { settleAwaiting() }
            outbox.takeDirty { connection in
                if !connection.state.isClosed { settle(connection) }
            }
            if outbox.isEmpty { break }
        }
    }

    /// Moves the connection's settled replies to its output and writes them; remembers it when some still wait.
    func settle(_ connection: ClientConnection) {
        let done = connection.settleSlots { batch in
            // A server without a pipeline (a lane's) queues only ready replies; with one, a durable reply waits while
            // its batch has no outcome (`nil`).
            guard let commits else { return true }
            return commits.outcome(ofBatch: batch)
        }
        if !done, !connection.onAwaitingCommitList {
            connection.onAwaitingCommitList = true
            awaitingCommit.append(connection)
        }
        writable(connection)
    }

    /// Settles the connections whose replies waited for a commit (those still waiting stay on the list).
    func settleAwaiting() {
        let waiting = awaitingCommit
        awaitingCommit.removeAll(keepingCapacity: true)
        for connection in waiting {
            connection.onAwaitingCommitList = false
            if !connection.state.isClosed { settle(connection) }
        }
        if isStopping { closeFinishedConnections() }
    }

    func writable(_ connection: ClientConnection) {
        guard connection.flush() else {
            close(connection)
            return
        }
        let pending = connection.pendingOutputBytes
        if pending == 0, connection.state.isClosing, connection.slots.isEmpty {
            close(connection)
            return
        }
        let wantWrite = pending > 0
        var changed = wantWrite != connection.watchedForOutput
        connection.watchedForOutput = wantWrite
        if case .readPaused = connection.state, pending < settings.maxOutputBytes / 2 {
            connection.state.resumeReading()
            changed = true
        }
        if changed { updateInterest(connection) }
        if !connection.state.isReadPaused, !connection.onBacklog, connection.decoder.bufferedByteCount > 0,
            pending < settings.maxOutputBytes
        {
            // Frames that arrived while reading was paused.
            processFrames(connection)
            if case .migrated = connection.state { return }
            if connection.queuedBytes >= settings.maxOutputBytes { pauseReading(connection) }
        }
    }

    // MARK: closing

    /// Closes one connection now.
    func close(_ connection: ClientConnection) {
        guard connection.state.close() else { return }
        loop.unregister(connection.fd)
        Sys.close(connection.fd)
        connections[connection.fd] = nil
        if let n = connectionsPerUID[connection.peer.uid] {
            connectionsPerUID[connection.peer.uid] = n > 1 ? n - 1 : nil
        }
        handler.connectionClosed(connection)
    }

    func closeIdleConnections() {
        let now = Sys.monotonicNanoseconds()
        let limit = UInt64(settings.idleTimeoutSeconds) * 1_000_000_000
        for connection in Array(connections.values)
        where !connection.isStreaming && connection.pendingOutputBytes == 0 && connection.slots.isEmpty
            && now &- connection.lastActivity > limit
        {
            close(connection)
        }
    }

    /// Stops accepting new clients; the listening socket is closed.
    func stopAccepting() {
        guard let listenFD else { return }
        loop.unregister(listenFD)
        Sys.close(listenFD)
        self.listenFD = nil
    }

    /// Begins a graceful stop: stops accepting, and closes each connection once it has nothing left to do.
    ///
    /// Connections are still read and answered as usual, so every request a client sent before the stop is
    /// answered (also those the kernel still holds behind a paused reader), in order, as the client reads its
    /// replies. A connection is closed once nothing of it is buffered, queued or waiting in the kernel: the
    /// client reads its last reply, then end of stream. `drained` runs when no connection is left; the caller
    /// bounds the wait and then calls ``closeAll()``. On the main loop's server with lanes, a connection a lane
    /// migrates afterwards is served and closed the same way, and `drained` runs again once it is closed.
    func beginStop(drained: @escaping () -> Void) {
        stopAccepting()
        onDrained = drained
        closeFinishedConnections()
    }

    func closeFinishedConnections() {
        // Connections migrating from a lane go first: the main loop learns of them before it learns the lane drained.
        handOverMigrating()
        for connection in Array(connections.values) where isFinished(connection) { close(connection) }
        guard connections.isEmpty, !drainedReported, let drained = onDrained else { return }
        drainedReported = true
        drained()
    }

    /// ``beginStop(drained:)`` was called.
    var isStopping: Bool { onDrained != nil }

    /// Nothing to answer or write: no frame buffered or unread, no reply queued.
    func isFinished(_ connection: ClientConnection) -> Bool {
        !connection.onBacklog && connection.slots.isEmpty && connection.pendingOutputBytes == 0
            && connection.decoder.bufferedByteCount == 0 && connection.oversizeBytes == nil
            && !Sys.hasInput(connection.fd)
    }

    /// Closes every connection left; returns how many there were.
    @discardableResult
    func closeAll() -> Int {
        let left = Array(connections.values)
        for connection in left { close(connection) }
        return left.count
    }
}
