#if canImport(Glibc)
import Glibc
#endif

/// A system call that failed, with its `errno`.
public struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The system call, e.g. `connect`.
    public let call: String
    /// The `errno` it set, e.g. `ENOENT`.
    public let errno: Int32

    /// A failure of `call` with `errno`.
    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    /// The system's text for ``errno``.
    public var message: String { String(cString: strerror(errno)) }

    /// The call gave up after `SO_RCVTIMEO`/`SO_SNDTIMEO` (`EAGAIN`).
    public var isTimeout: Bool { errno == EAGAIN || errno == EWOULDBLOCK }

    /// The peer is gone (`EPIPE`, `ECONNRESET`).
    public var isDisconnect: Bool { errno == EPIPE || errno == ECONNRESET }

    /// The call, the system's text for the error and its number.
    public var description: String { "\(call): \(message) (errno \(errno))" }
}
