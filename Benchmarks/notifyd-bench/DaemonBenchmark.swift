import Foundation
import Synchronization
import Varlink

/// `notifyd-bench daemon --socket PATH [--connections N] [--depth D] [--requests N | --seconds S]
/// [--mix dry-apns,dry-linkless,dry-fcm,stateful,resolve] [--devices N] [--first-device N] [--check page|frame]
/// [--pid PID] [--json]`:
/// drives a running daemon (or the C floor) over its Unix socket with N connections, each keeping up to D
/// requests in flight, and prints requests/s, client-side latency percentiles (send to reply), errors, and the
/// server's CPU time and peak RSS read from /proc (of the pid notifyd's `GetStats` gives, else of the socket's
/// peer). Every reply is checked: with `--check page` (the default) it
/// must be a decision for the page the request leads to; with `--check frame` (the floor) any reply that is not
/// a varlink error counts. Against notifyd (`--check page`), `GetStats` before and after the run gives the
/// decisions the daemon made, the journal entries it dropped and its store failures over the run.
func runDaemonBenchmark(_ arguments: [String]) {
    guard let options = DaemonBenchmarkOptions(arguments) else {
        print(
            """
            usage: notifyd-bench daemon --socket PATH [--connections N] [--depth D] [--requests N | --seconds S]
                   [--mix dry-apns,dry-linkless,dry-fcm,stateful,resolve] [--devices N] [--first-device N]
                   [--check page|frame] [--pid PID] [--json]
            """)
        exit(2)
    }
    let progress = DaemonBenchmarkProgress()
    let countersBefore = options.checkPage ? DaemonCounters.read(options.socket) : nil
    // notifyd says which process it is: under socket activation SO_PEERCRED names systemd, which made the socket.
    let pid = options.pid ?? countersBefore?.pid ?? peerPID(of: options.socket)
    let before = pid.flatMap(processCPUSeconds)
    let clientBefore = ownCPUSeconds()
    let hostBefore = HostCPUTimes.read()
    let start = DispatchTime.now().uptimeNanoseconds
    let perConnection = options.requests.map { total in
        (0..<options.connections).map { total / options.connections + ($0 < total % options.connections ? 1 : 0) }
    }
    let deadline = options.seconds.map { start + UInt64($0 * 1e9) }
    let results = (0..<options.connections).map { _ in DaemonConnectionResult() }
    let finished = DispatchSemaphore(value: 0)
    for c in 0..<options.connections {
        let result = results[c]
        let quota = perConnection?[c]
        let thread = Thread {
            runConnection(
                options: options, index: c, quota: quota, deadline: deadline, progress: progress, result: result)
            finished.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    let tty = isatty(STDOUT_FILENO) != 0 && !options.json
    var waited = 0
    while waited < options.connections {
        if finished.wait(timeout: .now() + .milliseconds(500)) == .success {
            waited += 1
            continue
        }
        if tty {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let done = progress.replies.load(ordering: .relaxed)
            let errors = progress.errors.load(ordering: .relaxed)
            print(
                String(
                    format: "\r%6.1f s  %10d replies  %10.0f /s  %d errors", elapsed, done, Double(done) / elapsed,
                    errors),
                terminator: "")
            fflush(nil)
        }
    }
    if tty { print("\r" + String(repeating: " ", count: 70) + "\r", terminator: "") }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let after = pid.flatMap(processCPUSeconds)
    let clientAfter = ownCPUSeconds()
    let host = hostBefore.flatMap { start in HostCPUTimes.read().flatMap { $0.shares(since: start) } }
    let peak = pid.flatMap(peakResidentBytes)
    let counters = countersBefore.flatMap { start in DaemonCounters.read(options.socket).map { $0 - start } }

    var latencies: [UInt64] = []
    latencies.reserveCapacity(results.reduce(0) { $0 + $1.latencies.count })
    for r in results { latencies.append(contentsOf: r.latencies) }
    latencies.sort()
    let replies = latencies.count
    let errors = results.reduce(0) { $0 + $1.errors }
    let sent = results.reduce(0) { $0 + $1.sent }
    let failures = results.compactMap(\.failure)
    var errorNames: [String: Int] = [:]
    for r in results { for (k, v) in r.errorNames { errorNames[k, default: 0] += v } }
    func percentile(_ p: Double) -> Double {
        guard !latencies.isEmpty else { return 0 }
        let rank = min(latencies.count - 1, Int((Double(latencies.count) * p).rounded(.up)) - 1)
        return Double(latencies[max(0, rank)]) / 1000
    }
    let cpu = before.flatMap { b in after.map { $0 - b } }
    let clientCPU = clientAfter - clientBefore
    let figures = DaemonBenchmarkFigures(
        connections: options.connections, depth: options.depth, mix: options.mix.map(\.rawValue).joined(separator: ","),
        sent: sent, replies: replies, errors: errors + failures.count, seconds: elapsed,
        requestsPerSecond: Double(replies) / elapsed, p50: percentile(0.50), p90: percentile(0.90),
        p99: percentile(0.99), max: latencies.last.map { Double($0) / 1000 } ?? 0,
        serverCPUSeconds: cpu, serverPeakRSS: peak, clientCPUSeconds: clientCPU, host: host, daemon: counters)
    if options.json {
        print(figures.json)
    } else {
        figures.printTable()
        for (name, count) in errorNames.sorted(by: { $0.key < $1.key }) { print("  error \(name): \(count)") }
        for f in Set(failures).sorted() { print("  connection failed: \(f)") }
    }
    if errors + failures.count > 0 || replies != sent { exit(1) }
}

/// The kinds of request the load mixes.
enum DaemonRequestKind: String, CaseIterable {
    /// A dry-run Route of an APNs payload whose custom key links to `cart.offer`.
    case dryAPNs = "dry-apns"
    /// A dry-run Route of the same APNs alert without its link, as most pushes are: decided `opened`.
    case dryLinkless = "dry-linkless"
    /// A dry-run Route of an FCM HTTP v1 payload that links to the gated `cart.checkout`.
    case dryFCM = "dry-fcm"
    /// A Route of the APNs payload for one of `--devices` devices: its state is read, changed and stored.
    case stateful
    /// A dry-run Resolve of a universal link to `catalog.product`.
    case resolve

    /// The frame, NUL included; `device` is used by `stateful` only.
    func frame(device: Int) -> [UInt8] {
        switch self {
        case .dryAPNs: return Array(Self.apnsFrame.utf8) + [0]
        case .dryLinkless: return Array(Self.linklessFrame.utf8) + [0]
        case .dryFCM: return Array(Self.fcmFrame.utf8) + [0]
        case .resolve: return Array(Self.resolveFrame.utf8) + [0]
        case .stateful:
            return Array(
                #"{"method":"io.notifyd.Router.Route","parameters":{"device":"bench-\#(device)","payload":"#.utf8)
                + Array(Self.apnsPayload.utf8) + Array("}}".utf8) + [0]
        }
    }

    /// What a correct reply contains: the decision's page (its outcome for a decision without one).
    var expected: [UInt8] {
        switch self {
        case .dryLinkless: return Array(#""outcome":"opened""#.utf8)
        case .dryAPNs, .stateful: return Array(#""page":{"id":"cart.offer""#.utf8)
        case .dryFCM: return Array(#""page":{"id":"cart.checkout""#.utf8)
        case .resolve: return Array(#""page":{"id":"catalog.product""#.utf8)
        }
    }

    // The payloads of examples/payloads, compacted.
    private static let apnsPayload =
        #"{"aps":{"alert":{"title":"Summer sale","subtitle":"Today only","body":"30% off everything in the summer "#
        + #"collection."},"badge":1,"sound":"default","thread-id":"offers","mutable-content":1,"#
        + #""interruption-level":"time-sensitive","relevance-score":0.8},"deeplink":"shop://offers/SUMMER","#
        + #""campaign":"summer-2025"}"#
    private static let apnsFrame =
        #"{"method":"io.notifyd.Router.Route","parameters":{"dryRun":true,"payload":"# + apnsPayload + "}}"
    private static let linklessFrame =
        #"{"method":"io.notifyd.Router.Route","parameters":{"dryRun":true,"payload":"#
        + apnsPayload.replacingOccurrences(of: #""deeplink":"shop://offers/SUMMER","#, with: "") + "}}"
    private static let fcmFrame =
        #"{"method":"io.notifyd.Router.Route","parameters":{"dryRun":true,"payload":{"message":{"#
        + #""token":"bk3RNwTe3H0:CI2k_HHwgIpoDKCIZvvDMExUdFQ3P1","notification":{"title":"Your cart is waiting","#
        + #""body":"Finish checking out before the prices change."},"data":{"deeplink":"shop://cart/checkout","#
        + #""cartId":"c-20931"},"android":{"priority":"high","ttl":"3600s","notification":{"channel_id":"cart","#
        + #""click_action":"CART_REMINDER"}},"webpush":{"headers":{"Urgency":"high"},"fcm_options":{"#
        + #""link":"https://shop.example.com/cart/checkout"}},"apns":{"headers":{"apns-priority":"10"},"payload":{"#
        + #""aps":{"category":"CART_REMINDER","sound":"default"},"deeplink":"shop://cart/checkout"}}}}}}"#
    private static let resolveFrame =
        #"{"method":"io.notifyd.Router.Resolve","parameters":{"dryRun":true,"#
        + #""link":"https://shop.example.com/products/trail-runner-2"}}"#
}

struct DaemonBenchmarkOptions: Sendable {
    var socket = ""
    var connections = 4
    var depth = 64
    var requests: Int? = nil
    var seconds: Double? = nil
    var mix: [DaemonRequestKind] = [.dryAPNs]
    var devices = 10_000
    /// The first device's number (`bench-N`): two clients of two replicas sharing a database route devices of their
    /// own, so that neither refuses the other's writes.
    var firstDevice = 0
    var checkPage = true
    var pid: Int32? = nil
    var json = false

    init?(_ arguments: [String]) {
        var i = 0
        while i < arguments.count {
            let value = i + 1 < arguments.count ? arguments[i + 1] : nil
            switch (arguments[i], value) {
            case ("--json", _):
                json = true
                i += 1
                continue
            case ("--socket", let v?): socket = v
            case ("--connections", let v?): guard let n = Int(v), n > 0 else { return nil }; connections = n
            case ("--depth", let v?): guard let n = Int(v), n > 0 else { return nil }; depth = n
            case ("--requests", let v?): guard let n = Int(v), n > 0 else { return nil }; requests = n
            case ("--seconds", let v?): guard let s = Double(v), s > 0 else { return nil }; seconds = s
            case ("--devices", let v?): guard let n = Int(v), n > 0 else { return nil }; devices = n
            case ("--first-device", let v?): guard let n = Int(v), n >= 0 else { return nil }; firstDevice = n
            case ("--pid", let v?): guard let n = Int32(v) else { return nil }; pid = n
            case ("--check", let v?):
                guard v == "page" || v == "frame" else { return nil }
                checkPage = v == "page"
            case ("--mix", let v?):
                let kinds = v.split(separator: ",").map { DaemonRequestKind(rawValue: String($0)) }
                guard !kinds.isEmpty, kinds.allSatisfy({ $0 != nil }) else { return nil }
                mix = kinds.compactMap { $0 }
            default: return nil
            }
            i += 2
        }
        if socket.isEmpty { return nil }
        if requests == nil && seconds == nil { requests = 100_000 }
    }
}

/// Counters the progress line reads while the connections run.
final class DaemonBenchmarkProgress: Sendable {
    let replies = Atomic<Int>(0)
    let errors = Atomic<Int>(0)
}

/// What one connection measured; written by its thread only, read after it signalled that it finished.
final class DaemonConnectionResult: @unchecked Sendable {
    var latencies: [UInt64] = []
    var sent = 0
    var errors = 0
    var errorNames: [String: Int] = [:]
    var failure: String?
}

/// One connection: keeps up to `depth` requests written and not yet answered; replies come back in order.
private func runConnection(
    options: DaemonBenchmarkOptions, index: Int, quota: Int?, deadline: UInt64?,
    progress: DaemonBenchmarkProgress, result: DaemonConnectionResult
) {
    let fd = connectUnix(options.socket)
    guard fd >= 0 else {
        result.failure = "connect \(options.socket): \(String(cString: strerror(errno)))"
        return
    }
    defer { close(fd) }
    let mix = options.mix
    let fixedFrames = mix.map { $0.frame(device: 0) }
    let expected = mix.map { Needle($0.expected) }
    // Stateful frames differ only by device; build them once per device this connection uses.
    var deviceFrames: [Int: [UInt8]] = [:]
    var sendTimes = [UInt64](repeating: 0, count: options.depth)
    var kinds = [Int](repeating: 0, count: options.depth)
    var head = 0  // oldest request not yet answered
    var inFlight = 0
    var sequence = index  // request numbers interleave across connections: index, index + N, …
    var out: [UInt8] = []
    var input = [UInt8](repeating: 0, count: 1 << 16)
    var pending: [UInt8] = []  // a partial frame carried to the next read
    result.latencies.reserveCapacity(quota ?? 1 << 20)
    var stopSending = false
    while true {
        // Fill the pipeline.
        out.removeAll(keepingCapacity: true)
        while !stopSending && inFlight < options.depth {
            if let quota, result.sent >= quota {
                stopSending = true
                break
            }
            if let deadline, DispatchTime.now().uptimeNanoseconds >= deadline {
                stopSending = true
                break
            }
            let k = sequence % mix.count
            if mix[k] == .stateful {
                let device = (sequence / mix.count) % options.devices
                if let frame = deviceFrames[device] {
                    out.append(contentsOf: frame)
                } else {
                    let frame = mix[k].frame(device: options.firstDevice + device)
                    if options.devices <= 100_000 { deviceFrames[device] = frame }
                    out.append(contentsOf: frame)
                }
            } else {
                out.append(contentsOf: fixedFrames[k])
            }
            let slot = (head + inFlight) % options.depth
            sendTimes[slot] = DispatchTime.now().uptimeNanoseconds
            kinds[slot] = k
            inFlight += 1
            result.sent += 1
            sequence += options.connections
        }
        if !out.isEmpty && !writeAll(fd, out) {
            result.failure = "write: \(String(cString: strerror(errno)))"
            return
        }
        if inFlight == 0 { return }
        // Read at least one reply.
        let n = input.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 {
            result.failure = n == 0 ? "server closed the connection" : "read: \(String(cString: strerror(errno)))"
            return
        }
        let now = DispatchTime.now().uptimeNanoseconds
        var frameStart = 0
        var answered = 0
        // The client shares the machine's cores with the server it measures: frames are found with memchr and their
        // page checked with a Horspool search (`Needle`), not byte by byte, so that its own work per reply stays small.
        input.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            while frameStart < n, let nul = memchr(base + frameStart, 0, n - frameStart) {
                let i = base.distance(to: nul.assumingMemoryBound(to: UInt8.self))
                let k = kinds[head]
                let ok: Bool
                if pending.isEmpty {
                    ok = checkReply(
                        UnsafeBufferPointer(rebasing: buffer[frameStart..<i]), expected[k], options.checkPage)
                } else {
                    pending.append(contentsOf: buffer[frameStart..<i])
                    ok = pending.withUnsafeBufferPointer { checkReply($0, expected[k], options.checkPage) }
                }
                if !ok {
                    result.errors += 1
                    progress.errors.add(1, ordering: .relaxed)
                    let frame = pending.isEmpty ? Array(buffer[frameStart..<i]) : pending
                    result.errorNames[errorName(frame), default: 0] += 1
                }
                pending.removeAll(keepingCapacity: true)
                result.latencies.append(now - sendTimes[head])
                head = (head + 1) % options.depth
                inFlight -= 1
                frameStart = i + 1
                answered += 1
            }
        }
        // One update of the shared counter per read: the connections' threads do not contend for it per reply.
        if answered > 0 { progress.replies.add(answered, ordering: .relaxed) }
        if frameStart < n { pending.append(contentsOf: input[frameStart..<n]) }
    }
}

/// Whether a reply frame is correct: a decision for the expected page, or (checking frames only) not an error.
private func checkReply(_ frame: UnsafeBufferPointer<UInt8>, _ expected: Needle, _ checkPage: Bool) -> Bool {
    let isError = frame.count >= 9 && frame.starts(with: #"{"error":"#.utf8)
    if isError || frame.isEmpty { return false }
    if !checkPage { return true }
    return expected.occurs(in: frame)
}

/// A byte string searched for with Boyer-Moore-Horspool: most windows are passed over by the shift of their last
/// byte, a few bytes read per needle's length.
struct Needle {
    let bytes: [UInt8]
    /// How far a window may move when its last byte is the index.
    private let shifts: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var shifts = [Int](repeating: bytes.count, count: 256)
        for (i, b) in bytes.dropLast().enumerated() { shifts[Int(b)] = bytes.count - 1 - i }
        self.shifts = shifts
    }

    /// Whether the needle occurs in `haystack`.
    func occurs(in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        let m = bytes.count
        guard m > 0 else { return true }
        guard let base = haystack.baseAddress, haystack.count >= m else { return false }
        return bytes.withUnsafeBufferPointer { needle in
            shifts.withUnsafeBufferPointer { shifts in
                let last = needle[m - 1]
                var i = 0
                while i <= haystack.count - m {
                    let b = base[i + m - 1]
                    if b == last, memcmp(base + i, needle.baseAddress!, m - 1) == 0 { return true }
                    i += shifts[Int(b)]
                }
                return false
            }
        }
    }
}

/// The varlink error of a failed reply, or a short description of what came instead.
private func errorName(_ frame: [UInt8]) -> String {
    let text = String(decoding: frame.prefix(300), as: UTF8.self)
    if let range = text.range(of: #""error":""#) {
        let rest = text[range.upperBound...]
        return String(rest.prefix { $0 != "\"" })
    }
    return "unexpected reply: " + String(text.prefix(120))
}

private func connectUnix(_ path: String) -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return -1 }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
        close(fd)
        errno = ENAMETOOLONG
        return -1
    }
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        for (i, b) in bytes.enumerated() { buffer[i] = b }
    }
    let status = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    if status != 0 {
        close(fd)
        return -1
    }
    return fd
}

private func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { buffer in
        var done = 0
        while done < buffer.count {
            let n = write(fd, buffer.baseAddress! + done, buffer.count - done)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            done += n
        }
        return true
    }
}

/// The pid of the process serving the socket, from SO_PEERCRED of a connection to it.
private func peerPID(of path: String) -> Int32? {
    let fd = connectUnix(path)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    // struct ucred: pid, uid, gid.
    var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
    var size = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0 else { return nil }
    return credentials.0
}

/// utime + stime of a process in seconds, from /proc/PID/stat.
private func processCPUSeconds(_ pid: Int32) -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = text.lastIndex(of: ")")
    else { return nil }
    // After "pid (comm)": state is field 3; utime and stime are fields 14 and 15.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// This process's user and system CPU time, from `getrusage` (microsecond resolution).
private func ownCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// The peak resident set (VmHWM) of a process in bytes, from /proc/PID/status.
private func peakResidentBytes(_ pid: Int32) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kilobytes = line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
        return kilobytes.map { $0 * 1024 }
    }
    return nil
}

