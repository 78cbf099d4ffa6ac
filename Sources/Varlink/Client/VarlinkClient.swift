import JSON

/// A blocking varlink client over a Unix stream socket.
///
/// One connection, one caller at a time: calls are sent and answered in order. Pipelining is
/// available through ``pipeline(_:)`` or ``send(_:)`` followed by ``receive()``.
///
/// ```swift
/// let client = try VarlinkClient(socketPath: "/run/notifyd/notifyd.sock", timeout: .seconds(5))
/// let reply = try client.call("io.notifyd.Router.Resolve", parameters: ["link": "shop://cart"])
/// ```
public final class VarlinkClient {
    /// The default bound on one reply, 16 MiB: replies (history, graph) can be far larger than calls.
    public static let defaultMaxReplySize = 16 * 1024 * 1024

    private var fd: Int32
    private var decoder: FrameDecoder
    private var output: [UInt8] = []
    private var input: [UInt8]
    /// A `more` call is being streamed; other calls must wait until its last reply.
    private var streaming = false

    /// Connects to the socket at `socketPath`; a leading `@` names an abstract socket.
    ///
    /// - Parameters:
    ///   - timeout: How long each send or receive may block; `nil` waits forever.
    ///   - maxReplySize: The largest reply accepted, in bytes.
    public convenience init(
        socketPath: String, timeout: Duration? = nil, maxReplySize: Int = VarlinkClient.defaultMaxReplySize
    ) throws(VarlinkClientError) {
        guard let address = Socket.address(socketPath) else { throw .invalidSocketPath(socketPath) }
        let fd: Int32
        do {
            fd = try Socket.unixStream()
        } catch {
            throw .system(error)
        }
        do {
            try Socket.connect(fd, address)
        } catch {
            Socket.close(fd)
            throw .connectFailed(path: socketPath, error)
        }
        try self.init(adopting: fd, timeout: timeout, maxReplySize: maxReplySize)
    }

    /// Takes ownership of a connected stream socket, such as one end of a `socketpair`.
    ///
    /// The client closes `fd` when it is closed or deinitialized, also when this initializer throws.
    public init(
        adopting fd: Int32, timeout: Duration? = nil, maxReplySize: Int = VarlinkClient.defaultMaxReplySize
    ) throws(VarlinkClientError) {
        self.fd = fd
        self.decoder = FrameDecoder(maxMessageSize: maxReplySize)
        self.input = [UInt8](repeating: 0, count: 64 * 1024)
        if let timeout {
            do {
                try Socket.setTimeout(fd, timeout)
            } catch {
                Socket.close(fd)
                self.fd = -1
                throw .system(error)
            }
        }
    }

    deinit {
        if fd >= 0 { Socket.close(fd) }
    }

    /// Closes the connection; later calls fail with ``VarlinkClientError/connectionClosed``.
    public func close() {
        if fd >= 0 { Socket.close(fd) }
        fd = -1
    }

    // MARK: Calls

    /// Calls `method` and returns the reply's parameters.
    ///
    /// With `oneway` nothing is read back and the result is empty.
    ///
    /// - Throws: ``VarlinkClientError/reply(_:)`` for an error reply, other cases for socket
    ///   and protocol failures.
    @discardableResult
    public func call(
        _ method: String, parameters: JSONObject = [:], oneway: Bool = false
    ) throws(VarlinkClientError) -> JSONObject {
        try send(VarlinkCall(method: method, parameters: parameters, oneway: oneway))
        if oneway { return [:] }
        let reply = try receive()
        if let error = reply.varlinkError { throw .reply(error) }
        return reply.parameters
    }

    /// Calls `method` with the `more` flag and returns the stream of its replies.
    ///
    /// Read the stream to its end (``VarlinkReplyStream/next()`` returns `nil`) before making
    /// another call on this client, or ``close()`` it.
    public func callMore(
        _ method: String, parameters: JSONObject = [:]
    ) throws(VarlinkClientError) -> VarlinkReplyStream {
        try send(VarlinkCall(method: method, parameters: parameters, more: true))
        streaming = true
        return VarlinkReplyStream(client: self)
    }

