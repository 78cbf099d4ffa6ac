import Testing

@testable import NotifyDaemon

@Suite struct LaneWatchTests {
    @Test func noLaneIsSilentBeforeTheFirstPing() {
        var watch = LaneWatch(lanes: 3)
        #expect(watch.silent.isEmpty)
        #expect(watch.nextPing() == 1)
    }

    @Test func aLaneIsSilentUntilItAnswersTheLastPing() {
        var watch = LaneWatch(lanes: 3)
        let first = watch.nextPing()
        watch.pong(lane: 0, sequence: first)
        watch.pong(lane: 2, sequence: first)
        #expect(watch.silent == [1])
        watch.pong(lane: 1, sequence: first)
        #expect(watch.silent.isEmpty)
        // An answer to an older ping does not count for a newer one.
        let second = watch.nextPing()
        watch.pong(lane: 0, sequence: first)
        watch.pong(lane: 1, sequence: second)
        #expect(watch.silent == [0, 2])
        // A late answer to the older ping after the newer one does not undo it.
        watch.pong(lane: 0, sequence: second)
        watch.pong(lane: 0, sequence: first)
        watch.pong(lane: 2, sequence: second)
        #expect(watch.silent.isEmpty)
    }
}
