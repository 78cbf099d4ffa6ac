import Glibc
import JSON
import Varlink

extension Server {
    // MARK: reading

    func ready(_ connection: ClientConnection, events: UInt32) {
        if events & Poll.output != 0 {
            writable(connection)
            if connection.state.hasLeft { return }
        }
        // After the end of the input, reading is paused (see ``ConnectionState/closing(readPaused:)``).
        if events & (Poll.input | Poll.peerClosed | Poll.hangUp | Poll.error) != 0, !connection.state.isReadPaused {
            readable(connection)
        } else if events & Poll.error != 0 {
            close(connection)
        }
    }

    func readable(_ connection: ClientConnection) {
        // A backlogged connection reads again once its buffered frames are handled; the kernel holds the rest.
        guard !connection.onBacklog else { return }
        connection.lastActivity = Sys.monotonicNanoseconds()
        var reads = 0
        while reads < 4, !connection.onBacklog, connection.state.handlesFrames,
            connection.queuedBytes < settings.maxOutputBytes
        {
            reads += 1
            let n: Int?
            do {
                n = try readBuffer.withUnsafeMutableBytes { raw throws(Errno) in try Sys.read(connection.fd, into: raw)
                }
            } catch {
                close(connection)
                return
            }
            guard let n else { break }
            if n == 0 {
                // End of the input: closing, and reading is paused below.
                connection.state.closeAfterOutput()
                if let seen = connection.oversizeBytes {
                    connection.oversizeBytes = nil
                    violation(.messageTooLarge(size: seen, max: settings.maxMessageBytes, complete: false), connection)
                }
                break
            }
            if connection.oversizeBytes != nil {
                readBuffer.withUnsafeBytes { skipOversize(connection, UnsafeRawBufferPointer(rebasing: $0[..<n])) }
            } else {
                readBuffer.withUnsafeBytes { connection.decoder.append(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
                processFrames(connection)
            }
            if n < readBuffer.count { break }
        }
        switch connection.state {
        case .migrated:
            return
        case .closed:
            break
        case .closing:
            pauseReading(connection)
            // Closed at the end of the batch, once the replies before it are written.
            outbox.enqueue(.ready(.encoded([])), to: connection)
        case .reading, .readPaused:
            if connection.queuedBytes >= settings.maxOutputBytes {
                // Frames still in the decoder are handled once the client has read its replies.
                pauseReading(connection)
            } else {
                writeReadyReplies(connection)
            }
        }
        settleFinishedCommit()
    }

    /// Writes the connection's replies now when the first of them waits for no commit: the client reads them while
    /// the other connections are handled, rather than at the end of the turn.
    func writeReadyReplies(_ connection: ClientConnection) {
        if connection.firstReplyIsReady { settle(connection) }
    }

    /// Ends the batch between two connections when the pipeline has work for it (see ``CommitOutcomes/batchIsDue``):
    /// the replies of a finished commit are written and the batch gathered since goes to the store now.
    func settleFinishedCommit() {
        guard let commits, commits.batchIsDue else { return }
        commits.endBatch()
        settleAwaiting()
    }

    /// Handles buffered frames until none is left, the client's queued replies reach the output bound, or the
    /// connection used its ``framesPerTurn``; in the last case it joins the backlog for the next turn.
    func processFrames(_ connection: ClientConnection) {
        var budget = Self.framesPerTurn
        while connection.state.handlesFrames, connection.queuedBytes < settings.maxOutputBytes {
            if budget == 0 {
                deferToNextTurn(connection)
                return
            }
            budget -= 1
            let frame: ArraySlice<UInt8>?
            do {
                frame = try connection.decoder.nextFrame()
            } catch {
                if let seen = connection.decoder.cutOffMessageBytes {
                    // Over the limit before its NUL: read on to the NUL, dropping the bytes, so that
                    // PayloadTooLarge reports the message's real size.
                    connection.oversizeBytes = seen
                    connection.decoder = FrameDecoder(maxMessageSize: settings.maxMessageBytes)
                } else {
                    violation(error, connection)
                }
                return
            }
            guard let frame else { return }
            let call: VarlinkCall
            switch read(frame, connection) {
            case .handled:
                continue
            case .call(let read):
                guard migrate == nil else {
                    // A lane answers the calls it can on its own; the main loop answers the rest, in order.
                    if handler.answerOnLane(read, from: connection, outbox: outbox) { continue }
                    migrateOut(connection, putting: frame)
                    return
                }
                call = read
            case .left:
                guard migrate == nil else {
                    migrateOut(connection, putting: frame)
                    return
                }
                do {
                    call = try VarlinkCall(frame: frame, maxDepth: settings.maxJSONDepth)
                } catch {
                    // Nesting past the limit leaves the frame well-formed: a call whose method can be read gets a
                    // typed error and the connection goes on.
                    if error.cause?.code == .tooDeep, !connection.isStreaming,
                        let head = frame.withUnsafeBytes({
                            VarlinkCallHead(tooDeep: $0, maxDepth: settings.maxJSONDepth)
                        }),
                        handler.answerTooDeep(head, from: connection, outbox: outbox)
                    {
                        continue
                    }
                    violation(error, connection)
                    return
                }
            }
            guard !connection.isStreaming else {
                // Its reply could only come after the Monitor stream, which ends only with the connection.
                violation(
                    VarlinkProtocolError(
                        .callDuringStream,
                        "\(call.method) arrived on a connection whose Monitor call is still streaming; a monitoring "
                            + "connection accepts no further calls: make them on another connection"), connection)
                return
            }
            handler.handle(call, from: connection, outbox: outbox)
        }
    }

    /// What reading a frame from a tape came to.
    enum TapeReading {
        /// The handler answered the call from the tape.
        case handled
        /// A valid call, as a tree.
        case call(VarlinkCall)
        /// Not read: the tree parser reads the frame or reports what is wrong with it.
        case left
    }

    /// Reads `frame` into the tape and offers the call to the handler's fast way (not while a Monitor call
    /// streams: the call is refused below).
    func read(_ frame: ArraySlice<UInt8>, _ connection: ClientConnection) -> TapeReading {
        // The tape is taken out for the call, so that a handler that comes back here finds one of its own.
        var tape = JSONTape()
        swap(&tape, &self.tape)
        defer {
            // A tape grown by an unusually large frame is let go rather than kept for the daemon's lifetime.
            if tape.capacity <= Self.tapeCapacityKept { swap(&tape, &self.tape) }
        }
        return frame.withUnsafeBytes { bytes in
            guard tape.parse(bytes, maxDepth: settings.maxJSONDepth) else { return .left }
            return tape.withRoot(bytes) { root in
                guard let view = VarlinkCallView(root) else { return .left }
                if !connection.isStreaming, handler.handle(view, from: connection, outbox: outbox) { return .handled }
                return .call(view.call)
            }
        }
    }

    /// Drops the bytes of an over-long message up to its NUL, then reports its size and closes the connection.
    func skipOversize(_ connection: ClientConnection, _ bytes: UnsafeRawBufferPointer) {
        guard let seen = connection.oversizeBytes, let base = bytes.baseAddress else { return }
        guard let nul = memchr(base, 0, bytes.count) else {
            connection.oversizeBytes = seen + bytes.count
            return
        }
        connection.oversizeBytes = nil
        let size = seen + base.distance(to: UnsafeRawPointer(nul))
        violation(.messageTooLarge(size: size, max: settings.maxMessageBytes, complete: true), connection)
    }

    /// Queues `connection` to continue with its buffered frames after every other ready connection had its turn.
    func deferToNextTurn(_ connection: ClientConnection) {
        guard !connection.onBacklog else { return }
        connection.onBacklog = true
        backlog.append(connection)
        guard !backlogTurnScheduled else { return }
        backlogTurnScheduled = true
        // Due at once: the loop polls without waiting, handles whatever became ready, then this.
        loop.schedule(after: 0) { [me] in me.value.runBacklog() }
    }

    func runBacklog() {
        backlogTurnScheduled = false
        let waiting = backlog
        backlog.removeAll(keepingCapacity: true)
        for connection in waiting where !connection.state.isClosed {
            connection.onBacklog = false
            guard !connection.state.isReadPaused else { continue }  // resumed by `writable` once the client reads
            processFrames(connection)
            if case .migrated = connection.state { continue }
            if connection.queuedBytes >= settings.maxOutputBytes {
                pauseReading(connection)
            } else {
                writeReadyReplies(connection)
            }
            settleFinishedCommit()
        }
    }

    func violation(_ error: VarlinkProtocolError, _ connection: ClientConnection) {
        droppedTotal += 1
        handler.protocolViolation(error, connection: connection)
        connection.state.closeAfterOutput()
        outbox.enqueue(.ready(.encoded([])), to: connection)
    }

    func pauseReading(_ connection: ClientConnection) {
        guard connection.state.pauseReading() else { return }
        updateInterest(connection)
    }

    func updateInterest(_ connection: ClientConnection) {
        var events: UInt32 = 0
        if !connection.state.isReadPaused { events |= (Poll.input | Poll.peerClosed) }
        if connection.watchedForOutput { events |= Poll.output }
        do {
            try loop.modify(connection.fd, events: events)
        } catch {
            close(connection)
        }
    }

}
