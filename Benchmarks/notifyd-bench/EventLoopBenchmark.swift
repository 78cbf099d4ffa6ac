import Dispatch
import Foundation
import NotifyDaemon
import Varlink

/// `notifyd-bench eventloop [--connections N] [--depth D] [--requests N] [--runs K]`: the server's epoll loop
/// (``EventLoop``, the one notifyd runs) beside Dispatch read sources on a serial queue, each serving an echo of
/// NUL-framed varlink messages over Unix socket pairs. N client threads keep D requests in flight each; every
/// reply is the request's frame. Runs alternate between the two, and the medians of requests/s and of the
/// serving side's CPU time per request (the process's CPU time minus the client threads' own) are printed.
func runEventLoopBenchmark(_ arguments: [String]) {
    guard let options = EventLoopBenchmarkOptions(arguments) else {
        print("usage: notifyd-bench eventloop [--connections N] [--depth D] [--requests N] [--runs K]")
        exit(2)
    }
    var figures: [EchoLoop: [EchoRun]] = [:]
    for run in 0..<options.runs {
        // Alternating which goes first, so neither always runs on a warmer (or hotter) machine.
        for loop in run % 2 == 0 ? EchoLoop.allCases : EchoLoop.allCases.reversed() {
            figures[loop, default: []].append(runEcho(loop, options))
        }
    }
    print(
        "eventloop: \(options.connections) connections × depth \(options.depth), \(options.requests) requests per "
            + "run, median of \(options.runs) alternating runs")
    print("loop        requests/s   serving CPU µs/request   wall s")
    for loop in EchoLoop.allCases {
        let runs = figures[loop] ?? []
        let rate = median(runs.map { Double(options.requests) / $0.wallSeconds })
        let cpu = median(runs.map { $0.servingCPUSeconds / Double(options.requests) * 1e6 })
        let wall = median(runs.map(\.wallSeconds))
        print(
            loop.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
                + String(format: "%12.0f   %22.2f   %6.2f", rate, cpu, wall))
    }
}

struct EventLoopBenchmarkOptions {
    var connections = 16
    var depth = 16
    var requests = 400_000
    var runs = 5

    init?(_ arguments: [String]) {
        var i = 0
        while i < arguments.count {
            guard i + 1 < arguments.count, let value = Int(arguments[i + 1]), value > 0 else { return nil }
            switch arguments[i] {
            case "--connections": connections = value
            case "--depth": depth = value
            case "--requests": requests = value
            case "--runs": runs = value
            default: return nil
            }
            i += 2
        }
        guard requests >= connections else { return nil }
    }
}

enum EchoLoop: String, CaseIterable {
    case epoll
    case dispatch
}

struct EchoRun {
    let wallSeconds: Double
    let servingCPUSeconds: Double
}

private func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// A Varlink call of the size notifyd mostly sees, NUL included.
private let echoFrame =
    Array(
        #"{"method":"io.notifyd.Router.Resolve","parameters":{"link":"shop://offers/SUMMER","dryRun":true}}"#.utf8) + [
        0
    ]

