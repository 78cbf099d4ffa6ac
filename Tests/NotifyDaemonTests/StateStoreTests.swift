import CoordinatorGraph
import DeepLink
import Glibc
import JSON
import Testing

@testable import NotifyDaemon

@Suite struct StateStoreTests {
    private func state(path: [String], pendingExpiresAt: String? = nil) -> JSON {
        var object: JSONObject = [
            "path": .array(path.map { .string($0) }), "started": .array(path.map { .string($0) }),
            "tabs": [:], "stacks": [:], "conditions": [],
        ]
        if let pendingExpiresAt {
            object["pending"] = [
                "page": ["id": "cart.offer", "arguments": ["id": "X"], "description": "cart.offer(id: \"X\")"],
                "gate": "login", "condition": "session", "expiresAt": .string(pendingExpiresAt),
            ]
        } else {
            object["pending"] = .null
        }
        return .object(object)
    }

    /// `coordinator.name(id: text)`, or `coordinator.name` without a text.
    private func page(_ coordinator: String, _ name: String, _ text: String? = nil) -> Page {
        Page(
            id: PageID(coordinator: coordinator, name: name),
            arguments: text.map { [Page.Argument(label: "id", value: .string($0))] } ?? [])
    }

    private func decision(_ id: String, device: String?, outcome: String = "routed", createdMs: Int64 = 1) -> StoreWrite
    {
        let body: JSON = [
            "id": .string(id), "device": device.map { .string($0) } ?? .null, "outcome": .string(outcome),
            "page": ["id": "cart.offer", "arguments": ["id": "X"], "description": "cart.offer(id: \"X\")"],
            "path": ["app", "main", "cart"], "steps": [], "pending": nil, "createdAt": "2025-01-01T00:00:00.000Z",
        ]
        return .decision(
            id: id, device: device, createdMs: createdMs, outcome: outcome, page: page("cart", "offer", "X"),
            decision: JSONText(body))
    }

    @Test func newDatabaseIsCreatedInWALModeAtTheCurrentSchemaVersion() throws {
        let dir = try StoreTestDirectory()
        let store = try StateStore(directory: dir.path)
        #expect(store.path == dir.path + "/notifyd.sqlite")
        #expect(try store.schemaVersion() == StoreSchema.migrations.count)
        #expect(try store.journalMode() == "wal")
        #expect(try store.secureDeleteMode() == 2)
        #expect(try store.counts() == StoreCounts(devices: 0, pendingLinks: 0, decisions: 0))
    }

    @Test func anEmptyFileIsMigratedLikeANewDatabase() throws {
        let dir = try StoreTestDirectory()
        try dir.write([], to: StateStore.fileName)
        let store = try StateStore(directory: dir.path)
        #expect(try store.schemaVersion() == StoreSchema.migrations.count)
    }

    @Test func stateIsStoredReplacedAndDeleted() throws {
        let dir = try StoreTestDirectory()
        let store = try StateStore(directory: dir.path)
        let first = state(path: ["app", "main", "catalog"])
        let second = state(path: ["app", "main", "cart"])
        try store.commit([
            .state(device: "b", state: first, updatedMs: 1), .state(device: "a", state: first, updatedMs: 1),
        ])
        try store.commit([.state(device: "a", state: second, updatedMs: 2)])
        #expect(try store.deviceState("a") == second)
        #expect(try store.deviceState("b") == first)
        #expect(try store.deviceState("unknown") == nil)
        #expect(try store.allDevices() == ["a", "b"])

        try store.commit([.state(device: "a", state: nil, updatedMs: 3), .forget(device: "b")])
        #expect(try store.deviceState("a") == nil)
        #expect(try store.deviceState("b") == nil)
        #expect(try store.allDevices() == [])
    }

