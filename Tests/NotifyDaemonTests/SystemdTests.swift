import Glibc
import Testing

@testable import NotifyDaemon

/// These tests set process environment variables (`NOTIFY_SOCKET`, `WATCHDOG_*`) that only this
/// suite reads, one test at a time.
@Suite(.serialized) struct SystemdTests {
    @Test func noSocketsArePassedWithoutSocketActivation() {
        #expect(getenv("LISTEN_FDS") == nil)
        #expect(Systemd.listenFileDescriptors().isEmpty)
    }

    @Test func onlyAListeningUnixStreamSocketIsAccepted() throws {
        let dir = try StoreTestDirectory()
        let listener = try SystemdTestSocket(type: SOCK_STREAM, path: dir.path + "/stream.sock")
        #expect(Systemd.isUnixStreamListener(listener.descriptor) == false)  // bound, not yet listening
        #expect(listen(listener.fd, 8) == 0)
        #expect(Systemd.isUnixStreamListener(listener.descriptor))

        let datagram = try SystemdTestSocket(type: SOCK_DGRAM, path: dir.path + "/dgram.sock")
        #expect(Systemd.isUnixStreamListener(datagram.descriptor) == false)
        #expect(Systemd.isUnixStreamListener(FileDescriptor(rawValue: -1)) == false)
    }

    @Test func notifyIsANoOpWithoutNotifySocket() {
        #expect(getenv("NOTIFY_SOCKET") == nil)
        #expect(Systemd.notify("READY=1") == false)
    }

    @Test func notifyDeliversTheStateToNotifySocket() throws {
        let dir = try StoreTestDirectory()
        let path = dir.path + "/notify.sock"
        let receiver = try SystemdTestSocket(type: SOCK_DGRAM, path: path)
        setenv("NOTIFY_SOCKET", path, 1)
        defer { unsetenv("NOTIFY_SOCKET") }

        #expect(Systemd.notify("READY=1\nSTATUS=serving"))
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = buffer.withUnsafeMutableBytes { recv(receiver.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        #expect(n > 0)
        #expect(String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self) == "READY=1\nSTATUS=serving")
    }

    @Test func theWatchdogIntervalComesFromTheEnvironmentForThisProcessOnly() {
        defer {
            unsetenv("WATCHDOG_USEC")
            unsetenv("WATCHDOG_PID")
        }
        #expect(Systemd.watchdogIntervalMicroseconds() == nil)
        setenv("WATCHDOG_USEC", "10000000", 1)
        setenv("WATCHDOG_PID", String(getpid()), 1)
        #expect(Systemd.watchdogIntervalMicroseconds() == 10_000_000)
        setenv("WATCHDOG_PID", String(getpid() + 1), 1)  // meant for another process
        #expect(Systemd.watchdogIntervalMicroseconds() == nil)
    }

    @Test func aJournalStreamOnStderrMeansTheJournalIsAvailable() {
        let previous = getenv("JOURNAL_STREAM").map { String(cString: $0) }
        defer {
            if let previous { setenv("JOURNAL_STREAM", previous, 1) } else { unsetenv("JOURNAL_STREAM") }
        }
        var info = stat()
        #expect(fstat(2, &info) == 0)
        setenv("JOURNAL_STREAM", "\(info.st_dev):\(info.st_ino)", 1)
        #expect(Systemd.journalAvailable())
    }

    @Test(arguments: ["8:12345", "", "8", ":", "x:y", "8:12345:1"])
    func aJournalStreamThatIsNotStderrIsNotTrusted(value: String) {
        var info = stat()
        #expect(fstat(2, &info) == 0)
        #expect(value != "\(info.st_dev):\(info.st_ino)")
        #expect(!Systemd.stderrIsJournalStream(value))
        #expect(!Systemd.stderrIsJournalStream(nil))
    }

    @Test func theJournalStreamMustNameStderrByDeviceAndInode() {
        var info = stat()
        #expect(fstat(2, &info) == 0)
        #expect(Systemd.stderrIsJournalStream("\(info.st_dev):\(info.st_ino)"))
        #expect(!Systemd.stderrIsJournalStream("\(info.st_dev):\(info.st_ino &+ 1)"))
        #expect(!Systemd.stderrIsJournalStream("\(info.st_dev &+ 1):\(info.st_ino)"))
    }

    @Test func sendingNoFieldsIsRefusedWithoutTouchingTheJournal() {
        #expect(Systemd.sendJournal(fields: [], file: #fileID, line: #line, function: #function) == -EINVAL)
    }
}

/// A bound `AF_UNIX` socket, closed when released.
final class SystemdTestSocket {
    let fd: Int32

    /// ``fd`` as the daemon's signatures take it.
    var descriptor: FileDescriptor { FileDescriptor(rawValue: fd) }

    init(type: __socket_type, path: String) throws {
        fd = socket(AF_UNIX, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw StoreTestFailure(message: "socket: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw StoreTestFailure(message: "socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard rc == 0 else { throw StoreTestFailure(message: "bind \(path): errno \(errno)") }
    }

    deinit {
        close(fd)
    }
}
