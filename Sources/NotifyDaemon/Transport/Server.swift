import Glibc
import JSON
import Varlink

/// What the server hands each decoded call to: the daemon's method implementations. Their replies go to the outbox,
/// ready or waiting for a batch's commit (see ``CommitOutcomes``, which the server asks when they may go out).
protocol CallHandler: AnyObject {
    /// Handles one call; replies go to `outbox` (nothing for `oneway`).
    func handle(_ call: VarlinkCall, from connection: ClientConnection, outbox: Outbox)
    /// Handles a call read from a tape when the handler has a fast way for it, answering true; false (before
    /// doing anything) leaves the call to ``handle(_:from:outbox:)``.
    func handle(_ call: VarlinkCallView, from connection: ClientConnection, outbox: Outbox) -> Bool
    /// The connection is gone (monitors unsubscribe here).
    func connectionClosed(_ connection: ClientConnection)
    /// A client broke the protocol; its connection is being closed.
    func protocolViolation(_ error: VarlinkProtocolError, connection: ClientConnection)
    /// On a lane's server: answers a call read into a tree when the lane can (the varlink service's own methods),
    /// answering true; false (before doing anything) migrates the connection (see ``Lane``).
    func answerOnLane(_ call: VarlinkCall, from connection: ClientConnection, outbox: Outbox) -> Bool
    /// Answers a call whose frame nests deeper than the limit with a typed error, answering true; false leaves it
    /// a protocol violation (the connection closes).
    func answerTooDeep(_ head: VarlinkCallHead, from connection: ClientConnection, outbox: Outbox) -> Bool
}

extension CallHandler {
    /// No fast way: every call is read into a tree.
    func handle(_ call: VarlinkCallView, from connection: ClientConnection, outbox: Outbox) -> Bool { false }

    /// Not a lane's handler: nothing is answered there.
    func answerOnLane(_ call: VarlinkCall, from connection: ClientConnection, outbox: Outbox) -> Bool { false }

