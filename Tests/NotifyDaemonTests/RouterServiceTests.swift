import Glibc
import JSON
import Testing
import Varlink

@testable import NotifyDaemon

/// The router service driven as the server drives it: a batch of calls, one commit, then the replies.
@Suite struct RouterServiceTests {
    /// A service on a copy of `config/shop.yaml`, with or without a state store, journaling into a recording sink.
    final class Fixture {
        let directory: StoreTestDirectory
        let sink = RecordingSink()
        let service: RouterService
        let connection = ClientConnection(
            fd: FileDescriptor(rawValue: -1), id: 1, peer: PeerCredentials(pid: 1, uid: 0, gid: 0),
            maxMessageBytes: 65_536, now: 0)

        var configPath: String { directory.path + "/notifyd.yaml" }

        init(
            store: Bool = true, maxValueBytes: Int = StateStore.defaultMaxValueBytes, worker: Bool = false,
            prepare: (StateStore) throws -> Void = { _ in }
        ) throws {
            directory = try StoreTestDirectory()
            try directory.write(Array(try Self.shopConfig().utf8), to: "notifyd.yaml")
            var settings = Settings()
            settings.configPath = directory.path + "/notifyd.yaml"
            var stateStore: StateStore?
            if store {
                let opened = try StateStore(directory: directory.path, maxValueBytes: maxValueBytes)
                try prepare(opened)
                stateStore = opened
            }
            let loaded = try RouterService.loadConfig(path: settings.configPath).get()
            let journal = Journal(target: .console, capacity: 1_024, sink: sink)
            service = RouterService(settings: settings, journal: journal, store: stateStore, config: loaded)
            if worker { _ = try #require(service.startStoreWorker()) }
        }

        static func shopConfig() throws -> String {
            // <root>/Tests/NotifyDaemonTests/RouterServiceTests.swift → <root>/config/shop.yaml
            let root = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(
                separator: "/")
            return try StoreTestFileReader.text(root + "/config/shop.yaml")
        }

        /// Handles `calls` as one batch, commits it (on the worker's thread when there is one), and returns the
        /// replies in order.
        func batch(_ calls: [(method: String, parameters: JSONObject)]) throws -> [JSON] {
            handle(calls)
            service.pipeline.endBatch()
            service.pipeline.worker?.waitUntilDone()
            service.pipeline.endBatch()
            #expect(settle(), "every reply is settled once the commit is over")
            return try replies()
        }

        /// Handles `calls` without ending the batch.
        func handle(_ calls: [(method: String, parameters: JSONObject)]) {
            let outbox = Outbox()
            for call in calls {
                service.handle(
                    VarlinkCall(method: "io.notifyd.Router." + call.method, parameters: call.parameters),
                    from: connection, outbox: outbox)
            }
        }

        /// Moves the replies whose commit is over to the output, as the server does; true when none waits.
        func settle() -> Bool {
            connection.settleSlots { self.service.pipeline.outcome(ofBatch: $0) }
        }

        /// The replies in the output so far, in order (taken out of it).
        func replies() throws -> [JSON] {
            let frames = connection.output.split(separator: 0, omittingEmptySubsequences: true)
            connection.output.removeAll()
            return try frames.map { frame in try JSON.parse(Array(frame)) }
        }

        func call(_ method: String, _ parameters: JSONObject = [:]) throws -> JSON {
            try #require(try batch([(method, parameters)]).first)
        }

        /// The journal's entries so far.
        func entries() -> [JournalEntry] {
            service.loopJournal.submit()
            service.journal.flush()
            return sink.entries
        }
    }

    private static func steps(_ reply: JSON) -> [String] {
        guard case .array(let steps)? = reply["parameters"]?["decision"]?["steps"] else { return [] }
        return steps.map { ($0["action"]?.stringValue ?? "") + " " + ($0["coordinator"]?.stringValue ?? "") }
    }

