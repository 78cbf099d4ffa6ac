import JSON

extension StateStore {
    // MARK: - Writes

    /// Stores `device`'s state, whose text is in ``stateText``.
    func storeState(_ device: String, pendingExpiresMs: Int64?, updatedMs: Int64) throws(StoreError) {
        // Most states replace one stored before: an update finds the row through the device's index alone, where
        // the upsert first tries an insert (1.3 k instructions less per state). A new device takes the upsert.
        if try writeState(statements.updateState, device, updatedMs: updatedMs) == 0 {
            _ = try writeState(statements.upsertState, device, updatedMs: updatedMs)
        }
        if let expiresMs = pendingExpiresMs {
            let p = statements.upsertPending
            defer { connection.reset(p) }
            try connection.bind(p, 1, device)
            try connection.bind(p, 2, expiresMs)
            _ = try connection.step(p, "index the pending link of device \(device)")
            pendingDevices.insert(device)
        } else {
            try deletePending(device)
        }
    }

    /// Runs `s` (``StoreSchema/updateState`` or ``StoreSchema/upsertState``) for `device`'s state; returns how many
    /// rows it changed.
    func writeState(_ s: SQLiteStatement, _ device: String, updatedMs: Int64) throws(StoreError) -> Int {
        defer { connection.reset(s) }
        connection.reserveScratch(device.utf8.count)
        try connection.bindInScratch(s, 1, device)
        try connection.bind(s, 3, updatedMs)
        _ = try connection.step(s, binding: stateText, at: 2, "store the state of device \(device)")
        return connection.changes
    }

    /// Applies one write; returns the sequence number and device of a decision it stored with a device.
    func apply(_ write: consuming StoreWrite) throws(StoreError) -> (seq: Int64, device: String)? {
        switch consume write {
        case .stateText(let device, let text?, let pendingExpiresMs, let updatedMs):
            stateText.truncate(to: 0)
            stateText.append(text.bytes)
            try storeState(device, pendingExpiresMs: pendingExpiresMs, updatedMs: updatedMs)
        case .stateValue(let device, let value, let pendingExpiresMs, let updatedMs):
            stateText.truncate(to: 0)
            value.writeJSON(into: &stateText)
            try storeState(device, pendingExpiresMs: pendingExpiresMs, updatedMs: updatedMs)
        case .stateText(let device, nil, _, _), .forget(let device):
            let s = statements.deleteState
            defer { connection.reset(s) }
            try connection.bind(s, 1, device)
            _ = try connection.step(s, "delete the state of device \(device)")
            try deletePending(device)
        case .decision(let id, let device, let createdMs, let outcome, let page, let decision, let stateBefore):
            // Greater than every id stored (as each of a daemon's ids is), it cannot be stored already.
            let greatest = history.greatestID.map { HistorySegments.precedes($0, id) } ?? true
            if !greatest, try isStoredAlready(id) { return nil }
            let (k, clear) = history.tableForNext()
            if clear { try connection.run(statements.clearSegment[k], "empty a table of the decision history") }
            let s = statements.insertDecision[k]
            defer { connection.reset(s) }
            pageDescription.truncate(to: 0)
            page?.writeDescription(into: &pageDescription)
            stateBeforeText.truncate(to: 0)
            switch stateBefore {
            case .state(let state): state.writeJSON(into: &stateBeforeText)
            case .coldStart: JSON.writeRaw("null", into: &stateBeforeText)
            case .notRecorded: break
            }
            connection.reserveScratch(
                id.utf8.count + (device?.utf8.count ?? 0) + outcome.utf8.count + pageDescription.count
                    + stateBeforeText.count)
            try connection.bindInScratch(s, 1, id)
            try connection.bindInScratch(s, 2, device)
            try connection.bind(s, 3, createdMs)
            try connection.bindInScratch(s, 4, outcome)
            if page == nil {
                try connection.bindInScratch(s, 5, nil)
            } else {
                try connection.bindInScratch(s, 5, pageDescription)
            }
            if case .notRecorded = stateBefore {
                try connection.bindInScratch(s, 8, nil)
            } else {
                try connection.bindInScratch(s, 8, stateBeforeText)
            }
            let seq = history.next
            try connection.bind(s, 7, seq)
            _ = try connection.step(s, binding: decision, at: 6, "record decision \(id)")
            guard connection.changes > 0 else { return nil }  // stored already: never rewritten
            history.stored(in: k, greatestID: greatest ? id : nil)
            guard let device else { return nil }
            return (seq, device)
        }
        return nil
    }

    /// True when a decision with `id` is stored in one of the history's tables (looked for only when `id` is no
    /// greater than the greatest stored, in byte order, as SQLite compares them).
    func isStoredAlready(_ id: String) throws(StoreError) -> Bool {
        try withRow(ofDecision: id) { _ in true } ?? false
    }

    func deletePending(_ device: String) throws(StoreError) {
        guard pendingDevices.remove(device) != nil else { return }
        pendingDeletedInTransaction.append(device)
        let s = statements.deletePending
        defer { connection.reset(s) }
        try connection.bind(s, 1, device)
        _ = try connection.step(s, "delete the pending link of device \(device)")
    }
}
