import CoordinatorGraph
import DeepLink
import Glibc
import JSON
import Synchronization
import Testing

@testable import NotifyDaemon

/// The write-ahead log's checkpoints: off the committing thread with a checkpointer, on it without, and bounded
/// either way.
@Suite struct StoreCheckpointTests {
    /// A batch of `count` decisions of about 6 KiB each (two or three log frames apiece).
    private func batch(_ number: Int, count: Int = 40) -> [StoreWrite] {
        let padding = String(repeating: "x", count: 6_000)
        return (0..<count).map { i in
            let id = "d-\(number)-\(i)"
            let body: JSON = ["id": .string(id), "device": .string("dev-\(i)"), "padding": .string(padding)]
            return .decision(
                id: id, device: "dev-\(i)", createdMs: Int64(number), outcome: "routed",
                page: Page(id: PageID(coordinator: "cart", name: "cart"), arguments: []),
                decision: JSONText(body))
        }
    }

    /// Commits batches until the log has grown by `frames` in all, recording its length after each commit.
    private func commit(
        _ store: StateStore, untilFramesWritten frames: Int, from first: Int = 0
    ) throws -> (lengths: [Int], batches: Int) {
        var lengths: [Int] = []
        var written = 0
        var previous = store.checkpointCounts.logFrames
        var number = first
        while written < frames {
            try store.commit(batch(number))
            number += 1
            let now = store.checkpointCounts.logFrames
            written += now >= previous ? now - previous : now
            previous = now
            lengths.append(now)
        }
        return (lengths, number - first)
    }

    /// How many times the log started again from its beginning.
    private func restarts(_ lengths: [Int]) -> Int {
        zip(lengths, lengths.dropFirst()).filter { $1 < $0 }.count
    }

    @Test func theCheckpointerKeepsTheLogBoundedWhileCommitsGoOn() throws {
        let dir = try StoreTestDirectory()
        let store = try StateStore(directory: dir.path)
        let failures = Failures()
        try store.startCheckpointer { error in failures.record(error) }
        let run = try commit(store, untilFramesWritten: 3 * StateStore.restartFrames)

        // The log started again each time it reached the restart length, and never came near the bound at which the
        // committing thread checkpoints itself.
        #expect(restarts(run.lengths) >= 2)
        let longest = run.lengths.max() ?? 0
        #expect(longest >= StateStore.restartFrames)
        #expect(longest < StateStore.restartFrames + StateStore.checkpointFrames + 200)
        store.waitForCheckpoints()
        // Requests made while a checkpoint runs are served by one more: at least one per restart.
        #expect(store.checkpointCounts.onThread >= 3)
        #expect(failures.messages.isEmpty)

        // Everything committed reads back, from another connection while the store is open and after reopening.
        let reader = try SQLiteConnection.companion(of: store.path)
        #expect(try reader.queryInt("SELECT count(*) FROM decisions", "count") == Int64(40 * run.batches))
        #expect(try store.decision(id: "d-0-0")?["padding"]?.stringValue?.count == 6_000)
    }

    @Test func withoutACheckpointerTheCommittingThreadCheckpoints() throws {
        let dir = try StoreTestDirectory()
        let store = try StateStore(directory: dir.path)
        let run = try commit(store, untilFramesWritten: 3 * StateStore.checkpointFrames)
        #expect(restarts(run.lengths) >= 2)
        #expect((run.lengths.max() ?? 0) < StateStore.checkpointFrames + 200)
        #expect(try store.counts().decisions == 40 * run.batches)
    }

    @Test func aClosedStoreLeavesNoLogAndItsDecisionsReadBack() throws {
        let dir = try StoreTestDirectory()
        var batches = 0
        do {
            let store = try StateStore(directory: dir.path)
            try store.startCheckpointer { _ in }
            batches = try commit(store, untilFramesWritten: 2 * StateStore.checkpointFrames).batches
            #expect(dir.exists(StateStore.fileName + "-wal"))
        }
        // The checkpointer's connection closed first, so the store's, the last one, checkpointed and removed the log.
        #expect(!dir.exists(StateStore.fileName + "-wal"))
        #expect(!dir.exists(StateStore.fileName + "-shm"))
        let reopened = try StateStore(directory: dir.path)
        #expect(try reopened.counts().decisions == 40 * batches)
    }

    @Test func aStoreThatFailsToOpenLeavesTheDirectoryUnlocked() throws {
        let dir = try StoreTestDirectory()
        try dir.write(Array(String(repeating: "not a database. ", count: 300).utf8), to: StateStore.fileName)
        for _ in 0..<2 {
            let error = #expect(throws: StoreError.self) { try StateStore(directory: dir.path) }
            #expect(error?.code == .notADatabase)
        }
        #expect(unlink(dir.path + "/" + StateStore.fileName) == 0)
        let store = try StateStore(directory: dir.path)
        #expect(try store.counts().decisions == 0)
    }

