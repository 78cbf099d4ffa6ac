import CoordinatorGraph
import DeepLink
import JSON

/// Latencies in a fixed log-linear histogram: constant memory, O(1) to record, percentiles to
/// within about 3%.
struct LatencyHistogram {
    // 64 sub-buckets for each power of two of nanoseconds, up to 2^40 ns (18 minutes).
    private static let subBuckets = 32
    private var counts = [UInt64](repeating: 0, count: 41 * LatencyHistogram.subBuckets)
    private(set) var total: UInt64 = 0
    private(set) var maxNanoseconds: UInt64 = 0
    /// Every latency recorded, added up (for the mean: Prometheus' summary `_sum`).
    private(set) var sumNanoseconds: UInt64 = 0

    mutating func record(nanoseconds: UInt64) {
        counts[Self.bucket(for: nanoseconds)] += 1
        total += 1
        sumNanoseconds &+= nanoseconds
        if nanoseconds > maxNanoseconds { maxNanoseconds = nanoseconds }
    }

    static func bucket(for value: UInt64) -> Int {
        let v = max(value, 1)
        let exponent = 63 - v.leadingZeroBitCount
        if exponent < 5 { return Int(v) }
        let shift = exponent - 5
        let sub = Int((v >> UInt64(shift)) & UInt64(subBuckets - 1))
        return min((exponent - 4) * subBuckets + sub, 41 * subBuckets - 1)
    }

    static func lowerBound(of bucket: Int) -> UInt64 {
        if bucket < subBuckets { return UInt64(bucket) }
        let exponent = bucket / subBuckets + 4
        let sub = UInt64(bucket % subBuckets)
        return (UInt64(subBuckets) | sub) << UInt64(exponent - 5)
    }

    /// Adds the latencies `other` recorded.
    mutating func add(_ other: LatencyHistogram) {
        for i in counts.indices { counts[i] &+= other.counts[i] }
        total &+= other.total
        sumNanoseconds &+= other.sumNanoseconds
        maxNanoseconds = max(maxNanoseconds, other.maxNanoseconds)
    }

    /// The value below which `fraction` of the recorded latencies fall, in nanoseconds.
    func percentile(_ fraction: Double) -> UInt64 {
        guard total > 0 else { return 0 }
        let rank = UInt64((Double(total) * fraction).rounded(.up))
        var seen: UInt64 = 0
        for (i, c) in counts.enumerated() where c > 0 {
            seen += c
            if seen >= rank { return min(Self.lowerBound(of: i + 1), maxNanoseconds) }
        }
        return maxNanoseconds
    }
}

/// The daemon's counters, as `GetStats` reports them.
struct Stats {
    var requests = 0
    var decisions = 0
    var byOutcome = CaseCounts<Decision.Outcome>()
    var byFormat = CaseCounts<PayloadFormat>()
    var errors: [String: Int] = [:]
    var rejectedPayloads = 0
    var protocolViolations = 0
    var storeFailures = 0
    var monitorsDropped = 0
    /// Decisions the lanes made (counted in ``decisions`` too).
    var laneDecisions = 0
    var latency = LatencyHistogram()

    mutating func countError(_ name: String) {
        errors[name, default: 0] += 1
    }

    /// Adds what `other` counted (a lane's counters to the main loop's).
    mutating func add(_ other: Stats) {
        requests += other.requests
        decisions += other.decisions
        byOutcome.add(other.byOutcome)
        byFormat.add(other.byFormat)
        errors.merge(other.errors, uniquingKeysWith: +)
        rejectedPayloads += other.rejectedPayloads
        protocolViolations += other.protocolViolations
        storeFailures += other.storeFailures
        monitorsDropped += other.monitorsDropped
        laneDecisions += other.laneDecisions
        latency.add(other.latency)
    }

    static func object(_ counts: [String: Int]) -> JSON {
        var o = JSONObject()
        for key in counts.keys.sorted() { o[key] = .int(counts[key]!) }
        return .object(o)
    }

    /// Counts keyed by an enum's raw value (outcomes, formats), for `GetStats`.
    static func object<Key: RawRepresentable<String>>(_ counts: CaseCounts<Key>) -> JSON {
        object(Dictionary(uniqueKeysWithValues: counts.entries.map { ($0.key.rawValue, $0.count) }))
    }
}

/// Counts per case of a small enum (outcomes, payload formats): a short list searched by comparing cases, where a
/// dictionary hashed the case on every request.
struct CaseCounts<Key: Equatable> {
    /// Each case counted at least once, with its count, in the order first seen.
    private(set) var entries: [(key: Key, count: Int)] = []

    /// Counts `key` once more.
    mutating func add(_ key: Key) {
        for i in entries.indices where entries[i].key == key {
            entries[i].count += 1
            return
        }
        entries.append((key, 1))
    }

    /// Adds what `other` counted.
    mutating func add(_ other: CaseCounts) {
        for (key, count) in other.entries {
            if let i = entries.firstIndex(where: { $0.key == key }) {
                entries[i].count += count
            } else {
                entries.append((key, count))
            }
        }
    }
}
