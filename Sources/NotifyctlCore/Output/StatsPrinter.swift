import JSON

/// Prints `GetStats` as a tree with units, like the other commands' answers:
///
/// ```
/// notifyd  pid 4242 · up 2 h 5 min · config generation 3 · 2 event loops
/// ├─ requests     120,400 · 12 payloads rejected · 0 protocol violations
/// ├─ decisions    118,000: routed 110,000, gated 7,000, fallback 1,000 · 90,000 on lanes
/// ├─ latency      p50 38 µs · p90 61 µs · p99 140 µs · max 2.1 ms
/// …
/// └─ store        5,120 devices · 12 pending links · 100,000 decisions
///    checkpoints  80 log frames · 61 on their thread · 0 commits waited · 0 on the committing thread · 0 failed
/// ```
///
/// Counters the daemon adds later, which this printer does not know, show as rows of their own.
public struct StatsPrinter: Sendable {
    /// Colours, or none.
    public let style: Style

    /// A printer with `style`.
    public init(style: Style) {
        self.style = style
    }

    /// The stats object (`GetStats`'s `stats`) as a tree, ending in a newline.
    public func render(_ stats: JSONObject) -> String {
        var known: Set<String> = []
        func number(_ key: String) -> Double? {
            known.insert(key)
            return stats[key]?.numberValue
        }
        func object(_ key: String) -> JSONObject? {
            known.insert(key)
            return stats[key]?.objectValue
        }
        var header = [String]()
        if let pid = number("pid") { header.append("pid \(Int(pid))") }
        if let uptime = number("uptimeSeconds") { header.append("up " + Units.duration(seconds: uptime)) }
        if let generation = number("configGeneration") { header.append("config generation \(Int(generation))") }
        if let loops = number("eventLoops") { header.append(Units.count(loops, "event loop")) }
        var tree = TreeText(
            header: style.bold("notifyd") + (header.isEmpty ? "" : "  " + header.joined(separator: " · ")))

        var requests = [Units.number(number("requests") ?? 0)]
        if let rejected = number("rejectedPayloads") { requests.append(Units.count(rejected, "payload") + " rejected") }
        if let violations = number("protocolViolations") {
            requests.append(Units.count(violations, "protocol violation"))
        }
        tree.add("requests", requests.joined(separator: " · "))
        var decisions = Units.number(number("decisions") ?? 0)
        let outcomes = counts(object("outcomes"))
        if !outcomes.isEmpty { decisions += ": " + outcomes }
        if let lanes = number("laneDecisions"), lanes > 0 { decisions += " · " + Units.number(lanes) + " on lanes" }
        tree.add("decisions", decisions)
        tree.add("formats", counts(object("formats")).nonEmpty ?? "none")
        tree.add("errors", counts(object("errors"), shortNames: true).nonEmpty ?? "none")
        if let latency = object("latencyMicroseconds") {
            let parts = ["p50", "p90", "p99", "max"].compactMap { key in
                latency[key]?.numberValue.map { key + " " + Units.duration(microseconds: $0) }
            }
            tree.add("latency", parts.isEmpty ? "none" : parts.joined(separator: " · "))
        }
        var memory: [String] = []
        if let resident = number("residentBytes") { memory.append(Units.bytes(resident) + " resident") }
        if let files = number("openFileDescriptors") { memory.append(Units.count(files, "open file")) }
        if let cached = number("cachedDevices") { memory.append(Units.count(cached, "device state") + " cached") }
        if !memory.isEmpty { tree.add("memory", memory.joined(separator: " · ")) }
        if let connections = object("connections") {
            tree.add(
                "connections",
                ["open", "accepted", "refused", "dropped"].map {
                    Units.number(connections[$0]?.numberValue ?? 0) + " " + $0
                }
                .joined(separator: " · "))
        }
        if let monitors = number("monitors") {
            tree.add(
                "monitors", Units.number(monitors) + " · " + Units.number(number("monitorsDropped") ?? 0) + " dropped")
        }
        known.insert("monitorsDropped")
        if let dropped = number("journalDropped") {
            tree.add("journal", Units.count(dropped, "entry", plural: "entries") + " dropped")
        }
        if let failures = number("storeFailures"), failures > 0 {
            tree.add("failures", Units.count(failures, "failed store operation", plural: "failed store operations"))
        }
        if let store = object("store") {
            let value = [
                ("devices", "device", "devices"), ("pendingLinks", "pending link", "pending links"),
                ("decisions", "decision", "decisions"),
            ].map { key, one, many in Units.count(store[key]?.numberValue ?? 0, one, plural: many) }
            var children: [String] = []
            if let kind = store["kind"]?.stringValue {
                children.append("kind         " + Self.storeSummary(store, kind: kind))
                if let health = store["health"]?.stringValue, health != "ok" {
                    children.append("health       " + SafeText.clean(health))
                }
            }
            if store["commits"] != nil {
                let parts = [("commits", "commits"), ("conflicts", "conflicts"), ("reconnects", "reconnections")]
                    .map { key, words in Units.number(store[key]?.numberValue ?? 0) + " " + words }
                children.append("server       " + parts.joined(separator: " · "))
            }
            if let checkpoints = store["checkpoints"]?.objectValue {
                let parts = [
                    ("logFrames", "log frames"), ("onThread", "on their thread"),
                    ("commitsThatWaited", "commits waited"), ("onCommittingThread", "on the committing thread"),
                    ("failed", "failed"),
                ].map { key, words in Units.number(checkpoints[key]?.numberValue ?? 0) + " " + words }
                children.append("checkpoints  " + parts.joined(separator: " · "))
            }
            tree.add("store", value.joined(separator: " · "), children: children)
        } else {
            tree.add("store", "none: state is kept in memory")
        }
        for (key, value) in stats where !known.contains(key) {
            tree.add(SafeText.clean(key), ReplyPrinter(style: style).scalarText(value))
        }
        return tree.render(style: style)
    }

    /// `postgresql · host=/run/postgresql dbname=notifyd · schema 1 · up`: which store serves, where, and whether
    /// it is up (`GetStats`' `store`; `notifyctl info` prints it too).
    public static func storeSummary(_ store: JSONObject, kind: String) -> String {
        let place = store["server"]?.stringValue ?? store["path"]?.stringValue ?? "?"
        let schema = store["schema"]?.numberValue.map { "schema " + Units.number($0) } ?? "schema ?"
        let status = store["status"]?.stringValue ?? "?"
        return [kind, place, schema, status].map(SafeText.clean).joined(separator: " · ")
    }

    /// `routed 10, gated 2`, largest first; error names without their interface when `shortNames`.
    func counts(_ object: JSONObject?, shortNames: Bool = false) -> String {
        guard let object else { return "" }
        let entries = object.compactMap { key, value in value.numberValue.map { (key, $0) } }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        return entries.map { key, count in
            let name = shortNames ? String(key.split(separator: ".").last ?? Substring(key)) : key
            return SafeText.clean(name) + " " + Units.number(count)
        }.joined(separator: ", ")
    }
}

extension String {
    /// The text, or nil when it is empty.
    var nonEmpty: String? { isEmpty ? nil : self }
}
