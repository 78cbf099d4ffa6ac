import DeepLink
import JSON

/// A device's state as one resolver holds it: its coordinators by their index in that resolver's graph.
///
/// What a daemon keeps for a device between two decisions. The next
/// ``Resolver/resolve(_:from:now:outcome:metadata:explain:)`` on the same resolver starts from it as it is, without
/// looking each coordinator's name up again; its JSON (``writeJSON(into:)``) is the same text as its
/// ``DeviceState``'s, written from the indices. A class: handed from the thread that resolves to the one that
/// stores, it is shared rather than copied part by part.
public final class ResolvedState: Sendable, JSONWritable {
    /// The state, coordinators by index.
    let navigation: NavigationState
    /// The resolver whose graph numbers the state's coordinators.
    public let resolver: Resolver

    /// `navigation` as `resolver` numbers it. The state it was read from is not kept (a cached state holds its parts
    /// once).
    init(navigation: consuming NavigationState, resolver: Resolver) {
        navigation.source = nil
        self.navigation = consume navigation
        self.resolver = resolver
    }

    /// The state by name.
    public var state: DeviceState { resolver.deviceState(navigation) }

    /// The page waiting for a gate, if any.
    public var pending: Pending? { navigation.pending }

    /// The text of ``DeviceState/json`` for ``state``: `tabs` and `stacks` in the order of their coordinators'
    /// names.
    public func writeJSON(into out: inout ByteWriter) {
        resolver.writeJSON(navigation, into: &out)
    }
}

extension Resolver {
    /// `state` as this resolver holds it.
    public func resolved(_ state: DeviceState) -> ResolvedState {
        ResolvedState(navigation: navigationState(state), resolver: self)
    }

    /// Writes the JSON of `state` named, the same bytes as ``DeviceState/writeJSON(into:)`` of
    /// ``deviceState(_:)``, without building the state's arrays and dictionaries.
    func writeJSON(_ state: NavigationState, into out: inout ByteWriter) {
        JSON.writeRaw("{\"path\":", into: &out)
        writeNames(state.path, of: state, into: &out)
        JSON.writeRaw(",\"started\":", into: &out)
        writeNames(state.started, of: state, into: &out)
        JSON.writeRaw(",\"tabs\":{", into: &out)
        let tabOrder = nameOrder(state.tabs, of: state) { $0.coordinator }
        for i in state.tabs.indices {
            let entry = state.tabs[tabOrder?[i] ?? i]
            if i > 0 { out.append(UInt8(ascii: ",")) }
            writeName(entry.coordinator, of: state, into: &out)
            out.append(UInt8(ascii: ":"))
            writeName(entry.child, of: state, into: &out)
        }
        JSON.writeRaw("},\"stacks\":{", into: &out)
        let stackOrder = nameOrder(state.stacks, of: state) { $0.coordinator }
        for i in state.stacks.indices {
            let entry = state.stacks[stackOrder?[i] ?? i]
            if i > 0 { out.append(UInt8(ascii: ",")) }
            writeName(entry.coordinator, of: state, into: &out)
            JSON.writeRaw(":[", into: &out)
            for (j, page) in entry.pages.enumerated() {
                if j > 0 { out.append(UInt8(ascii: ",")) }
                page.writeJSON(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        JSON.writeRaw("},\"conditions\":", into: &out)
        Decision.writeStrings(state.conditions, into: &out)
        JSON.writeRaw(",\"pending\":", into: &out)
        if let pending = state.pending { pending.writeJSON(into: &out) } else { JSON.writeRaw("null", into: &out) }
        out.append(UInt8(ascii: "}"))
    }

    /// Writes the names of `indices` as a JSON array.
    private func writeNames(_ indices: IndexList, of state: NavigationState, into out: inout ByteWriter) {
        out.append(UInt8(ascii: "["))
        for (i, index) in indices.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            writeName(index, of: state, into: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// Writes the name at `index` as a JSON string: a coordinator's escaped once, with the resolver.
    private func writeName(_ index: Int, of state: NavigationState, into out: inout ByteWriter) {
        guard index < names.count else {
            JSON.writeString(name(index, in: state), into: &out)
            return
        }
        out.append(UInt8(ascii: "\""))
        escapedNames.write(index, into: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// The positions of `entries` sorted by the name of their coordinator; `nil` for the order they are in (no array
    /// built) when there is at most one, as most states have.
    private func nameOrder<Entries: RandomAccessCollection<Entry>, Entry>(
        _ entries: Entries, of state: NavigationState, _ coordinator: (Entry) -> Int
    ) -> [Int]? where Entries.Index == Int {
        guard entries.count > 1 else { return nil }
        return entries.indices.sorted {
            name(coordinator(entries[$0]), in: state) < name(coordinator(entries[$1]), in: state)
        }
    }
}
