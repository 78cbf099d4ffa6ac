/// Why a varlink call from ``VarlinkClient`` did not return parameters.
public enum VarlinkClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The service answered with an error reply; the connection stays usable.
    case reply(VarlinkError)
    /// Connecting to the socket at `path` failed: no such socket, refused, permission denied.
    case connectFailed(path: String, SystemCallError)
    /// The socket path is empty, too long for `sockaddr_un` (107 bytes), or holds a NUL byte.
    case invalidSocketPath(String)
    /// A socket operation failed after connecting.
    case system(SystemCallError)
    /// No reply (or no room to send) within the client's timeout.
    case timedOut
    /// The service closed the connection before the reply was complete.
    case connectionClosed
    /// The service sent something that is not a varlink reply; the connection was closed.
    case protocolViolation(VarlinkProtocolError)

    /// The error reply, when the service answered with one.
    public var varlinkError: VarlinkError? {
        if case .reply(let error) = self { return error }
        return nil
    }

    /// What went wrong and, where it helps, what to check.
    public var description: String {
        switch self {
        case .reply(let error): return "error reply \(error)"
        case .connectFailed(let path, let error):
            return "cannot connect to \(path): \(error.message); is the service running and the socket readable?"
        case .invalidSocketPath(let path):
            return "invalid socket path \"\(path)\": give a path of at most 107 bytes, or @name for an abstract socket"
        case .system(let error): return "socket error: \(error)"
        case .timedOut: return "timed out waiting for the service"
        case .connectionClosed: return "the service closed the connection before replying"
        case .protocolViolation(let error): return "the service broke the varlink protocol: \(error)"
        }
    }
}