    @Test func aReloadBetweenTwoRequestsOfOneBatchKeepsTheStateTheFirstOneWrote() throws {
        let f = try Fixture()
        let replies = try f.batch([
            ("Resolve", ["device": "race", "link": "shop://offers/A"]),
            ("Reload", [:]),
            ("Resolve", ["device": "race", "link": "shop://products/p-1"]),
        ])
        try #require(replies.count == 3)
        #expect(replies[1]["parameters"]?["generation"] == .int(2))
        // The second decision starts from the state of the first (acknowledged in the same batch), not cold.
        #expect(!Self.steps(replies[2]).contains("start main"))
        #expect(Self.steps(replies[2]).contains("selectTab main"))
        let state = try f.call("GetState", ["device": "race"])["parameters"]?["state"]
        #expect(state?["started"]?.arrayValue?.contains(.string("cart")) == true)
        #expect(state?["stacks"]?["cart"]?.arrayValue?.last?["arguments"]?["id"] == .string("A"))
    }

    @Test func aCachedStateThatNoLongerFitsTheReloadedGraphStartsCold() throws {
        let f = try Fixture(store: false)
        _ = try f.call("Resolve", ["device": "kept", "link": "shop://offers/A"])
        _ = try f.call("Resolve", ["device": "renamed", "link": "shop://offers/B"])
        _ = try f.call("Resolve", ["device": "renamed", "link": "shop://products/p-1"])
        // `kept` shows no cart.offer any more; `renamed` still has it on the cart's stack.
        _ = try f.call("Resolve", ["device": "kept", "link": "shop://cart"])
        let renamed = try Fixture.shopConfig().replacingOccurrences(
            of: "\"offer(id: String)\": [\"/offers/{id}\"", with: "\"deal(id: String)\": [\"/offers/{id}\""
        ).replacingOccurrences(of: "cart.offer(id: \"SUMMER\")", with: "cart.deal(id: \"SUMMER\")")
        try f.directory.write(Array(renamed.utf8), to: "notifyd.yaml")
        #expect(try f.call("Reload")["parameters"]?["generation"] == .int(2))

        #expect(try f.call("GetState", ["device": "renamed"])["parameters"]?["state"] == .null)
        let kept = try f.call("GetState", ["device": "kept"])["parameters"]?["state"]
        #expect(kept?["started"]?.arrayValue?.contains(.string("cart")) == true)
        let warnings = f.entries().filter { $0.event == .stateStoreError && $0.message.contains("renamed") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.message.contains("does not fit the loaded graph") == true)
    }

    @Test func aDecisionIsJournaledAndCountedOnlyOnceItsStateIsCommitted() throws {
        let f = try Fixture(maxValueBytes: 4_096)
        let stored = try f.call("Resolve", ["device": "fits", "link": "shop://offers/A"])
        let storedID = try #require(stored["parameters"]?["decision"]?["id"]?.stringValue)
        // A link this long makes a decision larger than the store accepts: the batch's commit fails.
        let refused = try f.call(
            "Resolve", ["device": "too-big", "link": .string("shop://offers/" + String(repeating: "X", count: 1_900))])
        #expect(refused["error"] == "io.notifyd.Router.StateNotSaved")

        let stats = f.service.statsJSON()
        #expect(stats["decisions"] == .int(1))
        #expect(stats["storeFailures"] == .int(1))
        let entries = f.entries()
        let made = entries.filter { $0.event == .decisionMade }
        #expect(made.count == 1)
        #expect(made.first?.fields.contains { $0 == (JournalField.decisionID, storedID) } == true)
        let notSaved = try #require(entries.first { $0.event == .decisionNotSaved })
        #expect(notSaved.priority == .error)
        #expect(notSaved.message.hasPrefix("not saved"))
        #expect(notSaved.fields.contains { $0 == (JournalField.device, "too-big") })
        #expect(notSaved.fields.contains { $0.0 == JournalField.reason && $0.1.contains("exceeded the store's bound") })
    }