/// One run: socket pairs, the serving side set up with `loop`, then the clients; returns wall and serving CPU time.
private func runEcho(_ loop: EchoLoop, _ options: EventLoopBenchmarkOptions) -> EchoRun {
    var serverFDs: [Int32] = []
    var clientFDs: [Int32] = []
    for _ in 0..<options.connections {
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            fatalError("socketpair: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK)
        serverFDs.append(pair[0])
        clientFDs.append(pair[1])
    }
    let server = EchoServer()
    let served = DispatchSemaphore(value: 0)
    var sources: [DispatchSourceRead] = []
    switch loop {
    case .epoll:
        guard let eventLoop = try? EventLoop() else { fatalError("epoll_create1 failed") }
        var open = serverFDs.count
        for fd in serverFDs {
            let connection = EchoConnection(fd: fd)
            do {
                try eventLoop.register(FileDescriptor(rawValue: fd), events: Poll.input) { _ in
                    guard !server.serve(connection) else { return }
                    eventLoop.unregister(FileDescriptor(rawValue: fd))
                    close(fd)
                    open -= 1
                    if open == 0 { eventLoop.stop() }
                }
            } catch {
                fatalError("\(error)")
            }
        }
        let running = RunningLoop(eventLoop)
        let thread = Thread {
            try? running.loop.run()
            served.signal()
        }
        thread.start()
    case .dispatch:
        // Serial, like the daemon's single thread: its state is not shared between threads.
        let queue = DispatchQueue(label: "notifyd-bench.echo")
        let group = DispatchGroup()
        for fd in serverFDs {
            let connection = EchoConnection(fd: fd)
            let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
            group.enter()
            source.setEventHandler {
                if !server.serve(connection) { source.cancel() }
            }
            source.setCancelHandler {
                close(fd)
                group.leave()
            }
            source.resume()
            sources.append(source)
        }
        group.notify(queue: .global()) { served.signal() }
    }

    let clients = (0..<options.connections).map { _ in EchoClientResult() }
    let done = DispatchSemaphore(value: 0)
    let cpuBefore = processCPUSeconds()
    let start = DispatchTime.now().uptimeNanoseconds
    for (index, fd) in clientFDs.enumerated() {
        let quota = options.requests / options.connections + (index < options.requests % options.connections ? 1 : 0)
        let result = clients[index]
        let thread = Thread {
            runEchoClient(fd: fd, quota: quota, depth: options.depth, result: result)
            done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    for _ in clientFDs { done.wait() }
    served.wait()
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let cpu = processCPUSeconds() - cpuBefore
    let clientCPU = clients.reduce(0) { $0 + $1.cpuSeconds }
    let replies = clients.reduce(0) { $0 + $1.replies }
    guard replies == options.requests, server.failures == 0 else {
        fatalError("\(loop.rawValue): \(replies) replies of \(options.requests), \(server.failures) failures")
    }
    withExtendedLifetime(sources) {}
    return EchoRun(wallSeconds: wall, servingCPUSeconds: max(0, cpu - clientCPU))
}

/// The serving side's work, the same for both loops: read what is there, answer each complete frame with
/// itself, write the answers.
private final class EchoServer: @unchecked Sendable {
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    private var output: [UInt8] = []
    private(set) var failures = 0

    /// Serves what `connection` sent; false once its client closed (or on an error).
    func serve(_ connection: EchoConnection) -> Bool {
        var open = true
        reading: while true {
            let n = scratch.withUnsafeMutableBytes { read(connection.fd, $0.baseAddress, $0.count) }
            if n > 0 {
                scratch.withUnsafeBytes { connection.decoder.append(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
                if n < scratch.count { break reading }
                continue
            }
            if n == 0 {
                open = false
            } else if errno == EINTR {
                continue
            } else if errno != EAGAIN {
                failures += 1
                open = false
            }
            break
        }
        do {
            while let frame = try connection.decoder.nextFrame() {
                output.append(contentsOf: frame)
                output.append(0)
            }
        } catch {
            failures += 1
            return false
        }
        if !output.isEmpty {
            if !writeAll(connection.fd, output) { failures += 1 }
            output.removeAll(keepingCapacity: true)
        }
        return open
    }
}

/// Hands the loop to the thread that runs it; only that thread touches it afterwards.
private final class RunningLoop: @unchecked Sendable {
    let loop: EventLoop

    init(_ loop: EventLoop) {
        self.loop = loop
    }
}

private final class EchoConnection: @unchecked Sendable {
    let fd: Int32
    var decoder = FrameDecoder()

    init(fd: Int32) {
        self.fd = fd
    }
}

private final class EchoClientResult: @unchecked Sendable {
    var replies = 0
    var cpuSeconds = 0.0
}

/// Keeps `depth` requests in flight on `fd` until `quota` replies came back, then closes.
private func runEchoClient(fd: Int32, quota: Int, depth: Int, result: EchoClientResult) {
    let batch = Array((0..<depth).map { _ in echoFrame }.joined())
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var sent = min(depth, quota)
    _ = writeAll(fd, Array(batch[..<(sent * echoFrame.count)]))
    var received = 0
    while received < quota {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0, errno == EINTR { continue }
        guard n > 0 else { break }
        let replies = buffer.withUnsafeBytes { raw in
            var count = 0
            var at = 0
            while at < n, let hit = memchr(raw.baseAddress! + at, 0, n - at) {
                count += 1
                at = raw.baseAddress!.distance(to: UnsafeRawPointer(hit)) + 1
            }
            return count
        }
        received += replies
        let more = min(replies, quota - sent)
        if more > 0 {
            _ = writeAll(fd, Array(batch[..<(more * echoFrame.count)]))
            sent += more
        }
    }
    close(fd)
    result.replies = received
    result.cpuSeconds = threadCPUSeconds()
}

/// Writes all of `bytes`, waiting for room when the socket is full; false on an error.
private func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
        if n > 0 {
            offset += n
        } else if errno == EAGAIN || errno == EINTR {
            var pending = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&pending, 1, -1)
        } else {
            return false
        }
    }
    return true
}

private func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
        + Double(usage.ru_stime.tv_usec) / 1e6
}

private func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