/// The machine's CPU time by kind, from the first line of /proc/stat (clock ticks summed over every CPU): over a
/// run, how much of it the hypervisor gave to other guests (steal) and how much was left idle.
struct HostCPUTimes {
    /// user, nice, system, idle, iowait, irq, softirq, steal.
    let ticks: [UInt64]

    static func read(_ path: String = "/proc/stat") -> HostCPUTimes? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return parse(text)
    }

    /// The times of the `cpu` line of a /proc/stat text; `nil` when it has none or fewer than eight numbers.
    static func parse(_ text: String) -> HostCPUTimes? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return nil }
        let numbers = line.split(separator: " ").dropFirst().prefix(8).compactMap { UInt64($0) }
        guard numbers.count == 8 else { return nil }
        return HostCPUTimes(ticks: numbers)
    }

    /// The shares of the time between `start` and these times, in percent; `nil` when no tick passed.
    func shares(since start: HostCPUTimes) -> HostCPUShares? {
        let delta = zip(ticks, start.ticks).map { $0 >= $1 ? $0 - $1 : 0 }
        let total = delta.reduce(0, +)
        guard total > 0 else { return nil }
        func percent(_ value: UInt64) -> Double { Double(value) * 100 / Double(total) }
        return HostCPUShares(steal: percent(delta[7]), idle: percent(delta[3] + delta[4]))
    }
}