    /// Decision entries skip the writer's field-name checks: every name they carry must pass them.
    @Test func decisionEntriesCarryOnlyValidFieldNames() throws {
        let f = try Fixture()
        let payload: JSON = ["aps": ["alert": "x"], "deeplink": "shop://offers/A"]
        _ = try f.call("Route", ["device": "d", "payload": payload])
        _ = try f.call("Resolve", ["link": "shop://cart", "dryRun": true])
        let made = f.entries().filter { $0.event == .decisionMade }
        try #require(made.count == 2)
        let names = Set(made.flatMap { $0.fields.map(\.0) })
        #expect(names.isSuperset(of: [JournalField.device, JournalField.source, JournalField.link]))
        for entry in made {
            #expect(entry.fieldNamesKnownValid)
            for (name, _) in entry.fields { #expect(JournalEntry.isAccepted(name), "\(name)") }
        }
    }

    @Test func dryRunsAreJournaledAndCountedAtOnce() throws {
        let f = try Fixture(maxValueBytes: 4_096)
        let reply = try f.call("Resolve", ["device": "d", "link": "shop://offers/A", "dryRun": true])
        #expect(reply["parameters"]?["decision"] != nil)
        #expect(f.service.statsJSON()["decisions"] == .int(1))
        #expect(f.entries().filter { $0.event == .decisionMade }.count == 1)
    }

    /// `GetStats` counts decisions by outcome and routed payloads by format, each case under its name.
    @Test func outcomesAndFormatsAreCountedByName() throws {
        let f = try Fixture()
        let apns: JSON = ["aps": ["alert": "x"], "deeplink": "shop://offers/A"]
        let fcm: JSON = ["message": ["data": ["deeplink": "shop://cart/checkout"]]]
        for (method, parameters) in [
            ("Route", ["payload": apns, "dryRun": true]), ("Route", ["payload": fcm, "dryRun": true]),
            ("Route", ["payload": apns, "dryRun": true]), ("Resolve", ["link": "shop://cart", "dryRun": true]),
            ("Resolve", ["link": "shop://offers/B", "dryRun": true]),
        ] as [(String, JSONObject)] {
            #expect(try f.call(method, parameters)["parameters"]?["decision"] != nil, "\(method) \(parameters)")
        }
        let stats = f.service.statsJSON()
        #expect(stats["outcomes"] == ["gated": 1, "routed": 4])
        #expect(stats["formats"] == ["apns": 2, "fcm": 1, "link": 2])
    }

    @Test func finishingACoordinatorThatProvidesNothingSaysWhy() throws {
        let f = try Fixture()
        _ = try f.call("Resolve", ["device": "d1", "link": "shop://cart"])
        let reply = try f.call("FlowFinished", ["device": "d1", "coordinator": "cart"])
        #expect(reply["error"] == "io.notifyd.Router.ProvidesNothing")
        #expect(reply["parameters"]?["coordinator"] == "cart")
        let reason = reply["parameters"]?["reason"]?.stringValue ?? ""
        #expect(reason.contains("'cart' provides no condition"))
        // A flow that provides a condition but is not presented is still NotPresented.
        let notPresented = try f.call("FlowFinished", ["device": "d1", "coordinator": "login"])
        #expect(notPresented["error"] == "io.notifyd.Router.NotPresented")
        #expect(notPresented["parameters"] == ["coordinator": "login", "presented": []])
    }

    @Test func finishingACoordinatorTheGraphLacksNamesTheNearestThatCanFinish() throws {
        let f = try Fixture()
        _ = try f.call("Resolve", ["device": "d1", "link": "shop://cart/checkout"])
        let typo = try f.call("FlowFinished", ["device": "d1", "coordinator": "logn"])
        #expect(typo["error"] == "io.notifyd.Router.InvalidParameter")
        #expect(
            typo["parameters"] == [
                "parameter": "coordinator", "value": "logn", "reason": "no coordinator 'logn' in the graph",
                "suggestion": "login",
            ])
        let far = try f.call("FlowFinished", ["device": "d1", "coordinator": "zzzzzzzz"])
        #expect(far["parameters"]?["suggestion"] == .null)
        // Gated behind login: login is presented, membership is not.
        let other = try f.call("FlowFinished", ["device": "d1", "coordinator": "membership"])
        #expect(other["parameters"] == ["coordinator": "membership", "presented": ["login"]])
    }

