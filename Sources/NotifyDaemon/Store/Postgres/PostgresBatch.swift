import DeepLink
import JSON

/// A batch of writes as the commands that store it in PostgreSQL, after `BEGIN`: the states, then the decisions.
///
/// Multi-row statements, not a command per write: the batch's decisions are one `INSERT … SELECT FROM unnest(…)`, and
/// its states one call of `notifyd_put_states`, which writes each over the version this replica read and fails the
/// whole batch when any of them moved on. A device written twice in a batch is written once, with its last state, over
/// the version its first write was made on (the states in between are never seen outside the transaction). A batch
/// that forgets a device keeps the order of its writes instead: a command per state (`notifyd_put_state`).
struct PostgresBatch {
    /// The commands, after `BEGIN` and before the notifications and `COMMIT`.
    var commands: [PGConnection.Command] = [PGConnection.Command(name: nil, sql: "BEGIN")]
    /// Every device whose state the batch writes or forgets, in order.
    private(set) var devices: [String] = []
    /// The ids of the decisions it stores.
    private(set) var ids: [String] = []
    /// Where the written states' new versions come back: one command per state, or the rows of the multi-row one.
    private var stateCommands: [(index: Int, device: String)] = []
    private var multiRowStates: Int?

    init(_ batch: consuming [StoreWrite], versions: VersionBook, replica: String) {
        var states: [(device: String, text: [UInt8], pendingMs: Int64?, updatedMs: Int64)] = []
        var forgets = false
        var decisions = DecisionColumns()
        for write in batch {
            switch write {
            case .stateText(let device, let text?, let pendingExpiresMs, let updatedMs):
                states.append((device, text.bytes, pendingExpiresMs, updatedMs))
            case .stateValue(let device, let value, let pendingExpiresMs, let updatedMs):
                states.append((device, JSONText(writing: value, capacity: 512).bytes, pendingExpiresMs, updatedMs))
            case .stateText(let device, nil, _, let updatedMs):
                forgets = true
                states.append((device, [], nil, updatedMs))  // an empty text: forgotten
            case .forget(let device):
                forgets = true
                states.append((device, [], nil, Sys.wallClockMilliseconds()))
            case .decision(let id, let device, let createdMs, let outcome, let page, let decision, let stateBefore):
                var before: [UInt8]?
                switch stateBefore {
                case .state(let state): before = JSONText(writing: state, capacity: 512).bytes
                case .coldStart: before = Array("null".utf8)
                case .notRecorded: before = nil
                }
                let description: [UInt8]? = page.map { page in
                    var out = ByteWriter(capacity: 128)
                    page.writeDescription(into: &out)
                    return out.finish()
                }
                decisions.id.append(id)
                decisions.device.append(device.map { Array($0.utf8) })
                decisions.createdMs.append(createdMs)
                decisions.outcome.append(outcome)
                decisions.page.append(description)
                decisions.decision.append(decision.bytes)
                decisions.stateBefore.append(before)
                ids.append(id)
            }
        }
        devices = states.map(\.device)
        if forgets {
            addCommandPerState(states, versions: versions)
        } else if !states.isEmpty {
            addMultiRowStates(states, versions: versions)
        }
        if !ids.isEmpty {
            commands.append(
                PGConnection.Command(
                    name: "insert_decisions", parameters: decisions.parameters + [Array(replica.utf8)], binary: true))
        }
    }

    /// The decisions it stores.
    var decisionCount: Int { ids.count }

    /// One call of `notifyd_put_states` for every device's last state, devices in order (so that two replicas'
    /// batches lock their rows in the same order).
    private mutating func addMultiRowStates(
        _ states: [(device: String, text: [UInt8], pendingMs: Int64?, updatedMs: Int64)], versions: VersionBook
    ) {
        var last: [String: Int] = [:]
        for (i, state) in states.enumerated() { last[state.device] = i }
        var device = PGBinaryArray(of: .text)
        var text = PGBinaryArray(of: .text)
        var expected = PGBinaryArray(of: .bigint)
        var pending = PGBinaryArray(of: .bigint)
        var updated = PGBinaryArray(of: .bigint)
        for (name, i) in last.sorted(by: { $0.key < $1.key }) {
            let state = states[i]
            device.append(name)
            text.append(state.text)
            expected.append(versions.get(name) ?? -1)
            pending.append(state.pendingMs)
            updated.append(state.updatedMs)
        }
        multiRowStates = commands.count
        commands.append(
            PGConnection.Command(
                name: "put_states",
                parameters: [device.bytes, text.bytes, expected.bytes, pending.bytes, updated.bytes],
                binary: true))
    }

    /// A command per write, in the batch's order, each over the version the writes before it leave.
    private mutating func addCommandPerState(
        _ states: [(device: String, text: [UInt8], pendingMs: Int64?, updatedMs: Int64)], versions: VersionBook
    ) {
        var expected: [String: Int64] = [:]
        for state in states {
            let version = expected[state.device] ?? versions.get(state.device) ?? -1
            let number = { (n: Int64) in Array(String(n).utf8) }
            if state.text.isEmpty {
                // Unconditional: a forgotten device loses its state whatever it was. Its row (when there is one)
                // gets the next version; without a row the next write inserts one.
                expected[state.device] = version > 0 ? version + 1 : version
                commands.append(
                    PGConnection.Command(
                        name: "forget_state", parameters: [Array(state.device.utf8), number(state.updatedMs)]))
            } else {
                expected[state.device] = version < 0 ? -1 : version + 1
                stateCommands.append((commands.count, state.device))
                commands.append(
                    PGConnection.Command(
                        name: "put_state",
                        parameters: [
                            Array(state.device.utf8), state.text, number(version), state.pendingMs.map(number),
                            number(state.updatedMs),
                        ]))
            }
        }
    }

    /// Records the versions the committed batch gave its states.
    func recordVersions(_ results: [PGRows], in versions: VersionBook) {
        if let index = multiRowStates {
            for row in results[index].rows {
                versions.set(row[0] ?? "", (row[1]).flatMap { Int64($0) } ?? -1)
            }
        }
        for (index, device) in stateCommands {
            let version = results[index].rows.first?.first ?? nil
            versions.set(device, version.flatMap { Int64($0) } ?? -1)
        }
    }

    /// The decisions as the columns of `insert_decisions`, for `unnest`.
    private struct DecisionColumns {
        var id = PGBinaryArray(of: .text)
        var device = PGBinaryArray(of: .text)
        var createdMs = PGBinaryArray(of: .bigint)
        var outcome = PGBinaryArray(of: .text)
        var page = PGBinaryArray(of: .text)
        var decision = PGBinaryArray(of: .text)
        var stateBefore = PGBinaryArray(of: .text)

        var parameters: [[UInt8]?] {
            [id, device, createdMs, outcome, page, decision, stateBefore].map(\.bytes)
        }
    }
}
