// The socket types (SOCK_STREAM, …) come from the system header that libsystemd's headers include too: the module that
// loads that header first owns the names, so a file that names them imports both, whichever the compiler loads first.
internal import CSystemd
import Glibc

/// Why the daemon could not get a listening socket.
public struct ListenerError: Error, Sendable, CustomStringConvertible {
    /// What to tell the operator.
    public let message: String

    public var description: String { message }
}

/// Binds, or adopts, the listening Unix stream socket.
enum UnixListener {
    /// Binds `path` itself: removes a stale socket file left by a dead daemon, refuses to steal a
    /// live one, and sets `mode` on the new file.
    ///
    /// The file is made with the process's file mode mask, then given `mode`. The mask is not changed here: it
    /// belongs to the whole process, so a change would also apply to files another thread makes meanwhile, and to
    /// the children it starts (a program it builds, made without its execute bits). The daemon masks group and
    /// others once, before its threads start (``NotifyDaemon/maskGroupAndOthers()``), so that until the `chmod`
    /// only its own user can connect.
    static func bind(path: String, mode: mode_t = 0o660, backlog: Int32 = 512) throws(ListenerError) -> FileDescriptor {
        guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw ListenerError(message: "socket path '\(path)' is longer than 107 bytes")
        }
        var st = stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else {
                throw ListenerError(message: "'\(path)' exists and is not a socket; refusing to replace it")
            }
            switch probe(path: path) {
            case .stale:
                unlink(path)
            case .live:
                throw ListenerError(message: "another process is serving on '\(path)'; refusing to steal its socket")
            case .unknown(let error):
                throw ListenerError(
                    message: "cannot tell whether another process is serving on '\(path)' (\(error)); "
                        + "refusing to replace it: stop that process or remove the socket file")
            }
        }
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor(
                rawValue: Sys.check("socket(AF_UNIX)") {
                    socket(
                        AF_UNIX,
                        Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                })
            var address = makeAddress(path)
            try Sys.check("bind(\(path))") {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        Glibc.bind(fd.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                    }
                }
            }
            try Sys.check("chmod(\(path))") { chmod(path, mode) }
            try Sys.check("listen(\(path))") { listen(fd.rawValue, backlog) }
        } catch {
            throw ListenerError(message: "cannot listen on '\(path)': \(error)")
        }
        return fd
    }

    /// Takes over a socket passed by systemd, making it non-blocking.
    static func adopt(fd: FileDescriptor) throws(ListenerError) -> FileDescriptor {
        do {
            try Sys.setNonBlocking(fd)
        } catch {
            throw ListenerError(message: "cannot use the socket passed by systemd (fd \(fd.rawValue)): \(error)")
        }
        return fd
    }

    static func makeAddress(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    /// What connecting to an existing socket file says about it.
    enum Probe: Equatable {
        /// Something accepts connections on it.
        case live
        /// Nothing listens: the file was left by a process that is gone, and may be replaced.
        case stale
        /// The connect failed for another reason (no permission, a full backlog, …): it may be live.
        case unknown(Errno)
    }

    /// Connects to `path` to learn whether a process serves on it.
    /// Non-blocking: a live process whose backlog is full (or that is stopped) makes it fail with
    /// `EAGAIN` rather than hang.
    static func probe(path: String) -> Probe {
        let raw = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard raw >= 0 else { return .unknown(Errno(call: "socket(AF_UNIX)")) }
        let fd = FileDescriptor(rawValue: raw)
        defer { Sys.close(fd) }
        var address = makeAddress(path)
        let r = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return probe(connectError: r == 0 ? nil : Errno(call: "connect(\(path))"))
    }

    /// The verdict on a connect that succeeded (`nil`) or failed with `connectError`: only a refused
    /// connection (nobody listens) or a file gone meanwhile is stale.
    static func probe(connectError: Errno?) -> Probe {
        guard let connectError else { return .live }
        switch connectError.code {
        case ECONNREFUSED, ENOENT: return .stale
        default: return .unknown(connectError)
        }
    }
}