    @Test func aStateTheStoreCannotReadIsAnErrorNotAnUnknownDevice() throws {
        let f = try Fixture { store in
            try store.commit([
                .stateText(
                    device: "damaged", text: JSONText(bytes: Array("{\"path\": [".utf8)), pendingExpiresMs: nil,
                    updatedMs: 1)
            ])
        }
        for (method, parameters) in [
            ("GetState", ["device": "damaged"]), ("Resolve", ["device": "damaged", "link": "shop://offers/A"]),
            ("FlowFinished", ["device": "damaged", "coordinator": "login"]), ("ForgetDevice", ["device": "damaged"]),
        ] as [(String, JSONObject)] {
            let reply = try f.call(method, parameters)
            #expect(reply["error"] == "io.notifyd.Router.StateUnreadable", "\(method)")
            #expect(reply["parameters"]?["reason"]?.stringValue?.contains("damaged") == true, "\(method)")
        }
        #expect(try f.call("GetState", ["device": "never-seen"])["parameters"]?["state"] == .null)
        #expect(f.service.statsJSON()["storeFailures"] == .int(4))
    }

    @Test func expiredPendingLinksArePrunedFromTheStore() throws {
        let f = try Fixture { store in
            let pending: JSON = [
                "page": ["id": "account.order", "arguments": ["id": 42], "description": "account.order(id: 42)"],
                "gate": "login", "condition": "session", "expiresAt": "2001-01-01T00:00:00Z",
            ]
            let state: JSON = ["path": ["app"], "started": ["app"], "pending": pending]
            try store.commit([.state(device: "expired", state: state, updatedMs: 1)])
        }
        #expect(f.service.statsJSON()["store"]?["pendingLinks"] == .int(1))
        #expect(f.service.pruneExpiredPending() == 1)
        #expect(f.service.statsJSON()["store"]?["pendingLinks"] == .int(0))
        let state = try f.call("GetState", ["device": "expired"])["parameters"]?["state"]
        #expect(state?["pending"] == .null)
        #expect(state?["path"] == ["app"])
    }

    // MARK: commits on the worker's thread

    /// Calls that write more than ``RouterService/inlineCommitWrites``, so that their batch goes to the worker.
    private static let fillers: [(method: String, parameters: JSONObject)] = (0..<5).map {
        ("Resolve", ["device": .string("filler-\($0)"), "link": "shop://cart"])
    }

    @Test func aSmallBatchIsCommittedAtOnceALargeOneByTheWorker() throws {
        let f = try Fixture(worker: true)
        f.handle([("Resolve", ["device": "one", "link": "shop://cart"])])
        // A few writes wait for the end of the turn (and are committed on the loop's thread then).
        #expect(!f.service.pipeline.batchIsDue)
        f.service.pipeline.endBatch()
        #expect(!f.service.pipeline.hasCommitInFlight)
        #expect(f.settle())
        f.handle(Self.fillers)
        // More, with the worker idle: the server hands them over between two connections.
        #expect(f.service.pipeline.batchIsDue)
        f.service.pipeline.endBatch()
        #expect(f.service.pipeline.hasCommitInFlight)
        #expect(!f.settle())
        f.service.pipeline.worker?.waitUntilDone()
        // Its commit is over: due again, to be settled.
        #expect(f.service.pipeline.batchIsDue)
        f.service.pipeline.endBatch()
        #expect(!f.service.pipeline.batchIsDue)
        #expect(f.settle())
        #expect(try f.replies().count == 6)
    }

