import CoordinatorGraph
import JSON

extension StateStore {
    /// The expiry of the pending link in a DeviceState JSON object, in milliseconds since the epoch.
    ///
    /// `nil` when the state has no pending link (`pending` absent or null); `Int64.max` when there
    /// is one whose `expiresAt` is not an RFC 3339 time, so it is kept but never listed as expired.
    static func pendingExpiry(in state: JSON) -> Int64? {
        guard let pending = state["pending"], !pending.isNull else { return nil }
        guard let text = pending["expiresAt"]?.stringValue, let ms = Timestamp(rfc3339: text)?.millisecondsSince1970
        else {
            return Int64.max
        }
        return ms
    }
}
