import DeepLink
import JSON
import Testing

@testable import NotifyDaemon

/// The decision history's tables (``HistorySegments``): what the store keeps, reads and empties as decisions leave it.
@Suite struct DecisionHistoryTests {
    private func decision(_ id: String, device: String? = "ipad") -> StoreWrite {
        .decision(
            id: id, device: device, createdMs: 1, outcome: "routed", page: nil,
            decision: JSONText(["id": .string(id), "device": device.map { .string($0) } ?? .null]))
    }

    /// Commits `ids` one batch of `batch` at a time.
    private func store(_ ids: [String], into store: StateStore, batch: Int = 7) throws {
        var start = 0
        while start < ids.count {
            let end = min(ids.count, start + batch)
            try store.commit(ids[start..<end].map { decision($0) })
            start = end
        }
    }

    /// Rows in each history table, read from another connection.
    private func rowsPerTable(_ store: StateStore) throws -> [Int] {
        let reader = try SQLiteConnection.companion(of: store.path)
        return try (0..<StoreSchema.historySegmentCount).map {
            Int(try reader.queryInt("SELECT count(*) FROM \(StoreSchema.segment($0))", "count"))
        }
    }

    private func ids(_ range: ClosedRange<Int>) -> [String] { range.map { String(format: "d%05d", $0) } }

    private func listed(_ store: StateStore, device: String? = nil, limit: Int = 1_000) throws -> [String] {
        try store.decisions(device: device, limit: limit).map { $0["id"]?.stringValue ?? "?" }
    }

    @Test func theHistoryRotatesThroughItsTablesAndTheFileKeepsAQuarterMoreAtMost() throws {
        let dir = try StoreTestDirectory()
        let store = try StateStore(directory: dir.path, historyLimit: 40)
        var stored = 0
        for round in 0..<30 {
            let batch = round % 5 + 3
            try self.store(ids(stored + 1...stored + batch), into: store, batch: batch)
            stored += batch
            let rows = try rowsPerTable(store)
            let kept = min(stored, 40)
            #expect(try store.counts().decisions == kept)
            #expect(rows.reduce(0, +) >= kept)
            // Four tables of 10 hold the history when the fifth is emptied: 50 rows at most.
            #expect(rows.reduce(0, +) <= 50, "round \(round): \(rows)")
            #expect(rows.allSatisfy { $0 <= 10 }, "round \(round): \(rows)")
            #expect(try listed(store) == ids(stored - kept + 1...stored).reversed())
            #expect(try listed(store, limit: 3) == ids(stored - 2...stored).reversed())
        }
        // Every table took its turn.
        #expect(try rowsPerTable(store).allSatisfy { $0 > 0 })
        // A decision that left the history is not found, though its table may not be emptied yet.
        #expect(try store.decision(id: String(format: "d%05d", stored - 40)) == nil)
        #expect(try store.decision(id: String(format: "d%05d", stored - 39))?["id"] != nil)
        // The view for sqlite3 shows the history alone.
        let reader = try SQLiteConnection.companion(of: store.path)
        #expect(try reader.queryInt("SELECT count(*) FROM decisions", "count") == 40)
        #expect(try reader.queryInt("SELECT min(seq) FROM decisions", "first") == Int64(stored - 39))
    }

    @Test func aLargerLimitAfterARestartDoesNotBringBackDecisionsThatLeft() throws {
        let dir = try StoreTestDirectory()
        do {
            let store = try StateStore(directory: dir.path, historyLimit: 10)
            try self.store(ids(1...16), into: store)
            #expect(try store.counts().decisions == 10)
        }
        let store = try StateStore(directory: dir.path, historyLimit: 100)
        #expect(try store.counts().decisions == 10)
        #expect(try store.decision(id: "d00006") == nil)
        #expect(try listed(store) == ids(7...16).reversed())
        #expect(try listed(store, device: "ipad") == ids(7...16).reversed())
        // One at a time: the tables filled under the lower limit leave as the history moves past each of them, not
        // one decision earlier.
        for n in 17...130 {
            try self.store(ids(n...n), into: store)
            let oldest = max(7, n - 99)
            #expect(try store.counts().decisions == n - oldest + 1)
            #expect(try listed(store) == ids(oldest...n).reversed(), "after \(n)")
            #expect(try store.decision(id: String(format: "d%05d", oldest)) != nil, "after \(n)")
        }
        #expect(try listed(store, device: "ipad") == ids(31...130).reversed())
        #expect(try rowsPerTable(store).reduce(0, +) <= 125)
    }