    @Test func aBatchGatheredDuringACommitWaitsBehindItAndStartsFromItsStates() throws {
        let f = try Fixture(worker: true)
        f.handle([("Resolve", ["device": "p", "link": "shop://offers/A"])] + Self.fillers)
        f.service.pipeline.endBatch()  // handed to the worker
        #expect(f.service.pipeline.hasCommitInFlight)
        // While it commits: a dry run behind it on the same connection, and the same device again.
        f.handle(
            [
                ("Resolve", ["link": "shop://cart", "dryRun": true]),
                ("Resolve", ["device": "p", "link": "shop://products/p-1"]),
            ] + Self.fillers)
        // Nothing goes out before the first commit is settled, not even the dry run queued behind it.
        #expect(!f.settle())
        #expect(try f.replies().isEmpty)
        f.service.pipeline.worker?.waitUntilDone()
        f.service.pipeline.endBatch()  // settles the first, hands over the second
        #expect(!f.settle(), "the second batch's reply waits for its own commit")
        var replies = try f.replies()
        try #require(replies.count == 7)
        #expect(replies[0]["parameters"]?["decision"]?["device"] == "p")
        #expect(replies[6]["parameters"]?["decision"]?["device"] == .null)
        f.service.pipeline.worker?.waitUntilDone()
        f.service.pipeline.endBatch()
        #expect(f.settle())
        replies = try f.replies()
        try #require(replies.count == 6)
        // Made on the state of the first decision (not committed when it was made): no cold start.
        #expect(!Self.steps(replies[0]).contains("start main"))
        #expect(Self.steps(replies[0]).contains("selectTab main"))
        let state = try f.call("GetState", ["device": "p"])["parameters"]?["state"]
        #expect(state?["stacks"]?["catalog"] != nil)
        #expect(f.service.statsJSON()["decisions"] == .int(13))
    }

    /// A state the cache lacks (after a restart, say) is read on the reader's connection while the worker's commit
    /// runs, instead of after it: here the commit is held at its start by another connection's write lock, and the
    /// decision is made from the stored state meanwhile.
    @Test func aStateTheCacheLacksIsReadWhileACommitRuns() throws {
        let f = try Fixture(worker: true)
        _ = try f.call("Resolve", ["device": "stored", "link": "shop://offers/A"])
        f.service.cache["stored"] = nil
        let other = try SQLiteConnection(path: StateStore.path(in: f.directory.path))
        try other.exec("BEGIN IMMEDIATE", "hold the write lock")
        f.handle([("Resolve", ["device": "p", "link": "shop://offers/A"])] + Self.fillers)
        f.service.pipeline.endBatch()  // handed to the worker, which waits for the lock
        #expect(f.service.pipeline.hasCommitInFlight)
        f.handle([("Resolve", ["device": "stored", "link": "shop://products/p-1"])])
        let worker = try #require(f.service.pipeline.worker)
        #expect(!worker.isDone, "the state was read without waiting for the commit")
        try other.exec("ROLLBACK", "release the write lock")
        worker.waitUntilDone()
        f.service.pipeline.endBatch()  // settles the worker's batch and commits the small one behind it at once
        #expect(f.settle())
        let replies = try f.replies()
        try #require(replies.count == 7)
        #expect(replies.allSatisfy { $0["error"] == nil })
        #expect(replies[6]["parameters"]?["decision"]?["device"] == "stored")
        #expect(!Self.steps(replies[6]).contains("start main"), "made on the stored state, not cold")
        #expect(Self.steps(replies[6]).contains("selectTab main"))
    }

    /// A batch for the worker (with ``fillers``) whose commit fails under a 4,096-byte value bound: device `big`'s
    /// state is too large. It also moves device `kept` on.
    private static let batchThatFailsToCommit: [(method: String, parameters: JSONObject)] =
        [
            ("Resolve", ["device": "kept", "link": "shop://cart"]),
            ("Resolve", ["device": "big", "link": .string("shop://offers/" + String(repeating: "X", count: 1_900))]),
        ] + fillers

