import CoordinatorGraph
import JSON
import RouterContract
import Varlink

extension RouterService {
    /// Refuses a device id that no store can keep: PostgreSQL's `text` cannot hold U+0000 (and a C string would end
    /// there), so such an id would fail its whole batch, other clients' decisions included, on every retry.
    static func checkDevice(_ device: String) throws(VarlinkError) {
        guard device.utf8.contains(0) else { return }
        throw VarlinkError.invalidName(
            parameter: "device", value: device, reason: "a device id cannot contain the character U+0000 (NUL)",
            suggestion: nil)
    }

    func getState(device: String) throws(VarlinkError) -> JSONObject {
        try Self.checkDevice(device)
        return ["state": try loadState(device)?.state.json ?? .null]
    }

    func setState(device: String, state json: JSON) throws(VarlinkError) -> MethodResult {
        guard !device.isEmpty else { throw VarlinkError.invalidParameter("device") }
        try Self.checkDevice(device)
        let state: DeviceState
        do {
            state = try DeviceState(json: json, graph: config.graph)
        } catch {
            throw VarlinkError.invalidState(reason: error.message, field: error.path)
        }
        saveState(
            config.resolver.resolved(state), for: device,
            now: Timestamp(millisecondsSince1970: Sys.wallClockMilliseconds()))
        return .durable([:])
    }

    func forget(device: String) throws(VarlinkError) -> MethodResult {
        try Self.checkDevice(device)
        let existed = try loadState(device) != nil
        // Known to have no state from now on: the store still holds the old one until the batch is committed.
        cacheState(nil, for: device)
        pipeline.devices.append(device)
        pipeline.writes.append(.forget(device: device))
        return .durable(["existed": .bool(existed)])
    }

    /// Clears the pending links that expired from the stored states, so `pending_links` (and the count in
    /// `GetStats`) holds only live ones; the resolver already ignores expired ones. Runs between batches only
    /// (it commits a transaction of its own). Returns how many states changed.
    @discardableResult
    func pruneExpiredPending() -> Int {
        guard let store, pipeline.isIdle else { return 0 }
        do {
            let devices = try store.pruneExpiredPending(nowMs: Sys.wallClockMilliseconds())
            for device in devices { cache[device] = nil }
            return devices.count
        } catch {
            stats.storeFailures += 1
            loopJournal.log(
                .stateStoreError, priority: .error, message: "cannot prune expired pending links: \(error)",
                fields: [(JournalField.reason, error.description)])
            return 0
        }
    }

    func getDecision(id: String) throws(VarlinkError) -> JSONObject {
        if let entry = recent.find(id: id) ?? laneLedger?.find(id: id) {
            return ["decision": try Self.parsed(entry.text)]
        }
        if let store {
            pipeline.waitForStore()
            do {
                if let decision = try store.decision(id: id) { return ["decision": decision] }
            } catch {
                throw VarlinkError.stateUnreadable(reason: "the decision history could not be read: \(error)")
            }
        }
        throw VarlinkError.decisionNotFound(id: id)
    }

    /// The latest decisions, newest first: the same ones ``getDecision(id:)`` finds, those stored and the dry runs
    /// kept in memory (with no store, every decision is kept in memory).
    func listDecisions(device: String?, limit: Int?) throws(VarlinkError) -> JSONObject {
        if let device { try Self.checkDevice(device) }
        let limit = min(max(limit ?? 20, 0), 1000)
        var kept: [RecentDecisions.Entry] = []
        for entry in keptNewestFirst() where device == nil || entry.device == device {
            guard kept.count < limit else { break }
            kept.append(entry)
        }
        var stored: [JSON] = []
        if let store {
            pipeline.waitForStore()
            do {
                stored = try store.decisions(device: device, limit: limit)
            } catch {
                throw VarlinkError.stateUnreadable(reason: "the decision history could not be read: \(error)")
            }
        }
        // Both newest first: ids start with the millisecond they were made (version-7 UUIDs).
        var decisions: [JSON] = []
        var (s, k) = (0, 0)
        while decisions.count < limit, s < stored.count || k < kept.count {
            if k < kept.count, s == stored.count || kept[k].id > (stored[s]["id"]?.stringValue ?? "") {
                decisions.append(try Self.parsed(kept[k].text))
                k += 1
            } else {
                decisions.append(stored[s])
                s += 1
            }
        }
        return ["decisions": .array(decisions)]
    }

    /// A page of the stored history for replay (`ListHistory`), newest first: each decision with the state its
    /// device started from. Dry runs are never stored; without a store nothing is, and the page is empty.
    func listHistory(
        device: String?, since: String?, before: Int?, limit: Int?
    ) throws(VarlinkError) -> JSONObject {
        if let device { try Self.checkDevice(device) }
        var sinceMs: Int64?
        if let since {
            guard let time = Timestamp(rfc3339: since) else {
                throw VarlinkError.invalidName(
                    parameter: "since", value: since,
                    reason: "'\(since)' is not an RFC 3339 time such as 2026-12-01T08:00:00Z", suggestion: nil)
            }
            sinceMs = time.millisecondsSince1970
        }
        guard let store else { return ["entries": [], "next": .null] }
        pipeline.waitForStore()
        let page: (entries: [StoredHistoryEntry], next: Int64?)
        do {
            page = try store.replayPage(
                device: device, before: before.map(Int64.init), sinceMs: sinceMs,
                limit: min(max(limit ?? 100, 0), 1000))
        } catch {
            throw VarlinkError.stateUnreadable(reason: "the decision history could not be read: \(error)")
        }
        let entries: [JSON] = page.entries.map { entry in
            let startedFrom: JSON
            switch entry.stateBefore {
            case .none: startedFrom = "unknown"
            case .some(.null): startedFrom = "coldStart"
            case .some: startedFrom = "state"
            }
            return ["decision": entry.decision, "startedFrom": startedFrom, "state": entry.stateBefore ?? .null]
        }
        return ["entries": .array(entries), "next": page.next.map { .int(Int($0)) } ?? .null]
    }

    /// The decisions kept in memory, this loop's and the lanes', newest first: each loop's ids grow in the order
    /// it made them, and ids of one millisecond sort by their loop's counter.
    func keptNewestFirst() -> [RecentDecisions.Entry] {
        guard let laneLedger else { return recent.newestFirst() }
        var all = recent.newestFirst()
        for kept in laneLedger.newestFirst() { all += kept }
        all.sort { $0.id > $1.id }
        return all
    }

    /// A decision's text read back (it was written by the daemon itself; a failure is a bug worth reporting).
    static func parsed(_ text: JSONText) throws(VarlinkError) -> JSON {
        do {
            return try text.parsed()
        } catch {
            throw VarlinkError.stateNotSaved(reason: "a kept decision could not be read back: \(error)")
        }
    }
}