    /// A state replaces the stored one by an update, and a new device's is inserted, in one batch as across batches;
    /// the row keeps the latest state and the time it was written.
    @Test func aStateIsUpdatedInPlaceOrInsertedForANewDevice() throws {
        let dir = try StoreTestDirectory()
        let store = try StateStore(directory: dir.path)
        let states = (0..<3).map { state(path: ["app", "main", "s\($0)"]) }
        try store.commit([
            .state(device: "a", state: states[0], updatedMs: 1), .state(device: "a", state: states[1], updatedMs: 2),
            .state(device: "b", state: states[0], updatedMs: 3),
        ])
        try store.commit([
            .state(device: "b", state: states[2], updatedMs: 4), .state(device: "c", state: states[1], updatedMs: 5),
            .state(device: "b", state: states[1], updatedMs: 6),
        ])
        #expect(try store.deviceState("a") == states[1])
        #expect(try store.deviceState("b") == states[1])
        #expect(try store.deviceState("c") == states[1])
        #expect(try store.counts().devices == 3)
        let connection = try SQLiteConnection(path: StateStore.path(in: dir.path))
        let s = try connection.prepare("SELECT device, updated_ms FROM device_states ORDER BY device")
        var rows: [String] = []
        while try connection.step(s, "read a state") {
            rows.append("\(connection.text(s, 0) ?? "NULL")=\(connection.int64(s, 1))")
        }
        #expect(rows == ["a=2", "b=6", "c=5"])
    }

    @Test func decisionsAreQueryableByIdAndByDeviceNewestFirst() throws {
        let dir = try StoreTestDirectory()
        let store = try StateStore(directory: dir.path)
        try store.commit([decision("d1", device: "ipad"), decision("d2", device: "phone"), decision("d3", device: nil)])
        try store.commit([decision("d4", device: "ipad")])
        #expect(try store.decision(id: "d2")?["device"] == "phone")
        #expect(try store.decision(id: "missing") == nil)
        #expect(try store.decisions(device: "ipad", limit: 10).map { $0["id"] } == ["d4", "d1"])
        #expect(try store.decisions(device: nil, limit: 3).map { $0["id"] } == ["d4", "d3", "d2"])
        #expect(try store.decisions(device: "ipad", limit: 1).map { $0["id"] } == ["d4"])
        #expect(try store.decisions(device: nil, limit: 0) == [])
        #expect(try store.counts().decisions == 4)
    }

