import Glibc
import Testing

@testable import NotifyDaemon

@Suite struct MailboxTests {
    /// Whether the mailbox's eventfd is readable now (what wakes the loop that watches it).
    private func isReadable(_ mailbox: Mailbox<Int>) -> Bool {
        var poller = pollfd(fd: mailbox.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) == 1
    }

    @Test func aPostWakesTheLoopUntilTheMessagesAreTaken() throws {
        let mailbox = try #require(Mailbox<Int>())
        #expect(!isReadable(mailbox))
        #expect(mailbox.take().isEmpty)
        mailbox.post(1)
        mailbox.post(2)
        #expect(isReadable(mailbox))
        #expect(mailbox.take() == [1, 2])
        #expect(!isReadable(mailbox))
        mailbox.post(3)
        #expect(isReadable(mailbox))
        #expect(mailbox.take() == [3])
    }

    @Test func messagesFromOtherThreadsArriveEachInTheOrderItsThreadPostedThem() throws {
        let mailbox = try #require(Mailbox<Int>())
        let perThread = 10_000
        let threads = (0..<2).compactMap { sender in
            Threads.start {
                for n in 0..<perThread { mailbox.post(sender * perThread + n) }
            }
        }
        #expect(threads.count == 2)
        var received: [Int] = []
        while received.count < 2 * perThread {
            var poller = pollfd(fd: mailbox.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            _ = poll(&poller, 1, 1000)
            received += mailbox.take()
        }
        for thread in threads { pthread_join(thread, nil) }
        #expect(received.filter { $0 < perThread } == Array(0..<perThread))
        #expect(received.filter { $0 >= perThread } == Array(perThread..<2 * perThread))
        #expect(mailbox.take().isEmpty)
    }

    @Test func aMigratedConnectionCarriesItsUnreadInputAndOutput() throws {
        let connection = ClientConnection(
            fd: FileDescriptor(rawValue: -1), id: 7, peer: PeerCredentials(pid: 1, uid: 2, gid: 3),
            maxMessageBytes: 1024, now: 5)
        connection.decoder.append(Array("{\"method\":\"a\"}\u{0}{\"method\":\"b\"}\u{0}".utf8))
        let first = try #require(try connection.decoder.nextFrame())
        connection.decoder.unread(first)
        connection.output = Array("reply".utf8)
        connection.outputStart = 2
        connection.state.migrate()
        let migrated = MigratedConnection(leaving: connection)
        #expect(connection.output.isEmpty)

        let adopted = ClientConnection(migrated)
        #expect(adopted.id == 7 && adopted.peer.uid == 2 && adopted.lastActivity == 5)
        #expect(adopted.state == .migrated)
        #expect(adopted.output == Array("reply".utf8) && adopted.outputStart == 2)
        #expect(try adopted.decoder.nextFrame().map(Array.init) == Array("{\"method\":\"a\"}".utf8))
        #expect(try adopted.decoder.nextFrame().map(Array.init) == Array("{\"method\":\"b\"}".utf8))
    }
}
