import CoordinatorGraph
import DeepLink
import Glibc
import JSON
import Testing

@testable import NotifyDaemon

@Suite struct JournalTests {
    private func entry(message: String = "routed", fields: [(String, String)] = []) -> JournalEntry {
        JournalEntry(
            event: .decisionMade, priority: .info, message: message, fields: fields,
            fileID: "NotifyDaemon/Handlers.swift", line: 42, function: "route(_:)")
    }

    @Test func consoleLinesReadAsMessageThenKeyValuePairs() {
        let line = entry(
            message: "routed to cart.offer",
            fields: [
                (JournalField.decisionID, "5f0c"), (JournalField.device, "ipad 7"),
                (JournalField.page, "cart.offer(id: \"X\")"),
            ]
        ).consoleLine(identifier: "notifyd", pid: 123)
        #expect(
            line == #"notifyd[123]: routed to cart.offer decision_id=5f0c device="ipad 7" page="cart.offer(id: \"X\")""#
                + "\n")
    }

    /// The console value as defined: escaped, then quoted (inner quotes backslashed) when empty or holding a space,
    /// a quote or `=`; the writer's one-pass copy of printable ASCII must agree with it byte for byte.
    @Test func consoleValuesAgreeWithEscapingThenQuoting() {
        func expected(_ value: String) -> String {
            let escaped = Journal.escape(value)
            guard escaped.isEmpty || escaped.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" }) else {
                return escaped
            }
            return "\"" + escaped.replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        var values = ["", " ", "=", "\"", "\\", "a b", "k=v", "é", "tab\t", "\u{7F}", "\u{85}", "ipad-7", "x\u{2028}y"]
        values += (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        values += (0..<128).map { "id-" + String(UnicodeScalar(UInt8($0))) + "-tail" }
        for value in values {
            var out = ByteWriter()
            JournalEntry.writeConsoleValue(value, into: &out)
            let written = out.withBytes { String(decoding: $0, as: UTF8.self) }
            #expect(written == expected(value), "value \(value.debugDescription)")
        }
    }

    @Test func journalFieldsCarryMessageIdPriorityAndIdentifier() {
        let fields = entry(fields: [(JournalField.outcome, "routed")]).journalFields(identifier: "notifyd")
        #expect(
            fields == [
                "MESSAGE=routed", "MESSAGE_ID=\(JournalEvent.decisionMade.messageID)", "PRIORITY=6",
                "SYSLOG_IDENTIFIER=notifyd", "NOTIFYD_OUTCOME=routed",
            ])
    }

    @Test func aNewlineInAPayloadForgesNoFieldAndNoLine() {
        let link = "shop://offers/X\nMESSAGE_ID=forged\r\u{1B}[31m\\"
        let e = entry(message: "link \(link)", fields: [(JournalField.link, link)])
        let fields = e.journalFields(identifier: "notifyd")
        #expect(fields.count == 5)
        #expect(fields.filter { $0.hasPrefix("MESSAGE_ID=") } == ["MESSAGE_ID=\(JournalEvent.decisionMade.messageID)"])
        #expect(fields.last == #"NOTIFYD_LINK=shop://offers/X\nMESSAGE_ID=forged\r\x1b[31m\\"#)
        #expect(fields.allSatisfy { !$0.contains("\n") })

        let line = e.consoleLine(identifier: "notifyd", pid: 1)
        #expect(line.filter { $0 == "\n" }.count == 1)
        #expect(line.hasSuffix(#" link="shop://offers/X\nMESSAGE_ID=forged\r\x1b[31m\\""# + "\n"))
    }

    @Test func aMultiLineEntryIsOneJournalEntryAndOneConsoleLinePerLine() {
        let e = JournalEntry(
            event: .configRejected, priority: .error, message: "config c.yaml rejected (2 problems):",
            fields: [(JournalField.config, "c.yaml"), (JournalField.reason, "a; b")],
            fileID: "NotifyDaemon/Daemon.swift", line: 7, function: "run()",
            lines: ["c.yaml:1:2: error: a", "c.yaml:3:4: error: b\nFORGED=1"])
        let fields = e.journalFields(identifier: "notifyd")
        #expect(
            fields.first
                == "MESSAGE=config c.yaml rejected (2 problems):\nc.yaml:1:2: error: a\nc.yaml:3:4: error: b\\nFORGED=1"
        )
        #expect(fields.contains("NOTIFYD_REASON=a; b"))
        #expect(!fields.contains { $0.hasPrefix("FORGED") })

        #expect(
            e.consoleLine(identifier: "notifyd", pid: 9)
                == "notifyd[9]: config c.yaml rejected (2 problems): config=c.yaml\n"
                + "notifyd[9]:   c.yaml:1:2: error: a\n" + #"notifyd[9]:   c.yaml:3:4: error: b\nFORGED=1"# + "\n")
    }

    /// A failure's console line says its reason once: the field is left out when the message holds it already,
    /// and kept when it says more. The journal keeps the field either way.
    @Test func aReasonTheMessageAlreadySaysIsLeftOffTheConsoleLine() {
        let failure = JournalEntry(
            event: .startFailed, priority: .error, message: "notifyd failed: the state directory is not writable",
            fields: [(JournalField.reason, "the state directory is not writable"), (JournalField.config, "c.yaml")],
            fileID: "NotifyDaemon/Daemon.swift", line: 7, function: "run()")
        #expect(
            failure.consoleLine(identifier: "notifyd", pid: 9)
                == "notifyd[9]: notifyd failed: the state directory is not writable config=c.yaml\n")
        #expect(
            failure.journalFields(identifier: "notifyd").contains("NOTIFYD_REASON=the state directory is not writable"))
        let more = entry(message: "payload rejected", fields: [(JournalField.reason, "expected an object")])
        #expect(
            more.consoleLine(identifier: "notifyd", pid: 9)
                == "notifyd[9]: payload rejected reason=\"expected an object\"\n")
    }

    @Test(arguments: [
        ("plain", "plain"), ("tab\there", #"tab\there"#), ("nul\u{0}", #"nul\x00"#),
        ("del\u{7F}", #"del\x7f"#), ("c1\u{85}", #"c1\u0085"#), ("ls\u{2028}", #"ls\u2028"#),
        (#"back\slash"#, #"back\\slash"#), ("é ✓", "é ✓"),
    ])
    func controlCharactersAreEscaped(raw: String, escaped: String) {
        #expect(Journal.escape(raw) == escaped)
    }

    /// The word-at-a-time check agrees with the definition (printable ASCII, no backslash) for every byte value at
    /// every position of buffers up to 17 bytes long.
    @Test func plainBytesAreCheckedAsTheDefinitionSays() {
        eachByteAtEachPosition(among: UInt8(ascii: "a")) { bytes, value, position in
            let expected = (0x20...0x7E).contains(value) && value != 0x5C
            let plain = bytes.withUnsafeBufferPointer { Journal.isPlain($0) }
            #expect(plain == expected, "byte \(value) at \(position) of \(bytes.count)")
        }
    }

    /// Calls `check` with every buffer of 1–17 bytes `filler` but one, that one holding each byte value in turn at
    /// each position.
    private func eachByteAtEachPosition(among filler: UInt8, _ check: ([UInt8], Int, Int) -> Void) {
        for length in 1...17 {
            for position in 0..<length {
                for value in 0...255 {
                    var bytes = [UInt8](repeating: filler, count: length)
                    bytes[position] = UInt8(value)
                    check(bytes, value, position)
                }
            }
        }
    }

    /// The console's word-at-a-time helpers agree with their byte-by-byte definitions for every byte value at every
    /// position of buffers up to 17 bytes long: a value is quoted when it holds a space, a quote or `=`; a name's
    /// capitals, and only they, are lowercased.
    @Test func consoleQuotesAndLowercaseNamesAreFoundAsTheDefinitionSays() {
        eachByteAtEachPosition(among: UInt8(ascii: "A")) { bytes, value, position in
            let quoted = bytes.withUnsafeBufferPointer { JournalRecord.needsConsoleQuotes($0) }
            #expect(quoted == [0x20, 0x22, 0x3D].contains(value), "byte \(value) at \(position) of \(bytes.count)")
            var out = ByteWriter()
            bytes.withUnsafeBufferPointer { JournalRecord.appendLowercased($0, into: &out) }
            let lowered = bytes.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
            #expect(out.withBytes { Array($0) } == lowered, "byte \(value) at \(position) of \(bytes.count)")
        }
    }

    /// Details written as bytes are escaped as text is: a newline, an escape character or a backslash written by a
    /// closure reads the same in both sinks as the same text logged as strings.
    @Test func detailsWrittenAsBytesAreEscapedLikeText() throws {
        let message = "routed X\nFORGED=1"
        let value = "a\u{1B}[31m\\b \"q\"\u{85}"
        struct Details: JournalDetails {
            let message: String
            let value: String
            func render(into entry: inout JournalRecord) {
                entry.writeMessage { $0.append(utf8: message) }
                entry.field(JournalField.link) { $0.append(utf8: value) }
                entry.field(JournalField.device, value)
            }
        }
        let sink = RecordingSink()
        let journal = Journal(target: .console, capacity: 8, sink: sink)
        journal.log(.decisionMade, priority: .info, details: Details(message: message, value: value))
        journal.flush()
        let written = try #require(sink.entries.first)
        let text = entry(message: message, fields: [(JournalField.link, value), (JournalField.device, value)])
        #expect(sink.journalFields == [text.journalFields(identifier: "notifyd")])
        #expect(sink.consoleLines == [text.consoleLine(identifier: "notifyd", pid: 1)])
        #expect(written.message == #"routed X\nFORGED=1"#)
        #expect(written.fields.first?.1 == #"a\x1b[31m\\b "q"\u0085"#)
        #expect(
            text.consoleLine(identifier: "notifyd", pid: 1)
                == #"notifyd[1]: routed X\nFORGED=1 link="a\x1b[31m\\b \"q\"\u0085" device="a\x1b[31m\\b \"q\"\u0085""#
                + "\n")
    }

    @Test(arguments: [
        ("NOTIFYD_DEVICE", true), ("A", true), ("X9_Y", true), (String(repeating: "A", count: 64), true),
        ("", false), ("_TRUSTED", false), ("9LIVES", false), ("lower", false), ("HAS-DASH", false),
        ("HAS SPACE", false), ("É", false), (String(repeating: "A", count: 65), false),
    ])
    func fieldNamesAreValidated(name: String, valid: Bool) {
        #expect(Journal.isValidFieldName(name) == valid)
    }

    @Test func invalidAndReservedFieldNamesAreLeftOutAndCounted() throws {
        let sink = RecordingSink()
        let journal = Journal(target: .console, capacity: 16, sink: sink)
        journal.log(
            .decisionMade, priority: .info, message: "m",
            fields: [("bad name", "1"), ("MESSAGE", "forged"), ("PRIORITY", "0"), (JournalField.device, "d")])
        journal.flush()
        #expect(sink.journalFields.first?.suffix(1) == ["NOTIFYD_DEVICE=d"])
        #expect(sink.consoleLines == ["notifyd[1]: m device=d\n"])
        #expect(journal.statistics.invalidFields == 3)
    }

    @Test func loggingNeverBlocksAndOverflowIsCountedThenReported() throws {
        let sink = RecordingSink(blocked: true)
        let journal = Journal(target: .console, capacity: 4, sink: sink)
        journal.log(.started, priority: .info, message: "first")
        sink.waitUntilWriting()  // the writer holds "first" and is stuck in the sink
        for i in 1...7 { journal.log(.decisionMade, priority: .info, message: "m\(i)") }
        #expect(journal.droppedCount == 3)  // 4 queued, 3 dropped, and none of this waited
        #expect(journal.statistics.logged == 5)

        sink.unblock()
        journal.flush()
        let entries = sink.entries
        #expect(entries.map(\.message).prefix(5) == ["first", "m1", "m2", "m3", "m4"])
        let report = try #require(entries.last)
        #expect(report.event == .entriesDropped)
        #expect(report.priority == .warning)
        #expect(report.fields.first?.0 == JournalField.dropped && report.fields.first?.1 == "3")
        #expect(journal.statistics.written == 6)
        #expect(journal.droppedCount == 3)
    }

    @Test func withWakesPerBatchTheWriterWaitsForItsWakeUp() throws {
        let sink = RecordingSink()
        let journal = Journal(target: .console, capacity: 64, sink: sink)
        journal.log(.started, priority: .info, message: "first")
        journal.flush()
        usleep(200_000)  // the writer is back asleep, waiting for a wake-up
        journal.wakesPerBatch = true
        journal.log(.decisionMade, priority: .info, message: "held")
        usleep(100_000)
        #expect(sink.entries.map(\.message) == ["first"])  // logged, not yet woken
        journal.wakeWriter()
        journal.flush()
        #expect(sink.entries.map(\.message) == ["first", "held"])
        // A quarter of the queue waiting wakes the writer without being asked.
        for i in 0..<17 { journal.log(.decisionMade, priority: .info, message: "m\(i)") }
        for _ in 0..<500 where sink.entries.count < 19 { usleep(10_000) }
        #expect(sink.entries.count == 19)
    }

    /// A decision's page is in its message and in `NOTIFYD_PAGE`, escaped the same way in both: written once and
    /// copied when the message needed no escaping, written again when it did.
    @Test(arguments: ["SUMMER", "ÉTÉ\n2026", "a\\b"])
    func aDecisionsPageFieldIsTheDescriptionItsMessageShows(_ code: String) throws {
        let page = Page(
            id: PageID(coordinator: "cart", name: "offer"), arguments: [.init(label: "id", value: .string(code))])
        let decision = Decision(
            id: "019ad6f2-3c41-7a05-9f3e-0a1b2c3d4e5f", device: "d-1", outcome: .routed, page: page,
            path: ["app", "cart"], steps: [], createdAt: Timestamp(millisecondsSince1970: 0))
        let sink = RecordingSink()
        let journal = Journal(target: .console, capacity: 8, sink: sink)
        journal.log(
            .decisionMade, priority: .info,
            details: DecisionJournalDetails(decision: decision, link: nil, dryRun: false, peerUID: 7))
        journal.flush()
        let written = try #require(sink.entries.first)
        let escaped = Journal.escape(page.description)
        #expect(written.message == "routed \(escaped) for d-1")
        #expect(written.fields.first { $0.0 == JournalField.page }?.1 == escaped)
        #expect(written.fields.map(\.0).filter { $0 == JournalField.page }.count == 1)
    }

    @Test func decisionDetailsRenderOnTheWriterThread() throws {
        let sink = RecordingSink()
        let journal = Journal(target: .console, capacity: 8, sink: sink)
        struct Details: JournalDetails {
            func render(into entry: inout JournalRecord) {
                entry.message("rendered")
                entry.field(JournalField.device) { $0.append(utf8: "d 1") }
            }
        }
        journal.log(.decisionMade, priority: .info, details: Details())
        journal.flush()
        #expect(sink.consoleLines == ["notifyd[1]: rendered device=\"d 1\"\n"])
    }

    @Test func theConsoleTargetWritesOneLinePerEntry() throws {
        let output = try ConsoleCapture.output { journal in
            journal.log(
                .configLoaded, priority: .info, message: "config loaded",
                fields: [(JournalField.config, "/etc/notifyd/notifyd.yaml")])
            journal.log(.stopping, priority: .notice, message: "stopping")
        }
        let pid = getpid()
        #expect(
            output == "notifyd[\(pid)]: config loaded config=/etc/notifyd/notifyd.yaml\nnotifyd[\(pid)]: stopping\n")
    }

    @Test func aBatchLargerThanOneWriteArrivesWholeAndInOrder() throws {
        var template = "/tmp/notifyd-console-XXXXXX".utf8CString
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        #expect(fd >= 0)
        defer {
            close(fd)
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        }
        let sink = ConsoleSink(identifier: "notifyd", descriptor: FileDescriptor(rawValue: fd))
        // About 200 KiB of lines: more than one write's worth (ConsoleSink.chunkSize).
        let entries = (0..<2_000).map { i in
            entry(
                message: "entry \(i)",
                fields: [(JournalField.device, "device-\(i)-" + String(repeating: "x", count: 64))])
        }
        #expect(sink.write(batch: entries) == 0)
        let size = Int(lseek(fd, 0, SEEK_END))
        #expect(size > 2 * ConsoleSink.chunkSize)
        var bytes = [UInt8](repeating: 0, count: size)
        #expect(bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, size, 0) } == size)
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == entries.count)
        for (i, line) in lines.enumerated() {
            #expect(line == entries[i].consoleLine(identifier: "notifyd", pid: getpid()).dropLast())
        }
    }

    @Test func aBatchTheTargetRefusesCountsEveryLineAsFailed() throws {
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let sink = ConsoleSink(identifier: "notifyd", descriptor: FileDescriptor(rawValue: fd))
        #expect(sink.write(batch: (0..<5).map { entry(message: "lost \($0)") }) == 5)
        #expect(!sink.write(entry()))
    }

    @Test func theNoneTargetQueuesNothing() {
        let journal = Journal(target: .none)
        journal.log(.started, priority: .info, message: "x")
        journal.flush()
        #expect(
            journal.statistics == Journal.Statistics(logged: 0, written: 0, dropped: 0, failed: 0, invalidFields: 0))
    }

    @Test func aStartFailureIsJournaledUnderItsOwnMessageId() {
        let sink = RecordingSink()
        let journal = Journal(target: .console, capacity: 16, sink: sink)
        NotifyDaemon.reportFailure(
            NotifyDaemon.StartupError(message: "config c.yaml is invalid (1 problem)", details: ["c.yaml:1:1: x"]),
            journal: journal, configPath: "c.yaml")
        let entry = sink.entries.first
        #expect(sink.entries.count == 1)
        #expect(entry?.event == .startFailed)
        #expect(entry?.priority == .error)
        #expect(entry?.message == "notifyd failed: config c.yaml is invalid (1 problem)")
        #expect(entry?.fields.contains { $0 == (JournalField.config, "c.yaml") } == true)
        #expect(JournalEvent.startFailed.messageID != JournalEvent.stopping.messageID)
    }

    @Test func everyEventHasADistinctMessageIdExplainedInTheCatalog() throws {
        let ids = JournalEvent.allCases.map(\.messageID)
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(
                id.utf8.count == 32 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        }
        // <root>/Tests/NotifyDaemonTests/JournalTests.swift → <root>/systemd/notifyd.catalog
        let root = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
        let catalogPath = root + "/systemd/notifyd.catalog"
        let catalog = try StoreTestFileReader.text(catalogPath)
        for id in ids { #expect(catalog.contains("-- \(id)\n"), "catalog lacks \(id)") }
        for field in [
            JournalField.decisionID, JournalField.device, JournalField.outcome, JournalField.page, JournalField.topic,
        ] {
            #expect(catalog.contains("@\(field)@"))
        }
    }
}

