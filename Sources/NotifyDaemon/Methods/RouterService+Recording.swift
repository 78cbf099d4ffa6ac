import CoordinatorGraph
import JSON
import Varlink

extension RouterService {
    // MARK: recording

    /// Keeps a decision that is not a dry run: with a store, it joins the batch's commit, with the state its device
    /// started from, and is counted and journaled once the commit succeeded; without one, at once.
    func record(
        _ decision: consuming Decision, text: JSONText, link: String?, peerUID: UInt32,
        stateBefore: StoreWrite.StateBefore = .notRecorded
    ) {
        pipeline.writes.append(
            .decision(
                id: decision.id, device: decision.device, createdMs: decision.createdAt.millisecondsSince1970,
                outcome: decision.outcome.rawValue, page: decision.page, decision: text, stateBefore: stateBefore))
        let (id, device) = (decision.decisionID, decision.device)
        // The decision moves into the journal's details: the journal thread renders it later.
        let details = DecisionJournalDetails(
            decision: consume decision, link: link, dryRun: false, peerUID: peerUID)
        // Kept for the monitors, which see it once its batch is settled.
        if !monitors.isEmpty { pipeline.decisions.append(text) }
        if store == nil {
            countAndJournal(consume details)
            recent.append(id: id, device: device, text: text)
        } else {
            pipeline.journal.append(details)
        }
    }

    /// Keeps a dry run whose text is in the ``desk``'s writer: counted, journaled and kept at once, from the writer's
    /// bytes. Monitors see it once its batch is settled; with none, a batch of dry runs has nothing to settle
    /// (``CommitPipeline/endBatch()`` then returns at once).
    func recordDryRun(_ decision: consuming Decision, link: String?, peerUID: UInt32) {
        let (id, device) = (decision.decisionID, decision.device)
        countAndJournal(DecisionJournalDetails(decision: consume decision, link: link, dryRun: true, peerUID: peerUID))
        desk.writer.withBytes { text in
            if !monitors.isEmpty { pipeline.decisions.append(JSONText(bytes: Array(text))) }
            recent.append(id: id, device: device, text: text)
        }
    }

    /// Journals stored decisions whose commit failed (their clients get `StateNotSaved`).
    func journalNotSaved(_ batch: [DecisionJournalDetails], failure: StoreError) {
        for var details in batch {
            details.notSaved = failure.description
            loopJournal.log(.decisionNotSaved, priority: .error, details: details)
        }
    }

    func countAndJournal(_ details: consuming DecisionJournalDetails) {
        stats.decisions += 1
        stats.byOutcome.add(details.decision.outcome)
        loopJournal.log(.decisionMade, priority: .info, details: details)
    }

    /// The device's state: from the cache, else the store; `nil` for a device never seen, or one whose state does
    /// not fit the loaded graph (it starts cold, and the journal says so).
    ///
    /// A state cached under an earlier config generation is checked against the loaded graph before use: a reload
    /// keeps the cache, so a state written earlier in the batch (not committed yet) is never read back stale from
    /// the store.
    ///
    /// - Throws: `StateUnreadable` when the store cannot read the device's state (a damaged database).
    func loadState(_ device: String) throws(VarlinkError) -> ResolvedState? {
        if let cached = cache.find(device) {
            guard let state = cached.state else { return nil }
            if cached.generation == config.generation { return state }
            return checkedAgainstGraph(state.state.json, device: device)
        }
        guard let store else { return nil }
        let json: JSON?
        do {
            if let reader = pipeline.reader {
                json = try reader.deviceState(device)  // no waiting for the commit that runs: see StateReader
            } else {
                pipeline.waitForStore()
                json = try store.deviceState(device)
            }
        } catch {
            stats.storeFailures += 1
            loopJournal.log(
                .stateStoreError, priority: .error, message: "cannot read state of \(device): \(error)",
                fields: [(JournalField.device, device), (JournalField.reason, error.description)])
            throw VarlinkError.stateUnreadable(reason: "the state of device \(device) could not be read: \(error)")
        }
        guard let json else { return nil }
        return checkedAgainstGraph(json, device: device)
    }

    /// The state in `json` read against the loaded graph and cached; `nil` (start cold, journaled) when it does not
    /// fit, e.g. saved under an older graph that no longer has its coordinators or pages.
    private func checkedAgainstGraph(_ json: JSON, device: String) -> ResolvedState? {
        do {
            let state = config.resolver.resolved(try DeviceState(json: json, graph: config.graph))
            cacheState(state, for: device)
            return state
        } catch {
            cache[device] = nil
            loopJournal.log(
                .stateStoreError, priority: .warning,
                message: "saved state of \(device) does not fit the loaded graph (\(error)); starting cold",
                fields: [(JournalField.device, device), (JournalField.reason, error.description)])
            return nil
        }
    }

    func saveState(_ state: ResolvedState, for device: String, now: Timestamp) {
        cacheState(state, for: device)
        pipeline.devices.append(device)
        pipeline.writes.append(
            .stateValue(
                device: device, value: state, pendingExpiresMs: state.pending?.expiresAt.millisecondsSince1970,
                updatedMs: now.millisecondsSince1970))
    }

    func cacheState(_ state: ResolvedState?, for device: String) {
        if cache.count >= 200_000, !cache.contains(device), store != nil, pipeline.isIdle {
            cache.removeAll()
        }
        cache[device] = CachedState(state: state, generation: config.generation)
    }
}
