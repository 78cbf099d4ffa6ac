import DeepLink
import Glibc
import JSON
import NotifyDaemon

/// `notifyd-bench store [--decisions N] [--dir DIR] [--batch N] [--ordered-ids] [--no-state-before]`: commits per
/// second of the SQLite state store.
///
/// Four runs on a fresh database (WAL, synchronous=NORMAL, history bound 100,000): decisions
/// committed one per transaction, 64 per transaction (the event loop's group commit), and 64
/// requests per transaction where each request also rewrites its device's state, with the log checkpointed by the
/// committing thread and then by a checkpointer thread as the daemon does. In those two, each decision also keeps the
/// state its device started from (`state_before`, for `notifyctl replay`) as the daemon's do; `--no-state-before`
/// leaves it out, to measure what it costs. Every committed batch survives a process kill; see `StateStore`.
func runStoreBenchmark(arguments: [String]) {
    var total = 200_000
    var parent = "/tmp"
    var onlyBatch: Int?
    var orderedIDs = false
    var stateBefore = true
    var rest = arguments[...]
    while let flag = rest.popFirst() {
        switch flag {
        case "--decisions": total = rest.popFirst().flatMap { Int($0) } ?? total
        case "--dir": parent = rest.popFirst() ?? parent
        case "--batch": onlyBatch = rest.popFirst().flatMap { Int($0) }
        case "--ordered-ids": orderedIDs = true
        case "--no-state-before": stateBefore = false
        default:
            print(
                "usage: notifyd-bench store [--decisions N] [--dir DIR] [--batch N] [--ordered-ids] [--no-state-before]"
            )
            return
        }
    }
    if let batch = onlyBatch, batch > 0 {
        storeRun(
            parent: parent, label: "\(batch) decisions per commit", total: total, batch: batch, withState: false,
            orderedIDs: orderedIDs, checkpointer: false)
        return
    }
    let size = sampleDecision(id: "x", device: "d").serialized.utf8.count
    let stateSize = sampleState().serialized.utf8.count
    print(
        "state store: \(total) decisions per run, ~\(size) bytes each; with states, "
            + (stateBefore ? "each keeps the \(stateSize) bytes of its state before" : "no state before kept"))
    storeRun(
        parent: parent, label: "1 decision per commit", total: min(total, 20_000), batch: 1, withState: false,
        orderedIDs: orderedIDs, checkpointer: false)
    storeRun(
        parent: parent, label: "64 decisions per commit", total: total, batch: 64, withState: false,
        orderedIDs: orderedIDs, checkpointer: false)
    storeRun(
        parent: parent, label: "64 × (decision + state) per commit", total: total, batch: 64, withState: true,
        stateBefore: stateBefore, orderedIDs: orderedIDs, checkpointer: false)
    storeRun(
        parent: parent, label: "the same, checkpoints on their own thread", total: total, batch: 64, withState: true,
        stateBefore: stateBefore, orderedIDs: orderedIDs, checkpointer: true)
}

/// A state the store writes on its own thread, as it writes a device's `ResolvedState`.
private struct WrittenState: JSONWritable {
    let json: JSON
    func writeJSON(into out: inout ByteWriter) { json.write(into: &out) }
}

