import CoordinatorGraph
import JSON
import Varlink

extension RouterService {
    func getState(device: String) throws(VarlinkError) -> JSONObject {
        ["state": loadState(device)?.json ?? .null]
    }

    func setState(device: String, state json: JSON) throws(VarlinkError) -> MethodResult {
        guard !device.isEmpty else { throw VarlinkError.invalidParameter("device") }
        let state: DeviceState
        do {
            state = try DeviceState(json: json, graph: config.graph)
        } catch {
            throw VarlinkError.invalidState(reason: error.message, field: error.path)
        }
        saveState(state, for: device, now: Timestamp(millisecondsSince1970: Sys.wallClockMilliseconds()))
        return .durable([:])
    }

    func forget(device: String) throws(VarlinkError) -> MethodResult {
        let existed = loadState(device) != nil
        cache[device] = nil
        batchDevices.append(device)
        writes.append(.forget(device: device))
        return .durable(["existed": .bool(existed)])
    }

    func getDecision(id: String) throws(VarlinkError) -> JSONObject {
        if let entry = recent.find(id: id) { return ["decision": try Self.parsed(entry.text)] }
        if let store {
            do {
                if let decision = try store.decision(id: id) { return ["decision": decision] }
            } catch {
                throw VarlinkError.stateNotSaved(reason: "the decision history could not be read: \(error)")
            }
        }
        throw VarlinkError.decisionNotFound(id: id)
    }

    func listDecisions(device: String?, limit: Int?) throws(VarlinkError) -> JSONObject {
        let limit = min(max(limit ?? 20, 0), 1000)
        if let store {
            do {
                return ["decisions": .array(try store.decisions(device: device, limit: limit))]
            } catch {
                throw VarlinkError.stateNotSaved(reason: "the decision history could not be read: \(error)")
            }
        }
        var decisions: [JSON] = []
        for entry in recent.newestFirst() where device == nil || entry.device == device {
            guard decisions.count < limit else { break }
            decisions.append(try Self.parsed(entry.text))
        }
        return ["decisions": .array(decisions)]
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
