import CoordinatorGraph
import JSON
import Testing
import Varlink

@testable import NotifyDaemon

@Suite struct SettingsTests {
    @Test func parsesEveryOptionAndReadsTheStateDirectoryFromSystemd() throws {
        let settings = try Settings.parse(
            [
                "--config", "c.yaml", "--socket", "/run/x.sock", "--log-target", "journal", "--socket-mode", "0600",
                "--allow-uid", "1000", "--allow-uid", "1001", "--max-message", "131072", "--idle-timeout", "5",
                "--max-connections", "10", "--max-connections-per-uid", "3", "--history-limit", "50",
                "--rate-limit", "100",
            ], environment: ["STATE_DIRECTORY": "/var/lib/notifyd:/var/lib/other"])
        #expect(settings.eventLoops == 1)
        #expect(settings.configPath == "c.yaml")
        #expect(settings.socketPath == "/run/x.sock")
        #expect(settings.logTarget == .journal)
        #expect(settings.socketMode == 0o600)
        #expect(settings.allowedUIDs == [1000, 1001])
        #expect(settings.maxMessageBytes == 131072)
        #expect(settings.idleTimeoutSeconds == 5)
        #expect(settings.maxConnections == 10 && settings.maxConnectionsPerUID == 3)
        #expect(settings.historyLimit == 50 && settings.rateLimitPerUID == 100)
        #expect(settings.stateDirectory == "/var/lib/notifyd")
    }

    @Test func eventLoopsCountsTheMainLoopAndItsLanes() throws {
        let settings = try Settings.parse(["--config", "c", "--event-loops", "3"], environment: [:])
        #expect(settings.eventLoops == 3)
        let limited = try Settings.parse(
            ["--config", "c", "--event-loops", "1", "--rate-limit", "5"], environment: [:])
        #expect(limited.eventLoops == 1 && limited.rateLimitPerUID == 5)
    }

    @Test(arguments: [
        (["--socket", "x"], "--config is required"),
        (["--config"], "--config needs a value"),
        (["--config", "c", "--log-target", "syslog"], "--log-target takes auto, journal or console"),
        (["--config", "c", "--socket-mode", "999"], "--socket-mode takes an octal mode"),
        (["--config", "c", "--idle-timeout", "-1"], "--idle-timeout takes a whole number"),
        (["--config", "c", "--frobnicate"], "unknown option '--frobnicate'; 'notifyd --help' lists the options"),
        (["--confg", "c"], "unknown option '--confg' (did you mean '--config'?); 'notifyd --help' lists the options"),
        (["--config", "c", "--event-loop", "2"], "(did you mean '--event-loops'?)"),
        (["--config=c"], "unknown option '--config=c'; give the value as a word of its own: --config VALUE"),
        (["c.yaml"], "unexpected argument 'c.yaml': notifyd takes options only"),
        (["--config", "c", "--event-loops", "0"], "--event-loops takes 1 to 64, not 0"),
        (["--config", "c", "--event-loops", "65"], "--event-loops takes 1 to 64, not 65"),
        (["--config", "c", "--event-loops", "2", "--rate-limit", "5"], "does not combine with --rate-limit"),
    ])
    func usageMistakesSayWhatWasWrong(arguments: [String], message: String) {
        #expect {
            _ = try Settings.parse(arguments, environment: [:])
        } throws: { error in
            guard let error = error as? Settings.UsageError else { return false }
            // One line that says what was wrong, never the whole usage text.
            return error.description.contains(message) && !error.description.contains("\n") && !error.isHelp
        }
    }

    @Test func versionIsAnAnswerNotAMistake() {
        #expect {
            _ = try Settings.parse(["--version"], environment: [:])
        } throws: { error in
            (error as? Settings.UsageError).map { $0.isHelp && $0.description == "notifyd \(notifydVersion)" } ?? false
        }
    }

    /// Every option the parser takes is one "did you mean" can suggest, and the other way round.
    @Test func theOptionsSuggestedAreTheOptionsParsed() throws {
        for name in Settings.optionNames where !["--help", "--version", "--print-message-id"].contains(name) {
            let value = ["--log-target": "console", "--socket-mode": "0600", "--config": "c", "--socket": "s"][name]
            let arguments = ["--config", "c", name, value ?? "1"]
            #expect(throws: Never.self, "\(name)") { try Settings.parse(arguments, environment: [:]) }
        }
    }
}