private func storeRun(
    parent: String, label: String, total: Int, batch: Int, withState: Bool, stateBefore: Bool = false,
    orderedIDs: Bool, checkpointer: Bool
) {
    var template = Array("\(parent)/notifyd-bench-XXXXXX".utf8CString)
    guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        print("  cannot create a directory under \(parent): errno \(errno)")
        return
    }
    let directory = String(cString: created)
    defer {
        for suffix in ["", "-wal", "-shm"] { unlink(directory + "/" + StateStore.fileName + suffix) }
        rmdir(directory)
    }
    do {
        let store = try StateStore(directory: directory)
        if checkpointer { try store.startCheckpointer { print("  checkpoint failed: \($0)") } }
        let state = sampleState()
        // The daemon has the decision JSON and its id already (they are the reply); the store's cost
        // is serializing and inserting them, so they are made before the clock starts.
        var generator = SplitMix64(seed: 0x6E6F_7469_6679_64)
        let ids = (0..<total).map { n in randomUUID(&generator, orderedBy: orderedIDs ? UInt64(n) : nil) }
        let decisions = (0..<1_024).map {
            JSONText(sampleDecision(id: ids[$0 % total], device: "device-\($0 % 1_000)"))
        }
        let offer = Page(
            id: PageID(coordinator: "cart", name: "offer"), arguments: [.init(label: "id", value: .string("SUMMER"))])
        var writes: [StoreWrite] = []
        writes.reserveCapacity(batch * 2)
        var commits = 0
        let start = monotonicNanoseconds()
        let cpuStart = cpuNanoseconds()
        var n = 0
        while n < total {
            writes.removeAll(keepingCapacity: true)
            for _ in 0..<min(batch, total - n) {
                let device = "device-\(n % 1_000)"
                writes.append(
                    .decision(
                        id: ids[n], device: device, createdMs: Int64(n), outcome: "routed",
                        page: offer, decision: decisions[n % decisions.count],
                        stateBefore: stateBefore ? .state(WrittenState(json: state)) : .notRecorded))
                if withState { writes.append(.state(device: device, state: state, updatedMs: Int64(n))) }
                n += 1
            }
            try store.commit(writes)
            commits += 1
        }
        let seconds = Double(monotonicNanoseconds() - start) / 1e9
        let cpuSeconds = Double(cpuNanoseconds() - cpuStart) / 1e9
        let counts = try store.counts()
        print(
            "  \(label): \(Int(Double(commits) / seconds)) commits/s, \(Int(Double(total) / seconds)) decisions/s"
                + " (\(total) in \(format3(seconds)) s wall, \(format3(cpuSeconds)) s CPU:"
                + " \(Int(Double(total) / cpuSeconds)) decisions per CPU-second; \(counts.decisions) kept)")
    } catch {
        print("  \(label): \(error)")
    }
}

/// Random version-4 UUID strings, like the daemon's decision ids (random keys are the costly case
/// for the id index).
/// With `orderedBy`, the first 48 bits are that counter instead (like a UUIDv7's millisecond
/// timestamp), so ids sort in creation order.
private func randomUUID(_ generator: inout SplitMix64, orderedBy counter: UInt64? = nil) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var hex: [UInt8] = []
    var high = generator.next()
    if let counter { high = counter << 16 | (high & 0xFFFF) }
    for word in [high, generator.next()] {
        for nibble in 0..<16 { hex.append(digits[Int((word >> UInt64(60 - nibble * 4)) & 0xF)]) }
    }
    hex[12] = UInt8(ascii: "4")  // version 4
    for dash in [20, 16, 12, 8] { hex.insert(UInt8(ascii: "-"), at: dash) }
    return String(decoding: hex, as: UTF8.self)
}

/// A small deterministic generator (SplitMix64) so runs are comparable.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

private func sampleDecision(id: String, device: String) -> JSON {
    [
        "id": .string(id), "device": .string(device), "outcome": "routed",
        "source": ["format": "apns", "field": "deeplink", "link": "shop://offers/SUMMER"],
        "page": ["id": "cart.offer", "arguments": ["id": "SUMMER"], "description": "cart.offer(id: \"SUMMER\")"],
        "path": ["app", "main", "cart"],
        "steps": [
            ["action": "activate", "coordinator": "app"],
            ["action": "selectTab", "coordinator": "main", "child": "cart"],
            ["action": "start", "coordinator": "cart", "parent": "main"],
            ["action": "display", "coordinator": "cart", "page": "cart.offer(id: \"SUMMER\")"],
        ],
        "pending": nil, "createdAt": "2025-03-01T12:30:00.250Z",
    ]
}

private func sampleState() -> JSON {
    [
        "path": ["app", "main", "cart"], "started": ["app", "main", "catalog", "cart"],
        "tabs": ["main": "cart"],
        "stacks": [
            "catalog": [["id": "catalog.home", "arguments": [:], "description": "catalog.home"]],
            "cart": [["id": "cart.offer", "arguments": ["id": "SUMMER"], "description": "cart.offer(id: \"SUMMER\")"]],
        ],
        "conditions": ["session"], "pending": nil,
    ]
}

private func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// CPU time of this process: on a shared machine wall-clock rates understate what the store can do.
private func cpuNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

private func format3(_ value: Double) -> String {
    let millis = Int((value * 1_000).rounded())
    let fraction = String(millis % 1_000)
    return "\(millis / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}
