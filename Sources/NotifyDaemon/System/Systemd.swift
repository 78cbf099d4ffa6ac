internal import CSystemd
import Glibc

/// The service manager and journal interfaces of libsystemd, each call wrapped once.
///
/// Every function works, and does nothing harmful, when notifyd runs outside systemd: no sockets
/// passed, no `NOTIFY_SOCKET`, no watchdog, no journal. The variadic `sd_journal_send` and
/// `sd_notifyf` cannot be called from Swift; their vector and plain forms are used instead.
public enum Systemd {
    /// Where journald listens for native-protocol entries.
    public static let journalSocketPath = "/run/systemd/journal/socket"

    /// The sockets passed by socket activation, with their `FileDescriptorName=` (or `unknown`).
    ///
    /// Reads `LISTEN_PID`/`LISTEN_FDS`/`LISTEN_FDNAMES`, then unsets them so child processes do not
    /// inherit them; the descriptors are marked close-on-exec. Empty when notifyd was not socket
    /// activated, or when the variables are malformed.
    public static func listenFileDescriptors() -> [(fd: FileDescriptor, name: String)] {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = sd_listen_fds_with_names(1, &names)
        defer {
            if let names {
                for i in 0..<Int(max(count, 0)) { free(names[i]) }
                free(names)
            }
        }
        guard count > 0 else { return [] }
        return (0..<count).map { i in
            let name = names?[Int(i)].map { String(cString: $0) } ?? "unknown"
            return (fd: FileDescriptor(rawValue: SD_LISTEN_FDS_START + i), name: name)
        }
    }

    /// True when `fd` is a listening `AF_UNIX` stream socket.
    public static func isUnixStreamListener(_ fd: FileDescriptor) -> Bool {
        sd_is_socket_unix(fd.rawValue, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0
    }

    /// Sends a state change to the service manager: `READY=1`, `RELOADING=1`, `STOPPING=1`,
    /// `WATCHDOG=1`, `STATUS=…` (several separated by newlines).
    ///
    /// - Returns: `true` when delivered; `false` when `NOTIFY_SOCKET` is unset (not under systemd,
    ///   a no-op) or sending failed.
    @discardableResult
    public static func notify(_ state: String) -> Bool {
        sd_notify(0, state) > 0
    }

    /// The watchdog interval systemd expects pings within (`WatchdogSec=`), in microseconds, or
    /// `nil` when the watchdog is off for this process. Ping at half this interval.
    public static func watchdogIntervalMicroseconds() -> UInt64? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        return usec
    }

    /// True when journald is reachable: stderr is the journal stream `JOURNAL_STREAM` names, or something
    /// accepts datagrams on the native socket (a socket file left by a stopped journald does not count).
    public static func journalAvailable() -> Bool {
        if stderrIsJournalStream(getenv("JOURNAL_STREAM").map { String(cString: $0) }) { return true }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: journalSocketPath.utf8)  // the path is far shorter than sun_path
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    /// True when `value` (`DEVICE:INODE`, as systemd sets `JOURNAL_STREAM`) names the file stderr is open on.
    ///
    /// As sd_journal_stream_fd(3) and systemd.exec(5) advise, the variable alone is not trusted: a process
    /// started by a service whose stderr went to the journal inherits it, with its own stderr elsewhere.
    static func stderrIsJournalStream(_ value: String?) -> Bool {
        guard let value, let colon = value.firstIndex(of: ":"), let device = UInt64(value[..<colon]),
            let inode = UInt64(value[value.index(after: colon)...])
        else { return false }
        var info = stat()
        guard fstat(2, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    /// Sends one journal entry through `sd_journal_sendv_with_location`.
    ///
    /// Each element of `fields` is one `NAME=value` field (values may hold any bytes; libsystemd
    /// encodes newlines safely). The location becomes `CODE_FILE`, `CODE_LINE` and `CODE_FUNC`.
    ///
    /// - Returns: 0 on success, or a negative errno (`-EINVAL` for a malformed field or no fields).
    ///   libsystemd also returns 0, dropping the entry, when the journal socket does not exist; check
    ///   ``journalAvailable()`` first.
    @discardableResult
    public static func sendJournal(fields: [String], file: String, line: Int, function: String) -> Int32 {
        guard !fields.isEmpty else { return -EINVAL }
        var bytes: [UInt8] = []
        var spans: [(offset: Int, count: Int)] = []
        spans.reserveCapacity(fields.count)
        for field in fields {
            spans.append((bytes.count, field.utf8.count))
            bytes.append(contentsOf: field.utf8)
        }
        bytes.append(0)  // never empty, so the base address below exists
        // sd_journal_sendv_with_location wants the whole "CODE_FILE=…" and "CODE_LINE=…" fields (as its
        // macro builds them from __FILE__ and __LINE__) and a bare function name it prefixes itself.
        let codeFile = "CODE_FILE=" + file
        let codeLine = "CODE_LINE=\(line)"
        return bytes.withUnsafeMutableBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return -EINVAL }
            let vectors = spans.map { iovec(iov_base: base + $0.offset, iov_len: $0.count) }
            return vectors.withUnsafeBufferPointer { iov in
                codeFile.withCString { file in
                    codeLine.withCString { line in sendJournal(iov, codeFile: file, codeLine: line, function: function)
                    }
                }
            }
        }
    }

    /// Sends one journal entry whose fields are `fields` (each `NAME=value`), with `codeFile` and `codeLine` the
    /// whole `CODE_FILE=…` and `CODE_LINE=…` fields, as C strings.
    static func sendJournal(
        _ fields: UnsafeBufferPointer<iovec>, codeFile: UnsafePointer<CChar>, codeLine: UnsafePointer<CChar>,
        function: String
    ) -> Int32 {
        guard let base = fields.baseAddress, !fields.isEmpty else { return -EINVAL }
        return sd_journal_sendv_with_location(codeFile, codeLine, function, base, Int32(fields.count))
    }
}