/// How the machine's CPU time went over a run, in percent of all its CPUs' time.
struct HostCPUShares {
    /// Taken by the hypervisor for other guests while this machine wanted to run: its CPUs were not there.
    let steal: Double
    /// Idle or waiting for I/O.
    let idle: Double
}

/// Counters of notifyd's `GetStats`, read before and after a run: what the daemon did over it.
struct DaemonCounters {
    /// The daemon's process id.
    var pid: Int32?
    /// Decisions made (dry runs included).
    var decisions: Int
    /// Journal entries dropped because the journal queue was full (its writer, or journald, behind).
    var journalDropped: Int
    /// Batches whose state commit failed.
    var storeFailures: Int

    static func - (lhs: DaemonCounters, rhs: DaemonCounters) -> DaemonCounters {
        DaemonCounters(
            pid: lhs.pid, decisions: lhs.decisions - rhs.decisions,
            journalDropped: lhs.journalDropped - rhs.journalDropped,
            storeFailures: lhs.storeFailures - rhs.storeFailures)
    }

    /// The counters of the notifyd serving `socket`; `nil` when the server does not answer `GetStats` with them
    /// within five seconds (the floor, another server).
    static func read(_ socket: String) -> DaemonCounters? {
        guard let client = try? VarlinkClient(socketPath: socket, timeout: .seconds(5)) else { return nil }
        defer { client.close() }
        guard let stats = (try? client.call("io.notifyd.Router.GetStats"))?["stats"]?.objectValue,
            let decisions = stats["decisions"]?.intValue, let dropped = stats["journalDropped"]?.intValue,
            let failures = stats["storeFailures"]?.intValue
        else { return nil }
        let pid = stats["pid"]?.intValue.flatMap { Int32(exactly: $0) }
        return DaemonCounters(pid: pid, decisions: decisions, journalDropped: dropped, storeFailures: failures)
    }
}