    @Test func aSmallerLimitAfterARestartKeepsTheNewestAndRotatesOn() throws {
        let dir = try StoreTestDirectory()
        do {
            let store = try StateStore(directory: dir.path, historyLimit: 100)
            try self.store(ids(1...90), into: store)
        }
        var store: StateStore! = try StateStore(directory: dir.path, historyLimit: 5)
        #expect(try store.counts().decisions == 5)
        #expect(try listed(store) == ids(86...90).reversed())
        #expect(try listed(store, device: "ipad") == ids(86...90).reversed())
        #expect(try store.decision(id: "d00085") == nil)
        try self.store(ids(91...200), into: store, batch: 3)
        #expect(try listed(store) == ids(196...200).reversed())
        // The big tables of the earlier limit were emptied as the history came round to them: five tables of two.
        #expect(try rowsPerTable(store).reduce(0, +) <= 10)
        store = nil
        store = try StateStore(directory: dir.path, historyLimit: 5)
        #expect(try listed(store, device: "ipad") == ids(196...200).reversed())
    }

    @Test func anIdStoredInAnotherTableIsNotStoredAgain() throws {
        let dir = try StoreTestDirectory()
        let store = try StateStore(directory: dir.path, historyLimit: 40)
        try self.store(ids(1...25), into: store)  // tables of 10: the third takes the last five
        try store.commit([decision("d00003"), decision("d00026"), decision("d00012"), decision("d00025")])
        #expect(try store.counts().decisions == 26)
        #expect(try listed(store) == ids(1...26).reversed())
        #expect(try rowsPerTable(store).reduce(0, +) == 26)
    }

