import Glibc
import Testing
import Varlink

@testable import NotifyDaemon

/// Records which connection each call came from and replies to it; stops the loop after `expected` calls.
private final class RecordingHandler: CallHandler {
    let expected: Int
    var order: [UInt64] = []
    var loop: EventLoop?

    init(expected: Int) {
        self.expected = expected
    }

    func handle(_ call: VarlinkCall, from connection: ClientConnection, outbox: Outbox) {
        order.append(connection.id)
        outbox.send(VarlinkReply(parameters: ["n": .int(order.count)]), to: connection)
        if order.count == expected { loop?.stop() }
    }

    func connectionClosed(_ connection: ClientConnection) {}
    func protocolViolation(_ error: VarlinkProtocolError, connection: ClientConnection) {}
}

/// Reports a finished commit once the first `firstRun` calls are handled, and records when it is settled.
private final class CommitFinishingHandler: CallHandler, CommitOutcomes {
    let firstRun: Int
    let expected: Int
    var handled = 0
    var finished = false
    /// How many calls were handled at each ``endBatch()``.
    var settledAt: [Int] = []
    var loop: EventLoop?

    init(firstRun: Int, expected: Int) {
        self.firstRun = firstRun
        self.expected = expected
    }

    func handle(_ call: VarlinkCall, from connection: ClientConnection, outbox: Outbox) {
        handled += 1
        outbox.send(VarlinkReply(parameters: ["n": .int(handled)]), to: connection)
        if handled == firstRun { finished = true }
        if handled == expected { loop?.stop() }
    }

    func connectionClosed(_ connection: ClientConnection) {}
    func endBatch() {
        settledAt.append(handled)
        finished = false
    }
    func outcome(ofBatch number: UInt64) -> Bool? { true }
    var batchIsDue: Bool { finished }
    func protocolViolation(_ error: VarlinkProtocolError, connection: ClientConnection) {}
}

/// Replies to every call; at the first call of a second connection, records the reply bytes already written to the
/// first client's socket.
private final class EarlyReplyHandler: CallHandler {
    let expected: Int
    var handled = 0
    var firstConnection: UInt64?
    /// The first client's socket, set once the clients are connected.
    var firstClient: Int32 = -1
    /// Bytes readable by the first client when the other connection's first call was handled.
    var bytesWaitingForFirstClient: Int?
    var loop: EventLoop?

    init(expected: Int) {
        self.expected = expected
    }

    func handle(_ call: VarlinkCall, from connection: ClientConnection, outbox: Outbox) {
        handled += 1
        if firstConnection == nil { firstConnection = connection.id }
        if connection.id != firstConnection, bytesWaitingForFirstClient == nil {
            var available: Int32 = 0
            _ = ioctl(firstClient, UInt(FIONREAD), &available)
            bytesWaitingForFirstClient = Int(available)
        }
        outbox.send(VarlinkReply(parameters: ["n": .int(handled)]), to: connection)
        if handled == expected { loop?.stop() }
    }

    func connectionClosed(_ connection: ClientConnection) {}
    func protocolViolation(_ error: VarlinkProtocolError, connection: ClientConnection) {}
}

@Suite struct ServerFairnessTests {
    /// Connects a client to `path` and writes `count` pipelined calls without reading.
    private func pipeliningClient(_ path: String, count: Int) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = UnixListener.makeAddress(path)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(rc == 0)
        let frames = Array(String(repeating: #"{"method":"org.example.Ping"}"# + "\0", count: count).utf8)
        var offset = 0
        while offset < frames.count {
            let n = frames[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            try #require(n > 0)
            offset += n
        }
        return fd
    }

    /// Serves `clients` pipelining clients, each with `callsEach` calls buffered before the loop first looks at them,
    /// until `handler` stops the loop (`attach` hands it the loop).
    private func serve(
        _ name: String, handler: CallHandler, attach: (EventLoop) -> Void, clients: Int, callsEach: Int,
        connected: ([Int32]) -> Void = { _ in }
    ) throws {
        let directory = "/tmp/notifyd-\(name)-\(getpid())"
        mkdir(directory, 0o700)
        defer { rmdir(directory) }
        let path = directory + "/s.sock"
        defer { unlink(path) }
        let listenFD = try UnixListener.bind(path: path)
        let loop = try EventLoop()
        attach(loop)
        let server = Server(
            loop: loop, listenFD: listenFD, settings: Settings(), handler: handler, commits: handler as? CommitOutcomes)
        try server.start()
        let descriptors = try (0..<clients).map { _ in try pipeliningClient(path, count: callsEach) }
        defer { descriptors.forEach { close($0) } }
        connected(descriptors)
        try loop.run()
        server.closeAll()
        server.stopAccepting()
    }

    @Test func aCommitThatFinishedIsSettledBetweenTwoConnectionsNotAtTheEndOfTheTurn() throws {
        let perClient = Server.framesPerTurn
        let handler = CommitFinishingHandler(firstRun: perClient, expected: 2 * perClient)
        try serve("settle", handler: handler, attach: { handler.loop = $0 }, clients: 2, callsEach: perClient)

        #expect(handler.handled == 2 * perClient)
        // Settled once the first connection's frames were handled, before the other's; then at the end of the turn.
        #expect(handler.settledAt.first == perClient, "settled at \(handler.settledAt)")
        #expect(handler.settledAt.last == 2 * perClient)
    }

    @Test func readyRepliesAreWrittenBeforeTheNextConnectionIsHandled() throws {
        let perClient = 3
        let handler = EarlyReplyHandler(expected: 2 * perClient)
        try serve(
            "early", handler: handler, attach: { handler.loop = $0 }, clients: 2, callsEach: perClient,
            connected: { handler.firstClient = $0[0] })

        #expect(handler.handled == 2 * perClient)
        // The first connection's three replies, {"parameters":{"n":1}} and so on, each with its NUL.
        let replies = (1...perClient).map { #"{"parameters":{"n":\#($0)}}"#.utf8.count + 1 }.reduce(0, +)
        #expect(handler.bytesWaitingForFirstClient == replies)
    }

    @Test func pipeliningClientsTakeTurnsOfAtMostTheFrameBudget() throws {
        let perClient = 1_000
        let handler = RecordingHandler(expected: 2 * perClient)
        try serve("fairness", handler: handler, attach: { handler.loop = $0 }, clients: 2, callsEach: perClient)

        #expect(handler.order.count == 2 * perClient)
        // Runs of calls from one connection while the other still had calls waiting.
        var runs: [Int] = []
        var current = 0
        var previous: UInt64?
        var remaining = [UInt64: Int]()
        for id in handler.order { remaining[id, default: 0] += 1 }
        #expect(remaining.count == 2)
        for id in handler.order {
            if id != previous {
                if current > 0 { runs.append(current) }
                current = 0
                previous = id
            }
            current += 1
            remaining[id]! -= 1
            if remaining.values.contains(0) { break }  // the other one is done: nothing left to share
        }
        runs.append(current)
        #expect(runs.max()! <= Server.framesPerTurn, "longest run \(runs.max()!) of \(runs)")
        #expect(runs.count >= 2 * perClient / Server.framesPerTurn - 2)
    }
}
