import Glibc
import JSON
import RouterContract
import Varlink

/// One client connection: its socket, credentials, partial input, and queued output.
///
/// Replies wait in ``slots``, in the order of the calls, until the state commit of their batch is over (a durable
/// reply is only sent once its state is on disk; a ready reply behind it waits for it), then move to ``output`` and
/// are written as the socket allows.
final class ClientConnection {
    /// A reply waiting for the end of the batch.
    enum Slot {
        /// Ready to send.
        case ready(ReplyFrame)
        /// Sent only if the commit of batch `batch` succeeds; otherwise `failure` is encoded and sent in its place.
        case durable(batch: UInt64, success: ReplyFrame, failure: () -> VarlinkReply)
    }

    /// A reply frame (NUL included) as it waits in a slot.
    enum ReplyFrame {
        /// Encoded bytes.
        case encoded([UInt8])
        /// `{"parameters":{"decision":…}}` around a decision's text, written straight into the output when the reply
        /// leaves its slot (the text is not copied into a frame of its own first).
        case decision(JSONText)

        /// The frame's size in bytes.
        var count: Int {
            switch self {
            case .encoded(let bytes): return bytes.count
            case .decision(let text): return text.bytes.count + ReplyFrame.decisionEnvelopeBytes
            }
        }

        /// Appends the frame to `output`.
        func append(to output: inout [UInt8]) {
            switch self {
            case .encoded(let bytes): output.append(contentsOf: bytes)
            case .decision(let text): VarlinkReply.encodeDecision(valueJSON: text.bytes, into: &output)
            }
        }

        /// The bytes a decision reply adds around the decision's text.
        static let decisionEnvelopeBytes: Int = {
            var frame: [UInt8] = []
            VarlinkReply.encodeDecision(valueJSON: [UInt8](), into: &frame)
            return frame.count
        }()
    }

    let fd: FileDescriptor
    let id: UInt64
    let peer: PeerCredentials
    var decoder: FrameDecoder
    var slots: [Slot] = []
    /// Bytes of the ready and durable replies in ``slots``.
    var slotBytes = 0
    var output: [UInt8] = []
    var outputStart = 0
    var lastActivity: UInt64
    /// Where it is in its life: reading, paused, closing, migrated or closed. Changed only through the transitions
    /// of ``ConnectionState``.
    var state = ConnectionState.reading
    /// A message over the size limit is being read to its NUL and dropped: its bytes so far. Set by the server.
    var oversizeBytes: Int?
    /// The client has a `Monitor` call open; it may make no further call on this connection. Set by the service.
    var isStreaming = false
    /// It is on the outbox's list of connections with new replies. Set by ``Outbox``.
    var onOutboxList = false
    /// It is on the server's backlog: frames are still buffered after this turn's budget, and the server continues
    /// on its next turn. Set by ``Server``.
    var onBacklog = false
    /// It is on the server's list of connections whose slots wait for a commit that is not over (the server settles
    /// it again when one is). Set by ``Server``.
    var onAwaitingCommitList = false
    /// Its event loop watches it for output (epoll's write interest): queued output waits for the socket. Set by
    /// ``Server``.
    var watchedForOutput = false

    init(fd: FileDescriptor, id: UInt64, peer: PeerCredentials, maxMessageBytes: Int, now: UInt64) {
        self.fd = fd
        self.id = id
        self.peer = peer
        self.decoder = FrameDecoder(maxMessageSize: maxMessageBytes)
        self.lastActivity = now
    }

    /// The connection a lane's server migrated, taken over by the main loop's: in state `migrated` until the server
    /// adopts it.
    init(_ migrated: MigratedConnection) {
        self.fd = migrated.fd
        self.id = migrated.id
        self.peer = migrated.peer
        self.decoder = migrated.decoder
        self.output = migrated.output
        self.outputStart = migrated.outputStart
        self.oversizeBytes = migrated.oversizeBytes
        self.lastActivity = migrated.lastActivity
        self.state = .migrated
    }

    /// The oldest reply waiting in ``slots`` waits for no commit.
    var firstReplyIsReady: Bool {
        guard let first = slots.first, case .ready = first else { return false }
        return true
    }

    /// Bytes queued and not yet written.
    var pendingOutputBytes: Int { output.count - outputStart }

    /// Queued bytes including this batch's replies: what the output bound is checked against.
    var queuedBytes: Int { pendingOutputBytes + slotBytes }

    /// Moves the replies whose commit is over to the output buffer, in order: it stops at the first durable reply
    /// whose batch has no outcome yet (`outcome` returns `nil`). Returns true when every slot was settled.
    @discardableResult
    func settleSlots(outcome: (UInt64) -> Bool?) -> Bool {
        var settled = 0
        settling: for slot in slots {
            switch slot {
            case .ready(let frame):
                frame.append(to: &output)
                slotBytes -= frame.count
            case .durable(let batch, let success, let failure):
                guard let committed = outcome(batch) else { break settling }
                if committed { success.append(to: &output) } else { failure().encode(into: &output) }
                slotBytes -= success.count
            }
            settled += 1
        }
        if settled == slots.count {
            slots.removeAll(keepingCapacity: true)
            slotBytes = 0
            return true
        }
        slots.removeFirst(settled)
        return false
    }

    /// Writes as much queued output as the socket takes. Returns false when the connection failed.
    func flush() -> Bool {
        while outputStart < output.count {
            let written: Int?
            do {
                written = try output.withUnsafeBytes { raw throws(Errno) in
                    try Sys.send(fd, UnsafeRawBufferPointer(rebasing: raw[outputStart...]))
                }
            } catch {
                return false
            }
            guard let written else { break }
            outputStart += written
        }
        if outputStart == output.count {
            output.removeAll(keepingCapacity: output.capacity <= 256 * 1024)
            outputStart = 0
        } else if outputStart > 64 * 1024, outputStart * 2 > output.count {
            output.removeFirst(outputStart)
            outputStart = 0
        }
        return true
    }
}

/// What of a ``ClientConnection`` moves from a lane's loop to the main loop's: values only, so the hand-over between
/// the threads is checked by the compiler (`Sendable`) rather than promised. The lane's object, which its loop's
/// closures and tables referred to, stays on the lane; the main loop makes its own from this.
///
/// A lane migrates a connection only while reading it, its replies settled into its output: it has no slots, no
/// `Monitor` call and no place on any list, so the descriptor, the unread input and the output are all there is.
struct MigratedConnection: Sendable {
    let fd: FileDescriptor
    let id: UInt64
    let peer: PeerCredentials
    /// The input not handled yet, the call the lane put back first.
    let decoder: FrameDecoder
    let output: [UInt8]
    let outputStart: Int
    let oversizeBytes: Int?
    let lastActivity: UInt64

    /// Takes `connection`'s input and output out of it (moved, not copied); the lane does not use it afterwards.
    init(leaving connection: ClientConnection) {
        assert(connection.slots.isEmpty && !connection.isStreaming, "a lane migrates a connection with replies settled")
        fd = connection.fd
        id = connection.id
        peer = connection.peer
        // An empty decoder left behind (the lane drops the object): the buffer moves rather than being copied.
        var decoder = FrameDecoder(maxMessageSize: 1)
        swap(&decoder, &connection.decoder)
        self.decoder = decoder
        var output: [UInt8] = []
        swap(&output, &connection.output)
        self.output = output
        outputStart = connection.outputStart
        connection.outputStart = 0
        oversizeBytes = connection.oversizeBytes
        lastActivity = connection.lastActivity
    }
}