/// The figures of one run.
struct DaemonBenchmarkFigures {
    let connections: Int
    let depth: Int
    let mix: String
    let sent: Int
    let replies: Int
    let errors: Int
    let seconds: Double
    let requestsPerSecond: Double
    /// Latency percentiles in microseconds.
    let p50: Double
    let p90: Double
    let p99: Double
    let max: Double
    let serverCPUSeconds: Double?
    let serverPeakRSS: Int?
    /// This process's CPU time over the run: shows whether the client, sharing the machine, was the bottleneck.
    let clientCPUSeconds: Double
    /// The machine's CPU time over the run, when /proc/stat could be read: with a large steal share the figures
    /// measure the host's other guests as much as the server.
    let host: HostCPUShares?
    /// What notifyd counted over the run; `nil` for another server or with `--check frame`.
    let daemon: DaemonCounters?

    func printTable() {
        print("daemon: \(connections) connections × depth \(depth), mix \(mix)")
        print(
            "   replies   errors   seconds     req/s   p50 µs   p90 µs   p99 µs   max µs   server cpu s  peak RSS MiB")
        print(
            String(
                format: "%10d %8d %9.2f %9.0f %8.1f %8.1f %8.1f %8.1f ", replies, errors, seconds,
                requestsPerSecond, p50, p90, p99, max)
                + leftPad(serverCPUSeconds.map { String(format: "%.2f", $0) } ?? "-", 14) + " "
                + leftPad(serverPeakRSS.map { String(format: "%.1f", Double($0) / 1_048_576) } ?? "-", 13))
        if let cpu = serverCPUSeconds, cpu > 0 {
            print(
                String(
                    format: "server: %.1f µs CPU per request, %.0f%% of one core",
                    cpu * 1e6 / Double(Swift.max(1, replies)), cpu / seconds * 100))
        }
        print(
            String(
                format: "client: %.1f µs CPU per request, %.0f%% of one core",
                clientCPUSeconds * 1e6 / Double(Swift.max(1, replies)), clientCPUSeconds / seconds * 100))
        if let host {
            let shares = String(
                format: "host: %.0f%% of the CPUs' time stolen by the hypervisor, %.0f%% idle", host.steal, host.idle)
            let note = host.steal > 10 ? " (this run measured the host's other guests as much as the server)" : ""
            print(shares + note)
        }
        if let daemon {
            print(
                "notifyd: \(daemon.decisions) decisions, \(daemon.journalDropped) journal entries dropped "
                    + "(the journal queue was full), \(daemon.storeFailures) failed state commits")
        }
    }

