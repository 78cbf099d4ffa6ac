import JSON

/// A stored decision as `ListHistory` reads it: the decision, and the state its device started from.
public struct StoredHistoryEntry: Sendable {
    /// The decision's sequence number: where a listing goes on from (`before`).
    public let seq: Int64
    /// The decision as stored.
    public let decision: JSON
    /// The state its device started from: `nil` when not recorded, `.null` for a cold start, else the state.
    public let stateBefore: JSON?
}

extension StateStore {
    /// Up to `limit` decisions of the history, of `device` when given, newest first: those with a sequence number
    /// below `before` (every one when `nil`), made at `sinceMs` or later. Returns them with the sequence number to
    /// go on from, `nil` when nothing older is left.
    ///
    /// Sequence numbers follow the order decisions were stored in, which is the order they were made: the first
    /// one made before `sinceMs` ends the listing.
    public func replayPage(
        device: String?, before: Int64?, sinceMs: Int64?, limit: Int
    ) throws(StoreError) -> (entries: [StoredHistoryEntry], next: Int64?) {
        var entries: [StoredHistoryEntry] = []
        let upper = before ?? history.next
        var older = false  // a decision made before `sinceMs` was reached
        guard limit > 0 else { return ([], nil) }
        if let device {
            for seq in (historyByDevice[device] ?? []).reversed() where seq < upper {
                guard entries.count < limit, !older else { break }
                guard let k = history.table(holding: seq) else { continue }
                let s = statements.selectReplayAt[k]
                defer { connection.reset(s) }
                try connection.bind(s, 1, seq)
                guard try connection.step(s, "read decision \(seq) of device \(device)") else { continue }
                if let sinceMs, connection.int64(s, 3) < sinceMs {
                    older = true
                    break
                }
                entries.append(try entry(s))
            }
        } else {
            // The tables hold runs of sequence numbers that do not overlap: the newest table's come first.
            for k in history.newestFirst where entries.count < limit && !older {
                let s = statements.selectReplayPage[k]
                defer { connection.reset(s) }
                try connection.bind(s, 1, history.first)
                try connection.bind(s, 2, upper)
                try connection.bind(s, 3, Int64(limit - entries.count))
                while try connection.step(s, "read the decision history") {
                    if let sinceMs, connection.int64(s, 3) < sinceMs {
                        older = true
                        break
                    }
                    entries.append(try entry(s))
                }
            }
        }
        guard entries.count == limit, !older, let last = entries.last, last.seq > history.first else {
            return (entries, nil)
        }
        return (entries, last.seq)
    }

    /// The entry of a row `rowid, decision, state_before, created_ms`.
    private func entry(_ s: SQLiteStatement) throws(StoreError) -> StoredHistoryEntry {
        let seq = connection.int64(s, 0)
        let decision = try connection.json(s, 1, "decision \(seq)")
        // SQL NULL is "not recorded", unlike the JSON `null` of a cold start.
        var state: JSON?
        if !connection.isNull(s, 2) { state = try connection.json(s, 2, "the state before decision \(seq)") }
        return StoredHistoryEntry(seq: seq, decision: decision, stateBefore: state)
    }
}
