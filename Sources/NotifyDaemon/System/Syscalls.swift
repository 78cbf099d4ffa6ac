import CSyscalls
import Glibc

/// A failed system call: which call and the `errno` it set.
public struct Errno: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `errno` value.
    public let code: Int32
    /// The call that failed, e.g. `bind(/run/notifyd/notifyd.sock)`.
    public let call: String

    /// An error for `call` with the current thread's `errno`.
    init(call: String, code: Int32 = notifyd_errno()) {
        self.code = code
        self.call = call
    }

    /// `call: message (ERRNO)`.
    public var description: String {
        "\(call): \(String(cString: strerror(code)))"
    }

    /// True for `EAGAIN`/`EWOULDBLOCK`: a non-blocking call that would have blocked.
    var wouldBlock: Bool { code == EAGAIN || code == EWOULDBLOCK }
}

/// Thin wrappers: each maps -1 to a typed ``Errno`` and retries `EINTR`.
enum Sys {
    /// Runs `body` until it does not fail with `EINTR`; -1 becomes an ``Errno`` naming `call`.
    @discardableResult
    static func check(_ call: @autoclosure () -> String, _ body: () -> Int32) throws(Errno) -> Int32 {
        while true {
            let r = body()
            if r != -1 { return r }
            let e = notifyd_errno()
            if e == EINTR { continue }
            throw Errno(call: call(), code: e)
        }
    }

    /// As ``check(_:_:)`` for calls returning `ssize_t`.
    @discardableResult
    static func checkSize(_ call: @autoclosure () -> String, _ body: () -> Int) throws(Errno) -> Int {
        while true {
            let r = body()
            if r != -1 { return r }
            let e = notifyd_errno()
            if e == EINTR { continue }
            throw Errno(call: call(), code: e)
        }
    }

    /// Monotonic time in nanoseconds.
    static func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Wall-clock time in milliseconds since 1970.
    static func wallClockMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    /// Closes `fd`, ignoring errors (close is not retried on EINTR on Linux).
    static func close(_ fd: FileDescriptor) {
        _ = Glibc.close(fd.rawValue)
    }

    /// Sets `O_NONBLOCK` and `FD_CLOEXEC` on `fd`.
    static func setNonBlocking(_ fd: FileDescriptor) throws(Errno) {
        let flags = try check("fcntl(F_GETFL)") { fcntl(fd.rawValue, F_GETFL) }
        try check("fcntl(F_SETFL)") { fcntl(fd.rawValue, F_SETFL, flags | O_NONBLOCK) }
        let fdFlags = try check("fcntl(F_GETFD)") { fcntl(fd.rawValue, F_GETFD) }
        try check("fcntl(F_SETFD)") { fcntl(fd.rawValue, F_SETFD, fdFlags | FD_CLOEXEC) }
    }

    /// `accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)`; `nil` when no connection is waiting.
    static func acceptNonBlocking(_ fd: FileDescriptor) throws(Errno) -> FileDescriptor? {
        do {
            return try FileDescriptor(rawValue: check("accept4") { notifyd_accept_nonblocking(fd.rawValue) })
        } catch let e where e.wouldBlock {
            return nil
        }
    }

    /// The peer's pid, uid and gid of a connected Unix socket.
    static func peerCredentials(_ fd: FileDescriptor) throws(Errno) -> PeerCredentials {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        try check("getsockopt(SO_PEERCRED)") { notifyd_peer_credentials(fd.rawValue, &pid, &uid, &gid) }
        return PeerCredentials(pid: pid, uid: uid, gid: gid)
    }

    /// Reads into `buffer`; `nil` when it would block, 0 at end of stream.
    static func read(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int? {
        do {
            return try checkSize("read") { Glibc.read(fd.rawValue, buffer.baseAddress, buffer.count) }
        } catch let e where e.wouldBlock {
            return nil
        }
    }

    /// Writes from `buffer` without SIGPIPE; `nil` when it would block.
    static func send(_ fd: FileDescriptor, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int? {
        do {
            return try checkSize("send") {
                Glibc.send(fd.rawValue, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
            }
        } catch let e where e.wouldBlock {
            return nil
        }
    }

    /// True when bytes wait to be read on `fd` (a non-blocking peek; nothing is consumed).
    static func hasInput(_ fd: FileDescriptor) -> Bool {
        var byte: UInt8 = 0
        return Glibc.recv(fd.rawValue, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) > 0
    }

    /// The number of open file descriptors of this process (for stats).
    static func openFileDescriptorCount() -> Int {
        guard let dir = opendir("/proc/self/fd") else { return -1 }
        defer { closedir(dir) }
        var n = 0
        while readdir(dir) != nil { n += 1 }
        return n - 3  // ".", "..", and the directory's own descriptor
    }

    /// Resident set size in bytes, from /proc/self/statm.
    static func residentSetBytes() -> Int {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return -1 }
        defer { Glibc.close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return -1 }
        let fields = buffer[..<n].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return -1 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Blocks `signals` in this thread (and threads it creates later), so signalfd receives them.
    static func blockSignals(_ signals: [Int32]) throws(Errno) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        let r = pthread_sigmask(SIG_BLOCK, &set, nil)
        if r != 0 { throw Errno(call: "pthread_sigmask", code: r) }
        return set
    }

    /// A non-blocking signalfd for `set`.
    static func signalDescriptor(_ set: sigset_t) throws(Errno) -> FileDescriptor {
        var set = set
        return try FileDescriptor(rawValue: check("signalfd") { signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) })
    }

    /// Reads one pending signal number from a signalfd; `nil` when none.
    static func readSignal(_ fd: FileDescriptor) throws(Errno) -> Int32? {
        var info = signalfd_siginfo()
        let n = try withUnsafeMutableBytes(of: &info) { (b) throws(Errno) -> Int? in try read(fd, into: b) }
        guard let n, n == MemoryLayout<signalfd_siginfo>.size else { return nil }
        return Int32(info.ssi_signo)
    }
}

/// Who is on the other end of a Unix socket.
public struct PeerCredentials: Sendable, Hashable {
    /// Process id.
    public let pid: Int32
    /// User id.
    public let uid: UInt32
    /// Group id.
    public let gid: UInt32
}

/// epoll event bits, so only this file needs the C declarations.
package enum Poll {
    package static let input = UInt32(EPOLLIN.rawValue)
    package static let output = UInt32(EPOLLOUT.rawValue)
    package static let peerClosed = UInt32(EPOLLRDHUP.rawValue)
    package static let hangUp = UInt32(EPOLLHUP.rawValue)
    package static let error = UInt32(EPOLLERR.rawValue)
}

extension Sys {
    /// Fills `buffer` from the kernel's random source.
    static func randomBytes(_ buffer: UnsafeMutableRawBufferPointer) {
        var filled = 0
        while filled < buffer.count {
            let n = getrandom(buffer.baseAddress! + filled, buffer.count - filled, 0)
            if n > 0 {
                filled += n
            } else if notifyd_errno() != EINTR {
                return
            }
        }
    }
}
