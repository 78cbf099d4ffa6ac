import CSyscalls
import Glibc
import Synchronization

/// Messages for an event loop from other threads: a locked list, and an eventfd the loop watches that becomes
/// readable when the list stops being empty (one write for a burst of messages, not one each).
///
/// Messages are `Sendable`, so the compiler checks that what crosses the threads may: a connection moves as a
/// ``MigratedConnection`` (its descriptor and buffers), not as the lane's `ClientConnection` object, which the lane's
/// loop and tables keep referring to until it drops it. The list is only touched under its mutex.
final class Mailbox<Message: Sendable>: Sendable {
    /// Readable while messages wait (an eventfd).
    let descriptor: FileDescriptor
    private let messages = Mutex<[Message]>([])

    /// `nil` when the eventfd cannot be created.
    init?() {
        let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard fd >= 0 else { return nil }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit {
        Sys.close(descriptor)
    }

    /// Queues `message`; the first one queued after a ``take()`` wakes the loop.
    func post(_ message: Message) {
        let wasEmpty = messages.withLock { messages in
            let wasEmpty = messages.isEmpty
            messages.append(message)
            return wasEmpty
        }
        guard wasEmpty else { return }
        var one: UInt64 = 1
        _ = write(descriptor.rawValue, &one, 8)
    }

    /// The messages queued so far, oldest first. The eventfd is reset before the list is taken: a message queued
    /// after the reset wakes the loop again, none is left behind.
    func take() -> [Message] {
        var count: UInt64 = 0
        _ = read(descriptor.rawValue, &count, 8)  // EAGAIN when nothing woke it
        return messages.withLock { messages in
            var taken: [Message] = []
            swap(&taken, &messages)
            return taken
        }
    }
}
