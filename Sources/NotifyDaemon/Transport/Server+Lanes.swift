import Glibc
import JSON
import Varlink

extension Server {
    // MARK: moving connections between loops

    /// Takes over a connection a lane's server migrated (see ``Lane``): the call it put back and the frames behind it
    /// are handled here, after the replies the lane queued, which are written first.
    func adopt(_ migrated: MigratedConnection) {
        let connection = ClientConnection(migrated)
        connection.state.adopt()
        laneConnections -= 1
        drainedReported = false
        connections[connection.fd] = connection
        do {
            try loop.register(connection.fd, events: (Poll.input | Poll.peerClosed)) { [me] events in
                me.value.ready(connection, events: events)
            }
        } catch {
            close(connection)
            return
        }
        connection.lastActivity = Sys.monotonicNanoseconds()
        processFrames(connection)
        if connection.state.isClosing {
            pauseReading(connection)
            outbox.enqueue(.ready(.encoded([])), to: connection)
        } else if connection.queuedBytes >= settings.maxOutputBytes {
            pauseReading(connection)
        }
        if !connection.state.isClosed { settle(connection) }
        settleFinishedCommit()
    }

    /// On a lane's server: puts `frame` back and takes the connection off this loop, its replies so far settled
    /// (a lane's are all ready) into its output. What the main loop needs of it (descriptor, unread input, output)
    /// goes to ``migrate`` at the end of the turn as a ``MigratedConnection``; the object itself stays here, off
    /// every table, and is dropped.
    func migrateOut(_ connection: ClientConnection, putting frame: ArraySlice<UInt8>) {
        connection.decoder.unread(frame)
        outbox.remove(connection)
        connection.settleSlots { _ in true }
        if connection.onBacklog {
            backlog.removeAll { $0 === connection }
            connection.onBacklog = false
        }
        loop.unregister(connection.fd)
        connections[connection.fd] = nil
        connection.watchedForOutput = false
        connection.state.migrate()
        migrating.append(MigratedConnection(leaving: connection))
    }

    func handOverMigrating() {
        guard !migrating.isEmpty, let migrate else { return }
        for connection in migrating { migrate(connection) }
        migrating.removeAll(keepingCapacity: true)
    }

}