    @Test func textsBoundWhereTheStoreCopiedThemAreStoredExactly() throws {
        let dir = try StoreTestDirectory()
        let long = String(repeating: "é☃x", count: 700)  // 4,200 bytes: more than the store's first scratch buffer
        let rows: [(id: String, device: String?, outcome: String, page: Page?)] = [
            ("d1", "ipad", "routed", page("cart", "offer", "X")),
            ("", "", "", page("", "")),  // empty texts, not NULL (a page's description is never empty)
            ("d3-" + long, "tablet-" + long, "gated", page("cart", "offer", long)),
            ("d4", nil, "fallback", nil),
            ("d5 ünïcødé", "phone ☃", "resumed", page("p", "ü", "☃ \"q\"")),
            ("d6", "ipad", "routed", page("after", "theLongOnes")),
        ]
        do {
            let store = try StateStore(directory: dir.path)
            // One batch: each statement's texts take the scratch buffer over from the previous statement's.
            try store.commit(
                rows.enumerated().flatMap { i, row -> [StoreWrite] in
                    let decision = StoreWrite.decision(
                        id: row.id, device: row.device, createdMs: Int64(i), outcome: row.outcome, page: row.page,
                        decision: JSONText(["id": .string(row.id)]))
                    guard let device = row.device else { return [decision] }
                    return [
                        .state(device: device, state: state(path: ["app", row.id]), updatedMs: Int64(i)), decision,
                    ]
                })
            #expect(try store.decision(id: "d3-" + long)?["id"] == .string("d3-" + long))
            #expect(try store.deviceState("tablet-" + long) == state(path: ["app", "d3-" + long]))
        }
        let connection = try SQLiteConnection(path: StateStore.path(in: dir.path))
        let s = try connection.prepare("SELECT id, device, outcome, page FROM decisions ORDER BY created_ms")
        for row in rows {
            #expect(try connection.step(s, "read a decision"))
            #expect(connection.text(s, 0) == row.id)
            #expect(connection.text(s, 1) == row.device)
            #expect(connection.text(s, 2) == row.outcome)
            #expect(connection.text(s, 3) == row.page?.description)
        }
        #expect(try !connection.step(s, "read past the last decision"))
        let devices = try connection.prepare("SELECT device FROM device_states ORDER BY device")
        var stored: [String] = []
        while try connection.step(devices, "read a device") { stored.append(connection.text(devices, 0) ?? "NULL") }
        #expect(
            stored == Set(rows.compactMap(\.device)).sorted(by: { Array($0.utf8).lexicographicallyPrecedes($1.utf8) }))
    }

    @Test func aRecordedDecisionIsNeverRewritten() throws {
        let dir = try StoreTestDirectory()
        let store = try StateStore(directory: dir.path)
        try store.commit([decision("d1", device: "ipad", outcome: "routed")])
        try store.commit([decision("d1", device: "ipad", outcome: "gated")])
        #expect(try store.decision(id: "d1")?["outcome"] == "routed")
        #expect(try store.counts().decisions == 1)
    }

    @Test func historyIsPrunedToItsLimitOldestFirstInTheSameCommit() throws {
        let dir = try StoreTestDirectory()
        let store = try StateStore(directory: dir.path, historyLimit: 5)
        try store.commit((1...4).map { decision("d\($0)", device: "ipad") })
        try store.commit((5...8).map { decision("d\($0)", device: "ipad") })
        #expect(try store.counts().decisions == 5)
        #expect(try store.decision(id: "d3") == nil)
        #expect(try store.decision(id: "d4") != nil)
        #expect(try store.decisions(device: nil, limit: 100).map { $0["id"] } == ["d8", "d7", "d6", "d5", "d4"])
    }

    @Test func aFailingWriteLeavesNoPartOfItsBatchBehind() throws {
        let dir = try StoreTestDirectory()
        let store = try StateStore(directory: dir.path, historyLimit: 10, maxValueBytes: 4_096)
        let huge = JSON.object(["blob": .string(String(repeating: "x", count: 10_000))])
        let error = #expect(throws: StoreError.self) {
            try store.commit([
                .state(device: "a", state: state(path: ["app"]), updatedMs: 1),
                decision("d1", device: "a"),
                .state(device: "b", state: huge, updatedMs: 1),
            ])
        }
        #expect(error?.code == .tooLarge)
        #expect(error?.path == store.path)
        #expect(try store.deviceState("a") == nil)
        #expect(try store.decision(id: "d1") == nil)
        #expect(try store.counts() == StoreCounts(devices: 0, pendingLinks: 0, decisions: 0))

        // The store is still usable, and its history count was restored with the rollback.
        try store.commit([decision("d2", device: "a")])
        #expect(try store.counts().decisions == 1)
    }

    /// The per-device lookup kept in memory agrees with the history itself through inserts, repeats, pruning,
    /// a rolled-back batch and reopening.
    @Test func eachDevicesHistoryIsListedExactlyThroughPruningRollbackAndReopening() throws {
        let dir = try StoreTestDirectory()
        var store: StateStore! = try StateStore(directory: dir.path, historyLimit: 40, maxValueBytes: 4_096)
        var expected: [(id: String, device: String?)] = []
        func check(_ note: String) throws {
            let kept = expected.suffix(40)
            #expect(store.deviceHistoryCount == kept.filter { $0.device != nil }.count, "\(note): lookup size")
            for device in ["a", "b", "c", "d"] {
                let want = kept.filter { $0.device == device }.map { JSON.string($0.id) }.reversed()
                #expect(
                    try store.decisions(device: device, limit: 100).map { $0["id"] } == Array(want), "\(note) \(device)"
                )
                #expect(try store.decisions(device: device, limit: 2).map { $0["id"] } == Array(want.prefix(2)))
            }
        }
        var n = 0
        for round in 0..<12 {
            var batch: [StoreWrite] = []
            for _ in 0..<(round % 4 + 3) {
                n += 1
                let device: String? = n % 7 == 0 ? nil : ["a", "b", "c", "d"][(n * n) % 4]
                batch.append(decision("d\(n)", device: device))
                expected.append(("d\(n)", device))
            }
            // A decision stored already (the newest): never rewritten, never listed twice.
            batch.append(decision("d\(n)", device: "c"))
            try store.commit(batch)
            try check("round \(round)")
        }
        #expect(throws: StoreError.self) {
            try store.commit([
                decision("x1", device: "a"),
                .state(
                    device: "b", state: .object(["blob": .string(String(repeating: "x", count: 10_000))]), updatedMs: 1),
            ])
        }
        // The rolled-back decision's rowid is used again by the next one, of another device.
        try store.commit([decision("after", device: "d")])
        expected.append(("after", "d"))
        try check("after a rollback")
        store = nil  // closed: the next one may lock the file
        store = try StateStore(directory: dir.path, historyLimit: 40)
        try check("reopened")
    }

    @Test func aVersion1DatabaseLosesItsDeviceIndexAndKeepsListingByDevice() throws {
        let dir = try StoreTestDirectory()
        do {
            let connection = try SQLiteConnection(path: StateStore.path(in: dir.path))
            try connection.exec(StoreSchema.migrations[0], "create version 1")
            try connection.exec(
                "INSERT INTO decisions VALUES ('d1', 'ipad', 1, 'routed', 'p', '{\"id\":\"d1\"}'), "
                    + "('d2', 'mac', 2, 'routed', 'p', '{\"id\":\"d2\"}'), "
                    + "('d3', 'ipad', 3, 'routed', 'p', '{\"id\":\"d3\"}'); PRAGMA user_version=1", "fill version 1")
        }
        let store = try StateStore(directory: dir.path)
        #expect(try store.schemaVersion() == StoreSchema.currentVersion)
        #expect(try store.decisions(device: "ipad", limit: 10).map { $0["id"] } == ["d3", "d1"])
        #expect(try store.decisions(device: "mac", limit: 10).map { $0["id"] } == ["d2"])
    }

    @Test func reopeningKeepsStateHistoryAndTheHistoryBound() throws {
        let dir = try StoreTestDirectory()
        do {
            let store = try StateStore(directory: dir.path, historyLimit: 3)
            try store.commit([.state(device: "a", state: state(path: ["app", "main"]), updatedMs: 1)])
            try store.commit((1...3).map { decision("d\($0)", device: "a") })
        }
        let store = try StateStore(directory: dir.path, historyLimit: 3)
        #expect(try store.deviceState("a") == state(path: ["app", "main"]))
        #expect(try store.counts().decisions == 3)
        try store.commit([decision("d4", device: "a")])
        #expect(try store.decisions(device: "a", limit: 10).map { $0["id"] } == ["d4", "d3", "d2"])
    }

    @Test func pendingLinksAreIndexedByExpiryAndPruned() throws {
        let dir = try StoreTestDirectory()
        let store = try StateStore(directory: dir.path)
        let early = try #require(Timestamp(rfc3339: "2025-01-01T00:00:00.000Z")).millisecondsSince1970
        try store.commit([
            .state(
                device: "a", state: state(path: ["app"], pendingExpiresAt: "2025-01-01T00:00:00.000Z"), updatedMs: 1),
            .state(
                device: "b", state: state(path: ["app"], pendingExpiresAt: "2025-01-01T00:10:00.000Z"), updatedMs: 1),
            .state(device: "c", state: state(path: ["app"]), updatedMs: 1),
        ])
        #expect(try store.counts().pendingLinks == 2)
        #expect(try store.expiredPendingLinks(nowMs: early - 1) == [])
        #expect(try store.expiredPendingLinks(nowMs: early) == [PendingLink(device: "a", expiresMs: early)])

        #expect(try store.pruneExpiredPending(nowMs: early + 1) == ["a"])
        #expect(try store.deviceState("a")?["pending"] == .null)
        #expect(try store.deviceState("a")?["path"] == ["app"])
        #expect(try store.counts().pendingLinks == 1)

        // A state written without a pending link drops its index entry.
        try store.commit([.state(device: "b", state: state(path: ["app"]), updatedMs: 2)])
        #expect(try store.counts().pendingLinks == 0)
    }

    @Test func aFileThatIsNotADatabaseIsReportedAndLeftUntouched() throws {
        let dir = try StoreTestDirectory()
        let garbage = Array(String(repeating: "not a database, just text. ", count: 300).utf8)
        try dir.write(garbage, to: StateStore.fileName)
        let error = #expect(throws: StoreError.self) { try StateStore(directory: dir.path) }
        #expect(error?.code == .notADatabase)
        #expect(error?.path == dir.path + "/notifyd.sqlite")
        #expect(error?.description.contains("move the file") == true)
        #expect(try dir.read(StateStore.fileName) == garbage)
        #expect(!dir.exists(StateStore.fileName + "-wal"))
    }

    @Test func aDamagedDatabaseIsReportedAndLeftUntouched() throws {
        let dir = try StoreTestDirectory()
        do {
            let store = try StateStore(directory: dir.path)
            try store.commit((1...300).map { decision("d\($0)", device: "ipad") })
        }
        var bytes = try dir.read(StateStore.fileName)
        #expect(bytes.count > 8 * 4_096)
        for i in 4_096..<bytes.count { bytes[i] = 0xA5 }  // every page after the first
        try dir.write(bytes, to: StateStore.fileName)
        let error = #expect(throws: StoreError.self) {
            let store = try StateStore(directory: dir.path)
            _ = try store.decisions(device: "ipad", limit: 10)
        }
        #expect(error?.code == .corrupt)
        #expect(try dir.read(StateStore.fileName) == bytes)
    }

    @Test func damageInPagesThatOpeningDoesNotReadIsFoundWhenTheStoreOpens() throws {
        let dir = try StoreTestDirectory()
        do {
            let store = try StateStore(directory: dir.path)
            try store.commit(
                (1...300).map { .state(device: "dev\($0)", state: state(path: ["app", "main"]), updatedMs: 1) })
            try store.commit([decision("d1", device: "dev1")])
        }
        var bytes = try dir.read(StateStore.fileName)
        // Page 2 is the root of device_states, the first table created: only a device's state read needs it.
        for i in 4_096..<8_192 { bytes[i] = 0xA5 }
        try dir.write(bytes, to: StateStore.fileName)
        let error = #expect(throws: StoreError.self) { try StateStore(directory: dir.path) }
        #expect(error?.code == .corrupt)
        #expect(error?.path == dir.path + "/notifyd.sqlite")
        #expect(error?.description.contains("move the file") == true)
        #expect(try dir.read(StateStore.fileName) == bytes)
    }

    @Test func aDatabaseFromANewerNotifydIsRefused() throws {
        let dir = try StoreTestDirectory()
        do { _ = try StateStore(directory: dir.path) }
        var bytes = try dir.read(StateStore.fileName)
        bytes.replaceSubrange(60..<64, with: [0, 0, 0, 99])  // PRAGMA user_version lives at offset 60
        try dir.write(bytes, to: StateStore.fileName)
        let error = #expect(throws: StoreError.self) { try StateStore(directory: dir.path) }
        #expect(error?.code == .schemaTooNew)
        #expect(try dir.read(StateStore.fileName) == bytes)
    }

    @Test func aSecondStoreOnTheSameDirectoryIsRefusedWhileTheFirstIsOpen() throws {
        let dir = try StoreTestDirectory()
        let first = try StateStore(directory: dir.path)
        try first.commit([decision("d1", device: "a")])
        let error = #expect(throws: StoreError.self) { try StateStore(directory: dir.path) }
        #expect(error?.code == .busy)
        #expect(try first.decision(id: "d1") != nil)
    }

    @Test func aMissingDirectoryIsReported() throws {
        let dir = try StoreTestDirectory()
        let error = #expect(throws: StoreError.self) { try StateStore(directory: dir.path + "/absent") }
        #expect(error?.code == .directoryMissing)
        #expect(error?.path == dir.path + "/absent")
    }

    @Test func aReadOnlyDirectoryIsReported() throws {
        let dir = try StoreTestDirectory()
        let stateDir = dir.path + "/state"
        #expect(mkdir(stateDir, 0o555) == 0)
        let error = StoreTestDirectory.asUnprivilegedUser {
            #expect(throws: StoreError.self) { try StateStore(directory: stateDir) }
        }
        #expect(error?.code == .readOnly)
        #expect(error?.path == stateDir)
        #expect(!dir.exists("state/notifyd.sqlite"))
    }

    @Test func aReadOnlyDatabaseIsReported() throws {
        let dir = try StoreTestDirectory()
        do { _ = try StateStore(directory: dir.path) }
        #expect(chmod(dir.path, 0o777) == 0)
        #expect(chmod(dir.path + "/notifyd.sqlite", 0o444) == 0)
        let error = StoreTestDirectory.asUnprivilegedUser {
            #expect(throws: StoreError.self) { try StateStore(directory: dir.path) }
        }
        #expect(error?.code == .readOnly)
        #expect(error?.path == dir.path + "/notifyd.sqlite")
    }

    @Test func anUnreadableDatabaseIsReported() throws {
        let dir = try StoreTestDirectory()
        do { _ = try StateStore(directory: dir.path) }
        #expect(chmod(dir.path, 0o777) == 0)
        #expect(chmod(dir.path + "/notifyd.sqlite", 0o000) == 0)
        let error = StoreTestDirectory.asUnprivilegedUser {
            #expect(throws: StoreError.self) { try StateStore(directory: dir.path) }
        }
        #expect(error?.code == .unreadable)
    }
}