@Suite struct LatencyHistogramTests {
    @Test func percentilesAreWithinAFewPercentOfTheTruth() {
        var histogram = LatencyHistogram()
        for microseconds in 1...10_000 { histogram.record(nanoseconds: UInt64(microseconds) * 1000) }
        let p50 = Double(histogram.percentile(0.5)) / 1000
        let p99 = Double(histogram.percentile(0.99)) / 1000
        #expect(abs(p50 - 5000) / 5000 < 0.04)
        #expect(abs(p99 - 9900) / 9900 < 0.04)
        #expect(histogram.maxNanoseconds == 10_000_000)
        #expect(histogram.total == 10_000)
    }

    @Test func anEmptyHistogramReportsZero() {
        #expect(LatencyHistogram().percentile(0.99) == 0)
    }
}

@Suite struct DecisionIDTests {
    @Test func idsAreVersion7UUIDsUniqueAndInTheOrderMade() {
        var ids = DecisionIDs()
        var made: [String] = []
        // Many ids per millisecond (the counter, then borrowing the next millisecond), and a clock stepping back.
        let clock = (0..<10_000).map { Int64(1_764_547_200_000 + $0 / 5_000) } + [1_000_000_000_000]
        for ms in clock {
            let madeID = ids.make(milliseconds: ms)
            let id = madeID.description
            // Kept as its bits: read back from its text, it is the same id.
            #expect(DecisionID(id) == madeID)
            #expect(id.count == 36)
            let characters = Array(id)
            #expect(characters[8] == "-" && characters[13] == "-" && characters[18] == "-" && characters[23] == "-")
            #expect(characters[14] == "7")
            #expect("89ab".contains(characters[19]))
            #expect(id.allSatisfy { "0123456789abcdef-".contains($0) })
            made.append(id)
        }
        #expect(Set(made).count == made.count)
        #expect(made == made.sorted())
        // The first 48 bits are the milliseconds.
        let first = made[0].replacingOccurrences(of: "-", with: "").prefix(12)
        #expect(UInt64(first, radix: 16) == 1_764_547_200_000)
        // Then the version and the counter, which goes up by one within a millisecond.
        let counters = made.prefix(3).map {
            UInt64($0.replacingOccurrences(of: "-", with: "").dropFirst(13).prefix(3), radix: 16)!
        }
        #expect(counters[1] == counters[0] + 1 && counters[2] == counters[1] + 1)
    }
}

@Suite struct TokenBucketTests {
    @Test func aBurstOfOneSecondThenWaits() {
        var bucket = TokenBucket(rate: 10, now: 0)
        for _ in 0..<10 { #expect(bucket.take(now: 0) == nil) }
        let wait = bucket.take(now: 0)
        #expect(wait == 100)
        #expect(bucket.take(now: 100_000_000) == nil)
    }
}

@Suite struct RecentDecisionsTests {
    @Test func keepsTheNewestAndFindsById() throws {
        var recent = RecentDecisions(capacity: 3)
        for i in 1...5 { recent.append(id: DecisionID("d\(i)"), device: nil, text: JSONText(["id": .string("d\(i)")])) }
        #expect(recent.newestFirst().map(\.id) == ["d5", "d4", "d3"])
        #expect(try recent.find(id: "d4")?.text.parsed() == ["id": "d4"])
        #expect(recent.find(id: "d1") == nil)
        // A daemon's id, kept as its bits, is found by its text and read back as it.
        var ids = DecisionIDs()
        let made = ids.make()
        recent.append(id: made, device: "ipad-7", text: JSONText(["made": true]))
        #expect(recent.find(id: made.description)?.id == made.description)
        #expect(recent.find(id: made.description)?.device == "ipad-7")
        #expect(recent.newestFirst().map(\.id) == [made.description, "d5", "d4"])
    }

    /// Texts of every size, in a buffer that starts small: the history wraps around it and grows, and always
    /// holds exactly the newest decisions, each with its own text and device.
    @Test(arguments: [1, 2, 7, 64])
    func wrapsAndGrowsKeepingTheNewest(capacity: Int) throws {
        var recent = RecentDecisions(capacity: capacity, bufferBytes: 64)
        var model: [(id: String, device: String?, text: JSONText)] = []
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        for i in 0..<600 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let padding = String(repeating: "x", count: Int(seed >> 33) % (i % 50 == 0 ? 900 : 40))
            let id = "decision-\(i)"
            let device = i % 3 == 0 ? "device-\(i % 5)" : nil
            let text = JSONText(["id": .string(id), "padding": .string(padding)])
            recent.append(id: DecisionID(id), device: device, text: text)
            model.append((id, device, text))
            if model.count > capacity { model.removeFirst() }
            let kept = recent.newestFirst()
            #expect(kept.map(\.id) == model.reversed().map(\.id))
            #expect(kept.map(\.device) == model.reversed().map(\.device))
            #expect(kept.map(\.text) == model.reversed().map(\.text))
        }
        for (id, _, text) in model { #expect(recent.find(id: id)?.text == text) }
        #expect(recent.find(id: "decision-0") == nil || capacity >= 600)
    }

