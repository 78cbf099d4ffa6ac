import CoordinatorGraph
import DeepLink
import Glibc
import JSON
import Testing

@testable import NotifyDaemon

/// Entries rendered where they are logged (``JournalBatcher``): the same text as entries rendered by the writer
/// thread, in the order the loop logged them, counted against the queue's bound like any other.
@Suite struct JournalBatcherTests {
    private static func details(
        code: String, device: String? = "d-1", link: String? = nil, dryRun: Bool = false, peerUID: UInt32 = 7
    ) -> DecisionJournalDetails {
        let page = Page(
            id: PageID(coordinator: "cart", name: "offer"), arguments: [.init(label: "id", value: .string(code))])
        let decision = Decision(
            id: "019ad6f2-3c41-7a05-9f3e-0a1b2c3d4e5f", device: device, outcome: .routed, page: page,
            path: ["app", "main", "cart"], steps: [], createdAt: Timestamp(millisecondsSince1970: 0))
        return DecisionJournalDetails(decision: decision, link: link, dryRun: dryRun, peerUID: peerUID)
    }

    /// The console line the writer thread writes for a decision's record.
    private static func recordLine(_ details: DecisionJournalDetails, pid: Int32 = 1) -> String {
        var record = JournalRecord()
        record.reset(
            event: .decisionMade, priority: .info, fileID: "f", line: 1, function: "g",
            checksNames: !details.fieldNamesAreKnownValid)
        details.render(into: &record)
        return record.consoleLine(identifier: "notifyd", pid: pid)
    }

    @Test(
        arguments: [
            ("SUMMER", "d-1", nil), ("ÉTÉ\n2026", "d 1", "shop://offers/A B"), ("a\\b", nil, "https://x.example/?a=b"),
            ("x=y", "d\u{1B}[31m", "shop://offers/\"q\""), ("", "", ""), ("tab\there", "\u{85}", "shop://é"),
        ] as [(String, String?, String?)])
    func consoleLinesWrittenDirectlyAreTheLinesOfTheRecord(code: String, device: String?, link: String?) {
        for (dryRun, notSaved) in [(false, nil), (true, nil), (false, "the store is \"full\" = 1\n")] {
            var details = Self.details(code: code, device: device, link: link, dryRun: dryRun)
            details.notSaved = notSaved
            var lines = ConsoleLines(identifier: "notifyd", pid: 1)
            lines.line(details)
            lines.line(details)
            let written = lines.bytes.withBytes { String(decoding: $0, as: UTF8.self) }
            #expect(lines.count == 2)
            #expect(written == String(repeating: Self.recordLine(details), count: 2))
        }
    }

    /// Decisions as the daemon makes them (the path kept as the resolver's indices, its names written from the
    /// resolver's bytes; ids as UUIDs or as text): their console lines are the lines of their records.
    @Test func consoleLinesOfResolvedDecisionsAreTheLinesOfTheirRecords() throws {
        let directory = try StoreTestDirectory()
        try directory.write(Array(try RouterServiceTests.Fixture.shopConfig().utf8), to: "notifyd.yaml")
        let loaded = try RouterService.loadConfig(path: directory.path + "/notifyd.yaml").get()
        let config = ActiveConfig(loaded, generation: 1)
        var ids = DecisionIDs()
        for link in ["shop://offers/SUMMER", "shop://cart/checkout", "https://shop.example.com/products/p-1"] {
            guard case .success(let page) = config.graph.matcher.match(link).result else {
                Issue.record("\(link) does not match")
                continue
            }
            for id in [ids.make(milliseconds: 1_700_000_000_000), DecisionID("not a uuid = text")] {
                var decision = try config.resolver.resolve(
                    page, state: nil, now: Timestamp(millisecondsSince1970: 0),
                    metadata: DecisionMetadata(
                        id: id, source: DecisionSource(format: "link", field: "link", link: link))
                ).takeDecision()
                #expect(decision.pathIsPlain)
                decision.device = "d 1"
                let details = DecisionJournalDetails(decision: decision, link: link, dryRun: true, peerUID: 1000)
                var lines = ConsoleLines(identifier: "notifyd", pid: 1)
                lines.line(details)
                let written = lines.bytes.withBytes { String(decoding: $0, as: UTF8.self) }
                #expect(written == Self.recordLine(details))
                #expect(written.contains(" path=app/main/"), "\(written)")
            }
        }
    }

