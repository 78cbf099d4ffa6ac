import Testing

@testable import NotifyDaemon

/// A connection's life: what each transition leaves from and goes to, and what the server asks of each state.
@Suite struct ConnectionStateTests {
    @Test func aReaderPausesAndResumes() {
        var state = ConnectionState.reading
        let paused = state.pauseReading()
        #expect(paused && state == .readPaused)
        let pausedAgain = state.pauseReading()
        #expect(!pausedAgain, "paused already")
        #expect(state.isReadPaused && state.handlesFrames)
        state.resumeReading()
        #expect(state == .reading)
        #expect(!state.isReadPaused && state.handlesFrames)
    }

    @Test func aViolationFoundWhileHandlingFramesClosesWithoutPausingReading() {
        var state = ConnectionState.reading
        state.closeAfterOutput()
        #expect(state == .closing(readPaused: false))
        #expect(state.isClosing && !state.isReadPaused && !state.handlesFrames)
        // The next readable event pauses it; it never reads again.
        let paused = state.pauseReading()
        #expect(paused && state == .closing(readPaused: true))
        let pausedAgain = state.pauseReading()
        #expect(!pausedAgain)
        state.closeAfterOutput()
        #expect(state == .closing(readPaused: true), "closing again changes nothing")
    }

    @Test func aPausedReaderThatClosesStaysPaused() {
        var state = ConnectionState.readPaused
        state.closeAfterOutput()
        #expect(state == .closing(readPaused: true))
    }

    @Test func aMigratedConnectionHasLeftUntilAdopted() {
        var state = ConnectionState.reading
        state.migrate()
        #expect(state.hasLeft && !state.handlesFrames && !state.isClosed)
        state.adopt()
        #expect(state == .reading && !state.hasLeft)
    }

    @Test(arguments: [
        ConnectionState.reading, .readPaused, .closing(readPaused: false), .closing(readPaused: true),
    ])
    func everyServedStateCloses(from start: ConnectionState) {
        var state = start
        let closed = state.close()
        #expect(closed)
        #expect(state.isClosed && state.hasLeft && state.isReadPaused && !state.handlesFrames && !state.isClosing)
        let closedAgain = state.close()
        let paused = state.pauseReading()
        #expect(!closedAgain && !paused)
        state.closeAfterOutput()
        #expect(state.isClosed)
    }
}
