import Glibc
import JSON

extension RouterService {
    func statsJSON() -> JSON {
        var stats = self.stats
        laneLedger?.addStats(to: &stats)
        let uptime = Double(Sys.monotonicNanoseconds() &- startedAt) / 1e9
        var o: JSONObject = [
            "uptimeSeconds": .double((uptime * 1000).rounded() / 1000),
            // The process answering: under socket activation a client's SO_PEERCRED names systemd, which made the
            // listening socket, not notifyd.
            "pid": .int(Int(getpid())),
            "configGeneration": .int(config.generation),
            // The main loop and its lanes (`--event-loops`).
            "eventLoops": .int(sharedConfig == nil ? 1 : settings.eventLoops),
            "requests": .int(stats.requests),
            "decisions": .int(stats.decisions),
            "laneDecisions": .int(stats.laneDecisions),
            "outcomes": Stats.object(stats.byOutcome),
            "formats": Stats.object(stats.byFormat),
            "errors": Stats.object(stats.errors),
            "rejectedPayloads": .int(stats.rejectedPayloads),
            "protocolViolations": .int(stats.protocolViolations),
            "storeFailures": .int(stats.storeFailures),
            "monitors": .int(monitors.count),
            "monitorsDropped": .int(stats.monitorsDropped),
            "journalDropped": .int(journal.droppedCount),
            "latencyMicroseconds": [
                "p50": .double(Double(stats.latency.percentile(0.50)) / 1000),
                "p90": .double(Double(stats.latency.percentile(0.90)) / 1000),
                "p99": .double(Double(stats.latency.percentile(0.99)) / 1000),
                "max": .double(Double(stats.latency.maxNanoseconds) / 1000),
                "count": .int(Int(stats.latency.total)),
                "sumMicroseconds": .double(Double(stats.latency.sumNanoseconds / 1000)),
            ],
            "residentBytes": .int(Sys.residentSetBytes()),
            "openFileDescriptors": .int(Sys.openFileDescriptorCount()),
            "cachedDevices": .int(cache.count),
        ]
        if let server {
            o["connections"] = [
                "open": .int(server.connectionCount), "accepted": .int(server.acceptedTotal),
                "refused": .int(server.refusedTotal), "dropped": .int(server.droppedTotal),
            ]
        }
        pipeline.waitForStore()
        if let store {
            // Which store serves and its health, with its counts when it can give them (a PostgreSQL server that
            // is down cannot: the store is then `down`, its health the reason).
            let counts = try? store.counts()  // first: it reconnects a store whose server came back
            var fields = store.statsFields()
            if let counts {
                fields["devices"] = .int(counts.devices)
                fields["pendingLinks"] = .int(counts.pendingLinks)
                fields["decisions"] = .int(counts.decisions)
            }
            o["store"] = .object(fields)
        }
        return .object(o)
    }
}
