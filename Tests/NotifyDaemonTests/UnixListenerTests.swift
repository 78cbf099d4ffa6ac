import Glibc
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
        defer { close(live) }
        #expect(UnixListener.probe(path: path) == .live)
        #expect {
            _ = try UnixListener.bind(path: path)
        } throws: { error in
            (error as? ListenerError)?.message.contains("refusing to steal") ?? false
        }
    }
}
