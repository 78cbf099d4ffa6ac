import CoordinatorGraph
import Glibc
import JSON

/// The latest decisions in memory (dry runs, and everything when there is no state directory), as their text:
/// parsed only when someone asks for them.
///
/// The texts are copied, one after another, into one buffer used as a ring, and each decision's id and place are
/// kept in a ring of ``capacity`` slots (an id is kept as its bits, not written out: ``DecisionID``). A decision
/// made replaces the oldest of the newest ``capacity`` with a copy written after the last one, instead of keeping the reply's own text: a kept text lived for thousands of
/// decisions, so each decision freed a block that had left the caches, and the next reply was written into it
/// (one loop answered 10% more dry runs with 64 texts kept than with 4,096; the ring, keeping 4,096, 5% more). The
/// buffer starts small and doubles (rarely) when the newest ``capacity`` decisions do not fit in it, so none is
/// dropped before its time; it halves again once they fill less than a quarter of it (after a run of large
/// decisions, say with long traces), so memory comes back.
struct RecentDecisions {
    /// A kept decision, as the history reads it.
    struct Entry {
        let id: String
        let device: String?
        let text: JSONText
    }

    /// A kept decision's id, and where its text is in the buffer.
    private struct Slot {
        var id: DecisionID
        var start: Int
        var textLength: Int
        var device: String?

        var end: Int { start &+ textLength }
    }

    /// How many decisions the daemon keeps in memory: with lanes, the loops share them (``capacity(ofLoops:)``).
    static let defaultCapacity = 4096

    /// How many each of `loops` event loops keeps: together, ``defaultCapacity`` (and the memory of one history).
    static func capacity(ofLoops loops: Int) -> Int {
        max(1, (defaultCapacity + loops - 1) / max(loops, 1))
    }

    /// How many decisions are kept.
    let capacity: Int
    private var slots: [Slot] = []
    /// The slot the next decision takes, once ``slots`` is full.
    private var next = 0
    private var buffer: [UInt8]
    /// Where the next decision's bytes go.
    private var tail = 0
    /// The bytes of the decisions kept.
    private var keptBytes = 0
    /// The buffer's size at the start, below which it does not shrink.
    private let minimumBytes: Int

    /// The buffer's size.
    var bufferBytes: Int { buffer.count }

    init(capacity: Int, bufferBytes: Int = 1 << 16) {
        precondition(capacity > 0, "a history keeps at least one decision")
        self.capacity = capacity
        minimumBytes = max(bufferBytes, 64)
        buffer = [UInt8](repeating: 0, count: minimumBytes)
        slots.reserveCapacity(capacity)
    }

    /// Keeps the decision's id and a copy of its text, dropping the oldest when ``capacity`` are kept.
    mutating func append(id: DecisionID, device: String?, text: JSONText) {
        text.bytes.withUnsafeBufferPointer { append(id: id, device: device, text: $0) }
    }

    /// Keeps the decision's id and a copy of its text (the bytes of `text`), dropping the oldest when ``capacity``
    /// are kept.
    mutating func append(id: DecisionID, device: String?, text textBytes: UnsafeBufferPointer<UInt8>) {
        let start = place(textBytes.count)
        buffer.withUnsafeMutableBufferPointer { all in
            if let source = textBytes.baseAddress {
                (all.baseAddress! + start).update(from: source, count: textBytes.count)
            }
        }
        let slot = Slot(id: id, start: start, textLength: textBytes.count, device: device)
        if slots.count < capacity {
            slots.append(slot)
        } else {
            keptBytes &-= slots[next].end &- slots[next].start
            slots[next] = slot
        }
        keptBytes &+= slot.end &- start
        tail = slot.end
        next = next &+ 1 == capacity ? 0 : next &+ 1
        if buffer.count > minimumBytes, keptBytes &* 4 < buffer.count {
            repack(into: max(minimumBytes, keptBytes * 2))
        }
    }

    /// Where `length` bytes go: after the newest decision, or at the start of the buffer when they do not fit
    /// before its end, provided they stay clear of the oldest decision still kept after this one (the decisions lie
    /// in the buffer in the order they were made, so the room left is what lies between the newest and that one).
    /// Grows the buffer first when they do not.
    private mutating func place(_ length: Int) -> Int {
        while true {
            // The oldest decision kept once this one is: the second oldest when this one replaces the oldest.
            let survivor: Int? =
                slots.count < capacity ? (slots.isEmpty ? nil : 0) : (capacity == 1 ? nil : (next &+ 1) % capacity)
            // Every slot is copied by a repack, the one this decision replaces too: room for it and `length` more.
            let larger = max(buffer.count * 2, keptBytes + length + 64)
            guard let survivor else {
                if length <= buffer.count { return 0 }
                repack(into: larger)
                continue
            }
            let oldest = slots[survivor].start
            if oldest >= tail {
                // Kept: from `oldest` up to the buffer's end, and from its start up to `tail`.
                if tail &+ length <= oldest { return tail }
            } else {
                // Kept: from `oldest` up to `tail`.
                if tail &+ length <= buffer.count { return tail }
                if length <= oldest { return 0 }
            }
            repack(into: larger)
        }
    }

    /// Copies the decisions of every slot, oldest first, to the start of a buffer of `size` bytes, which holds
    /// them.
    private mutating func repack(into size: Int) {
        var at = 0
        let resized = [UInt8](unsafeUninitializedCapacity: size) { target, initialized in
            buffer.withUnsafeBufferPointer { source in
                for i in oldestFirstIndices() {
                    let slot = slots[i]
                    let count = slot.end - slot.start
                    (target.baseAddress! + at).initialize(from: source.baseAddress! + slot.start, count: count)
                    slots[i].start = at
                    at += count
                }
            }
            memset(target.baseAddress! + at, 0, size - at)  // one call, where an array of zeros fills byte by byte
            initialized = size
        }
        buffer = resized
        tail = at
    }

    /// The slots' indices, oldest decision first.
    private func oldestFirstIndices() -> [Int] {
        guard slots.count == capacity else { return Array(slots.indices) }
        return Array(next..<capacity) + Array(0..<next)
    }

    private func entry(_ slot: Slot) -> Entry {
        Entry(
            id: slot.id.description, device: slot.device,
            text: JSONText(bytes: Array(buffer[slot.start..<slot.end])))
    }

    /// Newest first.
    func newestFirst() -> [Entry] {
        oldestFirstIndices().reversed().map { entry(slots[$0]) }
    }

    func find(id: String) -> Entry? {
        let wanted = DecisionID(id)
        for i in oldestFirstIndices().reversed() where slots[i].id == wanted {
            return entry(slots[i])
        }
        return nil
    }
}