/// A sink that records entries (their text, escaped, and what the console and native sinks would write for them, as
/// `notifyd` with pid 1) and can hold the writer thread inside `write` until released.
final class RecordingSink: JournalSink, @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var recorded: [JournalEntry] = []
    private var lines: [String] = []
    private var fields: [[String]] = []
    private var blocked: Bool
    private var writing = false

    init(blocked: Bool = false) {
        self.blocked = blocked
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    func write(_ entry: borrowing JournalRecord) -> Int {
        pthread_mutex_lock(mutex)
        writing = true
        pthread_cond_broadcast(changed)
        while blocked { pthread_cond_wait(changed, mutex) }
        recorded.append(JournalEntry(entry))
        lines.append(entry.consoleLine(identifier: "notifyd", pid: 1))
        fields.append(entry.journalFields(identifier: "notifyd"))
        pthread_mutex_unlock(mutex)
        return 0
    }

    var entries: [JournalEntry] {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return recorded
    }

    /// What the console sink would write for each entry.
    var consoleLines: [String] {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return lines
    }

    /// What the native sink would send for each entry.
    var journalFields: [[String]] {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return fields
    }

    func waitUntilWriting() {
        pthread_mutex_lock(mutex)
        while !writing { pthread_cond_wait(changed, mutex) }
        pthread_mutex_unlock(mutex)
    }

    func unblock() {
        pthread_mutex_lock(mutex)
        blocked = false
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }
}

/// What a console journal writes to a pipe while `body` logs through it (flushed before the pipe is read).
enum ConsoleCapture {
    static func output(capacity: Int = 8, _ body: (Journal) -> Void) throws -> String {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw StoreTestFailure(message: "pipe: errno \(errno)") }
        defer { close(fds[0]) }
        do {
            let journal = Journal(
                target: .console, capacity: capacity,
                sink: ConsoleSink(identifier: "notifyd", descriptor: FileDescriptor(rawValue: fds[1])))
            body(journal)
            journal.flush()
        }
        close(fds[1])
        return String(decoding: StoreTestFileReader.readToEnd(fds[0]), as: UTF8.self)
    }
}

enum StoreTestFileReader {
    static func text(_ path: String) throws -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw StoreTestFailure(message: "open \(path): errno \(errno)") }
        defer { close(fd) }
        return String(decoding: readToEnd(fd), as: UTF8.self)
    }

    /// Everything `fd` gives until its end (or an error).
    static func readToEnd(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }
}
