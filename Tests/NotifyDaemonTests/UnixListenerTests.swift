import Glibc
import Synchronization
import Testing

@testable import NotifyDaemon

@Suite struct UnixListenerTests {
    @Test func onlyARefusedConnectionOrAVanishedFileIsStale() {
        #expect(UnixListener.probe(connectError: nil) == .live)
        #expect(UnixListener.probe(connectError: Errno(call: "connect", code: ECONNREFUSED)) == .stale)
        #expect(UnixListener.probe(connectError: Errno(call: "connect", code: ENOENT)) == .stale)
        for code in [EACCES, EPERM, EAGAIN, ETIMEDOUT, EINTR] {
            let error = Errno(call: "connect", code: code)
            #expect(UnixListener.probe(connectError: error) == .unknown(error))
        }
    }

    @Test func aSocketNobodyListensOnIsReplacedAndALiveOneIsRefused() throws {
        let directory = "/tmp/notifyd-listener-\(getpid())"
        mkdir(directory, 0o700)
        defer { rmdir(directory) }
        let path = directory + "/s.sock"
        defer { unlink(path) }
        // A socket file whose process is gone: bound, never listened on, closed.
        let dead = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = UnixListener.makeAddress(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(dead, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0)
        close(dead)
        #expect(UnixListener.probe(path: path) == .stale)

        let live = try UnixListener.bind(path: path)
        defer { close(live.rawValue) }
        #expect(UnixListener.probe(path: path) == .live)
        #expect {
            _ = try UnixListener.bind(path: path)
        } throws: { error in
            (error as? ListenerError)?.message.contains("refusing to steal") ?? false
        }
    }

    /// The file mode mask belongs to the whole process: binding must not change it, or a file another thread makes
    /// meanwhile (a program a test builds, a state file) gets the socket's mask. A thread reads the mask from
    /// `/proc/self/status` (reading it through `umask` would change it) while sockets are bound over and over.
    @Test func bindingLeavesTheProcessFileModeMaskAlone() throws {
        let before = try #require(Self.fileModeMask())
        let directory = "/tmp/notifyd-listener-mask-\(getpid())"
        mkdir(directory, 0o700)
        defer { rmdir(directory) }
        let path = directory + "/s.sock"
        defer { unlink(path) }
        final class Watch: Sendable {
            let done = Atomic(false)
            let seen = Mutex<Set<String>>([])
        }
        let watch = Watch()
        let started = Threads.start {
            var masks: Set<String> = []
            while !watch.done.load(ordering: .acquiring) {
                if let mask = UnixListenerTests.fileModeMask() { masks.insert(mask) }
            }
            watch.seen.withLock { $0 = masks }
        }
        let reader = try #require(started)
        for _ in 0..<400 {
            let fd = try UnixListener.bind(path: path, mode: 0o600)
            close(fd.rawValue)
            unlink(path)
        }
        watch.done.store(true, ordering: .releasing)
        pthread_join(reader, nil)
        #expect(watch.seen.withLock { $0 } == [before])
    }

    /// The `Umask:` line of `/proc/self/status`, e.g. `0022`.
    static func fileModeMask() -> String? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let bytes = line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            let text = String(decoding: bytes, as: UTF8.self)
            if text.hasPrefix("Umask:") { return String(text.dropFirst(6).filter { !$0.isWhitespace }) }
        }
        return nil
    }
}