    /// No typed error for nesting: the connection closes.
    func answerTooDeep(_ head: VarlinkCallHead, from connection: ClientConnection, outbox: Outbox) -> Bool { false }
}

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
    private let loop: EventLoop
    private let settings: Settings
    /// Not counted in release builds (see ``Uncounted``, which the closures the server hands its loop hold it by): the
    /// server's owner keeps the handler for as long as it runs the loop. Debug builds check it.
    #if DEBUG
    private unowned let handler: CallHandler
    #else
    private unowned(unsafe) let handler: CallHandler
    #endif
    /// Says when the replies that wait for a commit may go out; `nil` where every reply is ready (a lane's server).
    /// Held as the handler is.
    #if DEBUG
    private unowned let commits: (any CommitOutcomes)?
    #else
    private unowned(unsafe) let commits: (any CommitOutcomes)?
    #endif
    private var listenFD: FileDescriptor?
    private var connections: [FileDescriptor: ClientConnection] = [:]
    private var connectionsPerUID: [UInt32: Int] = [:]
    private var nextConnectionID: UInt64 = 0
    private let outbox = Outbox()
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// Reused for every frame (see ``read(_:_:)``).
    private var tape = JSONTape()
    /// Connections whose replies wait for a commit that is not over.
    private var awaitingCommit: [ClientConnection] = []
    /// Connections that used their frame budget with frames still buffered, in the order they ran out.
    private var backlog: [ClientConnection] = []
    private var backlogTurnScheduled = false
    /// The listening socket reported a waiting client during this batch.
    private var acceptReady = false
    /// Set by ``beginStop(drained:)``: called when the last connection is closed.
    private var onDrained: (() -> Void)?
    /// ``onDrained`` ran, and no connection came (from a lane) since.
    private var drainedReported = false
    /// On the main loop's server when lanes run (see ``Lane``): offered each connection accepted (its descriptor, id
    /// and peer), true when a lane took it. The caps still count it here.
    var handOff: ((FileDescriptor, UInt64, PeerCredentials) -> Bool)?
    /// On a lane's server: takes a connection with a call the lane does not answer, to the main loop's server, at
    /// the end of the turn (see ``Lane``).
    var migrate: ((ClientConnection) -> Void)?
    /// Connections handed to lanes and still open there.
    private(set) var laneConnections = 0
    /// Connections to migrate at the end of this turn.
    private var migrating: [ClientConnection] = []

    /// Frames one connection may have handled per turn of the loop before the others get theirs: a client
    /// pipelining thousands of requests shares the loop with a client sending one.
    static let framesPerTurn = 64

    /// The most nodes (32 bytes each) the reused tape keeps between frames: a call of ≈ 32 KB.
    static let tapeCapacityKept = 4_096

    /// Connections accepted since start.
    private(set) var acceptedTotal = 0
    /// Connections refused at a cap.
    private(set) var refusedTotal = 0
    /// Connections closed for breaking the protocol or a limit.
    private(set) var droppedTotal = 0

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
    private var me: Uncounted<Server> { Uncounted(self) }

    // MARK: accepting

    private func acceptAll() {
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
    private func admit(_ fd: FileDescriptor) -> Bool {
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

    // MARK: moving connections between loops

    /// Takes over a connection a lane's server migrated (see ``Lane``): the call it put back and the frames behind it
    /// are handled here, after the replies the lane queued, which are written first.
    func adopt(_ connection: ClientConnection) {
        connection.state.adopt()
        laneConnections -= 1
        drainedReported = false
        connections[connection.fd] = connection
        do {
            try loop.register(connection.fd, events: (Poll.input | Poll.peerClosed)) { [me] events in
                me.value.ready(connection, events: events)
            }
        } catch {
            close(connection)
            return
        }
        connection.lastActivity = Sys.monotonicNanoseconds()
        processFrames(connection)
        if connection.state.isClosing {
            pauseReading(connection)
            outbox.enqueue(.ready(.encoded([])), to: connection)
        } else if connection.queuedBytes >= settings.maxOutputBytes {
            pauseReading(connection)
        }
        if !connection.state.isClosed { settle(connection) }
        settleFinishedCommit()
    }

    /// On a lane's server: puts `frame` back and takes the connection off this loop, its replies so far settled
    /// (a lane's are all ready) into its output. It goes to ``migrate`` at the end of the turn; nothing here
    /// touches it after this.
    private func migrateOut(_ connection: ClientConnection, putting frame: ArraySlice<UInt8>) {
        connection.decoder.unread(frame)
        outbox.remove(connection)
        connection.settleSlots { _ in true }
        if connection.onBacklog {
            backlog.removeAll { $0 === connection }
            connection.onBacklog = false
        }
        loop.unregister(connection.fd)
        connections[connection.fd] = nil
        connection.watchedForOutput = false
        connection.state.migrate()
        migrating.append(connection)
    }

    private func handOverMigrating() {
        guard !migrating.isEmpty, let migrate else { return }
        for connection in migrating { migrate(connection) }
        migrating.removeAll(keepingCapacity: true)
    }

    // MARK: reading

    private func ready(_ connection: ClientConnection, events: UInt32) {
        if events & Poll.output != 0 {
            writable(connection)
            if connection.state.hasLeft { return }
        }
        // After the end of the input, reading is paused (see ``ConnectionState/closing(readPaused:)``).
        if events & (Poll.input | Poll.peerClosed | Poll.hangUp | Poll.error) != 0, !connection.state.isReadPaused {
            readable(connection)
        } else if events & Poll.error != 0 {
            close(connection)
        }
    }

    private func readable(_ connection: ClientConnection) {
        // A backlogged connection reads again once its buffered frames are handled; the kernel holds the rest.
        guard !connection.onBacklog else { return }
        connection.lastActivity = Sys.monotonicNanoseconds()
        var reads = 0
        while reads < 4, !connection.onBacklog, connection.state.handlesFrames,
            connection.queuedBytes < settings.maxOutputBytes
        {
            reads += 1
            let n: Int?
            do {
                n = try readBuffer.withUnsafeMutableBytes { raw throws(Errno) in try Sys.read(connection.fd, into: raw)
                }
            } catch {
                close(connection)
                return
            }
            guard let n else { break }
            if n == 0 {
                // End of the input: closing, and reading is paused below.
                connection.state.closeAfterOutput()
                if let seen = connection.oversizeBytes {
                    connection.oversizeBytes = nil
                    violation(.messageTooLarge(size: seen, max: settings.maxMessageBytes, complete: false), connection)
                }
                break
            }
            if connection.oversizeBytes != nil {
                readBuffer.withUnsafeBytes { skipOversize(connection, UnsafeRawBufferPointer(rebasing: $0[..<n])) }
            } else {
                readBuffer.withUnsafeBytes { connection.decoder.append(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
                processFrames(connection)
            }
            if n < readBuffer.count { break }
        }
        switch connection.state {
        case .migrated:
            return
        case .closed:
            break
        case .closing:
            pauseReading(connection)
            // Closed at the end of the batch, once the replies before it are written.
            outbox.enqueue(.ready(.encoded([])), to: connection)
        case .reading, .readPaused:
            if connection.queuedBytes >= settings.maxOutputBytes {
                // Frames still in the decoder are handled once the client has read its replies.
                pauseReading(connection)
            } else {
                writeReadyReplies(connection)
            }
        }
        settleFinishedCommit()
    }

    /// Writes the connection's replies now when the first of them waits for no commit: the client reads them while
    /// the other connections are handled, rather than at the end of the turn.
    private func writeReadyReplies(_ connection: ClientConnection) {
        if connection.firstReplyIsReady { settle(connection) }
    }

    /// Ends the batch between two connections when the pipeline has work for it (see ``CommitOutcomes/batchIsDue``):
    /// the replies of a finished commit are written and the batch gathered since goes to the store now.
    private func settleFinishedCommit() {
        guard let commits, commits.batchIsDue else { return }
        commits.endBatch()
        settleAwaiting()
    }

    /// Handles buffered frames until none is left, the client's queued replies reach the output bound, or the
    /// connection used its ``framesPerTurn``; in the last case it joins the backlog for the next turn.
    private func processFrames(_ connection: ClientConnection) {
        var budget = Self.framesPerTurn
        while connection.state.handlesFrames, connection.queuedBytes < settings.maxOutputBytes {
            if budget == 0 {
                deferToNextTurn(connection)
                return
            }
            budget -= 1
            let frame: ArraySlice<UInt8>?
            do {
                frame = try connection.decoder.nextFrame()
            } catch {
                if let seen = connection.decoder.cutOffMessageBytes {
                    // Over the limit before its NUL: read on to the NUL, dropping the bytes, so that
                    // PayloadTooLarge reports the message's real size.
                    connection.oversizeBytes = seen
                    connection.decoder = FrameDecoder(maxMessageSize: settings.maxMessageBytes)
                } else {
                    violation(error, connection)
                }
                return
            }
            guard let frame else { return }
            let call: VarlinkCall
            switch read(frame, connection) {
            case .handled:
                continue
            case .call(let read):
                guard migrate == nil else {
                    // A lane answers the calls it can on its own; the main loop answers the rest, in order.
                    if handler.answerOnLane(read, from: connection, outbox: outbox) { continue }
                    migrateOut(connection, putting: frame)
                    return
                }
                call = read
            case .left:
                guard migrate == nil else {
                    migrateOut(connection, putting: frame)
                    return
                }
                do {
                    call = try VarlinkCall(frame: frame, maxDepth: settings.maxJSONDepth)
                } catch {
                    // Nesting past the limit leaves the frame well-formed: a call whose method can be read gets a
                    // typed error and the connection goes on.
                    if error.cause?.code == .tooDeep, !connection.isStreaming,
                        let head = frame.withUnsafeBytes({
                            VarlinkCallHead(tooDeep: $0, maxDepth: settings.maxJSONDepth)
                        }),
                        handler.answerTooDeep(head, from: connection, outbox: outbox)
                    {
                        continue
                    }
                    violation(error, connection)
                    return
                }
            }
            guard !connection.isStreaming else {
                // Its reply could only come after the Monitor stream, which ends only with the connection.
                violation(
                    VarlinkProtocolError(
                        .callDuringStream,
                        "\(call.method) arrived on a connection whose Monitor call is still streaming; a monitoring "
                            + "connection accepts no further calls: make them on another connection"), connection)
                return
            }
            handler.handle(call, from: connection, outbox: outbox)
        }
    }

    /// What reading a frame from a tape came to.
    private enum TapeReading {
        /// The handler answered the call from the tape.
        case handled
        /// A valid call, as a tree.
        case call(VarlinkCall)
        /// Not read: the tree parser reads the frame or reports what is wrong with it.
        case left
    }

    /// Reads `frame` into the tape and offers the call to the handler's fast way (not while a Monitor call
    /// streams: the call is refused below).
    private func read(_ frame: ArraySlice<UInt8>, _ connection: ClientConnection) -> TapeReading {
        // The tape is taken out for the call, so that a handler that comes back here finds one of its own.
        var tape = JSONTape()
        swap(&tape, &self.tape)
        defer {
            // A tape grown by an unusually large frame is let go rather than kept for the daemon's lifetime.
            if tape.capacity <= Self.tapeCapacityKept { swap(&tape, &self.tape) }
        }
        return frame.withUnsafeBytes { bytes in
            guard tape.parse(bytes, maxDepth: settings.maxJSONDepth) else { return .left }
            return tape.withRoot(bytes) { root in
                guard let view = VarlinkCallView(root) else { return .left }
                if !connection.isStreaming, handler.handle(view, from: connection, outbox: outbox) { return .handled }
                return .call(view.call)
            }
        }
    }

    /// Drops the bytes of an over-long message up to its NUL, then reports its size and closes the connection.
    private func skipOversize(_ connection: ClientConnection, _ bytes: UnsafeRawBufferPointer) {
        guard let seen = connection.oversizeBytes, let base = bytes.baseAddress else { return }
        guard let nul = memchr(base, 0, bytes.count) else {
            connection.oversizeBytes = seen + bytes.count
            return
        }
        connection.oversizeBytes = nil
        let size = seen + base.distance(to: UnsafeRawPointer(nul))
        violation(.messageTooLarge(size: size, max: settings.maxMessageBytes, complete: true), connection)
    }

    /// Queues `connection` to continue with its buffered frames after every other ready connection had its turn.
    private func deferToNextTurn(_ connection: ClientConnection) {
        guard !connection.onBacklog else { return }
        connection.onBacklog = true
        backlog.append(connection)
        guard !backlogTurnScheduled else { return }
        backlogTurnScheduled = true
        // Due at once: the loop polls without waiting, handles whatever became ready, then this.
        loop.schedule(after: 0) { [me] in me.value.runBacklog() }
    }

    private func runBacklog() {
        backlogTurnScheduled = false
        let waiting = backlog
        backlog.removeAll(keepingCapacity: true)
        for connection in waiting where !connection.state.isClosed {
            connection.onBacklog = false
            guard !connection.state.isReadPaused else { continue }  // resumed by `writable` once the client reads
            processFrames(connection)
            if case .migrated = connection.state { continue }
            if connection.queuedBytes >= settings.maxOutputBytes {
                pauseReading(connection)
            } else {
                writeReadyReplies(connection)
            }
            settleFinishedCommit()
        }
    }

    private func violation(_ error: VarlinkProtocolError, _ connection: ClientConnection) {
        droppedTotal += 1
        handler.protocolViolation(error, connection: connection)
        connection.state.closeAfterOutput()
        outbox.enqueue(.ready(.encoded([])), to: connection)
    }

    private func pauseReading(_ connection: ClientConnection) {
        guard connection.state.pauseReading() else { return }
        updateInterest(connection)
    }

    private func updateInterest(_ connection: ClientConnection) {
        var events: UInt32 = 0
        if !connection.state.isReadPaused { events |= (Poll.input | Poll.peerClosed) }
        if connection.watchedForOutput { events |= Poll.output }
        do {
            try loop.modify(connection.fd, events: events)
        } catch {
            close(connection)
        }
    }

    // MARK: writing

    private func endBatch() {
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
    private func settle(_ connection: ClientConnection) {
        let done = connection.settleSlots { commits?.outcome(ofBatch: $0) ?? true }
        if !done, !connection.onAwaitingCommitList {
            connection.onAwaitingCommitList = true
            awaitingCommit.append(connection)
        }
        writable(connection)
    }

    /// Settles the connections whose replies waited for a commit (those still waiting stay on the list).
    private func settleAwaiting() {
        let waiting = awaitingCommit
        awaitingCommit.removeAll(keepingCapacity: true)
        for connection in waiting {
            connection.onAwaitingCommitList = false
            if !connection.state.isClosed { settle(connection) }
        }
        if isStopping { closeFinishedConnections() }
    }

    private func writable(_ connection: ClientConnection) {
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

    private func closeIdleConnections() {
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

    private func closeFinishedConnections() {
        // Connections migrating from a lane go first: the main loop learns of them before it learns the lane drained.
        handOverMigrating()
        for connection in Array(connections.values) where isFinished(connection) { close(connection) }
        guard connections.isEmpty, !drainedReported, let drained = onDrained else { return }
        drainedReported = true
        drained()
    }

    /// ``beginStop(drained:)`` was called.
    private var isStopping: Bool { onDrained != nil }

    /// Nothing to answer or write: no frame buffered or unread, no reply queued.
    private func isFinished(_ connection: ClientConnection) -> Bool {
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