    @Test func theDirectoryLockIsReleasedWhenTheStoreCloses() throws {
        let dir = try StoreTestDirectory()
        do {
            let first = try StateStore(directory: dir.path)
            try first.startCheckpointer { _ in }
            let error = #expect(throws: StoreError.self) { try StateStore(directory: dir.path) }
            #expect(error?.code == .busy)
            #expect(error?.path == dir.path)
        }
        let second = try StateStore(directory: dir.path)
        try second.commit(batch(1, count: 1))
        #expect(try second.counts().decisions == 1)
    }
}

/// Checkpoint failures reported on the checkpointer's thread.
private final class Failures: Sendable {
    private let recorded = Mutex<[String]>([])

    func record(_ error: StoreError) {
        recorded.withLock { $0.append(error.description) }
    }

    var messages: [String] { recorded.withLock { $0 } }
}

/// Device states handed to the store as values, written by the thread that commits.
@Suite struct StoreStateValueTests {
    private let expires = Timestamp(millisecondsSince1970: 1_740_832_200_250)

    private var state: DeviceState {
        DeviceState(
            path: ["app", "main", "cart"], started: ["app", "main", "cart", "login"], tabs: ["main": "cart"],
            stacks: ["cart": [Page(id: PageID(coordinator: "cart", name: "cart"))]], conditions: ["loggedIn"],
            pending: Pending(
                page: Page(id: PageID(coordinator: "cart", name: "checkout")), gate: "login", condition: "loggedIn",
                expiresAt: expires))
    }

    @Test func aStateGivenAsAValueIsStoredAsTheSameTextAndItsPendingLinkIsIndexed() throws {
        let dir = try StoreTestDirectory()
        let store = try StateStore(directory: dir.path)
        let ms = expires.millisecondsSince1970
        try store.commit([.stateValue(device: "a", value: state, pendingExpiresMs: ms, updatedMs: 1)])
        #expect(try store.deviceState("a") == (try state.jsonText.parsed()))
        #expect(try store.expiredPendingLinks(nowMs: ms) == [PendingLink(device: "a", expiresMs: ms)])

        var settled = state
        settled.pending = nil
        try store.commit([.stateValue(device: "a", value: settled, pendingExpiresMs: nil, updatedMs: 2)])
        #expect(try store.deviceState("a") == (try settled.jsonText.parsed()))
        #expect(try store.expiredPendingLinks(nowMs: ms) == [])
    }

    @Test func pendingLinkRowsFollowStatesThroughARolledBackBatchAndReopening() throws {
        let dir = try StoreTestDirectory()
        let ms = expires.millisecondsSince1970
        var settled = state
        settled.pending = nil
        var big = state
        big.conditions = (0..<400).map { "condition-\($0)" }
        do {
            let store = try StateStore(directory: dir.path, maxValueBytes: 4_096)
            try store.commit([
                .stateValue(device: "a", value: state, pendingExpiresMs: ms, updatedMs: 1),
                .stateValue(device: "b", value: state, pendingExpiresMs: ms, updatedMs: 1),
            ])
            // Clearing a's pending link in a batch that fails leaves its row.
            #expect(throws: StoreError.self) {
                try store.commit([
                    .stateValue(device: "a", value: settled, pendingExpiresMs: nil, updatedMs: 2),
                    .stateValue(device: "c", value: big, pendingExpiresMs: nil, updatedMs: 2),
                ])
            }
            #expect(try store.expiredPendingLinks(nowMs: ms).map(\.device) == ["a", "b"])
            // Cleared again in a batch that commits, it goes.
            try store.commit([.stateValue(device: "a", value: settled, pendingExpiresMs: nil, updatedMs: 3)])
            #expect(try store.expiredPendingLinks(nowMs: ms).map(\.device) == ["b"])
        }
        // A store opened on the database clears b's row as well.
        let reopened = try StateStore(directory: dir.path)
        try reopened.commit([.stateValue(device: "b", value: settled, pendingExpiresMs: nil, updatedMs: 4)])
        #expect(try reopened.expiredPendingLinks(nowMs: ms) == [])
        #expect(try reopened.counts().pendingLinks == 0)
    }

    @Test func aStateValueOverTheSizeLimitFailsItsBatch() throws {
        let dir = try StoreTestDirectory()
        let store = try StateStore(directory: dir.path, maxValueBytes: 4_096)
        var big = state
        big.conditions = (0..<400).map { "condition-\($0)" }
        #expect(throws: StoreError.self) {
            try store.commit([
                .stateValue(device: "small", value: state, pendingExpiresMs: nil, updatedMs: 1),
                .stateValue(device: "big", value: big, pendingExpiresMs: nil, updatedMs: 1),
            ])
        }
        #expect(try store.deviceState("small") == nil)
        #expect(try store.counts().devices == 0)
    }
}