    @Test func aRolledBackBatchLeavesTheTablesAndTheSequenceAsTheyWere() throws {
        let dir = try StoreTestDirectory()
        let store = try StateStore(directory: dir.path, historyLimit: 8, maxValueBytes: 4_096)
        try self.store(ids(1...9), into: store)  // tables of 2
        let before = try rowsPerTable(store)
        let huge = JSON.object(["blob": .string(String(repeating: "x", count: 10_000))])
        #expect(throws: StoreError.self) {
            // Enough decisions to empty a table before the write that fails.
            try store.commit(ids(10...14).map { decision($0) } + [.state(device: "b", state: huge, updatedMs: 1)])
        }
        #expect(try rowsPerTable(store) == before)
        #expect(try listed(store) == ids(2...9).reversed())
        try self.store(ids(10...12), into: store)
        #expect(try listed(store) == ids(5...12).reversed())
        #expect(try listed(store, device: "ipad") == ids(5...12).reversed())
    }

    @Test func aVersion2HistoryIsNumberedInItsOrderAndStaysBounded() throws {
        let dir = try StoreTestDirectory()
        do {
            let connection = try SQLiteConnection(path: StateStore.path(in: dir.path))
            try connection.exec(StoreSchema.migrations[0] + StoreSchema.migrations[1], "create version 2")
            // Rowids with gaps, as pruning and a hand edit could leave them.
            var values: [String] = []
            for (i, rowid) in [3, 7, 8, 20, 21, 40].enumerated() {
                let device = i % 2 == 0 ? "'ipad'" : "NULL"
                values.append("(\(rowid), 'v\(i)', \(device), 1, 'routed', 'p', '{\"id\":\"v\(i)\"}')")
            }
            try connection.exec(
                "INSERT INTO decisions (rowid, id, device, created_ms, outcome, page, decision) VALUES "
                    + values.joined(separator: ", ") + "; PRAGMA user_version=2", "fill version 2")
        }
        let store = try StateStore(directory: dir.path, historyLimit: 8)
        #expect(try store.schemaVersion() == StoreSchema.currentVersion)
        #expect(try listed(store) == ["v5", "v4", "v3", "v2", "v1", "v0"])
        #expect(try listed(store, device: "ipad") == ["v4", "v2", "v0"])
        try self.store(["w1", "w2", "w3"], into: store)
        #expect(try store.counts().decisions == 8)
        #expect(try listed(store) == ["w3", "w2", "w1", "v5", "v4", "v3", "v2", "v1"])
        #expect(try listed(store, device: "ipad") == ["w3", "w2", "w1", "v4", "v2"])
    }

    @Test func aVersion2HistoryWithoutGapsKeepsItsRowsWhereTheyAre() throws {
        let dir = try StoreTestDirectory()
        do {
            let connection = try SQLiteConnection(path: StateStore.path(in: dir.path))
            try connection.exec(StoreSchema.migrations[0] + StoreSchema.migrations[1], "create version 2")
            let values = (0..<6).map { i in
                "(\(30_001 + i), 'v\(i)', 'ipad', 1, 'routed', 'p', '{\"id\":\"v\(i)\"}')"
            }
            try connection.exec(
                "INSERT INTO decisions (rowid, id, device, created_ms, outcome, page, decision) VALUES "
                    + values.joined(separator: ", ") + "; PRAGMA user_version=2", "fill version 2")
        }
        let store = try StateStore(directory: dir.path, historyLimit: 4)
        let reader = try SQLiteConnection.companion(of: store.path)
        // Renamed, not copied: the rows keep their rowids as sequence numbers.
        #expect(try reader.queryInt("SELECT min(rowid) FROM decisions_0", "first") == 30_001)
        #expect(try reader.queryInt("SELECT min(seq) FROM decisions", "first") == 30_003)
        #expect(try listed(store) == ["v5", "v4", "v3", "v2"])
        try self.store(["w1"], into: store)
        #expect(try listed(store, device: "ipad") == ["w1", "v5", "v4", "v3"])
        #expect(try reader.queryInt("SELECT max(seq) FROM decisions", "last") == 30_007)
    }

    @Test func rotatingBookkeeping() {
        var history = HistorySegments(segments: Array(repeating: .empty, count: 5), storedFirst: 1, limit: 8)
        #expect(history.capacity == 2)
        var tables: [Int] = []
        var cleared: [Int] = []
        for _ in 0..<14 {
            let (k, clear) = history.tableForNext()
            tables.append(k)
            if clear { cleared.append(k) }
            history.stored(in: k)
            _ = history.trim()
        }
        #expect(tables == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 0, 1, 1])
        #expect(cleared == [0, 1])
        #expect(history.count == 8 && history.first == 7 && history.next == 15)
        // Table 2 still holds 5 and 6, which left the history: it is emptied when the history comes round to it.
        #expect(history.table(holding: 6) == 2 && history.table(holding: 7) == 3 && history.table(holding: 14) == 1)
        #expect(history.table(holding: 4) == nil && history.table(holding: 15) == nil)
        #expect(history.newestFirst == [1, 0, 4, 3, 2])
    }
}

extension DecisionHistoryTests {
    @Test func idsAreOrderedByTheirBytesAsSQLiteOrdersThem() {
        let ordered = ["", "0", "01a2", "01a23415-1d47", "01a3", "A", "a", "aa", "é", "\u{FFFD}"]
        for (i, a) in ordered.enumerated() {
            for (j, b) in ordered.enumerated() {
                #expect(HistorySegments.precedes(a, b) == (i < j), "\(a) < \(b)")
            }
        }
        // "é" decomposed (e and a combining accent) is the same Swift string as "é", but not the same bytes.
        #expect(HistorySegments.precedes("e\u{301}", "é") && !HistorySegments.precedes("é", "e\u{301}"))
    }
}