    /// Calls `method` with the `more` flag and hands each reply to `onReply` until the last one,
    /// or until `onReply` returns `false` (the connection is then closed, since replies to the
    /// call may still be on their way).
    public func callMore(
        _ method: String, parameters: JSONObject = [:], onReply: (JSONObject) -> Bool
    ) throws(VarlinkClientError) {
        var stream = try callMore(method, parameters: parameters)
        while let reply = try stream.next() {
            if !onReply(reply) {
                close()
                streaming = false
                return
            }
        }
    }

    /// Sends every call at once, then reads the replies in order.
    ///
    /// Each result is the reply's parameters or its error; a `oneway` call gets an empty
    /// success without reading anything. Calls must not have the `more` flag.
    public func pipeline(_ calls: [VarlinkCall]) throws(VarlinkClientError) -> [Result<JSONObject, VarlinkError>] {
        precondition(!calls.contains { $0.more }, "pipeline does not stream: use callMore for calls with more")
        try send(calls)
        var results: [Result<JSONObject, VarlinkError>] = []
        results.reserveCapacity(calls.count)
        for call in calls {
            if call.oneway {
                results.append(.success([:]))
                continue
            }
            let reply = try receive()
            results.append(reply.varlinkError.map { .failure($0) } ?? .success(reply.parameters))
        }
        return results
    }

    // MARK: Messages

    /// Sends one call without reading anything.
    public func send(_ call: VarlinkCall) throws(VarlinkClientError) {
        try send(CollectionOfOne(call))
    }

    /// Sends calls back to back in one write where possible, without reading anything.
    public func send(_ calls: some Sequence<VarlinkCall>) throws(VarlinkClientError) {
        precondition(!streaming, "a streamed call is still running: read it to the end or close the client")
        guard fd >= 0 else { throw .connectionClosed }
        output.removeAll(keepingCapacity: true)
        for call in calls { call.encode(into: &output) }
        var sent = 0
        while sent < output.count {
            let fd = self.fd
            let result = output.withUnsafeBytes { bytes in
                Result { () throws(SystemCallError) in
                    try Socket.send(fd, UnsafeRawBufferPointer(rebasing: bytes[sent...]))
                }
            }
            switch result {
            case .success(let count): sent += count
            case .failure(let error): throw fail(error)
            }
        }
    }

    /// Reads the next reply, error replies included (they are returned, not thrown).
    public func receive() throws(VarlinkClientError) -> VarlinkReply {
        while true {
            guard fd >= 0 else { throw .connectionClosed }
            do {
                if let frame = try decoder.nextFrame() { return try VarlinkReply(frame: frame) }
            } catch {
                close()
                throw .protocolViolation(error)
            }
            let fd = self.fd
            let result = input.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemCallError) in try Socket.receive(fd, buffer) }
            }
            switch result {
            case .success(0):
                close()
                throw .connectionClosed
            case .success(let count):
                input.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            case .failure(let error):
                throw fail(error)
            }
        }
    }

    fileprivate func finishStream() { streaming = false }

    private func fail(_ error: SystemCallError) -> VarlinkClientError {
        if error.isTimeout { return .timedOut }
        if error.isDisconnect {
            close()
            return .connectionClosed
        }
        return .system(error)
    }
}

@available(*, unavailable)
extension VarlinkClient: Sendable {}

/// The replies to a call made with the `more` flag, read one at a time.
///
/// ```swift
/// var stream = try client.callMore("io.notifyd.Router.Monitor")
/// while let reply = try stream.next() { print(reply) }
/// ```
public struct VarlinkReplyStream {
    private let client: VarlinkClient
    private var finished = false

    fileprivate init(client: VarlinkClient) {
        self.client = client
    }

    /// The next reply's parameters, or `nil` after the last one (the reply without `continues`).
    ///
    /// - Throws: ``VarlinkClientError/reply(_:)`` when the service answers with an error, which
    ///   also ends the stream.
    public mutating func next() throws(VarlinkClientError) -> JSONObject? {
        guard !finished else { return nil }
        let reply: VarlinkReply
        do {
            reply = try client.receive()
        } catch {
            finished = true
            client.finishStream()
            throw error
        }
        if let error = reply.varlinkError {
            finished = true
            client.finishStream()
            throw .reply(error)
        }
        if !reply.continues {
            finished = true
            client.finishStream()
        }
        return reply.parameters
    }
}

@available(*, unavailable)
extension VarlinkReplyStream: Sendable {}
