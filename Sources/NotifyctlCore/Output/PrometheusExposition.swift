import CoordinatorGraph
import DeepLink
import JSON

/// `GetStats` in Prometheus' text exposition format (version 0.0.4), for node_exporter's textfile collector:
///
/// ```
/// # HELP notifyd_decisions_total Routing decisions made, by outcome.
/// # TYPE notifyd_decisions_total counter
/// notifyd_decisions_total{app="shop",outcome="routed"} 1180
/// ```
///
/// Every metric is named `notifyd_*`, in base units (seconds, bytes), counters end in `_total`, and each family has
/// its `HELP` and `TYPE` lines before its samples. Request latency is a summary (quantiles 0.5, 0.9 and 0.99,
/// `_sum` and `_count`). Every sample carries the label `app`, so that the files of several daemons (the template
/// units' instances) can sit in one textfile directory. There are no timestamps: the textfile collector refuses
/// them. A counter the daemon adds later, which this table does not know, is exposed `untyped` under its own name.
public struct PrometheusExposition: Sendable {
    /// The value of the `app` label.
    public let app: String

    /// An exposition whose samples are labelled `app="<app>"`.
    public init(app: String) {
        self.app = app
    }

    /// The text, ending in a newline.
    public func render(_ stats: JSONObject) -> String {
        var out = Output(app: app)
        var known: Set<String> = []
        func scalar(_ key: String, _ name: String, _ type: String, _ help: String, scale: Double = 1) {
            known.insert(key)
            guard let value = stats[key]?.numberValue else { return }
            out.family(name, type, help, [([], value * scale)])
        }
        func labelled(_ key: String, _ name: String, _ label: String, _ help: String, always: [String] = []) {
            known.insert(key)
            guard let counts = stats[key]?.objectValue else { return }
            var samples = always.filter { counts[$0] == nil }.map { ([(label, $0)], 0.0) }
            for (value, count) in counts { samples.append(([(label, value)], count.numberValue ?? 0)) }
            samples.sort { $0.0[0].1 < $1.0[0].1 }
            out.family(name, "counter", help, samples)
        }
        scalar("uptimeSeconds", "notifyd_uptime_seconds", "gauge", "Seconds since notifyd started.")
        known.insert("pid")  // a label that changes at each start would make a new series: left out
        scalar(
            "configGeneration", "notifyd_config_generation", "gauge",
            "Configurations loaded since the start: 1, then one more per accepted reload.")
        scalar("eventLoops", "notifyd_event_loops", "gauge", "Event-loop threads serving clients.")
        scalar("requests", "notifyd_requests_total", "counter", "Calls answered, of every method.")
        labelled(
            "outcomes", "notifyd_decisions_total", "outcome", "Routing decisions made, by outcome.",
            always: Decision.Outcome.allCases.map(\.rawValue))
        known.insert("decisions")  // the sum of the outcomes
        scalar(
            "laneDecisions", "notifyd_lane_decisions_total", "counter",
            "Routing decisions made on the lanes beside the main event loop (counted in notifyd_decisions_total too).")
        labelled(
            "formats", "notifyd_payloads_total", "format", "Payloads and links read, by format.",
            always: PayloadFormat.allCases.map(\.rawValue))
        labelled("errors", "notifyd_errors_total", "error", "Error replies sent, by error name.")
        scalar(
            "rejectedPayloads", "notifyd_rejected_payloads_total", "counter",
            "Payloads and links refused (InvalidPayload, NoRoute, PayloadTooLarge).")
        scalar(
            "protocolViolations", "notifyd_protocol_violations_total", "counter",
            "Connections closed for breaking the varlink protocol.")
        scalar(
            "storeFailures", "notifyd_store_failures_total", "counter",
            "State store operations that failed (reads and commits).")
        scalar("monitors", "notifyd_monitors", "gauge", "Open Monitor streams.")
        scalar(
            "monitorsDropped", "notifyd_monitors_dropped_total", "counter",
            "Monitor streams closed because their client did not keep up.")
        scalar(
            "journalDropped", "notifyd_journal_dropped_total", "counter",
            "Journal entries dropped because notifyd's journal queue was full.")
        known.insert("latencyMicroseconds")
        if let latency = stats["latencyMicroseconds"]?.objectValue {
            var samples: [([(String, String)], Double)] = []
            for (key, quantile) in [("p50", "0.5"), ("p90", "0.9"), ("p99", "0.99")] {
                if let value = latency[key]?.numberValue { samples.append(([("quantile", quantile)], value / 1e6)) }
            }
            var suffixed: [(String, Double)] = []
            if let sum = latency["sumMicroseconds"]?.numberValue { suffixed.append(("_sum", sum / 1e6)) }
            if let count = latency["count"]?.numberValue { suffixed.append(("_count", count)) }
            out.family(
                "notifyd_request_duration_seconds", "summary",
                "Time to answer a call, from reading it to queueing "
                    + "its reply, since the start.", samples, suffixed: suffixed)
            if let max = latency["max"]?.numberValue {
                out.family(
                    "notifyd_request_max_duration_seconds", "gauge",
                    "The longest time to answer a call since the start.",
                    [([], max / 1e6)])
            }
        }
        scalar("residentBytes", "notifyd_resident_memory_bytes", "gauge", "Resident memory of the daemon.")
        scalar("openFileDescriptors", "notifyd_open_fds", "gauge", "Open file descriptors of the daemon.")
        scalar("cachedDevices", "notifyd_cached_devices", "gauge", "Device states cached in memory.")
        known.insert("connections")
        if let connections = stats["connections"]?.objectValue {
            let number = { (key: String) in connections[key]?.numberValue ?? 0 }
            out.family("notifyd_connections", "gauge", "Open client connections.", [([], number("open"))])
            for (key, help) in [
                ("accepted", "Client connections accepted."),
                ("refused", "Client connections refused at a connection cap."),
                ("dropped", "Client connections closed by notifyd (idle, too slow to read, protocol violation)."),
            ] {
                out.family("notifyd_connections_\(key)_total", "counter", help, [([], number(key))])
            }
        }
        known.insert("store")
        if let store = stats["store"]?.objectValue { storeFamilies(store, into: &out) }
        for (key, value) in stats where !known.contains(key) {
            guard let number = value.numberValue else { continue }
            out.family(
                "notifyd_" + Self.snakeCase(key), "untyped", "GetStats field \(key) (not described by this notifyctl).",
                [([], number)])
        }
        return out.text
    }

