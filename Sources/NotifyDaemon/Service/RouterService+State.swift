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
        if let decision = recent.find(id: id) { return ["decision": decision] }
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
        let matching = recent.newestFirst().lazy.filter { device == nil || $0["device"]?.stringValue == device }
        return ["decisions": .array(Array(matching.prefix(limit)))]
    }
}