    @Test func eachKeysConsoleSpellingIsTheOneTheConsoleMakesOfItsName() {
        for key in JournalKey.all {
            var made = ByteWriter()
            var name = key.name
            name.withUTF8 { JournalRecord.appendConsoleKey($0, into: &made) }
            let spelled = key.consoleKey.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
            #expect(made.withBytes { String(decoding: $0, as: UTF8.self) } == spelled, "\(key.name)")
        }
        #expect(Set(JournalKey.all.map(\.name)).count == JournalKey.all.count)
    }

    /// One pass answers what ``Journal/isPlain(_:)`` and ``JournalRecord/needsConsoleQuotes(_:)`` answer, for values
    /// of every length up to 40 with the bytes that matter (and some that do not) at every place.
    @Test func oneLookAtAValueAnswersBothOfTheConsolesQuestions() {
        let bytes: [UInt8] = [0x61, 0x20, 0x22, 0x3D, 0x5C, 0x0A, 0x1F, 0x7F, 0x80, 0xC3, 0xA9, 0xFF, 0x21, 0x7E]
        var generator = SystemRandomNumberGenerator()
        for length in 0...40 {
            for _ in 0..<200 {
                var value = [UInt8](repeating: 0x61, count: length)
                // Mostly plain letters, with a few of the bytes above placed at random.
                for _ in 0..<Int.random(in: 0...2, using: &generator) where length > 0 {
                    value[Int.random(in: 0..<length, using: &generator)] = bytes.randomElement(using: &generator)!
                }
                value.withUnsafeBufferPointer { buffer in
                    let answer = JournalRecord.consoleValueNeeds(buffer)
                    #expect(answer.plain == Journal.isPlain(buffer), "\(value)")
                    #expect(answer.quoted == JournalRecord.needsConsoleQuotes(buffer), "\(value)")
                }
            }
        }
    }

    @Test func aLoopsEntriesReachTheSinkInTheOrderItLoggedThem() throws {
        let sink = RecordingSink()
        let journal = Journal(target: .console, capacity: 16, sink: sink)
        let batcher = JournalBatcher(journal: journal)
        batcher.log(.decisionMade, priority: .info, details: Self.details(code: "A"))
        batcher.log(.payloadRejected, priority: .notice, message: "between")
        batcher.log(.decisionMade, priority: .info, details: Self.details(code: "B"))
        journal.flush()
        #expect(sink.entries.map(\.message) == [#"routed cart.offer(id: "A") for d-1"#, "between"])
        batcher.submit()
        journal.flush()
        #expect(sink.entries.map(\.message).last == #"routed cart.offer(id: "B") for d-1"#)
        #expect(sink.consoleLines.last == Self.recordLine(Self.details(code: "B")))
        #expect(journal.statistics.logged == 3)
        #expect(journal.statistics.written == 3)
    }

