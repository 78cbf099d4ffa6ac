import CSyscalls
import Glibc

/// A single-threaded epoll loop: file descriptors with handlers, timers, and hooks that run after
/// each batch of ready events (the daemon commits state and flushes replies there).
///
/// Everything registered here runs on the loop's thread; nothing in it is shared with other threads.
/// It is `package`-visible so that `notifyd-bench eventloop` measures this loop itself.
package final class EventLoop {
    /// A handler receives the epoll event mask (`EPOLLIN`, `EPOLLOUT`, `EPOLLHUP`, …).
    package typealias Handler = (UInt32) -> Void

    private let epollFD: FileDescriptor
    /// Keyed by the descriptor's number, as epoll reports it with each event.
    private var handlers: [Int32: Handler] = [:]
    private var timers: [Timer] = []
    /// The earliest deadline of ``timers`` (`UInt64.max` without timers): a turn with nothing due skips the timer
    /// list instead of scanning it.
    private var nextDeadline = UInt64.max
    private var nextTimerID = 0
    private var stopped = false
    private var afterBatchHooks: [() -> Void] = []
    private var events = [epoll_event](repeating: epoll_event(), count: 256)

    private struct Timer {
        let id: Int
        var deadline: UInt64
        let interval: UInt64?
        let action: () -> Void
    }

    package init() throws(Errno) {
        epollFD = try FileDescriptor(rawValue: Sys.check("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) })
    }

    deinit {
        Sys.close(epollFD)
    }

    /// Watches `fd` for `events` (an `EPOLLIN`/`EPOLLOUT` mask) and calls `handler` when ready.
    package func register(_ fd: FileDescriptor, events: UInt32, handler: @escaping Handler) throws(Errno) {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd.rawValue
        try Sys.check("epoll_ctl(ADD)") { epoll_ctl(epollFD.rawValue, EPOLL_CTL_ADD, fd.rawValue, &event) }
        handlers[fd.rawValue] = handler
    }

    /// Changes the events watched on `fd`.
    package func modify(_ fd: FileDescriptor, events: UInt32) throws(Errno) {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd.rawValue
        try Sys.check("epoll_ctl(MOD)") { epoll_ctl(epollFD.rawValue, EPOLL_CTL_MOD, fd.rawValue, &event) }
    }

    /// Stops watching `fd` (call before closing it).
    package func unregister(_ fd: FileDescriptor) {
        _ = epoll_ctl(epollFD.rawValue, EPOLL_CTL_DEL, fd.rawValue, nil)
        handlers[fd.rawValue] = nil
    }

    /// Runs `action` after `nanoseconds`, and then every `nanoseconds` again when `repeating`.
    @discardableResult
    package func schedule(after nanoseconds: UInt64, repeating: Bool = false, _ action: @escaping () -> Void) -> Int {
        nextTimerID += 1
        let deadline = Sys.monotonicNanoseconds() &+ nanoseconds
        timers.append(
            Timer(id: nextTimerID, deadline: deadline, interval: repeating ? nanoseconds : nil, action: action))
        nextDeadline = min(nextDeadline, deadline)
        return nextTimerID
    }

    /// Cancels a timer from ``schedule(after:repeating:_:)``.
    package func cancelTimer(_ id: Int) {
        timers.removeAll { $0.id == id }
        nextDeadline = earliestDeadline()
    }

    /// Adds a hook that runs after every batch of ready events and timers.
    package func afterEachBatch(_ hook: @escaping () -> Void) {
        afterBatchHooks.append(hook)
    }

    /// Makes ``run()`` return after the current batch.
    package func stop() {
        stopped = true
    }

    /// Waits for events and dispatches them until ``stop()``.
    package func run() throws(Errno) {
        while !stopped {
            let timeout = millisecondsUntilNextTimer()
            let n = events.withUnsafeMutableBufferPointer { buffer in
                epoll_wait(epollFD.rawValue, buffer.baseAddress, Int32(buffer.count), timeout)
            }
            if n < 0 {
                let e = notifyd_errno()
                if e == EINTR { continue }
                throw Errno(call: "epoll_wait", code: e)
            }
            for i in 0..<Int(n) {
                let fd = events[i].data.fd
                // A handler may have closed this fd earlier in the same batch.
                handlers[fd]?(events[i].events)
            }
            if nextDeadline != .max { runDueTimers(now: Sys.monotonicNanoseconds()) }
            for hook in afterBatchHooks { hook() }
        }
    }

    private func millisecondsUntilNextTimer() -> Int32 {
        guard nextDeadline != .max else { return -1 }
        let now = Sys.monotonicNanoseconds()
        if nextDeadline <= now { return 0 }
        return Int32(min((nextDeadline - now + 999_999) / 1_000_000, 60_000))
    }

    private func runDueTimers(now: UInt64) {
        guard nextDeadline <= now else { return }
        var due: [Timer] = []
        timers.removeAll { timer in
            guard timer.deadline <= now else { return false }
            due.append(timer)
            return true
        }
        for var timer in due {
            guard let interval = timer.interval else { continue }
            timer.deadline = now &+ interval
            timers.append(timer)
        }
        nextDeadline = earliestDeadline()
        // Timers due together (the loop woke late) fire in the order of their deadlines, then of their scheduling.
        due.sort { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
        // Actions run last: one may schedule or cancel timers, which keeps nextDeadline right itself.
        for timer in due { timer.action() }
    }

    private func earliestDeadline() -> UInt64 {
        timers.reduce(UInt64.max) { min($0, $1.deadline) }
    }
}
