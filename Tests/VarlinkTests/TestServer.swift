import Foundation
import Glibc
import JSON
import RouterContract

@testable import Varlink

/// A varlink server for tests: serves one connection from a background thread.
enum TestServer {
    /// Answers each call with the replies `handler` returns (none for a oneway call).
    typealias Handler = @Sendable (VarlinkCall) -> [VarlinkReply]

    /// What the server does with a call.
    enum Response {
        /// Sends these replies (nothing for a oneway call).
        case replies([VarlinkReply])
        /// Sends these bytes as they are.
        case raw([UInt8])
        /// Closes the connection.
        case hangUp
    }

    /// A connected socket pair; the server side is served by `handler`, the client side returned.
    static func connectedPair(_ handler: @escaping Handler) -> Int32 {
        connectedPair(responding: { .replies(handler($0)) })
    }

    /// A connected socket pair whose server does what `respond` says for each call.
    static func connectedPair(responding respond: @escaping @Sendable (VarlinkCall) -> Response) -> Int32 {
        var fds: [Int32] = [-1, -1]
        let result = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds)
        precondition(result == 0, "socketpair failed: \(errno)")
        let server = fds[1]
        Thread.detachNewThread { serve(server, respond) }
        return fds[0]
    }

    /// Listens on a fresh socket path and serves the first connection; returns the path.
    static func listening(_ handler: @escaping Handler) -> String {
        let path = NSTemporaryDirectory() + "varlink-test-\(UUID().uuidString.prefix(8)).sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        precondition(bound == 0 && listen(fd, 4) == 0, "bind/listen failed: \(errno)")
        Thread.detachNewThread {
            let connection = accept(fd, nil, nil)
            close(fd)
            unlink(path)
            if connection >= 0 { serve(connection, { .replies(handler($0)) }) }
        }
        return path
    }

    private static func serve(_ fd: Int32, _ respond: (VarlinkCall) -> Response) {
        defer { close(fd) }
        var decoder = FrameDecoder()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var output: [UInt8] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return }
            decoder.append(buffer[..<count])
            do {
                while let frame = try decoder.nextFrame() {
                    let call = try VarlinkCall(frame: frame)
                    output.removeAll()
                    switch respond(call) {
                    case .replies(let replies):
                        if call.oneway { continue }
                        for reply in replies { reply.encode(into: &output) }
                    case .raw(let bytes): output = bytes
                    case .hangUp: return
                    }
                    _ = output.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
            } catch {
                return
            }
        }
    }

    /// Echoes a call's parameters, answers `Fail` with an error, `Count` with a stream of `n`
    /// replies and `Big` with a string of `n` bytes; `Silent` gets no answer.
    static let echo: Handler = { call in
        switch call.memberName {
        case "Fail": return [VarlinkError.noRoute(link: "shop://x", reasons: []).reply]
        case "Count":
            let n = call.parameters["n"]?.intValue ?? 0
            return (0..<n).map { VarlinkReply(parameters: ["i": .int($0)], continues: $0 < n - 1) }
        case "Silent": return []
        case "Big":
            let n = call.parameters["n"]?.intValue ?? 0
            return [VarlinkReply(parameters: ["big": .string(String(repeating: "x", count: n))])]
        default: return [VarlinkReply(parameters: call.parameters)]
        }
    }
}
