import JSON

/// The statements the store runs, prepared once when it opens.
struct StoreStatements {
    let begin, commit, rollback: SQLiteStatement
    let selectState, selectDevices, upsertState, updateState, deleteState: SQLiteStatement
    let upsertPending, deletePending, selectExpired: SQLiteStatement
    let setFirstDecision: SQLiteStatement
    /// Per history table (``StoreSchema/segment(_:)``).
    let insertDecision, selectDecision, selectRecent, selectDecisionAt, clearSegment: [SQLiteStatement]
    let selectReplayPage, selectReplayAt: [SQLiteStatement]
    let countDevices, countPending: SQLiteStatement

    init(_ c: SQLiteConnection) throws(StoreError) {
        begin = try c.prepare("BEGIN IMMEDIATE")
        commit = try c.prepare("COMMIT")
        rollback = try c.prepare("ROLLBACK")
        selectState = try c.prepare(StoreSchema.selectState)
        selectDevices = try c.prepare(StoreSchema.selectDevices)
        upsertState = try c.prepare(StoreSchema.upsertState)
        updateState = try c.prepare(StoreSchema.updateState)
        deleteState = try c.prepare(StoreSchema.deleteState)
        upsertPending = try c.prepare(StoreSchema.upsertPending)
        deletePending = try c.prepare(StoreSchema.deletePending)
        selectExpired = try c.prepare(StoreSchema.selectExpired)
        setFirstDecision = try c.prepare(StoreSchema.setFirstDecision)
        func each(_ sql: (Int) -> String) throws(StoreError) -> [SQLiteStatement] {
            var statements: [SQLiteStatement] = []
            for k in 0..<StoreSchema.historySegmentCount { statements.append(try c.prepare(sql(k))) }
            return statements
        }
        insertDecision = try each(StoreSchema.insertDecision)
        selectDecision = try each(StoreSchema.selectDecision)
        selectRecent = try each(StoreSchema.selectRecent)
        selectDecisionAt = try each(StoreSchema.selectDecisionAt)
        clearSegment = try each(StoreSchema.clearSegment)
        selectReplayPage = try each(StoreSchema.selectReplayPage)
        selectReplayAt = try each(StoreSchema.selectReplayAt)
        countDevices = try c.prepare(StoreSchema.countDevices)
        countPending = try c.prepare(StoreSchema.countPending)
    }
}

/// A prepared statement owned (and finalized) by its ``SQLiteConnection``.
struct SQLiteStatement {
    let handle: OpaquePointer
}