    /// After a run of large decisions the buffer grows; once small ones have replaced them it is small again.
    @Test func givesMemoryBackAfterLargeDecisions() {
        var recent = RecentDecisions(capacity: 16, bufferBytes: 4_096)
        let large = JSONText(["trace": .string(String(repeating: "t", count: 100_000))])
        for i in 0..<16 { recent.append(id: DecisionID("large-\(i)"), device: nil, text: large) }
        #expect(recent.bufferBytes >= 16 * 100_000)
        for i in 0..<64 { recent.append(id: DecisionID("small-\(i)"), device: nil, text: JSONText(["n": .int(i)])) }
        #expect(recent.bufferBytes == 4_096)
        #expect(recent.newestFirst().map(\.id) == (48..<64).reversed().map { "small-\($0)" })
        #expect(recent.newestFirst().first?.text == JSONText(["n": 63]))
    }
}

/// What the lanes keep of their own dry runs, and how the main loop adds it to its own.
@Suite struct LaneLedgerTests {
    @Test func eachLaneCountsAndKeepsItsDecisions() throws {
        let ledger = LaneLedger(lanes: 2, capacity: 2)
        for i in 0..<5 {
            let lane = i % 2
            JSONText(["n": .int(i)]).bytes.withUnsafeBufferPointer { text in
                ledger.record(
                    lane: lane, id: DecisionID("id-\(i)"), text: text, outcome: i == 4 ? .gated : .routed,
                    format: i < 3 ? .apns : .fcm, nanoseconds: UInt64(1_000 * (i + 1)))
            }
        }
        var stats = Stats()
        stats.requests = 10
        stats.decisions = 7
        stats.byOutcome.add(.fallback)
        stats.byFormat.add(.apns)
        stats.latency.record(nanoseconds: 50_000)
        ledger.addStats(to: &stats)
        #expect(stats.requests == 15 && stats.decisions == 12 && stats.laneDecisions == 5)
        #expect(stats.byOutcome.entries.map(\.key) == [.fallback, .routed, .gated])
        #expect(stats.byOutcome.entries.map(\.count) == [1, 4, 1])
        #expect(stats.byFormat.entries.map(\.key) == [.apns, .fcm])
        #expect(stats.byFormat.entries.map(\.count) == [4, 2])
        #expect(stats.latency.total == 6 && stats.latency.maxNanoseconds == 50_000)
        // Each lane's decisions, newest first; any lane's found by id.
        // Each lane's newest decisions (two each here), newest first; any lane's found by id.
        #expect(ledger.newestFirst().map { $0.map(\.id) } == [["id-4", "id-2"], ["id-3", "id-1"]])
        #expect(ledger.find(id: "id-0") == nil)
        #expect(try ledger.find(id: "id-3")?.text.parsed() == ["n": 3])
        #expect(ledger.find(id: "id-5") == nil)
    }

    /// The loops share the history's size: together they keep at least as many as one loop, and barely more.
    @Test(arguments: [1, 2, 3, 7, 64, 5000])
    func theLoopsShareTheHistory(loops: Int) {
        let each = RecentDecisions.capacity(ofLoops: loops)
        #expect(each >= 1)
        #expect(each * loops >= RecentDecisions.defaultCapacity)
        #expect(each * loops < RecentDecisions.defaultCapacity + loops)
    }

    @Test func lanesStreamOnlyWhileMonitorsWait() {
        let ledger = LaneLedger(lanes: 1, capacity: 1)
        #expect(!ledger.streaming)
        ledger.streaming = true
        #expect(ledger.streaming)
        ledger.streaming = false
        #expect(!ledger.streaming)
    }

