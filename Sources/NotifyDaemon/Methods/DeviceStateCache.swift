import CoordinatorGraph

/// A device state kept in memory as the resolver of its config generation holds it, with that generation.
struct CachedState {
    /// `nil` for a device forgotten by a batch not committed yet: the store may still hold its old state.
    var state: ResolvedState?
    var generation: Int
}

/// The device states the service keeps in memory, by device.
///
/// A stateful decision reads its device's state and then caches the next one: ``find(_:)`` remembers where it found
/// the device, and a ``subscript(_:)`` assignment of a state for that same device right after replaces it there,
/// without hashing the device again. Any other change forgets that place first, so it is never used once the
/// table may have moved its entries.
struct DeviceStateCache {
    private var entries: [String: CachedState] = [:]
    /// Where ``find(_:)`` last found a device; valid until the next change of `entries`.
    private var found: (device: String, index: Dictionary<String, CachedState>.Index)?

    var count: Int { entries.count }

    /// The state cached for `device`, remembering where it is for a ``subscript(_:)`` assignment that follows.
    mutating func find(_ device: String) -> CachedState? {
        guard let index = entries.index(forKey: device) else {
            found = nil
            return nil
        }
        found = (device, index)
        return entries.values[index]
    }

    func contains(_ device: String) -> Bool { entries.index(forKey: device) != nil }

    /// The state cached for `device`; assigning `nil` forgets it.
    subscript(device: String) -> CachedState? {
        get { entries[device] }
        set {
            if let newValue, let place = found, place.device == device {
                entries.values[place.index] = newValue  // the same entry, replaced where it is
                return
            }
            found = nil
            entries[device] = newValue
        }
    }

    mutating func removeAll() {
        found = nil
        entries.removeAll(keepingCapacity: true)
    }
}
