import Varlink

/// What the server hands each decoded call to: the daemon's method implementations. Their replies go to the outbox,
/// ready or waiting for a batch's commit (see ``CommitOutcomes``, which the server asks when they may go out).
protocol CallHandler: AnyObject {
    /// Handles one call; replies go to `outbox` (nothing for `oneway`).
    func handle(_ call: VarlinkCall, from connection: ClientConnection, outbox: Outbox)
    /// Handles a call read from a tape when the handler has a fast way for it, answering true; false (before
    /// doing anything) leaves the call to ``handle(_:from:outbox:)``.
    func handle(_ call: VarlinkCallView, from connection: ClientConnection, outbox: Outbox) -> Bool
    /// The connection is gone (monitors unsubscribe here).
    func connectionClosed(_ connection: ClientConnection)
    /// A client broke the protocol; its connection is being closed.
    func protocolViolation(_ error: VarlinkProtocolError, connection: ClientConnection)
    /// On a lane's server: answers a call read into a tree when the lane can (the varlink service's own methods),
    /// answering true; false (before doing anything) migrates the connection (see ``Lane``).
    func answerOnLane(_ call: VarlinkCall, from connection: ClientConnection, outbox: Outbox) -> Bool
    /// Answers a call whose frame nests deeper than the limit with a typed error, answering true; false leaves it
    /// a protocol violation (the connection closes).
    func answerTooDeep(_ head: VarlinkCallHead, from connection: ClientConnection, outbox: Outbox) -> Bool
}

extension CallHandler {
    /// No fast way: every call is read into a tree.
    func handle(_ call: VarlinkCallView, from connection: ClientConnection, outbox: Outbox) -> Bool { false }

    /// Not a lane's handler: nothing is answered there.
    func answerOnLane(_ call: VarlinkCall, from connection: ClientConnection, outbox: Outbox) -> Bool { false }

    /// No typed error for nesting: the connection closes.
    func answerTooDeep(_ head: VarlinkCallHead, from connection: ClientConnection, outbox: Outbox) -> Bool { false }
}