    var json: String {
        let cpu = serverCPUSeconds.map { String(format: "%.4f", $0) } ?? "null"
        let rss = serverPeakRSS.map(String.init) ?? "null"
        let clientCPU = String(format: "%.4f", clientCPUSeconds)
        let decisions = daemon.map { String($0.decisions) } ?? "null"
        let dropped = daemon.map { String($0.journalDropped) } ?? "null"
        let failures = daemon.map { String($0.storeFailures) } ?? "null"
        let steal = host.map { String(format: "%.1f", $0.steal) } ?? "null"
        let idle = host.map { String(format: "%.1f", $0.idle) } ?? "null"
        return #"{"connections":\#(connections),"depth":\#(depth),"mix":"\#(mix)","sent":\#(sent),"#
            + #""replies":\#(replies),"errors":\#(errors),"seconds":\#(seconds),"#
            + #""requestsPerSecond":\#(requestsPerSecond),"p50":\#(p50),"p90":\#(p90),"p99":\#(p99),"max":\#(max),"#
            + #""serverCPUSeconds":\#(cpu),"serverPeakRSS":\#(rss),"clientCPUSeconds":\#(clientCPU),"#
            + #""daemonDecisions":\#(decisions),"journalDropped":\#(dropped),"storeFailures":\#(failures),"#
            + #""hostStealPercent":\#(steal),"hostIdlePercent":\#(idle)}"#
    }
}

private func leftPad(_ s: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - s.count)) + s
}