    @Test func histogramsAddUpToOneThatRecordedEverything() {
        var all = LatencyHistogram()
        var parts = [LatencyHistogram(), LatencyHistogram(), LatencyHistogram()]
        for microseconds in 1...9_000 {
            all.record(nanoseconds: UInt64(microseconds) * 1000)
            parts[microseconds % 3].record(nanoseconds: UInt64(microseconds) * 1000)
        }
        var sum = LatencyHistogram()
        for part in parts { sum.add(part) }
        #expect(sum.total == all.total && sum.maxNanoseconds == all.maxNanoseconds)
        #expect(sum.sumNanoseconds == all.sumNanoseconds && all.sumNanoseconds == 40_504_500_000)
        for fraction in [0.1, 0.5, 0.9, 0.99, 1.0] { #expect(sum.percentile(fraction) == all.percentile(fraction)) }
    }
}

@Suite struct ReplyFrameTests {
    /// A decision reply is written around the decision's text when it leaves its slot; its size, which the output
    /// bound counts while it waits, is the size of what it writes.
    @Test func aDecisionFrameWritesTheReplyItCounts() throws {
        for text in [JSONText(["id": "d1", "page": ["id": "cart.offer"]]), JSONText(.object([:]))] {
            let frame = ClientConnection.ReplyFrame.decision(text)
            var output: [UInt8] = [1, 2, 3]
            frame.append(to: &output)
            #expect(output.count - 3 == frame.count)
            #expect(output.last == 0)
            let reply = try VarlinkReply(frame: output[3..<(output.count - 1)])
            #expect(reply.parameters == ["decision": try text.parsed()])
            #expect(reply.error == nil && !reply.continues)
        }
        let encoded = ClientConnection.ReplyFrame.encoded([7, 8, 0])
        var output: [UInt8] = []
        encoded.append(to: &output)
        #expect(output == [7, 8, 0] && encoded.count == 3)
    }
}

/// A decision's reply goes straight into the output only when no reply waits before it.
@Suite struct OutboxDecisionTests {
    static func connection() -> ClientConnection {
        ClientConnection(
            fd: FileDescriptor(rawValue: -1), id: 1, peer: PeerCredentials(pid: 1, uid: 0, gid: 0),
            maxMessageBytes: 65_536, now: 0)
    }

    static func replies(_ output: [UInt8]) -> [String] {
        output.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func aDecisionWithNothingBeforeItGoesStraightToTheOutput() {
        let outbox = Outbox()
        let connection = Self.connection()
        Array(#"{"n":1}"#.utf8).withUnsafeBufferPointer { outbox.enqueueDecision($0, to: connection) }
        #expect(connection.slots.isEmpty && connection.slotBytes == 0)
        #expect(Self.replies(connection.output) == [#"{"parameters":{"decision":{"n":1}}}"#])
        #expect(connection.queuedBytes == connection.output.count)
        var dirty: [UInt64] = []
        outbox.takeDirty { dirty.append($0.id) }
        #expect(dirty == [1])  // written at the end of the batch
    }

    /// Behind a reply that waits for its commit, a decision waits too; settled, the replies keep the calls' order,
    /// and a failed commit sends its failure in its place.
    @Test(arguments: [true, false])
    func aDecisionBehindADurableReplyWaitsForIt(committed: Bool) {
        let outbox = Outbox()
        let connection = Self.connection()
        outbox.sendDurable(VarlinkReply(parameters: ["saved": true]), batch: 7, to: connection) {
            VarlinkError.stateNotSaved.reply
        }
        Array(#"{"n":2}"#.utf8).withUnsafeBufferPointer { outbox.enqueueDecision($0, to: connection) }
        #expect(connection.output.isEmpty && connection.slots.count == 2)
        #expect(!connection.settleSlots { _ in nil })  // the commit is not over: nothing moves
        #expect(connection.output.isEmpty)
        #expect(connection.settleSlots { $0 == 7 ? committed : nil })
        let replies = Self.replies(connection.output)
        #expect(replies.count == 2)
        #expect(replies[0].contains(committed ? #""saved":true"# : "StateNotSaved"))
        #expect(replies[1] == #"{"parameters":{"decision":{"n":2}}}"#)
        // Nothing waits any more: the next decision goes straight to the output, after them.
        Array(#"{"n":3}"#.utf8).withUnsafeBufferPointer { outbox.enqueueDecision($0, to: connection) }
        #expect(Self.replies(connection.output).last == #"{"parameters":{"decision":{"n":3}}}"#)
        #expect(connection.slots.isEmpty)
    }
}
