import CSyscalls
import Glibc

/// Messages for an event loop from other threads: a locked list, and an eventfd the loop watches that becomes
/// readable when the list stops being empty (one write for a burst of messages, not one each).
///
/// A message belongs to the receiving loop once posted: the sender keeps no use of what it holds.
final class Mailbox<Message>: @unchecked Sendable {
    /// Readable while messages wait (an eventfd).
    let descriptor: FileDescriptor
    private let lock = ThreadCondition()
    private var messages: [Message] = []

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
    func post(_ message: consuming Message) {
        lock.lock()
        let wasEmpty = messages.isEmpty
        messages.append(consume message)
        lock.unlock()
        guard wasEmpty else { return }
        var one: UInt64 = 1
        _ = write(descriptor.rawValue, &one, 8)
    }

    /// The messages queued so far, oldest first. The eventfd is reset before the list is taken: a message queued
    /// after the reset wakes the loop again, none is left behind.
    func take() -> [Message] {
        var count: UInt64 = 0
        _ = read(descriptor.rawValue, &count, 8)  // EAGAIN when nothing woke it
        var taken: [Message] = []
        lock.lock()
        swap(&taken, &messages)
        lock.unlock()
        return taken
    }
}
