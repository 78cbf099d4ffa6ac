import Dispatch
import Glibc
import JSON
import Testing

@testable import NotifyDaemon

/// The store worker over a store with two commit slots (as PostgreSQL's): which batches commit side by side, and the
/// order and dependence of their outcomes.
@Suite struct StoreWorkerTests {
    /// A store whose commits run `onCommit` (the batch's forgotten devices, its slot), recording when each begins and
    /// ends; it stores nothing.
    final class ScriptedStore: DeviceStore, @unchecked Sendable {
        let lock = ThreadCondition()
        /// Guarded by `lock`: "begin a,b" and "end a,b" for each commit, in the order they happened.
        private var log: [String] = []
        let onCommit: @Sendable ([String], Int) throws(StoreError) -> Void

        init(_ onCommit: @escaping @Sendable ([String], Int) throws(StoreError) -> Void) {
            self.onCommit = onCommit
        }

        var events: [String] { lock.withLock { log } }
        var commitSlots: Int { 2 }

        func commit(_ batch: consuming [StoreWrite]) throws(StoreError) { try commit(batch, slot: 0) }

        func commit(_ batch: consuming [StoreWrite], slot: Int) throws(StoreError) {
            var devices: [String] = []
            for write in batch {
                if case .forget(let device) = write { devices.append(device) }
            }
            let name = devices.joined(separator: ",")
            lock.withLock { log.append("begin \(name)") }
            defer { lock.withLock { log.append("end \(name)") } }
            try onCommit(devices, slot)
        }

        func deviceState(_ device: String) throws(StoreError) -> JSON? { nil }
        func makeReader() throws(StoreError) -> any DeviceStateReader { throw Self.unused }
        func decision(id: String) throws(StoreError) -> JSON? { nil }
        func decisions(device: String?, limit: Int) throws(StoreError) -> [JSON] { [] }
        func replayPage(
            device: String?, before: Int64?, sinceMs: Int64?, limit: Int
        ) throws(StoreError) -> (entries: [StoredHistoryEntry], next: Int64?) { ([], nil) }
        func counts() throws(StoreError) -> StoreCounts { StoreCounts(devices: 0, pendingLinks: 0, decisions: 0) }
        func pruneExpiredPending(nowMs: Int64) throws(StoreError) -> [String] { [] }
        func makeListener() throws(StoreError) -> ReplicaListener? { nil }
        func startBackgroundWork(onFailure: @escaping @Sendable (StoreError) -> Void) throws(StoreError) {}
        func statsFields() -> JSONObject { [:] }

        static let unused = StoreError(code: .postgres, message: "not used by these tests", path: "scripted")
    }

    static func failure(_ device: String) -> StoreError {
        StoreError(code: .conflict, message: "the state of \(device) changed on another replica", path: "scripted")
    }

    static func forget(_ devices: String...) -> [StoreWrite] { devices.map { .forget(device: $0) } }

    static func isFailure(_ result: Result<Void, StoreError>) -> Bool {
        if case .failure = result { return true }
        return false
    }

    @Test func batchesWithoutACommonDeviceCommitSideBySideAndComeBackInOrder() throws {
        let secondBegan = DispatchSemaphore(value: 0)
        let store = ScriptedStore { devices, _ throws(StoreError) in
            if devices == ["a"] {
                // The first commit is held until the second has begun: it can only begin on the other thread.
                guard secondBegan.wait(timeout: .now() + 10) == .success else { throw StoreWorkerTests.failure("a") }
            } else {
                secondBegan.signal()
                throw StoreWorkerTests.failure("b")
            }
        }
        let worker = try #require(StoreWorker(store: store))
        defer { worker.stop() }
        worker.submit(Self.forget("a"))
        worker.submit(Self.forget("b"))
        // The first batch's outcome comes first though the second's commit ended before it; and it succeeded, so the
        // second began while it was committing (one after the other, the first would have waited in vain).
        #expect(!Self.isFailure(worker.collect()))
        #expect(Self.isFailure(worker.collect()))
        #expect(Set(store.events) == ["begin a", "begin b", "end a", "end b"])
    }

    @Test func aBatchSharingADeviceWithOneBeingCommittedWaitsForIt() throws {
        let release = DispatchSemaphore(value: 0)
        let store = ScriptedStore { devices, _ throws(StoreError) in
            if devices == ["a"] { _ = release.wait(timeout: .now() + 10) }
        }
        let worker = try #require(StoreWorker(store: store))
        defer { worker.stop() }
        worker.submit(Self.forget("a"))
        worker.submit(Self.forget("c", "a"))
        // A thread is free, yet the second batch does not begin while the first commits.
        var waited = 0
        while store.events.isEmpty, waited < 10_000 {
            usleep(1_000)
            waited += 1
        }
        usleep(100_000)
        #expect(store.events == ["begin a"])
        release.signal()
        #expect(!Self.isFailure(worker.collect()))
        #expect(!Self.isFailure(worker.collect()))
        #expect(store.events == ["begin a", "end a", "begin c,a", "end c,a"])
    }

    @Test func aFailedCommitFailsTheBatchesBegunAfterItButNotTheOneBesideIt() throws {
        let secondBegan = DispatchSemaphore(value: 0)
        let store = ScriptedStore { devices, _ throws(StoreError) in
            switch devices {
            case ["a"]:
                _ = secondBegan.wait(timeout: .now() + 10)
                throw StoreWorkerTests.failure("a")
            case ["b"]:
                secondBegan.signal()
            default:
                break
            }
        }
        let worker = try #require(StoreWorker(store: store))
        defer { worker.stop() }
        worker.submit(Self.forget("a"))
        worker.submit(Self.forget("b"))
        worker.submit(Self.forget("a", "d"))
        #expect(Self.isFailure(worker.collect()))
        // Begun beside the failed one, on devices of its own: committed.
        #expect(!Self.isFailure(worker.collect()))
        // Made on the state of "a" that was not saved: failed without being committed.
        #expect(Self.isFailure(worker.collect()))
        #expect(!store.events.contains("begin a,d"))
        // Submitted after the loop saw the failure: committed as usual.
        worker.submit(Self.forget("a", "f"))
        #expect(!Self.isFailure(worker.collect()))
        let begun = store.events.filter { $0.hasPrefix("begin") }
        #expect(Set(begun.prefix(2)) == ["begin a", "begin b"] && begun.dropFirst(2) == ["begin a,f"])
    }
}
