import Glibc

/// Where the decision history lies: the tables it rotates through, and the sequence numbers still in it.
///
/// Each stored decision takes the next sequence number, which is its rowid in the table that holds it. A table takes
/// decisions until it holds ``capacity`` of them; the history then moves on to the next table in turn, emptied first
/// once every decision in it has left the history. SQLite empties a table by its pages (a `DELETE` without a
/// condition), where deleting the oldest rows one by one cost ≈ 10 k instructions per decision: its rows, its id index
/// entries, and the pages merged as they emptied. With five tables of a quarter of the limit each, the four newest
/// hold the whole history by the time the fifth is emptied: the file holds five quarters of the limit at most.
///
/// The history is the newest `limit` sequence numbers, from ``first``: a decision leaves it in the commit that
/// stores the decision that pushes it out, and every query reads from ``first`` on. `first` is stored
/// (`history_bounds`), so a larger limit after a restart does not bring back decisions that had left. Sequence
/// numbers have no gaps: a decision takes one only when it is stored, and a rolled-back batch gives its back.
///
/// A decision whose id is stored already, in any of the tables (in the history, or left it and not emptied yet), is
/// not stored again; the tables' own keys see to it in the table that takes it, and the others are looked at only
/// for an id no greater than ``greatestID``.
struct HistorySegments {
    /// The sequence numbers a table holds, `first...last`; empty when `last < first`.
    struct Segment: Equatable {
        var first: Int64
        var last: Int64

        static let empty = Segment(first: 1, last: 0)

        var isEmpty: Bool { last < first }
        var count: Int { isEmpty ? 0 : Int(last - first + 1) }
    }

    /// The tables, by their number (``StoreSchema/segment(_:)``).
    private(set) var segments: [Segment]
    /// The table that took the newest decision.
    private(set) var current: Int
    /// The next decision's sequence number.
    private(set) var next: Int64
    /// The oldest sequence number in the history.
    private(set) var first: Int64
    /// The most decisions in the history.
    let limit: Int
    /// The greatest id stored: a decision whose id is greater (as each decision of a daemon is) cannot be stored
    /// already, in any table.
    var greatestID: String?

    /// Decisions a table takes before the history moves on to the next one.
    var capacity: Int { max(1, (limit + segments.count - 2) / (segments.count - 1)) }

    /// Decisions in the history.
    var count: Int { Int(next - first) }

    /// The history of `limit` decisions over tables holding `segments`; `storedFirst` is the oldest sequence number
    /// kept when it was last stored.
    init(segments: [Segment], storedFirst: Int64, limit: Int, greatestID: String? = nil) {
        precondition(segments.count >= 2, "the history rotates through two tables at least")
        self.segments = segments
        self.limit = max(0, limit)
        self.greatestID = greatestID
        let newest = segments.indices.filter { !segments[$0].isEmpty }.max { segments[$0].last < segments[$1].last }
        current = newest ?? 0
        next = max(newest.map { segments[$0].last + 1 } ?? 1, storedFirst, 1)
        first = min(next, max(storedFirst, next - Int64(self.limit), 1))
    }

    /// The table that takes the next decision, and whether it must be emptied first (every decision in it has left
    /// the history by then). Call ``stored(in:)`` once the decision is in.
    mutating func tableForNext() -> (table: Int, clear: Bool) {
        guard segments[current].count >= capacity else { return (current, false) }
        let candidate = (current + 1) % segments.count
        if segments[candidate].isEmpty {
            current = candidate
            return (candidate, false)
        }
        // Once the next decision is in, the history starts here.
        let firstThen = max(first, next + 1 - Int64(limit))
        guard segments[candidate].last < firstThen else {
            // Still part of the history (a limit raised since it was filled): this table goes on taking decisions.
            return (current, false)
        }
        segments[candidate] = .empty
        current = candidate
        return (candidate, true)
    }

    /// The next decision was stored in table `k`, with sequence number ``next``; `greatestID` is its id when that is
    /// greater than every id stored before.
    mutating func stored(in k: Int, greatestID id: String? = nil) {
        if let id { greatestID = id }
        if segments[k].isEmpty {
            segments[k] = Segment(first: next, last: next)
        } else {
            segments[k].last = next
        }
        next += 1
    }

    /// True when `a`'s UTF-8 sorts before `b`'s byte by byte, as SQLite orders ids (`memcmp`, no copy of either).
    static func precedes(_ a: String, _ b: String) -> Bool {
        var (a, b) = (a, b)  // contiguous already (ids are native strings): `withUTF8` copies neither
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, common)
                return order < 0 || (order == 0 && x.count < y.count)
            }
        }
    }

    /// Moves ``first`` on so that the history holds `limit` decisions at most; true when it moved.
    mutating func trim() -> Bool {
        guard count > limit else { return false }
        first = next - Int64(limit)
        return true
    }

    /// The table holding sequence number `seq`, if any does.
    func table(holding seq: Int64) -> Int? {
        segments.indices.first { segments[$0].first <= seq && seq <= segments[$0].last }
    }

    /// The tables holding decisions, newest first.
    var newestFirst: [Int] {
        segments.indices.filter { !segments[$0].isEmpty }.sorted { segments[$0].last > segments[$1].last }
    }
}
