import JSON
import Varlink

/// A connection to notifyd: calls and streamed calls, answered with reply parameters or a ``VarlinkClientError``.
///
/// ``VarlinkRouterConnection`` speaks varlink over the daemon's socket; tests answer from a table.
public protocol RouterConnection: AnyObject {
    /// Calls `method` (fully qualified) and returns the reply's parameters.
    func call(_ method: String, parameters: JSONObject) throws(VarlinkClientError) -> JSONObject
    /// Calls `method` with the `more` flag and hands each reply to `onReply` until the last one or until
    /// `onReply` returns false.
    func stream(_ method: String, parameters: JSONObject, onReply: (JSONObject) -> Bool) throws(VarlinkClientError)
}

/// Opens connections to the daemon.
public protocol RouterConnector {
    /// Connects to the socket at `socketPath`; `streaming` connections wait for replies without a time limit.
    func connect(socketPath: String, streaming: Bool) throws(VarlinkClientError) -> any RouterConnection
}

/// Connects over a Unix socket with ``VarlinkClient``.
public struct SocketConnector: RouterConnector {
    /// How long a call waits for its reply (streamed calls wait forever).
    public var timeout: Duration

    /// A connector whose calls time out after `timeout`.
    public init(timeout: Duration = .seconds(30)) {
        self.timeout = timeout
    }

    public func connect(socketPath: String, streaming: Bool) throws(VarlinkClientError) -> any RouterConnection {
        VarlinkRouterConnection(try VarlinkClient(socketPath: socketPath, timeout: streaming ? nil : timeout))
    }
}

/// A ``RouterConnection`` over a ``VarlinkClient``.
public final class VarlinkRouterConnection: RouterConnection {
    let client: VarlinkClient

    /// Wraps a connected client.
    public init(_ client: VarlinkClient) {
        self.client = client
    }

    public func call(_ method: String, parameters: JSONObject) throws(VarlinkClientError) -> JSONObject {
        try client.call(method, parameters: parameters)
    }

    public func stream(
        _ method: String, parameters: JSONObject, onReply: (JSONObject) -> Bool
    ) throws(VarlinkClientError) {
        try client.callMore(method, parameters: parameters, onReply: onReply)
    }
}
