import Varlink

/// Who may call what, and how often.
extension RouterService {

    /// Root, the daemon's own uid and the `--allow-uid` list may change state and reload.
    func requirePrivilege(_ connection: ClientConnection) throws(VarlinkError) {
        let uid = connection.peer.uid
        guard uid == 0 || uid == ownUID || settings.allowedUIDs.contains(uid) else {
            throw VarlinkError.permissionDenied
        }
    }

    func checkRate(_ connection: ClientConnection) throws(VarlinkError) {
        guard settings.rateLimitPerUID > 0 else { return }
        let now = Sys.monotonicNanoseconds()
        var bucket = buckets[connection.peer.uid] ?? TokenBucket(rate: settings.rateLimitPerUID, now: now)
        defer { buckets[connection.peer.uid] = bucket }
        if let wait = bucket.take(now: now) {
            throw VarlinkError.rateLimited(retryAfterMs: wait)
        }
    }
}

/// A per-uid token bucket: `rate` requests per second, bursts up to one second's worth.
struct TokenBucket {
    let rate: Int
    var tokens: Double
    var last: UInt64

    init(rate: Int, now: UInt64) {
        self.rate = rate
        tokens = Double(rate)
        last = now
    }

    /// Takes a token; returns the milliseconds to wait when there is none.
    mutating func take(now: UInt64) -> Int? {
        tokens = min(Double(rate), tokens + Double(now &- last) / 1e9 * Double(rate))
        last = now
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        return max(1, Int(((1 - tokens) / Double(rate) * 1000).rounded(.up)))
    }
}