    @Test func aFailedCommitAlsoFailsTheBatchGatheredOnItsStates() throws {
        let f = try Fixture(maxValueBytes: 4_096, worker: true)
        _ = try f.call("Resolve", ["device": "kept", "link": "shop://offers/A"])
        f.handle(Self.batchThatFailsToCommit)
        f.service.pipeline.endBatch()
        #expect(f.service.pipeline.hasCommitInFlight)
        f.handle([("Resolve", ["device": "kept", "link": "shop://products/p-1"])])
        f.service.pipeline.worker?.waitUntilDone()
        f.service.pipeline.endBatch()
        #expect(f.settle())
        let replies = try f.replies()
        try #require(replies.count == 8)
        for reply in replies { #expect(reply["error"] == "io.notifyd.Router.StateNotSaved") }
        // Neither batch changed the stored state: the device is where its first, committed decision left it.
        let state = try f.call("GetState", ["device": "kept"])["parameters"]?["state"]
        #expect(state?["stacks"]?["catalog"] == nil)
        #expect(state?["stacks"]?["cart"]?.arrayValue?.last?["arguments"]?["id"] == "A")
        #expect(try f.call("GetState", ["device": "big"])["parameters"]?["state"] == .null)
        #expect(f.service.statsJSON()["decisions"] == .int(1))
        #expect(f.entries().filter { $0.event == .decisionNotSaved }.count == 8)
    }

    /// Calls that write ``RouterService/queuedBatchWrites`` (two writes each), on devices of their own.
    private static func queueFillers(_ prefix: String) -> [(method: String, parameters: JSONObject)] {
        (0..<(CommitPipeline.queuedBatchWrites / 2)).map {
            ("Resolve", ["device": .string("\(prefix)-\($0)"), "link": "shop://cart"])
        }
    }

    /// While the worker commits, a batch that reaches ``RouterService/queuedBatchWrites`` goes behind the commit at
    /// once; the batches are committed and settled in order, each made on the states of those before it.
    @Test func aLargeBatchGatheredDuringACommitGoesBehindIt() throws {
        let f = try Fixture(worker: true)
        let other = try SQLiteConnection(path: StateStore.path(in: f.directory.path))
        try other.exec("BEGIN IMMEDIATE", "hold the write lock")  // the first commit waits for it
        f.handle([("Resolve", ["device": "p", "link": "shop://offers/A"])] + Self.fillers)
        f.service.pipeline.endBatch()
        #expect(f.service.pipeline.batchesInFlight == 1)
        f.handle([("Resolve", ["device": "p", "link": "shop://products/p-1"])] + Self.queueFillers("q"))
        #expect(f.service.pipeline.batchIsDue, "a full batch goes behind the commit without waiting for it")
        f.service.pipeline.endBatch()
        #expect(f.service.pipeline.batchesInFlight == 2)
        f.handle([("Resolve", ["device": "p", "link": "shop://cart"])])
        #expect(!f.service.pipeline.batchIsDue, "a few writes wait for the commits")
        f.service.pipeline.endBatch()
        #expect(f.service.pipeline.batchesInFlight == 2)
        #expect(!f.settle())
        try other.exec("ROLLBACK", "release the write lock")
        f.service.pipeline.worker?.waitUntilDone()
        f.service.pipeline.endBatch()  // settles both in order, then commits the last few writes at once
        #expect(f.service.pipeline.batchesInFlight == 0)
        #expect(f.settle())
        let replies = try f.replies()
        try #require(replies.count == 6 + 1 + CommitPipeline.queuedBatchWrites / 2 + 1)
        #expect(replies.allSatisfy { $0["error"] == nil })
        let second = replies[6]
        #expect(second["parameters"]?["decision"]?["device"] == "p")
        #expect(!Self.steps(second).contains("start main"), "made on the first batch's state, not cold")
        let state = try f.call("GetState", ["device": "p"])["parameters"]?["state"]
        #expect(state?["stacks"]?["catalog"] != nil)
        #expect(f.service.statsJSON()["store"]?["devices"] == .int(1 + 5 + CommitPipeline.queuedBatchWrites / 2))
    }

    /// A failed commit fails the batches handed to the worker behind it (they were made on its states) and the one
    /// gathered, none of them committed; the batches after that are committed as usual.
    @Test func aFailedCommitFailsTheBatchesQueuedBehindIt() throws {
        let f = try Fixture(maxValueBytes: 4_096, worker: true)
        _ = try f.call("Resolve", ["device": "kept", "link": "shop://offers/A"])
        let other = try SQLiteConnection(path: StateStore.path(in: f.directory.path))
        try other.exec("BEGIN IMMEDIATE", "hold the write lock")
        f.handle(Self.batchThatFailsToCommit)
        f.service.pipeline.endBatch()
        f.handle([("Resolve", ["device": "kept", "link": "shop://products/p-1"])] + Self.queueFillers("q"))
        f.service.pipeline.endBatch()
        #expect(f.service.pipeline.batchesInFlight == 2)
        f.handle([("Resolve", ["device": "kept", "link": "shop://offers/B"])])
        try other.exec("ROLLBACK", "release the write lock")
        f.service.pipeline.worker?.waitUntilDone()
        f.service.pipeline.endBatch()
        #expect(f.service.pipeline.batchesInFlight == 0)
        #expect(f.settle())
        let replies = try f.replies()
        try #require(replies.count == 7 + 1 + CommitPipeline.queuedBatchWrites / 2 + 1)
        for reply in replies { #expect(reply["error"] == "io.notifyd.Router.StateNotSaved") }
        // None of the three batches changed the store: the device is where its first decision left it.
        let state = try f.call("GetState", ["device": "kept"])["parameters"]?["state"]
        #expect(state?["stacks"]?["catalog"] == nil)
        #expect(state?["stacks"]?["cart"]?.arrayValue?.last?["arguments"]?["id"] == "A")
        #expect(try f.call("GetState", ["device": "q-0"])["parameters"]?["state"] == .null)
        // The next batches are committed.
        let later = try f.batch(Self.queueFillers("r") + [("Resolve", ["device": "kept", "link": "shop://offers/C"])])
        #expect(later.allSatisfy { $0["error"] == nil })
        #expect(try f.call("GetState", ["device": "r-0"])["parameters"]?["state"] != .null)
        #expect(f.entries().filter { $0.event == .decisionNotSaved }.count == replies.count)
    }

    @Test func aDeviceForgottenInABatchNotCommittedYetStartsCold() throws {
        let f = try Fixture(worker: true)
        _ = try f.call("Resolve", ["device": "gone", "link": "shop://offers/A"])
        let replies = try f.batch([
            ("ForgetDevice", ["device": "gone"]),
            ("GetState", ["device": "gone"]),
            ("Resolve", ["device": "gone", "link": "shop://products/p-1"]),
        ])
        try #require(replies.count == 3)
        #expect(replies[0]["parameters"]?["existed"] == true)
        #expect(replies[1]["parameters"]?["state"] == .null)
        #expect(Self.steps(replies[2]).contains("start main"))
    }

    @Test func theWorkerCommitsWhatTheStoreReadsBack() throws {
        let f = try Fixture(worker: true)
        for i in 0..<20 {
            _ = try f.call("Resolve", ["device": .string("d\(i % 5)"), "link": "shop://offers/A"])
        }
        let listed = try f.call("ListDecisions", ["limit": 100])["parameters"]?["decisions"]?.arrayValue
        #expect(listed?.count == 20)
        #expect(f.service.statsJSON()["store"]?["devices"] == .int(5))
    }
}