    @Test func theConsoleSinkWritesTheLinesALoopRendered() throws {
        let output = try ConsoleCapture.output { journal in
            #expect(journal.renderedForm == .consoleLines(identifier: "notifyd", pid: getpid()))
            let batcher = JournalBatcher(journal: journal)
            batcher.log(.decisionMade, priority: .info, details: Self.details(code: "A", link: "shop://offers/A"))
            batcher.log(.stopping, priority: .notice, message: "stopping")
            batcher.log(.decisionMade, priority: .info, details: Self.details(code: "B C", device: nil, dryRun: true))
            batcher.submit()
            journal.flush()
            #expect(journal.statistics.written == 3)
        }
        let pid = getpid()
        #expect(
            output
                == Self.recordLine(Self.details(code: "A", link: "shop://offers/A"), pid: pid)
                + "notifyd[\(pid)]: stopping\n"
                + Self.recordLine(Self.details(code: "B C", device: nil, dryRun: true), pid: pid))
    }

    @Test func renderedEntriesCountAgainstTheQueuesBound() throws {
        let sink = RecordingSink(blocked: true)
        let journal = Journal(target: .console, capacity: 4, sink: sink)
        let batcher = JournalBatcher(journal: journal)
        journal.log(.started, priority: .info, message: "first")
        sink.waitUntilWriting()  // the writer holds "first": what follows waits in the queue
        for code in ["a", "b", "c"] { batcher.log(.decisionMade, priority: .info, details: Self.details(code: code)) }
        batcher.submit()  // 3 waiting: below the bound of 4, taken whole
        for code in ["d", "e"] { batcher.log(.decisionMade, priority: .info, details: Self.details(code: code)) }
        batcher.submit()  // 3 waiting: still below, taken whole (5 waiting)
        for code in ["f", "g"] { batcher.log(.decisionMade, priority: .info, details: Self.details(code: code)) }
        batcher.submit()  // 5 waiting: at the bound, both dropped
        #expect(journal.droppedCount == 2)
        #expect(journal.statistics.logged == 6)
        sink.unblock()
        journal.flush()
        let messages = sink.entries.map(\.message)
        #expect(messages.count == 7)
        #expect(messages.dropFirst().prefix(5).map { $0.split(separator: "\"")[1] } == ["a", "b", "c", "d", "e"])
        #expect(messages.last == "2 journal entries dropped: the journal queue was full")
        // The buffers the writer gave back are reused, emptied.
        let reused = journal.emptyEntries()
        #expect(reused.count == 0 && reused.saved.isEmpty && reused.bytes.count == 0)
    }

    @Test func savedRecordsLoadBackAsTheyWere() throws {
        let entries = RenderedEntries(form: .records)
        var first = JournalRecord()
        first.reset(event: .configRejected, priority: .error, fileID: "a/B.swift", line: 12, function: "f()")
        first.message("rejected:")
        first.addLine("line 1 \u{1B}")
        first.addLine("line 2")
        first.field(JournalField.reason, "a; b")
        first.field("bad name", "left out")
        first.field(JournalField.config, "/etc/notifyd.yaml")
        var second = JournalRecord()
        second.reset(
            event: .decisionMade, priority: .info, fileID: "c/D.swift", line: 3, function: "g()", checksNames: false)
        Self.details(code: "X\nY").render(into: &second)
        entries.add(first)
        entries.add(second)
        #expect(entries.count == 2)
        #expect(entries.invalidFields == 1)
        let originals = [
            (
                JournalEntry(first), first.consoleLine(identifier: "notifyd", pid: 1),
                first.journalFields(identifier: "n")
            ),
            (
                JournalEntry(second), second.consoleLine(identifier: "notifyd", pid: 1),
                second.journalFields(identifier: "n")
            ),
        ]
        var loaded = JournalRecord()
        for (index, (original, line, fields)) in originals.enumerated() {
            loaded.load(index, of: entries)
            let back = JournalEntry(loaded)
            #expect(back.event == original.event && back.priority == original.priority)
            #expect(back.fileID == original.fileID && back.line == original.line && back.function == original.function)
            #expect(back.message == original.message && back.lines == original.lines)
            #expect(
                back.fields.map(\.0) == original.fields.map(\.0) && back.fields.map(\.1) == original.fields.map(\.1))
            #expect(loaded.consoleLine(identifier: "notifyd", pid: 1) == line)
            #expect(loaded.journalFields(identifier: "n") == fields)
        }
        #expect(loaded.invalidFields == 0)
        loaded.load(0, of: entries)
        #expect(loaded.invalidFields == 1)
    }
}