/// A fresh directory under /tmp, removed with its contents when released.
final class StoreTestDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/notifyd-test-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard created != nil else { throw StoreTestFailure(message: "mkdtemp failed: errno \(errno)") }
        path = String(cString: created!)
        chmod(path, 0o755)  // reachable when a test drops to an unprivileged file-system uid
    }

    deinit {
        Self.remove(path)
    }

    func exists(_ name: String) -> Bool {
        access(path + "/" + name, F_OK) == 0
    }

    func read(_ name: String) throws -> [UInt8] {
        let fd = open(path + "/" + name, O_RDONLY)
        guard fd >= 0 else { throw StoreTestFailure(message: "open \(name): errno \(errno)") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    func write(_ bytes: [UInt8], to name: String) throws {
        let fd = open(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw StoreTestFailure(message: "open \(name): errno \(errno)") }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw StoreTestFailure(message: "short write to \(name)") }
    }

    /// Runs `body` with this thread's file-system uid set to `nobody` when running as root, so file
    /// permissions apply as they do to the daemon's dynamic user (root ignores them). The body must
    /// not suspend: the file-system uid belongs to the calling thread.
    static func asUnprivilegedUser<T>(_ body: () -> T) -> T {
        guard geteuid() == 0, let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setfsuid") else {
            return body()
        }
        typealias SetFSUID = @convention(c) (UInt32) -> Int32
        let setfsuid = unsafeBitCast(symbol, to: SetFSUID.self)
        _ = setfsuid(65_534)
        defer { _ = setfsuid(0) }
        return body()
    }

    private static func remove(_ path: String) {
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
                }
                guard name != ".", name != ".." else { continue }
                let child = path + "/" + name
                var info = stat()
                if lstat(child, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                    remove(child)
                } else {
                    unlink(child)
                }
            }
            closedir(dir)
        }
        rmdir(path)
    }
}

struct StoreTestFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