    func storeFamilies(_ store: JSONObject, into out: inout Output) {
        let number = { (key: String) in store[key]?.numberValue ?? 0 }
        out.family(
            "notifyd_store_devices", "gauge", "Devices with a stored navigation state.", [([], number("devices"))])
        out.family(
            "notifyd_store_pending_links", "gauge", "Stored pending links (pages waiting behind a gate).",
            [([], number("pendingLinks"))])
        out.family("notifyd_store_decisions", "gauge", "Decisions in the stored history.", [([], number("decisions"))])
        if let kind = store["kind"]?.stringValue {
            out.family(
                "notifyd_store_up", "gauge", "1 while the store is reachable (PostgreSQL's connection is up), else 0.",
                [([("kind", kind)], store["status"]?.stringValue == "up" ? 1 : 0)])
        }
        if store["commits"] != nil {
            out.family(
                "notifyd_store_commits_total", "counter", "Batches committed to PostgreSQL.", [([], number("commits"))])
            out.family(
                "notifyd_store_conflicts_total", "counter",
                "Batches refused because another replica changed one of their devices' states first.",
                [([], number("conflicts"))])
            out.family(
                "notifyd_store_reconnects_total", "counter", "Connections to PostgreSQL opened again after a failure.",
                [([], number("reconnects"))])
        }
        guard let checkpoints = store["checkpoints"]?.objectValue else { return }
        let count = { (key: String) in checkpoints[key]?.numberValue ?? 0 }
        out.family(
            "notifyd_store_log_frames", "gauge", "Frames in the database's write-ahead log after the last commit.",
            [([], count("logFrames"))])
        out.family(
            "notifyd_store_checkpoints_total", "counter",
            "Write-ahead log checkpoints run, by the thread that ran them.",
            [
                ([("thread", "checkpointer")], count("onThread")),
                ([("thread", "committer")], count("onCommittingThread")),
            ])
        out.family(
            "notifyd_store_checkpoints_failed_total", "counter", "Write-ahead log checkpoints that failed.",
            [([], count("failed"))])
        out.family(
            "notifyd_store_commits_waited_total", "counter",
            "Commits that first waited for a checkpoint of the whole log.",
            [([], count("commitsThatWaited"))])
    }

    /// `openFileDescriptors` → `open_file_descriptors`.
    static func snakeCase(_ key: String) -> String {
        var out = ""
        for character in key {
            if character.isUppercase, !out.isEmpty { out += "_" }
            out += character.isLetter || character.isNumber ? character.lowercased() : "_"
        }
        return out
    }

    /// The text being written.
    struct Output {
        let app: String
        var text = ""

        /// One family: `HELP` and `TYPE`, then each sample with the `app` label and its own, then the `_sum` and
        /// `_count` samples of a summary.
        mutating func family(
            _ name: String, _ type: String, _ help: String, _ samples: [([(String, String)], Double)],
            suffixed: [(String, Double)] = []
        ) {
            text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(type)\n"
            for (labels, value) in samples { text += name + labelText(labels) + " " + Self.value(value) + "\n" }
            for (suffix, value) in suffixed { text += name + suffix + labelText([]) + " " + Self.value(value) + "\n" }
        }

        func labelText(_ labels: [(String, String)]) -> String {
            let all = [("app", app)] + labels
            return "{" + all.map { "\($0.0)=\"" + Self.escapeLabel($0.1) + "\"" }.joined(separator: ",") + "}"
        }

        /// A sample value as Go's `ParseFloat` reads it: integers without a fraction, `NaN`, `+Inf`, `-Inf`.
        static func value(_ value: Double) -> String {
            if value.isNaN { return "NaN" }
            if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
            if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
            return String(value)
        }

        /// A label value: backslash, double quote and line feed escaped.
        static func escapeLabel(_ text: String) -> String {
            escapeHelp(text).replacingOccurrences(of: "\"", with: "\\\"")
        }

        /// A `HELP` text: backslash and line feed escaped.
        static func escapeHelp(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
        }
    }
}
