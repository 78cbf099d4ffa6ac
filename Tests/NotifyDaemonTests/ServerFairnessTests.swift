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
    func endBatch() {}
    func outcome(ofBatch number: UInt64) -> Bool? { true }
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

    @Test func pipeliningClientsTakeTurnsOfAtMostTheFrameBudget() throws {
        let directory = "/tmp/notifyd-fairness-\(getpid())"
        mkdir(directory, 0o700)
        defer { rmdir(directory) }
        let path = directory + "/s.sock"
        defer { unlink(path) }
        let listenFD = try UnixListener.bind(path: path)
        let loop = try EventLoop()
        let perClient = 1_000
        let handler = RecordingHandler(expected: 2 * perClient)
        handler.loop = loop
        let server = Server(loop: loop, listenFD: listenFD, settings: Settings(), handler: handler)
        try server.start()
        // Both clients have all their calls buffered before the loop first looks at them.
        let a = try pipeliningClient(path, count: perClient)
        let b = try pipeliningClient(path, count: perClient)
        defer {
            close(a)
            close(b)
        }
        try loop.run()
        server.closeAll()
        server.stopAccepting()

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
