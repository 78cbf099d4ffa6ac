import Foundation
import Glibc
import Testing

@testable import NotifyDaemon

/// The loop's timers: it keeps their earliest deadline apart (a turn with nothing due skips the list), so these check
/// that the deadline follows every way the list changes. A loop whose deadline went wrong would wait forever, so each
/// runs with a watchdog that does not rely on timers: a pipe written by another thread after two seconds.
@Suite struct EventLoopTimerTests {
    /// Runs `loop` until it stops; false when the watchdog had to stop it.
    private func runWatched(_ loop: EventLoop) throws -> Bool {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        var timedOut = false
        try loop.register(FileDescriptor(rawValue: fds[0]), events: Poll.input) { _ in
            timedOut = true
            loop.stop()
        }
        defer { loop.unregister(FileDescriptor(rawValue: fds[0])) }
        let writeEnd = fds[1]
        let finished = DispatchSemaphore(value: 0)
        let watchdogDone = DispatchSemaphore(value: 0)
        Thread {
            if finished.wait(timeout: .now() + 2) == .timedOut {
                var byte: UInt8 = 1
                _ = write(writeEnd, &byte, 1)
            }
            watchdogDone.signal()
        }.start()
        // The watchdog is over before the pipe closes (the defers above run after this one).
        defer {
            finished.signal()
            watchdogDone.wait()
        }
        try loop.run()
        return !timedOut
    }

    @Test func oneShotTimersFireOnceInDeadlineOrder() throws {
        let loop = try EventLoop()
        var fired: [String] = []
        loop.schedule(after: 30_000_000) { fired.append("late") }
        loop.schedule(after: 1_000_000) { fired.append("early") }
        loop.schedule(after: 60_000_000) { loop.stop() }
        #expect(try runWatched(loop))
        #expect(fired == ["early", "late"])
    }

    /// A loop that wakes after several deadlines passed (a busy machine) fires those timers in deadline order, not
    /// in the order they were scheduled.
    @Test func timersDueTogetherFireInDeadlineOrder() throws {
        let loop = try EventLoop()
        var fired: [String] = []
        loop.schedule(after: 40_000_000) { fired.append("third") }
        loop.schedule(after: 1_000_000) { fired.append("first") }
        loop.schedule(after: 20_000_000) { fired.append("second") }
        loop.schedule(after: 60_000_000) { loop.stop() }
        usleep(100_000)  // every deadline has passed when the loop first looks
        #expect(try runWatched(loop))
        #expect(fired == ["first", "second", "third"])
    }

    @Test func aRepeatingTimerFiresUntilCancelled() throws {
        let loop = try EventLoop()
        var ticks = 0
        var id = 0
        id = loop.schedule(after: 1_000_000, repeating: true) {
            ticks += 1
            guard ticks == 3 else { return }
            loop.cancelTimer(id)
            // Time for three more ticks, were the timer still there (however late the loop wakes, this comes last).
            loop.schedule(after: 5_000_000) { loop.stop() }
        }
        #expect(try runWatched(loop))
        #expect(ticks == 3)
    }

    @Test func aTimerScheduledByAnActionFires() throws {
        let loop = try EventLoop()
        var order: [String] = []
        loop.schedule(after: 1_000_000) {
            order.append("first")
            loop.schedule(after: 1_000_000) {
                order.append("second")
                loop.stop()
            }
        }
        #expect(try runWatched(loop))
        #expect(order == ["first", "second"])
    }

    @Test func cancellingTheEarliestTimerLetsTheLoopWaitForTheNext() throws {
        let loop = try EventLoop()
        var fired: [String] = []
        let early = loop.schedule(after: 1_000_000) { fired.append("cancelled") }
        let start = Sys.monotonicNanoseconds()
        var stoppedAfter: UInt64 = 0
        loop.schedule(after: 5_000_000) {
            fired.append("kept")
            stoppedAfter = Sys.monotonicNanoseconds() - start
            loop.stop()
        }
        loop.cancelTimer(early)
        #expect(try runWatched(loop))
        #expect(fired == ["kept"])
        #expect(stoppedAfter >= 5_000_000)
    }

    @Test func aTimerDueDuringEventsRunsInTheSameTurn() throws {
        let loop = try EventLoop()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        var events = 0
        var timerRan = false
        try loop.register(FileDescriptor(rawValue: fds[0]), events: Poll.input) { _ in
            var byte: UInt8 = 0
            _ = read(fds[0], &byte, 1)
            events += 1
        }
        loop.schedule(after: 0) { timerRan = true }
        loop.afterEachBatch { [unowned loop] in
            if events > 0 { loop.stop() }
        }
        var byte: UInt8 = 1
        #expect(write(fds[1], &byte, 1) == 1)
        #expect(try runWatched(loop))
        #expect(events == 1)
        #expect(timerRan)
    }
}
