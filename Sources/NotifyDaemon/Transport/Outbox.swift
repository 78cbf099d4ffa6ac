import JSON
import RouterContract
import Varlink

/// Collects the replies of one batch of events, per connection, so the server can commit state once
/// and then write every reply that the commit settled: the group commit of the store.
final class Outbox {
    private(set) var dirty: [ClientConnection] = []

    /// Queues a reply frame for `connection`.
    func send(_ reply: VarlinkReply, to connection: ClientConnection) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        reply.encode(into: &bytes)
        enqueue(.ready(.encoded(bytes)), to: connection)
    }

    /// Queues a reply that may only be sent once the state commit of batch `batch` succeeded; `failure` is sent in
    /// its place when that commit fails.
    func sendDurable(
        _ reply: VarlinkReply, batch: UInt64, to connection: ClientConnection,
        failure: @escaping () -> VarlinkReply
    ) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        reply.encode(into: &bytes)
        enqueue(.durable(batch: batch, success: .encoded(bytes), failure: failure), to: connection)
    }

    /// Queues a slot for `connection` and remembers the connection for the end of the batch.
    func enqueue(_ slot: ClientConnection.Slot, to connection: ClientConnection) {
        guard !connection.state.isClosed else { return }
        switch slot {
        case .ready(let frame): connection.slotBytes += frame.count
        case .durable(_, let frame, _): connection.slotBytes += frame.count
        }
        connection.slots.append(slot)
        remember(connection)
    }

    /// Queues the reply of a decision whose text is `text` (borrowed: a writer's bytes). When no reply waits in a
    /// slot before it, it goes straight into the connection's output, after the replies already there, with no
    /// frame of its own made; otherwise it waits in a slot behind the others.
    func enqueueDecision(_ text: UnsafeBufferPointer<UInt8>, to connection: ClientConnection) {
        guard !connection.state.isClosed else { return }
        guard connection.slots.isEmpty else {
            enqueue(.ready(.decision(JSONText(bytes: Array(text)))), to: connection)
            return
        }
        VarlinkReply.encodeDecision(valueJSON: text, into: &connection.output)
        remember(connection)
    }

    /// Puts `connection` on the list settled and written at the end of the batch.
    private func remember(_ connection: ClientConnection) {
        if !connection.onOutboxList {
            connection.onOutboxList = true
            dirty.append(connection)
        }
    }

    /// The list ``dirty`` had before the last ``takeDirty(_:)``, emptied and kept for the next.
    private var spare: [ClientConnection] = []

    /// Hands the connections with queued replies to `body` and starts a new batch: connections given replies by
    /// `body` are on the new batch's list. The two lists keep their storage from batch to batch.
    func takeDirty(_ body: (ClientConnection) -> Void) {
        var taken: [ClientConnection] = []
        swap(&taken, &spare)
        swap(&taken, &dirty)
        for connection in taken { connection.onOutboxList = false }
        for connection in taken { body(connection) }
        taken.removeAll(keepingCapacity: true)
        spare = taken
    }

    /// Forgets `connection` (handed to another loop with its replies settled): the end of the batch does not
    /// settle it.
    func remove(_ connection: ClientConnection) {
        guard connection.onOutboxList else { return }
        connection.onOutboxList = false
        dirty.removeAll { $0 === connection }
    }

    /// True when something is queued.
    var isEmpty: Bool { dirty.isEmpty }
}
