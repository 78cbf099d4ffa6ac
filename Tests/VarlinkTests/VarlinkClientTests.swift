import JSON
import RouterContract
import Testing

@testable import Varlink

@Suite struct VarlinkClientTests {
    private func client(_ handler: @escaping TestServer.Handler = TestServer.echo) throws -> VarlinkClient {
        try VarlinkClient(adopting: TestServer.connectedPair(handler), timeout: .seconds(10))
    }

    @Test func aCallReturnsTheReplyParameters() throws {
        let client = try client()
        #expect(try client.call("org.example.test.Echo", parameters: ["a": [1, "b"]]) == ["a": [1, "b"]])
        #expect(try client.call("org.example.test.Echo") == [:])
    }

    @Test func anErrorReplyIsThrownWithItsNameAndParameters() throws {
        let client = try client()
        let error = #expect(throws: VarlinkClientError.self) { try client.call("org.example.test.Fail") }
        #expect(error?.varlinkError == .noRoute(link: "shop://x", reasons: []))
        // The connection goes on after an error reply.
        #expect(try client.call("org.example.test.Echo", parameters: ["ok": true]) == ["ok": true])
    }

    @Test func aOnewayCallReadsNothingBack() throws {
        let client = try client()
        #expect(try client.call("org.example.test.Echo", parameters: ["x": 1], oneway: true) == [:])
        #expect(try client.call("org.example.test.Echo", parameters: ["y": 2]) == ["y": 2])
    }

    @Test func streamedRepliesAreReadUntilTheLastOne() throws {
        let client = try client()
        var stream = try client.callMore("org.example.test.Count", parameters: ["n": 5])
        var seen: [Int] = []
        while let reply = try stream.next() { seen.append(reply["i"]?.intValue ?? -1) }
        #expect(seen == [0, 1, 2, 3, 4])
        #expect(try stream.next() == nil)
        #expect(try client.call("org.example.test.Echo", parameters: ["after": true]) == ["after": true])
    }

    @Test func aStreamCallbackCanStopEarly() throws {
        let client = try client()
        var seen = 0
        try client.callMore("org.example.test.Count", parameters: ["n": 10]) { _ in
            seen += 1
            return seen < 3
        }
        #expect(seen == 3)
        #expect(throws: VarlinkClientError.connectionClosed) { try client.call("org.example.test.Echo") }
    }

    @Test func aStreamedErrorEndsTheStream() throws {
        let client = try client()
        var stream = try client.callMore("org.example.test.Fail")
        #expect(throws: VarlinkClientError.reply(.noRoute(link: "shop://x", reasons: []))) { try stream.next() }
        #expect(try stream.next() == nil)
    }

    @Test func pipelinedCallsGetTheirRepliesInOrder() throws {
        let client = try client()
        var calls = (0..<50).map { VarlinkCall(method: "org.example.test.Echo", parameters: ["n": .int($0)]) }
        calls.insert(VarlinkCall(method: "org.example.test.Fail"), at: 10)
        calls.insert(VarlinkCall(method: "org.example.test.Echo", parameters: ["quiet": true], oneway: true), at: 20)
        let results = try client.pipeline(calls)
        #expect(results.count == 52)
        #expect(try results[0].get() == ["n": 0])
        #expect(throws: VarlinkError.noRoute(link: "shop://x", reasons: [])) { try results[10].get() }
        #expect(try results[20].get() == [:])
        #expect(try results[51].get() == ["n": 49])
    }

    @Test func aLargeReplyArrivesWhole() throws {
        let client = try client()
        let reply = try client.call("org.example.test.Big", parameters: ["n": 1_000_000])
        #expect(reply["big"]?.stringValue?.utf8.count == 1_000_000)
    }

    @Test func aSilentServerTimesOut() throws {
        let client = try VarlinkClient(adopting: TestServer.connectedPair(TestServer.echo), timeout: .milliseconds(50))
        #expect(throws: VarlinkClientError.timedOut) { try client.call("org.example.test.Silent") }
    }

    @Test func aServerThatHangsUpIsConnectionClosed() throws {
        let client = try VarlinkClient(adopting: TestServer.connectedPair { _ in .hangUp }, timeout: .seconds(10))
        #expect(throws: VarlinkClientError.connectionClosed) { try client.call("org.example.test.Echo") }
        #expect(throws: VarlinkClientError.connectionClosed) { try client.call("org.example.test.Echo") }
    }

    @Test func aClosedClientFailsWithoutTouchingTheSocket() throws {
        let client = try client()
        client.close()
        #expect(throws: VarlinkClientError.connectionClosed) { try client.call("org.example.test.Echo") }
    }

    @Test(arguments: [
        ("[1,2]", VarlinkProtocolError.Code.notAnObject),
        ("{\"parameters\":", .invalidJSON),
        ("{\"continues\":1}", .invalidFlag),
    ])
    func aMalformedReplyIsAProtocolViolation(text: String, code: VarlinkProtocolError.Code) throws {
        let bytes = Array(text.utf8) + [0]
        let client = try VarlinkClient(adopting: TestServer.connectedPair { _ in .raw(bytes) }, timeout: .seconds(10))
        let error = #expect(throws: VarlinkClientError.self) { try client.call("org.example.test.Echo") }
        #expect(error.map(Self.code) == code)
        // The connection is closed after a violation.
        #expect(throws: VarlinkClientError.connectionClosed) { try client.call("org.example.test.Echo") }
    }

    @Test func anOversizeReplyIsAProtocolViolation() throws {
        let client = try VarlinkClient(
            adopting: TestServer.connectedPair(TestServer.echo), timeout: .seconds(10), maxReplySize: 100)
        let error = #expect(throws: VarlinkClientError.self) {
            try client.call("org.example.test.Echo", parameters: ["x": .string(String(repeating: "y", count: 200))])
        }
        #expect(error.map(Self.code) == .messageTooLarge)
    }

    private static func code(_ error: VarlinkClientError) -> VarlinkProtocolError.Code? {
        if case .protocolViolation(let violation) = error { return violation.code }
        return nil
    }

    @Test func theClientConnectsToASocketPath() throws {
        let path = TestServer.listening(TestServer.echo)
        let client = try VarlinkClient(socketPath: path, timeout: .seconds(10))
        #expect(try client.call("org.example.test.Echo", parameters: ["via": "path"]) == ["via": "path"])
    }

    @Test func aMissingSocketIsConnectFailed() {
        let error = #expect(throws: VarlinkClientError.self) {
            try VarlinkClient(socketPath: "/nonexistent/notifyd.sock")
        }
        guard case .connectFailed(let path, let cause) = error else {
            Issue.record("expected connectFailed, got \(String(describing: error))")
            return
        }
        #expect(path == "/nonexistent/notifyd.sock")
        #expect(cause.call == "connect")
    }

    @Test func anOverlongSocketPathIsRejected() {
        let path = "/" + String(repeating: "a", count: 200)
        #expect(throws: VarlinkClientError.invalidSocketPath(path)) { try VarlinkClient(socketPath: path) }
    }
}
