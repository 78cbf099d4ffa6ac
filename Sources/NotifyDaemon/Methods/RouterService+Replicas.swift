import JSON

extension RouterService {
    /// Starts hearing the other replicas' commits when the store is shared (PostgreSQL); returns the socket the loop
    /// watches, `nil` when there is nothing to hear or the listener cannot connect (the version check on every
    /// state write keeps the replicas right without it; ``reconnectReplicaListener()`` tries again).
    func startReplicaListener() -> FileDescriptor? {
        guard let store else { return nil }
        do {
            replicaListener = try store.makeListener()
        } catch {
            loopJournal.log(
                .stateStoreError, priority: .warning,
                message: "cannot hear the other replicas yet (monitors stream this replica's decisions): \(error)",
                fields: [(JournalField.reason, error.description)])
        }
        return replicaListener?.descriptor
    }

    /// Connects the replica listener again after its connection broke; returns its new socket.
    func reconnectReplicaListener() -> FileDescriptor? {
        guard let replicaListener else { return startReplicaListener() }
        return (try? replicaListener.reconnect()) ?? nil
    }

    /// Takes in the other replicas' commits: their devices leave the cache (the next request reads the state they
    /// stored), and their decisions go to this replica's monitors. False when the listener's connection broke: the
    /// loop stops watching its socket until ``reconnectReplicaListener()`` succeeds.
    func replicasNotified() -> Bool {
        guard let replicaListener else { return false }
        // Notifications that arrive while the listener reads decisions are queued by libpq, not left on the socket:
        // the loop would not be woken for them, so they are taken in here until none is left.
        while true {
            let commits: [ReplicaListener.Commit]
            do {
                commits = try replicaListener.receive()
            } catch {
                return false
            }
            guard !commits.isEmpty else { return true }
            takeIn(commits, from: replicaListener)
        }
    }

    private func takeIn(_ commits: [ReplicaListener.Commit], from replicaListener: ReplicaListener) {
        // A device written by a batch not settled yet stays: that batch's write is checked against the version
        // (it fails if the other replica's came first), and the cache must hold its state until it is settled.
        var unsettled = Set(pipeline.devices)
        for device in pipeline.inFlightDevices { unsettled.insert(device) }
        for commit in commits {
            for device in commit.devices where !unsettled.contains(String(device)) { cache[String(device)] = nil }
        }
        if !monitors.isEmpty {
            let ids = commits.flatMap(\.ids)
            if let decisions = try? replicaListener.decisions(ids: ids), !decisions.isEmpty {
                pipeline.decisions.append(contentsOf: decisions)
                streamGathered()
            }
        }
    }
}
