#if canImport(Glibc)
import Glibc
#endif

/// The socket system calls the client uses, each wrapped once: `-1` becomes a
/// ``SystemCallError`` and `EINTR` is retried.
enum Socket {
    /// Runs `body` until it does not fail with `EINTR`; `-1` becomes a ``SystemCallError``.
    @inline(__always)
    static func retrying<T: FixedWidthInteger>(_ call: String, _ body: () -> T) throws(SystemCallError) -> T {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = errno
            if code == EINTR { continue }
            throw SystemCallError(call: call, errno: code)
        }
    }

    /// A new `AF_UNIX` stream socket, close-on-exec.
    static func unixStream() throws(SystemCallError) -> Int32 {
        try retrying("socket") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
    }

    /// The `sockaddr_un` for `path`; a leading `@` names an abstract socket. `nil` when too long.
    static func address(_ path: String) -> (sockaddr_un, socklen_t)? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity, abstract || !bytes.contains(0) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1)
        return (address, socklen_t(length))
    }

    /// Connects `fd` to `address`. An interrupted connect that completed meanwhile counts as done.
    static func connect(_ fd: Int32, _ address: (sockaddr_un, socklen_t)) throws(SystemCallError) {
        var (storage, length) = address
        var interrupted = false
        while true {
            let result = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
            }
            if result == 0 { return }
            let code = errno
            if code == EINTR {
                interrupted = true
                continue
            }
            if interrupted && code == EISCONN { return }
            throw SystemCallError(call: "connect", errno: code)
        }
    }

    /// Sends part of `bytes`; returns how many were sent. Never raises `SIGPIPE`.
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
        try retrying("send") { Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Receives into `buffer`; returns how many bytes arrived, 0 at the end of the stream.
    static func receive(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        try retrying("recv") { Glibc.recv(fd, buffer.baseAddress, buffer.count, 0) }
    }

    /// Sets `SO_RCVTIMEO` and `SO_SNDTIMEO` to `timeout`.
    static func setTimeout(_ fd: Int32, _ timeout: Duration) throws(SystemCallError) {
        let (seconds, attoseconds) = timeout.components
        var value = timeval(
            tv_sec: max(0, Int(seconds)), tv_usec: max(0, Int(attoseconds / 1_000_000_000_000)))
        if value.tv_sec == 0 && value.tv_usec == 0 { value.tv_usec = 1 }  // zero would mean "no timeout"
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            _ = try retrying("setsockopt") {
                setsockopt(fd, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
            }
        }
    }

    /// Closes `fd`. Not retried on `EINTR`: Linux releases the descriptor regardless.
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }
}
